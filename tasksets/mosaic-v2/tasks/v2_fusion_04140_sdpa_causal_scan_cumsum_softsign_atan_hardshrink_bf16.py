import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (bf16).

    Ops: sdpa_causal, scan_cumsum, softsign, atan, hardshrink, atan, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 16, 16).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        r = x
        x = torch.cumsum(x, dim=2)
        x = F.softsign(x)
        x = torch.atan(x)
        x = F.hardshrink(x, lambd=0.5)
        x = torch.atan(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 9808


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
