import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, reduce_mean_abs, mish
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8192, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.mean(x.abs(), dim=1)
        x = F.mish(x)
        return x


batch_size = 196608


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype)]


def get_init_inputs():
    return []
