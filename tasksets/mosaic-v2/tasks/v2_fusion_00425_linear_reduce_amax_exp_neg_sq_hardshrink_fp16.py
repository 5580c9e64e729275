import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: linear, reduce_amax, exp_neg_sq, hardshrink
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16384, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = torch.amax(x, dim=1)
        x = torch.exp(-x * x)
        x = F.hardshrink(x, lambd=0.13)
        return x


batch_size = 98304


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
