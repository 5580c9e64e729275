import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose2d, reduce_l2norm, reduce_mean_abs
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(64, 64, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = torch.mean(x.abs(), dim=1)
        return x


batch_size = 453


def get_inputs():
    return [torch.randn(batch_size, 64, 112, 112, dtype=dtype)]


def get_init_inputs():
    return []
