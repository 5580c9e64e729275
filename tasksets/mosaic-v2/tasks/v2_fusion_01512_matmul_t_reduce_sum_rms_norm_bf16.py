import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, reduce_sum, rms_norm
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 256) * 0.0625)
        self.rms_weight = nn.Parameter(torch.ones(256) + 0.1 * torch.randn(256))
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.sum(x, dim=1)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        return x


batch_size = 3249


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
