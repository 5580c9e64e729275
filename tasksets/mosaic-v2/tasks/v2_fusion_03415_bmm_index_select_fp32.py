import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, index_select
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w, idx):
        x = torch.bmm(x, w)
        x = torch.index_select(x, 2, idx)
        return x


batch_size = 40


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype), torch.randn(batch_size, 768, 512, dtype=dtype) / 27.71, torch.randint(0, 512, (256,), dtype=torch.long)]


def get_init_inputs():
    return []
