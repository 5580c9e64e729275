import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, reduce_var, sort, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(64, 16, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.var(x, dim=(2,))
        x = torch.sort(x, dim=-1).values
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 64, 2048, dtype=dtype)]


def get_init_inputs():
    return []
