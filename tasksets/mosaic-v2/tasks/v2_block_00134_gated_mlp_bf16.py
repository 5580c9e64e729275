import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Gated MLP block (SwiGLU: silu(gate projection) * up projection) with no norm and a residual (bf16).

    Ops: linear, linear, silu, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.w_gate = nn.Linear(256, 704, bias=False)
        self.w_up = nn.Linear(256, 704, bias=False)
        self.w_down = nn.Linear(704, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.w_down(F.silu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 6121


def get_inputs():
    return [torch.randn(batch_size, 128, 256, dtype=dtype)]


def get_init_inputs():
    return []
