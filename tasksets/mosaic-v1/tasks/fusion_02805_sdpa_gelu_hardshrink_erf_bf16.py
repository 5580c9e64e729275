import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """sdpa -> gelu -> hardshrink -> erf (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 1024)
        x = F.gelu(x)
        x = F.hardshrink(x, lambd=0.08)
        x = torch.erf(x)
        return x


batch_size = 80


def get_inputs():
    return [torch.randn(batch_size, 2048, 1024, dtype=dtype)]


def get_init_inputs():
    return []
