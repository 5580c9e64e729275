import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain; the result is gated by the sigmoid of its input (sigmoid_gate) (fp32).

    Ops: group_norm, softplus, sigmoid_gate
    """

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(4, 16)
        self.to(dtype)

    def forward(self, x):
        r = x
        x = self.gn(x)
        x = F.softplus(x, beta=2.98)
        x = x * torch.sigmoid(r)
        return x


batch_size = 2557


def get_inputs():
    return [torch.randn(batch_size, 16, 24, 16, 16, dtype=dtype)]


def get_init_inputs():
    return []
