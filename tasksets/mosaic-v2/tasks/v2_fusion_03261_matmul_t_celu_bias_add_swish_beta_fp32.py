import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, celu, bias_add, swish_beta
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 768) * 0.03608)
        self.bias = nn.Parameter(torch.randn(1024,) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.celu(x, alpha=1.47)
        x = x + self.bias
        x = x * torch.sigmoid(1.85 * x)
        return x


batch_size = 137


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
