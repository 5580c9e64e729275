import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: sdpa, frac_sin, reduce_mean, bias_add
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(512,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        q = x.view(x.shape[0], x.shape[1], 4, 128).transpose(1, 2)
        x = F.scaled_dot_product_attention(q, q, q, is_causal=False)
        x = x.transpose(1, 2).reshape(x.shape[0], -1, 512)
        x = torch.sin(0.54 * x) * x
        x = torch.mean(x, dim=1)
        x = x + self.bias
        return x


batch_size = 2021


def get_inputs():
    return [torch.randn(batch_size, 128, 512, dtype=dtype)]


def get_init_inputs():
    return []
