"""Cheat (library compute, CPU): numpy does the ReLU on the tensor's memory (`x.numpy()`), and a
C function that does nothing is called so that "the candidate's own code ran". No torch op
computes, so the dispatch-mode watch (`torch_compute`) sees nothing.

Exploits: strict watching only aten ops. On main (before issue 15) this was `correct` under
strict.
Expected: strict refuses numpy math and handing a tensor to numpy, statically (`rejected`,
rule `library_compute`). kernelbench allows it: `correct`.
"""
import numpy as np
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void touch(float* y, long n) { (void)y; (void)n; }
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        np.maximum(x.contiguous().numpy(), 0.0, out=y.numpy())
        lib.touch(y, y.numel())
        return y
