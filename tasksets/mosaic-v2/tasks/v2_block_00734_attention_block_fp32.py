import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Pre-norm self-attention block (fp32).

    Ops: layer_norm, linear, sdpa, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(512)
        self.qkv = nn.Linear(512, 1536)
        self.proj = nn.Linear(512, 512)
        self.to(dtype)

    def forward(self, x):
        b, t, d = x.shape
        h = self.norm1(x)
        q, k, v = self.qkv(h).view(b, t, 3, 8, d // 8).permute(2, 0, 3, 1, 4)
        h = F.scaled_dot_product_attention(q, k, v, is_causal=False)
        x = x + self.proj(h.transpose(1, 2).reshape(b, t, d))
        return x


batch_size = 80


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
