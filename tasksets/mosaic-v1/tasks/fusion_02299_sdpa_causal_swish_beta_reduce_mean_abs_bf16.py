import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """sdpa_causal -> swish_beta -> reduce_mean_abs (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 2048)
        x = x * torch.sigmoid(1.26 * x)
        x = torch.mean(x.abs(), dim=2)
        return x


batch_size = 33


def get_inputs():
    return [torch.randn(batch_size, 2048, 2048, dtype=dtype)]


def get_init_inputs():
    return []
