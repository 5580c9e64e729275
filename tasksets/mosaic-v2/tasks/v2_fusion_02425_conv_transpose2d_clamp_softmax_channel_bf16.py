import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose2d, clamp, softmax_channel
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 32, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.clamp(x, min=-0.99, max=0.99)
        x = torch.softmax(x, dim=1)
        return x


batch_size = 724


def get_inputs():
    return [torch.randn(batch_size, 128, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
