import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """MLP block with layer_norm and a residual (fp32).

    Ops: layer_norm, linear, silu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(2048)
        self.fc1 = nn.Linear(2048, 8192)
        self.fc2 = nn.Linear(8192, 2048)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.norm(h)
        h = self.fc2(F.silu(self.fc1(h)))
        x = x + h
        return x


batch_size = 9


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype)]


def get_init_inputs():
    return []
