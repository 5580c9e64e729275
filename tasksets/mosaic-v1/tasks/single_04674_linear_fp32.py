import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """linear (fp32)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 4096, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.fc(x)
        return x


batch_size = 53


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
