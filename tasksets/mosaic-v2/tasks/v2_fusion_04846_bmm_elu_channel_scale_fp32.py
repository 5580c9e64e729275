import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, elu, channel_scale
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(64,) + 0.5)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.elu(x, alpha=1.55)
        x = x * self.scale
        return x


batch_size = 372


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype), torch.randn(batch_size, 2048, 64, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
