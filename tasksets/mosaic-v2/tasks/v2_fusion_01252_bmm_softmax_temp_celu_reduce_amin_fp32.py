import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, softmax_temp, celu, reduce_amin
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.softmax(x / 1.39, dim=-1)
        x = F.celu(x, alpha=1.87)
        x = torch.amin(x, dim=2)
        return x


batch_size = 532


def get_inputs():
    return [torch.randn(batch_size, 2048, 256, dtype=dtype), torch.randn(batch_size, 256, 128, dtype=dtype) / 16]


def get_init_inputs():
    return []
