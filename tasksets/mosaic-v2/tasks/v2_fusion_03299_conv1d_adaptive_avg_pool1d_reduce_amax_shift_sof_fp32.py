import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, adaptive_avg_pool1d, reduce_amax, shift, softshrink
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.adaptive_avg_pool1d(x, 2)
        x = torch.amax(x, dim=1)
        x = x + 0.55
        x = F.softshrink(x, lambd=0.15)
        return x


batch_size = 4161


def get_inputs():
    return [torch.randn(batch_size, 8, 4096, dtype=dtype)]


def get_init_inputs():
    return []
