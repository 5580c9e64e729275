import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Pre-norm transformer block, causal (bf16).

    Ops: layer_norm, linear, sdpa, linear, add, layer_norm, linear, silu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(1024)
        self.qkv = nn.Linear(1024, 3072)
        self.proj = nn.Linear(1024, 1024)
        self.norm2 = nn.LayerNorm(1024)
        self.fc1 = nn.Linear(1024, 4096)
        self.fc2 = nn.Linear(4096, 1024)
        self.to(dtype)

    def forward(self, x):
        b, t, d = x.shape
        h = self.norm1(x)
        q, k, v = self.qkv(h).view(b, t, 3, 4, d // 4).permute(2, 0, 3, 1, 4)
        h = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(h.transpose(1, 2).reshape(b, t, d))
        x = x + self.fc2(F.silu(self.fc1(self.norm2(x))))
        return x


batch_size = 33


def get_inputs():
    return [torch.randn(batch_size, 1024, 1024, dtype=dtype)]


def get_init_inputs():
    return []
