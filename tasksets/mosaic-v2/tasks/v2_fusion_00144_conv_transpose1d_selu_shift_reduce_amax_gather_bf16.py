import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose1d, selu, shift, reduce_amax, gather
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(64, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.deconv(x)
        x = F.selu(x)
        x = x + 0.19
        x = torch.amax(x, dim=(2,))
        x = torch.gather(x, 1, idx)
        return x


batch_size = 608


def get_inputs():
    return [torch.randn(batch_size, 64, 16384, dtype=dtype), torch.randint(0, 128, (batch_size, 128))]


def get_init_inputs():
    return []
