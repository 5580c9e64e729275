import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv1d_dilated, square, hardshrink, softsign, cube, relu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 256, kernel_size=5, stride=1, padding=4, dilation=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x * x
        x = F.hardshrink(x, lambd=0.47)
        x = F.softsign(x)
        x = x * x * x
        x = torch.relu(x)
        return x


batch_size = 1311


def get_inputs():
    return [torch.randn(batch_size, 32, 1024, dtype=dtype)]


def get_init_inputs():
    return []
