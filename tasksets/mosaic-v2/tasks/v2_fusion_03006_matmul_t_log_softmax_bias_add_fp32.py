import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, log_softmax, bias_add
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 256) * 0.0625)
        self.bias = nn.Parameter(torch.randn(256,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.log_softmax(x, dim=-1)
        x = x + self.bias
        return x


batch_size = 652


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype)]


def get_init_inputs():
    return []
