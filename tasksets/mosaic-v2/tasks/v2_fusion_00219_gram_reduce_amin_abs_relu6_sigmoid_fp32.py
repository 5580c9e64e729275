import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: gram, reduce_amin, abs, relu6, sigmoid
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 512
        x = torch.amin(x, dim=1)
        x = torch.abs(x)
        x = F.relu6(x)
        x = torch.sigmoid(x)
        return x


batch_size = 934


def get_inputs():
    return [torch.randn(batch_size, 256, 512, dtype=dtype)]


def get_init_inputs():
    return []
