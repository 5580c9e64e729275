import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, leaky_relu
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(256, 256) * 0.0625)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = F.leaky_relu(x, negative_slope=0.34)
        return x


batch_size = 13951


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
