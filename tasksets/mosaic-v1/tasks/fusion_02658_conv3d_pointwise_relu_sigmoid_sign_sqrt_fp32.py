import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv3d_pointwise -> relu -> sigmoid -> sign_sqrt (fp32)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(8, 16, kernel_size=1, stride=1, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.relu(x)
        x = torch.sigmoid(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        return x


batch_size = 847


def get_inputs():
    return [torch.randn(batch_size, 8, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
