import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """MLP block with layer_norm and a residual (fp32).

    Ops: layer_norm, linear, gelu, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(768)
        self.fc1 = nn.Linear(768, 3072)
        self.fc2 = nn.Linear(3072, 768)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.norm(h)
        h = self.fc2(F.gelu(self.fc1(h)))
        x = x + h
        return x


batch_size = 70


def get_inputs():
    return [torch.randn(batch_size, 256, 768, dtype=dtype)]


def get_init_inputs():
    return []
