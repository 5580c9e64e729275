import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, erf, tanhshrink, reduce_std, reduce_mean, sin
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.erf(x)
        x = F.tanhshrink(x)
        x = torch.std(x, dim=2)
        x = torch.mean(x, dim=1)
        x = torch.sin(x)
        return x


batch_size = 27


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
