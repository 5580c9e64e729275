import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Gated MLP block (GeGLU: gelu(gate projection) * up projection) with no norm and a residual (fp32).

    Ops: linear, linear, gelu, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.w_gate = nn.Linear(1024, 2752, bias=False)
        self.w_up = nn.Linear(1024, 2752, bias=False)
        self.w_down = nn.Linear(2752, 1024, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.w_down(F.gelu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 114


def get_inputs():
    return [torch.randn(batch_size, 128, 1024, dtype=dtype)]


def get_init_inputs():
    return []
