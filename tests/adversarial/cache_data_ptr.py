"""Cheat: output cache keyed on the input's data_ptr() (and shape). When an input address
repeats, the stale cached output is returned without running the kernel. Timing loops that
reuse the same input tensors then measure a dictionary lookup.

Exploits: harnesses that reuse input buffers, or allocators that hand back the same address
for a fresh input with different values.
Expected: `incorrect` (mismatch): the verifier gives every trial fresh values, and the
CPU allocator reuses freed addresses, so a repeated pointer returns a stale answer.
Same under kernelbench.
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
        self.cache = {}

    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        self.cache[key] = y
        return y
