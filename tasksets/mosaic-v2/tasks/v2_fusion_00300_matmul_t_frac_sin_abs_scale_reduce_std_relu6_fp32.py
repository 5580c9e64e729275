import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, frac_sin, abs, scale, reduce_std, relu6
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sin(1.52 * x) * x
        x = torch.abs(x)
        x = x * 1.02
        x = torch.std(x, dim=2)
        x = F.relu6(x)
        return x


batch_size = 7


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
