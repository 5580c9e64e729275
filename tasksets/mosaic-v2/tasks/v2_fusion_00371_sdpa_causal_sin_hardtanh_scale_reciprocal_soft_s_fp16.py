import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: sdpa_causal, sin, hardtanh, scale, reciprocal_soft, softplus, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 8, 32).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 256)
        r = x
        x = torch.sin(x)
        x = F.hardtanh(x, min_val=-1.57, max_val=1.57)
        x = x * 1.47
        x = 1.0 / (1.0 + x.abs())
        x = F.softplus(x, beta=2.09)
        x = x * torch.sigmoid(r)
        return x


batch_size = 857


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
