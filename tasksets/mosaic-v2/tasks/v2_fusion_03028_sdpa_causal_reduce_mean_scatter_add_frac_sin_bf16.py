import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sdpa_causal, reduce_mean, scatter_add, frac_sin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        q = x.view(x.shape[0], x.shape[1], 16, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 2048)
        x = torch.mean(x, dim=1)
        x = torch.zeros(x.shape[0], 1024, dtype=x.dtype, device=x.device).scatter_add_(1, idx, x)
        x = torch.sin(2.27 * x) * x
        return x


batch_size = 1289


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype), torch.randint(0, 1024, (batch_size, 2048))]


def get_init_inputs():
    return []
