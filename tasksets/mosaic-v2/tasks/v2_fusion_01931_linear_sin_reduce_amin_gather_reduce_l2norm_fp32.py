import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, sin, reduce_amin, gather, reduce_l2norm
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024, bias=True)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.fc(x)
        x = torch.sin(x)
        x = torch.amin(x, dim=1)
        x = torch.gather(x, 1, idx)
        x = torch.linalg.vector_norm(x, dim=1)
        return x


batch_size = 585


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype), torch.randint(0, 1024, (batch_size, 512))]


def get_init_inputs():
    return []
