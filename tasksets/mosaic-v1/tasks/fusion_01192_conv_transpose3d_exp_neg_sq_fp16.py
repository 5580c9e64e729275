import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv_transpose3d -> exp_neg_sq (fp16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(4, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.exp(-x * x)
        return x


batch_size = 456


def get_inputs():
    return [torch.randn(batch_size, 4, 32, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
