import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """linear -> cos -> mish -> binary_min -> hardsigmoid (bf16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(768, 4096, bias=True)
        self.to(dtype)

    def forward(self, x, y):
        x = self.fc(x)
        x = torch.cos(x)
        x = F.mish(x)
        x = torch.minimum(x, y)
        x = F.hardsigmoid(x)
        return x


batch_size = 20


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype), torch.randn(batch_size, 2048, 4096, dtype=dtype)]


def get_init_inputs():
    return []
