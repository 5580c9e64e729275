import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv1d_depthwise, elu, clamp, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(32, 32, kernel_size=7, stride=1, padding=3, groups=32)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = F.elu(x, alpha=0.91)
        x = torch.clamp(x, min=-0.74, max=0.74)
        x = torch.var(x, dim=1)
        return x


batch_size = 4091


def get_inputs():
    return [torch.randn(batch_size, 32, 4096, dtype=dtype)]


def get_init_inputs():
    return []
