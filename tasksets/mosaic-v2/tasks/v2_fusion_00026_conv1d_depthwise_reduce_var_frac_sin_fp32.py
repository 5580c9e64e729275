import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d_depthwise, reduce_var, frac_sin
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 16, kernel_size=5, stride=1, padding=2, groups=16)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.var(x, dim=(2,))
        x = torch.sin(2.47 * x) * x
        return x


batch_size = 2344


def get_inputs():
    return [torch.randn(batch_size, 16, 16384, dtype=dtype)]


def get_init_inputs():
    return []
