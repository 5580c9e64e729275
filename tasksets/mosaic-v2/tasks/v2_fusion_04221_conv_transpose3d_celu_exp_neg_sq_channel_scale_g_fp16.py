import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of the output of its first op (sigmoid_gate) (fp16).

    Ops: conv_transpose3d, celu, exp_neg_sq, channel_scale, group_norm, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(32, 16, kernel_size=2, stride=2, padding=0)
        self.scale = nn.Parameter(torch.rand(16, 1, 1, 1) + 0.5)
        self.gn = nn.GroupNorm(8, 16)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        r = x
        x = F.celu(x, alpha=1.11)
        x = torch.exp(-x * x)
        x = x * self.scale
        x = self.gn(x)
        x = x * torch.sigmoid(r)
        return x


batch_size = 17


def get_inputs():
    return [torch.randn(batch_size, 32, 16, 64, 64, dtype=dtype)]


def get_init_inputs():
    return []
