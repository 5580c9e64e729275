import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, sqrt_abs, cos, bias_add, reduce_var
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 16, kernel_size=2, stride=2, padding=0)
        self.bias = nn.Parameter(torch.randn(16, 1, 1) * 0.02)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.sqrt(x.abs() + 0.55)
        x = torch.cos(x)
        x = x + self.bias
        x = torch.var(x, dim=1)
        return x


batch_size = 54


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 224, dtype=dtype)]


def get_init_inputs():
    return []
