import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """MLP block with no norm and a residual (fp32).

    Ops: linear, silu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1024, 4096)
        self.fc2 = nn.Linear(4096, 1024)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.fc2(F.silu(self.fc1(h)))
        x = x + h
        return x


batch_size = 11


def get_inputs():
    return [torch.randn(batch_size, 512, 1024, dtype=dtype)]


def get_init_inputs():
    return []
