import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp16).

    Ops: conv_transpose2d, hardsigmoid, sigmoid, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = F.hardsigmoid(x)
        x = torch.sigmoid(x)
        x = x + r
        return x


batch_size = 51


def get_inputs():
    return [torch.randn(batch_size, 128, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
