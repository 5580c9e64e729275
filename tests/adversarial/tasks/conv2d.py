import torch
import torch.nn as nn


class Model(nn.Module):
    """y = conv2d(x, w): 3x3, no padding, no bias. Inputs and weights are small integers, so every
    convolution algorithm (TF32 tensor cores or FP32, any summation order) gives the same exact
    sums: a candidate that calls another library is judged on where it computed, not on rounding."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randint(-3, 4, (out_channels, in_channels, 3, 3)).float())

    def forward(self, x):
        return torch.nn.functional.conv2d(x, self.weight)


batch_size = 8
in_channels = 4
out_channels = 16
height = 32
width = 32


def get_inputs():
    return [torch.randint(-4, 5, (batch_size, in_channels, height, width)).float()]


def get_init_inputs():
    return []
