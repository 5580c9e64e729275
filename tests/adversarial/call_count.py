"""Cheat: call counting. Correct for the first 10 calls (more than the 5 trials, the
instrumented call and the shape-variant call), then returns zeros without computing —
i.e. it is "fast" during the timed loop.

Exploits: harnesses that check correctness only before timing.
Expected: `incorrect` (error kind `mismatch`, raised by the post-timing check) with timing
enabled (TimingConfig(enabled=True, n=5, warmup=1, compile=False)). The counter is an
instance attribute, so no `global` (hidden_state) rule fires. Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
void zero(float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        x = x.contiguous()
        y = torch.empty_like(x)
        if self.calls <= 10:
            lib.relu(x, y, x.numel())
        else:
            lib.zero(y, y.numel())
        return y
