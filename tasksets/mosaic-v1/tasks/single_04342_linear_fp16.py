import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """linear (fp16)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype)]


def get_init_inputs():
    return []
