import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """group_norm -> tanh -> softshrink -> abs (fp16)."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(16, 64)
        self.to(dtype)

    def forward(self, x):
        x = self.gn(x)
        x = torch.tanh(x)
        x = F.softshrink(x, lambd=0.11)
        x = torch.abs(x)
        return x


batch_size = 96


def get_inputs():
    return [torch.randn(batch_size, 64, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
