import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: softsign, mish, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(16384, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = F.softsign(x)
        x = F.mish(x)
        x = self.ln(x)
        return x


batch_size = 44484


def get_inputs():
    return [torch.randn(batch_size, 16384, dtype=dtype)]


def get_init_inputs():
    return []
