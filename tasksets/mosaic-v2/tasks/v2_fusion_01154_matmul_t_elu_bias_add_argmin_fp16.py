import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, elu, bias_add, argmin
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 2048) * 0.0221)
        self.bias = nn.Parameter(torch.randn(1024,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.elu(x, alpha=2.8)
        x = x + self.bias
        x = torch.argmin(x, dim=-1)
        return x


batch_size = 1222


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
