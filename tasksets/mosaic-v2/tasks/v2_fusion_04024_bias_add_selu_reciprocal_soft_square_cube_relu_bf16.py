import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bias_add, selu, reciprocal_soft, square, cube, relu
    """

    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(768,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = x + self.bias
        x = F.selu(x)
        x = 1.0 / (1.0 + x.abs())
        x = x * x
        x = x * x * x
        x = torch.relu(x)
        return x


batch_size = 202


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
