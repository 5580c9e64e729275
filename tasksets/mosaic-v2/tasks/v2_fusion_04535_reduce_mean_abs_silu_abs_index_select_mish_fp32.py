import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: reduce_mean_abs, silu, abs, index_select, mish
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.mean(x.abs(), dim=(2, 3))
        x = F.silu(x)
        x = torch.abs(x)
        x = torch.index_select(x, 1, idx)
        x = F.mish(x)
        return x


batch_size = 65536


def get_inputs():
    return [torch.randn(batch_size, 3, 64, 64, dtype=dtype), torch.randint(0, 3, (1,), dtype=torch.long)]


def get_init_inputs():
    return []
