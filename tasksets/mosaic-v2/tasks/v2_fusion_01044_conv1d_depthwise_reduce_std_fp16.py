import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv1d_depthwise, reduce_std
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 64, kernel_size=5, stride=1, padding=2, groups=64)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.std(x, dim=(2,))
        return x


batch_size = 5772


def get_inputs():
    return [torch.randn(batch_size, 64, 4096, dtype=dtype)]


def get_init_inputs():
    return []
