import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: matmul_t, reduce_mean, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 1024) * 0.03125)
        self.ln = nn.LayerNorm(1024, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = torch.mean(x, dim=1)
        x = self.ln(x)
        return x


batch_size = 271


def get_inputs():
    return [torch.randn(batch_size, 256, 1024, dtype=dtype)]


def get_init_inputs():
    return []
