import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: matmul_t, relu, mish
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 768) * 0.03608)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.relu(x)
        x = F.mish(x)
        return x


batch_size = 240


def get_inputs():
    return [torch.randn(batch_size, 2048, 768, dtype=dtype)]


def get_init_inputs():
    return []
