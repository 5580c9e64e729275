import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, gelu, relu, scale, reduce_l2norm
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.gelu(x)
        x = torch.relu(x)
        x = x * 2.04
        x = torch.linalg.vector_norm(x, dim=2)
        return x


batch_size = 692


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
