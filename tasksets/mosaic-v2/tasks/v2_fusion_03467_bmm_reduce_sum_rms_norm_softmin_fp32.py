import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, reduce_sum, rms_norm, softmin
    """

    def __init__(self):
        super().__init__()
        self.rms_weight = nn.Parameter(torch.ones(512) + 0.1 * torch.randn(512))
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.sum(x, dim=1)
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.rms_weight
        x = F.softmin(x, dim=-1)
        return x


batch_size = 59


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype), torch.randn(batch_size, 1024, 512, dtype=dtype) / 32]


def get_init_inputs():
    return []
