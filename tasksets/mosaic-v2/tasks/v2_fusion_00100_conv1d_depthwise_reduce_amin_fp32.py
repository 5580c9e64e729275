import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, reduce_amin
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=3, stride=1, padding=1, groups=128)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amin(x, dim=1)
        return x


batch_size = 2086


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
