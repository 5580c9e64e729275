import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: matmul_t, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 4096) * 0.01562)
        self.ln = nn.LayerNorm(1024, eps=1e-6)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        x = self.ln(x)
        return x


batch_size = 393216


def get_inputs():
    return [torch.randn(batch_size, 4096, dtype=dtype)]


def get_init_inputs():
    return []
