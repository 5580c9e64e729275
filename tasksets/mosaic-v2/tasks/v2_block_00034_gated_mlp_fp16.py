import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Gated MLP block (GeGLU (tanh approximation): gelu_tanh(gate projection) * up projection) with no norm and a residual (fp16).

    Ops: linear, linear, gelu_tanh, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.w_gate = nn.Linear(256, 704, bias=False)
        self.w_up = nn.Linear(256, 704, bias=False)
        self.w_down = nn.Linear(704, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.w_down(F.gelu(self.w_gate(h), approximate='tanh') * self.w_up(h))
        x = x + h
        return x


batch_size = 2687


def get_inputs():
    return [torch.randn(batch_size, 256, 256, dtype=dtype)]


def get_init_inputs():
    return []
