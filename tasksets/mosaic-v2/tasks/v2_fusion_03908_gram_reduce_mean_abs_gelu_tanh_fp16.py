import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: gram, reduce_mean_abs, gelu_tanh
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = torch.mean(x.abs(), dim=2)
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
