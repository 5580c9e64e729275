"""Launches a kernel, but the result comes from a torch method: strict rejects it at run time."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(float* y, long n) { if (n > 0) y[0] = y[0]; }
""")


class ModelNew(nn.Module):
    def forward(self, x):
        y = x.clamp(min=0)
        lib.touch(y, y.numel())
        return y
