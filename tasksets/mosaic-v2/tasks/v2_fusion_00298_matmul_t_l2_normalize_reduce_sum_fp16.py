import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, l2_normalize, reduce_sum
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.sum(x, dim=2)
        return x


batch_size = 499


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
