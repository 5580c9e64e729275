import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 512) * 0.04419)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.amax(x, dim=1)
        return x


batch_size = 1402


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
