import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, hardswish, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(256, eps=1e-6)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.hardswish(x)
        x = self.ln(x)
        return x


batch_size = 2922


def get_inputs():
    return [torch.randn(batch_size, 512, 256, dtype=dtype), torch.randn(batch_size, 256, 256, dtype=dtype) / 16]


def get_init_inputs():
    return []
