import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, tanhshrink, reduce_amax, softshrink, hardsigmoid, celu
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.tanhshrink(x)
        x = torch.amax(x, dim=1)
        x = F.softshrink(x, lambd=0.23)
        x = F.hardsigmoid(x)
        x = F.celu(x, alpha=1.27)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
