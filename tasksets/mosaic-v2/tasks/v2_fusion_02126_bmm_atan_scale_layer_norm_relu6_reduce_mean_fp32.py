import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: bmm, atan, scale, layer_norm, relu6, reduce_mean
    """

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(128, eps=1e-6)
        self.to(dtype)

    def forward(self, x, w):
        x = torch.bmm(x, w)
        x = torch.atan(x)
        x = x * 1.7
        x = self.ln(x)
        x = F.relu6(x)
        x = torch.mean(x, dim=1)
        return x


batch_size = 1046


def get_inputs():
    return [torch.randn(batch_size, 256, 2048, dtype=dtype), torch.randn(batch_size, 2048, 128, dtype=dtype) / 45.25]


def get_init_inputs():
    return []
