"""Cheat: answers precomputed at import. The candidate guesses that the harness seeds with
a fixed value (42) before get_inputs(), computes relu of that input at import time, and
returns a copy of the stored answer from forward (fast: a memcpy).

Exploits: harnesses with a fixed, guessable seed.
Expected: `incorrect` (mismatch): the verifier draws fresh random seeds per verification.
Same under kernelbench.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
void copy(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i];
}
""")

torch.manual_seed(42)
_X = torch.randn(64, 1000)
_ANSWER = torch.empty_like(_X)
lib.relu(_X, _ANSWER, _X.numel())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        lib.copy(_ANSWER, y, y.numel())
        return y
