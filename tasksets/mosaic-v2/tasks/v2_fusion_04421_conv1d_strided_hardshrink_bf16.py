import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d_strided, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 256, kernel_size=3, stride=2, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardshrink(x, lambd=0.13)
        return x


batch_size = 3458


def get_inputs():
    return [torch.randn(batch_size, 8, 2048, dtype=dtype)]


def get_init_inputs():
    return []
