import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv2d -> tanh -> reduce_std -> elu -> hardsigmoid (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 16, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.tanh(x)
        x = torch.std(x, dim=1)
        x = F.elu(x, alpha=1.77)
        x = F.hardsigmoid(x)
        return x


batch_size = 12288


def get_inputs():
    return [torch.randn(batch_size, 128, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
