import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, sqrt_abs, softshrink, scan_cummax, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.sqrt(x.abs() + 0.33)
        x = F.softshrink(x, lambd=0.48)
        x = torch.cummax(x, dim=1).values
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 248943


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
