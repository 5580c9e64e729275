import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """conv_transpose3d -> binary_min -> tanh -> logsigmoid (fp32)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(4, 16, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x, y):
        x = self.deconv(x)
        x = torch.minimum(x, y)
        x = torch.tanh(x)
        x = F.logsigmoid(x)
        return x


batch_size = 53


def get_inputs():
    return [torch.randn(batch_size, 4, 16, 64, 64, dtype=dtype), torch.randn(batch_size, 16, 32, 128, 128, dtype=dtype)]


def get_init_inputs():
    return []
