import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp32).

    Ops: sdpa, shift, sin, sigmoid_gate
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 4, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 512)
        r = x
        x = x + 0.1
        x = torch.sin(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 66


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
