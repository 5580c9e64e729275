import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, binary_max, channel_scale, reduce_amin
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4096, 2048, bias=False)
        self.scale = nn.Parameter(torch.rand(2048,) + 0.5)
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        x = torch.maximum(x, y)
        x = x * self.scale
        x = torch.amin(x, dim=1)
        return x


batch_size = 209827


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype), torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
