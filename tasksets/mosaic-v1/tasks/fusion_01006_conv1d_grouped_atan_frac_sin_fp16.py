import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv1d_grouped -> atan -> frac_sin (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 64, kernel_size=5, stride=1, padding=2, groups=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.atan(x)
        x = torch.sin(0.84 * x) * x
        return x


batch_size = 3359


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
