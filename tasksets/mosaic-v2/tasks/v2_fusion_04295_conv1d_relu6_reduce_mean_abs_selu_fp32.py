import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv1d, relu6, reduce_mean_abs, selu
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 64, kernel_size=5, stride=1, padding=2, bias=False)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.relu6(x)
        x = torch.mean(x.abs(), dim=1)
        x = F.selu(x)
        return x


batch_size = 800


def get_inputs():
    return [torch.randn(batch_size, 32, 4096, dtype=dtype)]


def get_init_inputs():
    return []
