import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """linear (bf16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2048, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        return x


batch_size = 786432


def get_inputs():
    return [torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
