import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose1d -> tanh -> mish -> sqrt_abs -> softmax_channel -> reduce_l2norm (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(8, 16, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.tanh(x)
        x = F.mish(x)
        x = torch.sqrt(x.abs() + 0.36)
        x = torch.softmax(x, dim=1)
        x = torch.linalg.vector_norm(x, dim=1)
        return x


batch_size = 2475


def get_inputs():
    return [torch.randn(batch_size, 8, 1024, dtype=dtype)]


def get_init_inputs():
    return []
