import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose2d, hardsigmoid, group_norm, instance_norm
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(128, 128, kernel_size=4, stride=2, padding=1)
        self.gn = nn.GroupNorm(2, 128)
        self.inorm = nn.InstanceNorm2d(128, affine=True)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.hardsigmoid(x)
        x = self.gn(x)
        x = self.inorm(x)
        return x


batch_size = 579


def get_inputs():
    return [torch.randn(batch_size, 128, 64, 32, dtype=dtype)]


def get_init_inputs():
    return []
