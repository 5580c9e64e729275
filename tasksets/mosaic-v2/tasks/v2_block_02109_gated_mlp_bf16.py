import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Gated MLP block (ReGLU: relu(gate projection) * up projection) with layer_norm and a residual (bf16).

    Ops: layer_norm, linear, linear, relu, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(256)
        self.w_gate = nn.Linear(256, 704, bias=False)
        self.w_up = nn.Linear(256, 704, bias=False)
        self.w_down = nn.Linear(704, 256, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.norm(h)
        h = self.w_down(torch.relu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 736


def get_inputs():
    return [torch.randn(batch_size, 1024, 256, dtype=dtype)]


def get_init_inputs():
    return []
