import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_amin
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.amin(x, dim=1)
        return x


batch_size = 101


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype)]


def get_init_inputs():
    return []
