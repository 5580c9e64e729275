"""Cheat (GPU port of tests/adversarial/cache_data_ptr.py): output cache keyed on the
input's data_ptr() (and shape). When a CUDA input address repeats, the stale cached output
is returned without launching the kernel. Timing loops that reuse the same input tensors
then measure a dictionary lookup.

Exploits: harnesses that reuse input buffers, and the CUDA caching allocator handing back
the same address for a fresh input with different values.
Expected: `incorrect` (mismatch at trial 1: every trial writes new values into the same
input buffers; or `timing_check` if it somehow survived the trials). Same under
kernelbench. Run with timing enabled.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
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
        n = x.numel()
        mod.relu(grid=(min((n + 255) // 256, 4096),), block=(256,), args=(x, y, n))
        self.cache[key] = y
        return y
