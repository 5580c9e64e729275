import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """conv3d -> mish -> gelu -> exp_neg_sq (bf16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(32, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        x = F.gelu(x)
        x = torch.exp(-x * x)
        return x


batch_size = 1640


def get_inputs():
    return [torch.randn(batch_size, 32, 8, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
