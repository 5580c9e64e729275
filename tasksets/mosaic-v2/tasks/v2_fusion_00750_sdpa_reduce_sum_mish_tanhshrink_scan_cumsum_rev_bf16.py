import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sdpa, reduce_sum, mish, tanhshrink, scan_cumsum_rev
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 1024)
        x = torch.sum(x, dim=1)
        x = F.mish(x)
        x = F.tanhshrink(x)
        x = torch.flip(torch.cumsum(torch.flip(x, [1]), dim=1), [1])
        return x


batch_size = 73


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
