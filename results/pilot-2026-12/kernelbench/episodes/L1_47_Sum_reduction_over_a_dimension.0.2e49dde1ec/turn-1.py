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
    // 8 independent accumulators -> 8 coalesced 128-byte row loads in flight per warp (plain cached loads).
    float a[8];
    #pragma unroll
    for (int u = 0; u < 8; ++u) a[u] = 0.f;
    if (col < inner && o < outer) {
        const float* __restrict__ p = x + o * R * inner + col + (long)ty * inner;
        const long step = 16L * inner;
        long r = ty;
        for (; r + 7 * 16 < R; r += 8 * 16) {
            float v[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = p[u * step];
            #pragma unroll
            for (int u = 0; u < 8; ++u) a[u] += v[u];
            p += 8 * step;
        }
        for (; r < R; r += 16) { a[0] += *p; p += step; }
    }
    const float part = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
    sh[ty][tx] = part;
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
