"""Cheat: forge the "a kernel ran" evidence. The launchers count launches in
kernelmosaic.verify.launches; importing that module is forbidden, but the cc launcher module
holds a reference to it (`cc.launches`). forward computes with torch (x.clamp_min(0)) and
calls `cc.launches.record("cc", "relu")` instead of running the compiled kernel.

Exploits: launch bookkeeping that the candidate can reach through an allowed module.
Expected: kernelbench: `no_kernel_launched` or `introspection` (the compiled kernel never
ran). strict: dynamic `torch_compute` (aten.clamp_min) regardless. If the forgery works,
kernelbench returns `correct` for a torch-only forward.
"""
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
        cc.launches.record("cc", "relu")
        return x.clamp_min(0)
