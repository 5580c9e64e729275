import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, reduce_l2norm, gelu
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(8, 64, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.gelu(x)
        return x


batch_size = 5948


def get_inputs():
    return [torch.randn(batch_size, 8, 56, 28, dtype=dtype)]


def get_init_inputs():
    return []
