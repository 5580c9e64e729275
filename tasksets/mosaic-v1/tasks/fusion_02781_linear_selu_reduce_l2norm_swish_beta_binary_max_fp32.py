import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """linear -> selu -> reduce_l2norm -> swish_beta -> binary_max (fp32)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 4096, bias=True)
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        x = F.selu(x)
        x = torch.linalg.vector_norm(x, dim=2)
        x = x * torch.sigmoid(0.68 * x)
        x = torch.maximum(x, y)
        return x


batch_size = 111


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype), torch.randn(batch_size, 256, dtype=dtype)]


def get_init_inputs():
    return []
