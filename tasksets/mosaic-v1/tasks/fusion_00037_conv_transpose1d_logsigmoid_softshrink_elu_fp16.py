import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv_transpose1d -> logsigmoid -> softshrink -> elu (fp16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(128, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = F.logsigmoid(x)
        x = F.softshrink(x, lambd=0.46)
        x = F.elu(x, alpha=2.33)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 128, 16384, dtype=dtype)]


def get_init_inputs():
    return []
