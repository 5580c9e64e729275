import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, clamp
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 768) * 0.03608)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.clamp(x, min=-2.73, max=2.73)
        return x


batch_size = 952


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
