import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_l2norm, mish, binary_min
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 512) * 0.04419)
        self.to(dtype)

    def forward(self, x, y):
        x = torch.matmul(x, self.weight.t())
        x = torch.linalg.vector_norm(x, dim=2)
        x = F.mish(x)
        x = torch.minimum(x, y)
        return x


batch_size = 29


def get_inputs():
    return [torch.randn(batch_size, 2048, 512, dtype=dtype), torch.randn(batch_size, 2048, dtype=dtype)]


def get_init_inputs():
    return []
