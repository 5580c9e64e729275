import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: gram, relu6, elu
    """

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 768
        x = F.relu6(x)
        x = F.elu(x, alpha=1.5)
        return x


batch_size = 920


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
