import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain; its input is added back at the end (residual_add) (fp16).

    Ops: scatter_add, sigmoid, sign_sqrt, exp_neg_sq, channel_scale, residual_add
    """

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(8192,) + 0.5)
        self.to(dtype)

    def forward(self, x, idx):
        r = x
        x = torch.zeros(x.shape[0], 8192, dtype=x.dtype, device=x.device).scatter_add_(1, idx, x)
        x = torch.sigmoid(x)
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = torch.exp(-x * x)
        x = x * self.scale
        x = x + r
        return x


batch_size = 41221


def get_inputs():
    return [torch.randn(batch_size, 8192, dtype=dtype), torch.randint(0, 8192, (batch_size, 8192))]


def get_init_inputs():
    return []
