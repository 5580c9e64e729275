import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, exp_neg_sq, rsqrt_sq, gelu_tanh, bias_add
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4096, 256) * 0.0625)
        self.bias = nn.Parameter(torch.randn(4096,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.exp(-x * x)
        x = torch.rsqrt(x * x + 1.0)
        x = F.gelu(x, approximate='tanh')
        x = x + self.bias
        return x


batch_size = 254


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
