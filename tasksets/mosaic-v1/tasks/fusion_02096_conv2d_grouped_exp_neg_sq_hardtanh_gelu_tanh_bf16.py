import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv2d_grouped -> exp_neg_sq -> hardtanh -> gelu_tanh (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 128, kernel_size=3, stride=1, padding=1, groups=8)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.exp(-x * x)
        x = F.hardtanh(x, min_val=-2.53, max_val=2.53)
        x = F.gelu(x, approximate='tanh')
        return x


batch_size = 1831


def get_inputs():
    return [torch.randn(batch_size, 16, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
