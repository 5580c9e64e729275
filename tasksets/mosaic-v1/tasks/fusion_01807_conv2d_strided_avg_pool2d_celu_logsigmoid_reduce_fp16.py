import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv2d_strided -> avg_pool2d -> celu -> logsigmoid -> reduce_amax -> channel_scale (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 16, kernel_size=5, stride=2, padding=2, bias=False)
        self.scale = nn.Parameter(torch.rand(16,) + 0.5)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.avg_pool2d(x, kernel_size=2, stride=2, padding=0)
        x = F.celu(x, alpha=2.94)
        x = F.logsigmoid(x)
        x = torch.amax(x, dim=(2, 3))
        x = x * self.scale
        return x


batch_size = 1003


def get_inputs():
    return [torch.randn(batch_size, 64, 224, 112, dtype=dtype)]


def get_init_inputs():
    return []
