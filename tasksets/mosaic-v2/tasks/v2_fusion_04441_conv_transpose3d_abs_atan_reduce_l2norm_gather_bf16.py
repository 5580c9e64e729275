import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose3d, abs, atan, reduce_l2norm, gather
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(3, 128, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.deconv(x)
        x = torch.abs(x)
        x = torch.atan(x)
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        x = torch.gather(x, 1, idx)
        return x


batch_size = 13


def get_inputs():
    return [torch.randn(batch_size, 3, 32, 32, 32, dtype=dtype), torch.randint(0, 128, (batch_size, 128))]


def get_init_inputs():
    return []
