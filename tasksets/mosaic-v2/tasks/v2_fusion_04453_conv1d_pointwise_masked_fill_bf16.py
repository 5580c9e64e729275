import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d_pointwise, masked_fill
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 16, kernel_size=1, stride=1, padding=0, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = x.masked_fill(x < 0.10, 0.0)
        return x


batch_size = 9902


def get_inputs():
    return [torch.randn(batch_size, 32, 4096, dtype=dtype)]


def get_init_inputs():
    return []
