import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Gated MLP block (GeGLU (tanh approximation): gelu_tanh(gate projection) * up projection) with layer_norm and a residual (fp32).

    Ops: layer_norm, linear, linear, gelu_tanh, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(512)
        self.w_gate = nn.Linear(512, 1408, bias=False)
        self.w_up = nn.Linear(512, 1408, bias=False)
        self.w_down = nn.Linear(1408, 512, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.norm(h)
        h = self.w_down(F.gelu(self.w_gate(h), approximate='tanh') * self.w_up(h))
        x = x + h
        return x


batch_size = 90


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
