import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: linear, selu, channel_scale, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 512, bias=True)
        self.scale = nn.Parameter(torch.rand(512,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = F.selu(x)
        x = x * self.scale
        x = F.hardshrink(x, lambd=0.41)
        return x


batch_size = 299443


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
