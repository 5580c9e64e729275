import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: batch_norm, reduce_l2norm
    """

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm3d(32)
        self.to(dtype)

    def forward(self, x):
        x = self.bn(x)
        x = torch.linalg.vector_norm(x, dim=(2, 3, 4))
        return x


batch_size = 341


def get_inputs():
    return [torch.randn(batch_size, 32, 32, 48, 48, dtype=dtype)]


def get_init_inputs():
    return []
