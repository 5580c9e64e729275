import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """gated MLP (SwiGLU-style) block with none and a residual (fp32)."""

    def __init__(self):
        super().__init__()
        self.w_gate = nn.Linear(768, 2048, bias=False)
        self.w_up = nn.Linear(768, 2048, bias=False)
        self.w_down = nn.Linear(2048, 768, bias=False)
        self.to(dtype)

    def forward(self, x):
        h = x
        h = self.w_down(torch.relu(self.w_gate(h)) * self.w_up(h))
        x = x + h
        return x


batch_size = 185


def get_inputs():
    return [torch.randn(batch_size, 128, 768, dtype=dtype)]


def get_init_inputs():
    return []
