import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the output of its first op is added back at the end (residual_add) (fp32).

    Ops: conv_transpose3d, sign_sqrt, relu6, sigmoid, residual_add
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 64, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = F.relu6(x)
        x = torch.sigmoid(x)
        x = x + r
        return x


batch_size = 4


def get_inputs():
    return [torch.randn(batch_size, 16, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
