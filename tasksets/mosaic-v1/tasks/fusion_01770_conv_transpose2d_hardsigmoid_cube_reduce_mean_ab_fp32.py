import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose2d -> hardsigmoid -> cube -> reduce_mean_abs (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 64, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardsigmoid(x)
        x = x * x * x
        x = torch.mean(x.abs(), dim=(2, 3))
        return x


batch_size = 34


def get_inputs():
    return [torch.randn(batch_size, 128, 224, 112, dtype=dtype)]


def get_init_inputs():
    return []
