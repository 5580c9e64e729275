import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
// x viewed as (outer, R, inner); out (outer, inner) = sum over R.
// Block = 512 threads viewed as (32, 16): tx -> 32 consecutive inner columns (coalesced),
// ty -> slice of the reduced dim; partials combined in shared memory.
__global__ void sum_mid(const float* __restrict__ x, float* __restrict__ out,
                        long outer, long R, long inner, long ncb) {
    const long bid = blockIdx.x;
    const long o = bid / ncb;
    const long cb = bid - o * ncb;
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;   // 512 threads = 32 x 16
    const long col = cb * 32 + tx;
    __shared__ float sh[16][33];
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    if (col < inner && o < outer) {
        const float* __restrict__ p = x + o * R * inner + col;
        const long step = 16L * inner;
        long r = ty;
        for (; r + 48 < R; r += 64) {
            float v0 = __ldcs(p + r * inner);
            float v1 = __ldcs(p + r * inner + step);
            float v2 = __ldcs(p + r * inner + 2 * step);
            float v3 = __ldcs(p + r * inner + 3 * step);
            a0 += v0; a1 += v1; a2 += v2; a3 += v3;
        }
        for (; r < R; r += 16) a0 += __ldcs(p + r * inner);
    }
    sh[ty][tx] = (a0 + a1) + (a2 + a3);
    __syncthreads();
    if (ty == 0 && col < inner && o < outer) {
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < 16; ++k) s += sh[k][tx];
        out[o * inner + col] = s;
    }
}
"""

_mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        d = self.dim % x.dim()
        shape = list(x.shape)
        outer = 1
        for s in shape[:d]:
            outer *= s
        R = shape[d]
        inner = 1
        for s in shape[d + 1:]:
            inner *= s
        out_shape = shape[:d] + [1] + shape[d + 1:]
        if R == 0:
            return torch.zeros(out_shape, dtype=x.dtype, device=x.device)
        out = torch.empty(out_shape, dtype=x.dtype, device=x.device)
        if outer > 0 and inner > 0:
            ncb = (inner + 31) // 32
            _mod.sum_mid(grid=(outer * ncb,), block=(512,), args=(x, out, outer, R, inner, ncb))
        return out
