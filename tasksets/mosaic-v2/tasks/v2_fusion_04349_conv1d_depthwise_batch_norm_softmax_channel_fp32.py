import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, batch_norm, softmax_channel
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(128, 128, kernel_size=5, stride=1, padding=2, groups=128, bias=False)
        self.bn = nn.BatchNorm1d(128)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = torch.softmax(x, dim=1)
        return x


batch_size = 1584


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
