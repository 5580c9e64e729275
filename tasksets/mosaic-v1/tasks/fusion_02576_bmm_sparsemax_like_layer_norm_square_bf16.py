import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """bmm -> sparsemax_like -> layer_norm -> square (bf16)."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(256, eps=1e-6)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.relu(x - x.mean(dim=-1, keepdim=True)) / x.shape[-1]
        x = self.ln(x)
        x = x * x
        return x


batch_size = 3437


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16]


def get_init_inputs():
    return []
