import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softmax_temp, softmin, sqrt_abs, cos
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.softmax(x / 0.63, dim=-1)
        x = F.softmin(x, dim=-1)
        x = torch.sqrt(x.abs() + 0.16)
        x = torch.cos(x)
        return x


batch_size = 363


def get_inputs():
    return [torch.randn(batch_size, 1024, 512, dtype=dtype), torch.randn(batch_size, 512, 128, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
