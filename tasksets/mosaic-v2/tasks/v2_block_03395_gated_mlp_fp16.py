import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Gated MLP block (SwiGLU: silu(gate projection) * up projection) with rms_norm and a residual (fp16).

    Ops: rms_norm, linear, linear, silu, mul, linear, add
    """

    def __init__(self):
        super().__init__()
        self.norm_weight = nn.Parameter(torch.ones(768))
        self.w_gate = nn.Linear(768, 2048, bias=False)
        self.w_up = nn.Linear(768, 2048, bias=False)
        self.w_down = nn.Linear(2048, 768, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight
        h = self.w_down(F.silu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 115


def get_inputs():
    return [torch.randn(batch_size, 1024, 768, dtype=dtype)]


def get_init_inputs():
    return []
