import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv2d_strided, reduce_amin, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 64, kernel_size=3, stride=2, padding=1, bias=False)
        self.ln = nn.LayerNorm(112, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = self.conv(x)
        x = torch.amin(x, dim=1)
        x = self.ln(x)
        return x


batch_size = 250


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
