import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, sin, relu6, erf, softshrink
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 32768) * 0.005524)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sin(x)
        x = F.relu6(x)
        x = torch.erf(x)
        x = F.softshrink(x, lambd=0.55)
        return x


batch_size = 24576


def get_inputs():
    return [torch.randn(batch_size, 32768, dtype=dtype)]


def get_init_inputs():
    return []
