import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# C[b] = X[b] @ X[b]^T / 256 in fp32 (FFMA, no TF32). The output is symmetric: each block computes one
# 128x128 tile (ti, tj) with ti <= tj and also writes its transpose into (tj, ti). Diagonal tiles skip
# their lower-left quadrant (transpose of the upper-right one): 25% fewer FMAs on those tiles.
_SRC = r"""
#define BM 128
#define BK 8
#define LDS (BM + 4)

__device__ __forceinline__ void load_tile(const float* __restrict__ Xb, long M, long K, long row0, long k0,
                                          int lr, int lk, int vec, float4& v) {
    long row = row0 + lr;
    long k = k0 + lk;
    v.x = 0.f; v.y = 0.f; v.z = 0.f; v.w = 0.f;
    if (row < M) {
        const float* p = Xb + row * K + k;
        if (vec && k + 3 < K) {
            v = __ldg(reinterpret_cast<const float4*>(p));
        } else {
            if (k < K)     v.x = __ldg(p);
            if (k + 1 < K) v.y = __ldg(p + 1);
            if (k + 2 < K) v.z = __ldg(p + 2);
            if (k + 3 < K) v.w = __ldg(p + 3);
        }
    }
}

__device__ __forceinline__ void store4(float* __restrict__ Cb, long M, long row, long col, int vec,
                                       float a, float b, float c, float d) {
    if (row >= M) return;
    float* p = Cb + row * M + col;
    if (vec && col + 3 < M) {
        *reinterpret_cast<float4*>(p) = make_float4(a, b, c, d);
    } else {
        if (col < M)     p[0] = a;
        if (col + 1 < M) p[1] = b;
        if (col + 2 < M) p[2] = c;
        if (col + 3 < M) p[3] = d;
    }
}

// DIAG: tile (ti, ti). Its lower-left 64x64 quadrant is the transpose of the upper-right one, so it is
// not computed (each thread does 48 instead of 64 FMAs per k) and is written from the upper-right values.
template <bool DIAG>
__device__ __forceinline__ void gram_tile(const float* __restrict__ X, float* __restrict__ C,
        long M, long K, long b, long ti, long tj, int vec_in, int vec_out, float scale,
        float (*As)[BK][LDS], float (*Bs)[BK][LDS]) {
    const bool diag = (ti == tj);

    const float* __restrict__ Xb = X + b * M * K;
    float* __restrict__ Cb = C + b * M * M;

    const int tid = threadIdx.x;
    const int lr = tid >> 1, lk = (tid & 1) * 4;
    const int tx = tid & 15, ty = tid >> 4;
    const long rowA0 = ti * BM, rowB0 = tj * BM;

    float acc[8][8];
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    float4 ra, rb;
    load_tile(Xb, M, K, rowA0, 0, lr, lk, vec_in, ra);
    As[0][lk + 0][lr] = ra.x; As[0][lk + 1][lr] = ra.y; As[0][lk + 2][lr] = ra.z; As[0][lk + 3][lr] = ra.w;
    if (!diag) {
        load_tile(Xb, M, K, rowB0, 0, lr, lk, vec_in, rb);
        Bs[0][lk + 0][lr] = rb.x; Bs[0][lk + 1][lr] = rb.y; Bs[0][lk + 2][lr] = rb.z; Bs[0][lk + 3][lr] = rb.w;
    }
    __syncthreads();

    const long nk = (K + BK - 1) / BK;
    for (long kt = 0; kt < nk; ++kt) {
        const int cur = (int)(kt & 1);
        const bool more = (kt + 1 < nk);
        if (more) {
            load_tile(Xb, M, K, rowA0, (kt + 1) * BK, lr, lk, vec_in, ra);
            if (!diag) load_tile(Xb, M, K, rowB0, (kt + 1) * BK, lr, lk, vec_in, rb);
        }
        const float (*Asc)[LDS] = As[cur];
        const float (*Bsc)[LDS] = diag ? As[cur] : Bs[cur];
        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Asc[kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Asc[kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bsc[kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bsc[kk][64 + tx * 4]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i)
                #pragma unroll
                for (int j = 0; j < 8; ++j)
                    if (!DIAG || i < 4 || j >= 4) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        if (more) {
            const int nxt = cur ^ 1;
            As[nxt][lk + 0][lr] = ra.x; As[nxt][lk + 1][lr] = ra.y; As[nxt][lk + 2][lr] = ra.z; As[nxt][lk + 3][lr] = ra.w;
            if (!diag) {
                Bs[nxt][lk + 0][lr] = rb.x; Bs[nxt][lk + 1][lr] = rb.y; Bs[nxt][lk + 2][lr] = rb.z; Bs[nxt][lk + 3][lr] = rb.w;
            }
        }
        __syncthreads();
    }

    // Tile (ti, tj): rows rowA0 + ridx(i), cols rowB0 + cidx(j)
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        const long r = rowA0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (!DIAG || i < 4)
            store4(Cb, M, r, rowB0 + tx * 4, vec_out,
                   acc[i][0] * scale, acc[i][1] * scale, acc[i][2] * scale, acc[i][3] * scale);
        store4(Cb, M, r, rowB0 + 64 + tx * 4, vec_out,
               acc[i][4] * scale, acc[i][5] * scale, acc[i][6] * scale, acc[i][7] * scale);
    }
    if (DIAG) {
        // lower-left quadrant = transpose of the upper-right one: C[64 + c][r] = C[r][64 + c]
        #pragma unroll
        for (int j = 4; j < 8; ++j) {
            const long r = rowB0 + 64 + tx * 4 + (j - 4);
            store4(Cb, M, r, rowA0 + ty * 4, vec_out,
                   acc[0][j] * scale, acc[1][j] * scale, acc[2][j] * scale, acc[3][j] * scale);
        }
    } else {
        // Mirror tile (tj, ti): C[col][row] = C[row][col]
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            const long r = rowB0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
            store4(Cb, M, r, rowA0 + ty * 4, vec_out,
                   acc[0][j] * scale, acc[1][j] * scale, acc[2][j] * scale, acc[3][j] * scale);
            store4(Cb, M, r, rowA0 + 64 + ty * 4, vec_out,
                   acc[4][j] * scale, acc[5][j] * scale, acc[6][j] * scale, acc[7][j] * scale);
        }
    }
}

// Diagonal tiles (ti, ti): one block per (batch, ti).
__global__ void __launch_bounds__(256, 2) gram_diag_kernel(const float* __restrict__ X, float* __restrict__ C,
        long M, long K, long T, int vec_in, int vec_out, float scale) {
    __shared__ __align__(16) float As[2][BK][LDS];
    __shared__ __align__(16) float Bs[2][BK][LDS];
    const long bid = blockIdx.x;
    const long b = bid / T;
    const long ti = bid - b * T;
    gram_tile<true>(X, C, M, K, b, ti, ti, vec_in, vec_out, scale, As, Bs);
}

// Off-diagonal tiles (ti, tj), ti < tj: one block per (batch, pair); also writes the mirror tile.
__global__ void __launch_bounds__(256, 2) gram_off_kernel(const float* __restrict__ X, float* __restrict__ C,
        long M, long K, long npairs, long T, int vec_in, int vec_out, float scale) {
    __shared__ __align__(16) float As[2][BK][LDS];
    __shared__ __align__(16) float Bs[2][BK][LDS];
    const long bid = blockIdx.x;
    const long b = bid / npairs;
    long rem = bid - b * npairs;
    long ti = 0;
    while (rem >= T - 1 - ti) { rem -= T - 1 - ti; ++ti; }
    const long tj = ti + 1 + rem;
    gram_tile<false>(X, C, M, K, b, ti, tj, vec_in, vec_out, scale, As, Bs);
}
"""

mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M = x.shape[-2]
        K = x.shape[-1]
        lead = x.shape[:-2]
        out = torch.empty(*lead, M, M, dtype=x.dtype, device=x.device)
        B = x.numel() // (M * K) if M * K > 0 else 0
        if B == 0 or M == 0:
            return out
        if K == 0:
            return torch.zeros(*lead, M, M, dtype=x.dtype, device=x.device)
        T = (M + 127) // 128
        vec_in = 1 if (K % 4 == 0 and x.data_ptr() % 16 == 0) else 0
        vec_out = 1 if (M % 4 == 0 and out.data_ptr() % 16 == 0) else 0
        scale = 1.0 / 256.0
        mod.gram_diag_kernel(grid=(B * T,), block=(256,),
                             args=(x, out, M, K, T, vec_in, vec_out, scale))
        if T > 1:
            npairs = T * (T - 1) // 2
            mod.gram_off_kernel(grid=(B * npairs,), block=(256,),
                                args=(x, out, M, K, npairs, T, vec_in, vec_out, scale))
        return out
