import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa_causal, sparsemax_like, scale, softmin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 64).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 512)
        x = torch.relu(x - x.mean(dim=-1, keepdim=True)) / x.shape[-1]
        x = x * 2.1
        x = F.softmin(x, dim=-1)
        return x


batch_size = 20


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype)]


def get_init_inputs():
    return []
