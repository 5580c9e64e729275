import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: linear, square, reduce_sum
    """

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        x = x * x
        x = torch.sum(x, dim=2)
        return x


batch_size = 5218


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
