import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
__device__ __forceinline__ float block_sum(float v, float* sh) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int nw = (blockDim.x + 31) >> 5;
        v = (lane < nw) ? sh[lane] : 0.f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        if (lane == 0) sh[32] = v;
    }
    __syncthreads();
    return sh[32];
}

// Persistent: gridDim.x blocks (about one per SM), each loops over rows; y = x / (sum(|x|) / cols).
// Pass 1 reads the row front to back (scalar head, float4 body, scalar tail); pass 2 walks it back to front,
// so the most recently read part of the row (still in L2) is re-read first; pass-2 loads and the stores are
// marked evict-first so they do not push the pass-1 lines of other rows out of L2.
__global__ void __launch_bounds__(1024) l1norm_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    __shared__ float sh[33];
    const int tid = threadIdx.x, nt = blockDim.x;
    const bool same_align = ((((unsigned long long)x) ^ ((unsigned long long)y)) & 15ULL) == 0ULL;
    for (long row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* __restrict__ xr = x + row * cols;
        float* __restrict__ yr = y + row * cols;

        long head = 0, body4 = 0;
        if (same_align) {
            long mis = (long)((((unsigned long long)xr) & 15ULL) >> 2);   // 0..3 floats
            head = (4 - mis) & 3;
            if (head > cols) head = cols;
            body4 = (cols - head) >> 2;
        }
        const long tail_start = head + (body4 << 2);

        float acc0 = 0.f, acc1 = 0.f;
        if (tid < head) acc0 += fabsf(xr[tid]);
        {
            const float4* __restrict__ x4 = reinterpret_cast<const float4*>(xr + head);
#pragma unroll 8
            for (long i = tid; i < body4; i += nt) {
                float4 v = __ldg(x4 + i);
                acc0 += fabsf(v.x) + fabsf(v.y);
                acc1 += fabsf(v.z) + fabsf(v.w);
            }
        }
        for (long i = tail_start + tid; i < cols; i += nt) acc1 += fabsf(xr[i]);

        const float total = block_sum(acc0 + acc1, sh);
        const float mean = total * (1.0f / (float)cols);

        for (long i = tail_start + tid; i < cols; i += nt) yr[i] = __ldcs(xr + i) / mean;
        {
            const float4* __restrict__ x4 = reinterpret_cast<const float4*>(xr + head);
            float4* __restrict__ y4 = reinterpret_cast<float4*>(yr + head);
#pragma unroll 4
            for (long i = body4 - 1 - tid; i >= 0; i -= nt) {
                float4 v = __ldcs(x4 + i);
                float4 r;
                r.x = v.x / mean; r.y = v.y / mean; r.z = v.z / mean; r.w = v.w / mean;
                __stcs(y4 + i, r);
            }
        }
        if (tid < head) yr[tid] = __ldcs(xr + tid) / mean;
    }
}
"""

_mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        # mean over dim 1 (keepdim) -> move dim 1 last, normalize rows, move back
        xt = x if x.dim() == 2 else x.movedim(1, -1)
        xt = xt.contiguous()
        y = torch.empty_like(xt)
        cols = xt.shape[-1]
        n = xt.numel()
        if n > 0 and cols > 0:
            rows = n // cols
            if cols >= 8192:
                threads = 1024
            elif cols >= 1024:
                threads = 256
            else:
                threads = 128
            sms = torch.cuda.get_device_properties(xt.device).multi_processor_count
            # one 1024-thread block per SM for long rows keeps the rows in flight (~132 x row bytes) inside L2
            per_sm = 1 if threads == 1024 else 2048 // threads
            grid = min(rows, sms * per_sm)
            _mod.l1norm_rows(grid=(grid,), block=(threads,), args=(xt, y, rows, cols))
        if x.dim() != 2:
            y = y.movedim(-1, 1)
        return y
