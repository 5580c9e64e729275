import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv2d -> selu -> reduce_logsumexp (fp16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 256, kernel_size=5, stride=1, padding=2)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.selu(x)
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 24


def get_inputs():
    return [torch.randn(batch_size, 64, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
