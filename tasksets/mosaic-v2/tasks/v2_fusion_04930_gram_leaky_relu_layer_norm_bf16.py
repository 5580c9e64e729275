import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Fusion chain (bf16).

    Ops: gram, leaky_relu, layer_norm
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(128, eps=1e-5)
        self.to(dtype)

    def forward(self, x):
        x = torch.matmul(x, x.transpose(-1, -2)) / 2048
        x = F.leaky_relu(x, negative_slope=0.46)
        x = self.ln(x)
        return x


batch_size = 6144


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
