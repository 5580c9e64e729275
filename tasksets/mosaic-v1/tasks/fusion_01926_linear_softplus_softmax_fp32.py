import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """linear -> softplus -> softmax (fp32)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.softplus(x, beta=2.75)
        x = torch.softmax(x, dim=-1)
        return x


batch_size = 372


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
