import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, softshrink, mish, silu
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 512) * 0.04419)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.softshrink(x, lambd=0.43)
        x = F.mish(x)
        x = F.silu(x)
        return x


batch_size = 1257


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
