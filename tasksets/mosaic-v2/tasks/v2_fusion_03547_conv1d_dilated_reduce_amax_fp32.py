import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_dilated, reduce_amax
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=3, stride=1, padding=2, dilation=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amax(x, dim=1)
        return x


batch_size = 1535


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
