import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa, scan_logcumsumexp, channel_scale, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(256,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 32).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        x = torch.logcumsumexp(x, dim=2)
        x = x * self.scale
        x = torch.mean(x.abs(), dim=2)
        return x


batch_size = 1790


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
