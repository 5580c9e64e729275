import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, softshrink
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.softshrink(x, lambd=0.12)
        return x


batch_size = 89


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
