import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa_causal, l2_normalize, softmax_temp, scan_cumsum
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 64).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 1024)
        x = F.normalize(x, p=2.0, dim=-1)
        x = torch.softmax(x / 1.72, dim=-1)
        x = torch.cumsum(x, dim=2)
        return x


batch_size = 33


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
