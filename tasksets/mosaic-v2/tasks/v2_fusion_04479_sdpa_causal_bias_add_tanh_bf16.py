import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sdpa_causal, bias_add, tanh
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(1024,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 64).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 1024)
        x = x + self.bias
        x = torch.tanh(x)
        return x


batch_size = 2183


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
