import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv1d_depthwise, logsigmoid
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 64, kernel_size=7, stride=1, padding=3, groups=32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.logsigmoid(x)
        return x


batch_size = 8822


def get_inputs():
    return [torch.randn(batch_size, 32, 1024, dtype=dtype)]


def get_init_inputs():
    return []
