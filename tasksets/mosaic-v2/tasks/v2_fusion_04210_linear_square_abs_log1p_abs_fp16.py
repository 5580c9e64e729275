import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, square, abs, log1p_abs
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 8192, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * x
        x = torch.abs(x)
        x = torch.log1p(x.abs())
        return x


batch_size = 37


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
