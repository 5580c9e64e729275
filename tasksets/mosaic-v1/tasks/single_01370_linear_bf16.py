import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """linear (bf16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 1024, bias=True)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        return x


batch_size = 4884


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
