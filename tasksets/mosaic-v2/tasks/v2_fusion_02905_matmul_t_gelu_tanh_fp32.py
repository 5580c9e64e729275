import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, gelu_tanh
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2048, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 680


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
