import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, relu6, softplus, mish, reduce_var
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.relu6(x)
        x = F.softplus(x, beta=1.56)
        x = F.mish(x)
        x = torch.var(x, dim=1)
        return x


batch_size = 1124


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randn(batch_size, 768, 256, dtype=dtype) / 27.71]


def get_init_inputs():
    return []
