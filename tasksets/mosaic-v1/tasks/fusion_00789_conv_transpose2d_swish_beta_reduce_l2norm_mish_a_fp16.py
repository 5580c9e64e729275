import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """conv_transpose2d -> swish_beta -> reduce_l2norm -> mish -> abs -> square (fp16)."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(3, 32, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = x * torch.sigmoid(2.45 * x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.mish(x)
        x = torch.abs(x)
        x = x * x
        return x


batch_size = 18474


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 32, dtype=dtype)]


def get_init_inputs():
    return []
