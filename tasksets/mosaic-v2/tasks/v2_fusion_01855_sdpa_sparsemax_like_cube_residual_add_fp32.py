import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: sdpa, sparsemax_like, cube, residual_add
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 2, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        r = x
        x = torch.relu(x - x.mean(dim=-1, keepdim=True)) / x.shape[-1]
        x = x * x * x
        x = x + r
        return x


batch_size = 5415


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
