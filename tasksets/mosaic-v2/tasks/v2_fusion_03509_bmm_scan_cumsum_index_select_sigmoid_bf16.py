import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: bmm, scan_cumsum, index_select, sigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, w, idx):
        x = torch.bmm(x, w)
        x = torch.cumsum(x, dim=2)
        x = torch.index_select(x, 2, idx)
        x = torch.sigmoid(x)
        return x


batch_size = 768


def get_inputs():
    return [torch.randn(batch_size, 1024, 2048, dtype=dtype), torch.randn(batch_size, 2048, 256, dtype=dtype) / 45.25, torch.randint(0, 256, (256,), dtype=torch.long)]


def get_init_inputs():
    return []
