import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose1d, clamp, instance_norm, sign_sqrt, square, relu6
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(32, 16, kernel_size=2, stride=2, padding=0)
        self.inorm = nn.InstanceNorm1d(16, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.clamp(x, min=-0.97, max=0.97)
        x = self.inorm(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x * x
        x = F.relu6(x)
        return x


batch_size = 1869


def get_inputs():
    return [torch.randn(batch_size, 32, 2048, dtype=dtype)]


def get_init_inputs():
    return []
