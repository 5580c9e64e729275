import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """gram -> sign_sqrt -> leaky_relu -> log_softmax (bf16)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.leaky_relu(x, negative_slope=0.58)
        x = torch.log_softmax(x, dim=-1)
        return x


batch_size = 35


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
