import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sdpa, gelu, hardtanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 1024)
        x = F.gelu(x)
        x = F.hardtanh(x, min_val=-2.28, max_val=2.28)
        return x


batch_size = 356


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
