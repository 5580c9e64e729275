import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv_transpose1d, reduce_l2norm, softplus, topk
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(16, 128, kernel_size=3, stride=1, padding=1)
        self.to(dtype)

    def forward(self, x):
        x = self.deconv(x)
        x = torch.linalg.vector_norm(x, dim=1)
        x = F.softplus(x, beta=1.08)
        x = torch.topk(x, 128, dim=-1).values
        return x


batch_size = 2913


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype)]


def get_init_inputs():
    return []
