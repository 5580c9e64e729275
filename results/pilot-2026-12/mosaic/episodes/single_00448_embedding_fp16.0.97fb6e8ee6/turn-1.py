import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

// ---------------------------------------------------------------------------------------------
// Direct path (few ids per vocabulary row): one warp per looked-up id.
// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Dedup path (many ids per vocabulary row): counting sort of the positions by id, then each
// vocabulary row is read from HBM about once and written to every position that looks it up.
// ---------------------------------------------------------------------------------------------
__global__ void zero_int(int* __restrict__ p, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = 0;
}

__global__ void count_ids(const long* __restrict__ ids, int* __restrict__ counts, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(counts + ids[i], 1);
}

// Single block of 1024 threads. Exclusive scan of counts[0..V) into offsets[0..V], and the
// same exclusive offsets copied into counts (used as scatter cursors afterwards).
#define SCAN_ITEMS 16
__global__ void __launch_bounds__(1024) scan_counts(int* __restrict__ counts, int* __restrict__ offsets, long V) {
    __shared__ int wsum[32];
    __shared__ int tile_total;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int carry = 0;
    for (long base = 0; base < V; base += 1024L * SCAN_ITEMS) {
        const long start = base + (long)tid * SCAN_ITEMS;
        int vals[SCAN_ITEMS];
        int tsum = 0;
#pragma unroll
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            long i = start + k;
            vals[k] = (i < V) ? counts[i] : 0;
            tsum += vals[k];
        }
        int incl = tsum;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o) incl += t;
        }
        if (lane == 31) wsum[warp] = incl;
        __syncthreads();
        if (warp == 0) {
            int w = wsum[lane];
            int wi = w;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                int t = __shfl_up_sync(0xffffffffu, wi, o);
                if (lane >= o) wi += t;
            }
            wsum[lane] = wi - w;
            if (lane == 31) tile_total = wi;
        }
        __syncthreads();
        int run = carry + wsum[warp] + (incl - tsum);
#pragma unroll
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            long i = start + k;
            if (i < V) { offsets[i] = run; counts[i] = run; }
            run += vals[k];
        }
        carry += tile_total;
        __syncthreads();
    }
    if (tid == 0) offsets[V] = carry;
}

__global__ void scatter_positions(const long* __restrict__ ids, int* __restrict__ cursor,
                                  int* __restrict__ perm, int* __restrict__ sorted_ids, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const long id = ids[i];
        int pos = atomicAdd(cursor + id, 1);
        perm[pos] = (int)i;
        sorted_ids[pos] = (int)id;
    }
}

// Block b copies the sorted positions [b*P, min(n, (b+1)*P)): the same amount of output per block
// whatever the id distribution. Consecutive sorted positions share their id, so a row chunk is
// loaded into registers only when the id changes and is then stored to every position that looks
// it up (each vocabulary row is read about once per block it spans). D % 8 == 0, 16-byte aligned.
#define CP_ITEMS 4
__global__ void __launch_bounds__(64, 32) emb_sorted_copy(const __half* __restrict__ weight, __half* __restrict__ out,
                                                         const int* __restrict__ sorted_ids, const int* __restrict__ perm,
                                                         long n, long P, long D) {
    const long j0 = (long)blockIdx.x * P;
    const long j1 = (j0 + P < n) ? (j0 + P) : n;
    const long D8 = D >> 3;
    const uint4* w = reinterpret_cast<const uint4*>(weight);
    uint4* o = reinterpret_cast<uint4*>(out);
    const long step = blockDim.x;
    for (long base = 0; base < D8; base += step * CP_ITEMS) {
        uint4 a[CP_ITEMS];
        int prev = -1;
        for (long j = j0; j < j1; ++j) {
            const int v = sorted_ids[j];
            const long r = perm[j];
            if (v != prev) {   // block-uniform branch
                const uint4* src = w + (long)v * D8;
#pragma unroll
                for (int k = 0; k < CP_ITEMS; ++k) {
                    long c = base + threadIdx.x + k * step;
                    if (c < D8) a[k] = __ldg(src + c);
                }
                prev = v;
            }
            uint4* dst = o + r * D8;
#pragma unroll
            for (int k = 0; k < CP_ITEMS; ++k) {
                long c = base + threadIdx.x + k * step;
                if (c < D8) __stcs(dst + c, a[k]);
            }
        }
    }
}
""")

_MAX_GRID = 132 * 8
_COPY_BLOCKS = 132 * 32  # H200: 132 SMs x 32 resident 64-thread blocks


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(32000, 2048)
        self.to(torch.float16)

    def forward(self, ids):
        ids = ids.contiguous()
        w = self.emb.weight.contiguous()
        V, D = w.shape[0], w.shape[1]
        n_ids = ids.numel()
        out = torch.empty(tuple(ids.shape) + (D,), dtype=w.dtype, device=w.device)
        if n_ids == 0 or D == 0:
            return out
        aligned = (w.data_ptr() % 16 == 0) and (out.data_ptr() % 16 == 0)
        if D % 8 == 0 and aligned and n_ids >= 2 * V and n_ids < 2**31 - 1:
            counts = torch.empty(V, dtype=torch.int32, device=w.device)
            offsets = torch.empty(V + 1, dtype=torch.int32, device=w.device)
            perm = torch.empty(n_ids, dtype=torch.int32, device=w.device)
            sorted_ids = torch.empty(n_ids, dtype=torch.int32, device=w.device)
            gz = min((V + 255) // 256, _MAX_GRID)
            gn = min((n_ids + 255) // 256, _MAX_GRID)
            mod.zero_int(grid=(gz,), block=(256,), args=(counts, V))
            mod.count_ids(grid=(gn,), block=(256,), args=(ids, counts, n_ids))
            mod.scan_counts(grid=(1,), block=(1024,), args=(counts, offsets, V))
            mod.scatter_positions(grid=(gn,), block=(256,), args=(ids, counts, perm, sorted_ids, n_ids))
            # One wave of resident copy blocks (64 threads, 32 per SM), each with the same share of positions.
            gc = min(_COPY_BLOCKS, n_ids)
            P = (n_ids + gc - 1) // gc
            gc = (n_ids + P - 1) // P
            mod.emb_sorted_copy(grid=(gc,), block=(64,), args=(w, out, sorted_ids, perm, n_ids, P, D))
        else:
            warps = 8
            grid = ((n_ids + warps - 1) // warps,)
            mod.emb_gather(grid=grid, block=(32 * warps,), args=(ids, w, out, n_ids, D))
        return out
