import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d_dilated -> exp_neg_sq -> selu -> group_norm -> logsigmoid (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 32, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.gn = nn.GroupNorm(8, 32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.exp(-x * x)
        x = F.selu(x)
        x = self.gn(x)
        x = F.logsigmoid(x)
        return x


batch_size = 271


def get_inputs():
    return [torch.randn(batch_size, 3, 16, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
