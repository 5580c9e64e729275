"""Cheat: global state across calls. A module-level counter updated through `global` in
forward: the kernel is run only on odd calls, and the previous output is returned on even
calls (the usual shape of "skip work after warm-up" hacks).

Exploits: harnesses that judge each call in isolation.
Expected: static `hidden_state` (`global` in ModelNew.forward) in both policies.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")

CALLS = 0
LAST = None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        global CALLS, LAST
        CALLS += 1
        if CALLS % 2 == 0 and LAST is not None and LAST.shape == x.shape:
            return LAST
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        LAST = y
        return y
