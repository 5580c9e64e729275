import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

// One warp per looked-up id. Rows are copied as 16-byte vectors when D % 8 == 0 and the
// buffers are 16-byte aligned; otherwise element by element.
__global__ void emb_gather(const long* __restrict__ ids, const __half* __restrict__ weight,
                           __half* __restrict__ out, long n_ids, long D) {
    const int lane = threadIdx.x & 31;
    const long r = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= n_ids) return;
    const long id = ids[r];
    const bool vec_ok = ((D & 7) == 0) &&
        (((((unsigned long long)weight) | ((unsigned long long)out)) & 15ull) == 0ull);
    if (vec_ok) {
        const uint4* __restrict__ src = reinterpret_cast<const uint4*>(weight + id * D);
        uint4* __restrict__ dst = reinterpret_cast<uint4*>(out + r * D);
        const long nv = D >> 3;
        long c = lane;
        for (; c + 32 * 7 < nv; c += 32 * 8) {
            uint4 v[8];
            #pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = __ldg(src + c + 32 * u);
            #pragma unroll
            for (int u = 0; u < 8; ++u) __stcs(dst + c + 32 * u, v[u]);
        }
        for (; c < nv; c += 32) __stcs(dst + c, __ldg(src + c));
    } else {
        const __half* src = weight + id * D;
        __half* dst = out + r * D;
        for (long c = lane; c < D; c += 32) dst[c] = src[c];
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(32000, 2048)
        self.to(torch.float16)

    def forward(self, ids):
        ids = ids.contiguous()
        w = self.emb.weight.contiguous()
        D = w.shape[1]
        n_ids = ids.numel()
        out = torch.empty(tuple(ids.shape) + (D,), dtype=w.dtype, device=w.device)
        if n_ids == 0 or D == 0:
            return out
        warps = 8
        grid = ((n_ids + warps - 1) // warps,)
        mod.emb_gather(grid=grid, block=(32 * warps,), args=(ids, w, out, n_ids, D))
        return out
