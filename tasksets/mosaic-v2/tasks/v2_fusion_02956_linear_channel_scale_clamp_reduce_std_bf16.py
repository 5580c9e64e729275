import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, channel_scale, clamp, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 4096, bias=False)
        self.scale = nn.Parameter(torch.rand(4096,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * self.scale
        x = torch.clamp(x, min=-1.32, max=1.32)
        x = torch.std(x, dim=1)
        return x


batch_size = 269210


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
