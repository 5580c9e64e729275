import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Gated MLP block (ReGLU: relu(gate projection) * up projection) with layer_norm and a residual (fp32).

    Ops: layer_norm, linear, linear, relu, mul, linear, add
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
        h = self.w_down(torch.relu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 111


def get_inputs():
    return [torch.randn(batch_size, 512, 512, dtype=dtype)]


def get_init_inputs():
    return []
