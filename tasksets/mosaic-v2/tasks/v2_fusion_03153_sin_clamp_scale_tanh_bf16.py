import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: sin, clamp, scale, tanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.sin(x)
        x = torch.clamp(x, min=-0.62, max=0.62)
        x = x * 0.94
        x = torch.tanh(x)
        return x


batch_size = 9363


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
