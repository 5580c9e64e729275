import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa, sort, hardswish, reduce_mean_abs, scan_logcumsumexp
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 16).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        x = torch.sort(x, dim=-1, descending=True).values
        x = F.hardswish(x)
        x = torch.mean(x.abs(), dim=1)
        x = torch.logcumsumexp(x, dim=1)
        return x


batch_size = 24


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
