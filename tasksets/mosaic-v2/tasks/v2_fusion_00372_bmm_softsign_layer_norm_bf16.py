import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, softsign, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(128, eps=1e-6)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = F.softsign(x)
        x = self.ln(x)
        return x


batch_size = 6379


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype), torch.randn(batch_size, 512, 128, dtype=dtype) / 22.63]


def get_init_inputs():
    return []
