import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, bias_add, softsign, binary_add, atan, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 1024) * 0.03125)
        self.bias = nn.Parameter(torch.randn(256,) * 0.02)
        self.to(dtype)

    def forward(self, x, y):
        x = torch.matmul(x, self.weight.t())
        x = x + self.bias
        x = F.softsign(x)
        x = x + y
        x = torch.atan(x)
        x = x.masked_fill(x < 0.09, 0.0)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype), torch.randn(batch_size, 256, dtype=dtype)]


def get_init_inputs():
    return []
