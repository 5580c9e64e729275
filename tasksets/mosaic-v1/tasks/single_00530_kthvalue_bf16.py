import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """kthvalue (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.kthvalue(x, 102, dim=-1).values
        return x


batch_size = 76914


def get_inputs():
    return [torch.randn(batch_size, 1024, dtype=dtype)]


def get_init_inputs():
    return []
