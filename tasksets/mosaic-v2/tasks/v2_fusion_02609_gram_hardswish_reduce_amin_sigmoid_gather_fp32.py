import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, hardswish, reduce_amin, sigmoid, gather
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        x = F.hardswish(x)
        x = torch.amin(x, dim=1)
        x = torch.sigmoid(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 552


def get_inputs():
    return [torch.randn(batch_size, 512, 768, dtype=dtype), torch.randint(0, 512, (batch_size, 256))]


def get_init_inputs():
    return []
