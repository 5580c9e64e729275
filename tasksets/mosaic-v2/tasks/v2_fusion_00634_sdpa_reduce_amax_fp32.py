import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa, reduce_amax
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 16).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        x = torch.amax(x, dim=1)
        return x


batch_size = 12


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype)]


def get_init_inputs():
    return []
