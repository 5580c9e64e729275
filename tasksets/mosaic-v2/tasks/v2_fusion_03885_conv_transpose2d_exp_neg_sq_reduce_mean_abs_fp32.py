import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, exp_neg_sq, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(8, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.exp(-x * x)
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 5052


def get_inputs():
    return [torch.randn(batch_size, 8, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
