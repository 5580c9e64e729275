import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: conv_transpose1d, reduce_amin, square, log_softmax, reduce_logsumexp
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(32, 16, kernel_size=2, stride=2, padding=0)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.amin(x, dim=1)
        x = x * x
        x = torch.log_softmax(x, dim=-1)
        x = torch.logsumexp(x, dim=1)
        return x


batch_size = 1640


def get_inputs():
    return [torch.randn(batch_size, 32, 16384, dtype=dtype)]


def get_init_inputs():
    return []
