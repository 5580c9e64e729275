"""Cheat: kill the parent process (the orchestrator) with SIGKILL, so that no verdict is
recorded at all (a crash of the harness is often treated as "skip", not "fail").

Exploits: harnesses whose worker can signal the orchestrator.
Expected: static `exit_or_signal` (os.kill) in both policies. Never run past the static
check: it would kill the test process.
"""
import os

import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        os.kill(os.getppid(), 9)
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        return y
