import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv_transpose2d -> reduce_var -> silu (fp16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(64, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.var(x, dim=1)
        x = F.silu(x)
        return x


batch_size = 266


def get_inputs():
    return [torch.randn(batch_size, 64, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
