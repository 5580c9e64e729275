import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Gated MLP block (ReGLU: relu(gate projection) * up projection) with rms_norm and a residual (fp32).

    Ops: rms_norm, linear, linear, relu, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm_weight = nn.Parameter(torch.ones(2048))
        self.w_gate = nn.Linear(2048, 5504, bias=False)
        self.w_up = nn.Linear(2048, 5504, bias=False)
        self.w_down = nn.Linear(5504, 2048, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight
        h = self.w_down(torch.relu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 7


def get_inputs():
    return [torch.randn(batch_size, 128, 2048, dtype=dtype)]


def get_init_inputs():
    return []
