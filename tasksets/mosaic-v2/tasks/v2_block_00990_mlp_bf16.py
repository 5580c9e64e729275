import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """MLP block with layer_norm and a residual (bf16).

    Ops: layer_norm, linear, gelu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(1024)
        self.fc1 = nn.Linear(1024, 2048)
        self.fc2 = nn.Linear(2048, 1024)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.norm(h)
        h = self.fc2(F.gelu(self.fc1(h)))
        x = x + h
        return x


batch_size = 1384


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
