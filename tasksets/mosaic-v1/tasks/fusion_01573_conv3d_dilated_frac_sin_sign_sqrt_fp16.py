import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv3d_dilated -> frac_sin -> sign_sqrt (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 16, kernel_size=3, stride=1, padding=2, dilation=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.sin(1.22 * x) * x
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 197


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
