import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: gram, reduce_l2norm, atan, binary_sub, gather, sort
    """

    def __init__(self):
        super().__init__()

    def forward(self, x, y, idx):
        x = torch.matmul(x, x.transpose(-1, -2)) / 2048
        x = torch.linalg.vector_norm(x, dim=1)
        x = torch.atan(x)
        x = x - y
        x = torch.gather(x, 1, idx)
        x = torch.sort(x, dim=0).values
        return x


batch_size = 1023


def get_inputs():
    return [torch.randn(batch_size, 512, 2048, dtype=dtype), torch.randn(batch_size, 512, dtype=dtype), torch.randint(0, 512, (batch_size, 256))]


def get_init_inputs():
    return []
