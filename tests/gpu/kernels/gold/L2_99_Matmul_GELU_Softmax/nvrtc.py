"""Gold candidate (nvrtc backend) for KernelBench level2/99_Matmul_GELU_Softmax.py.

softmax(gelu(x @ W^T + b), dim=1), 1024x8192x8192: tiled fp32 GEMM with bias + exact (erf) GELU in
the epilogue into a scratch buffer, then a one-block-per-row online softmax.
Device code is compiled by kernelmosaic.verify.nvrtc; forward only allocates and launches.
"""
import torch
import torch.nn as nn

from kernelmosaic.verify import nvrtc

SRC = r"""
#define KM_BM 128
#define KM_BN 128
#define KM_BK 8
#define KM_PAD 4

// Row (0..127) inside the tile of acc[i][.] for thread row ty (0..15), and likewise columns.
__device__ __forceinline__ int km_sub(int i, int t) { return i < 4 ? t * 4 + i : 64 + t * 4 + (i - 4); }

__device__ __forceinline__ bool km_aligned16(const void* p) {
    return (reinterpret_cast<unsigned long long>(p) & 15ull) == 0ull;
}

// acc = A[m0:m0+128, :] * op(B)[:, n0:n0+128] for one 128x128 tile of C, accumulated in fp32.
//   A is M x K row-major.
//   B_NK = true : B is N x K row-major (an nn.Linear weight), op(B) = B^T
//   B_NK = false: B is K x N row-major, op(B) = B
// Must be called by all 256 threads of the block. Out-of-range rows/columns/k read as 0.
template <bool B_NK>
__device__ __forceinline__ void sgemm_tile_128x128(const float* __restrict__ A, const float* __restrict__ B,
                                                   int M, int N, int K, int m0, int n0, float (&acc)[8][8]) {
    __shared__ __align__(16) float As[KM_BK][KM_BM + KM_PAD];
    __shared__ __align__(16) float Bs[KM_BK][KM_BN + KM_PAD];
    const int tid = threadIdx.x;
    const int ty = tid >> 4, tx = tid & 15;
    const int l_row = tid >> 1;          // 0..127: tile row loaded by this thread (A, and B when B_NK)
    const int l_k = (tid & 1) << 2;      // 0 or 4: first of the 4 k's loaded by this thread
    const int kn_k = tid >> 5;           // 0..7  : k row of B loaded (B_NK == false)
    const int kn_n = (tid & 31) << 2;    // 0..124: first of 4 columns of B loaded (B_NK == false)
    const bool a_vec = ((K & 3) == 0) && km_aligned16(A);
    const bool b_vec = B_NK ? (((K & 3) == 0) && km_aligned16(B)) : (((N & 3) == 0) && km_aligned16(B));

    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
    }

    for (int k0 = 0; k0 < K; k0 += KM_BK) {
        {   // A tile -> As[k][m]
            const int gm = m0 + l_row, gk = k0 + l_k;
            float v[4];
            if (gm < M && a_vec && gk + 3 < K) {
                const float4 t = *reinterpret_cast<const float4*>(A + (long)gm * K + gk);
                v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
            } else {
                #pragma unroll
                for (int j = 0; j < 4; ++j) v[j] = (gm < M && gk + j < K) ? A[(long)gm * K + gk + j] : 0.0f;
            }
            #pragma unroll
            for (int j = 0; j < 4; ++j) As[l_k + j][l_row] = v[j];
        }
        if (B_NK) {   // B tile (N x K) -> Bs[k][n]
            const int gn = n0 + l_row, gk = k0 + l_k;
            float v[4];
            if (gn < N && b_vec && gk + 3 < K) {
                const float4 t = *reinterpret_cast<const float4*>(B + (long)gn * K + gk);
                v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
            } else {
                #pragma unroll
                for (int j = 0; j < 4; ++j) v[j] = (gn < N && gk + j < K) ? B[(long)gn * K + gk + j] : 0.0f;
            }
            #pragma unroll
            for (int j = 0; j < 4; ++j) Bs[l_k + j][l_row] = v[j];
        } else {      // B tile (K x N) -> Bs[k][n]
            const int gk = k0 + kn_k, gn = n0 + kn_n;
            float v[4];
            if (gk < K && b_vec && gn + 3 < N) {
                const float4 t = *reinterpret_cast<const float4*>(B + (long)gk * N + gn);
                v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
            } else {
                #pragma unroll
                for (int j = 0; j < 4; ++j) v[j] = (gk < K && gn + j < N) ? B[(long)gk * N + gn + j] : 0.0f;
            }
            #pragma unroll
            for (int j = 0; j < 4; ++j) Bs[kn_k][kn_n + j] = v[j];
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < KM_BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk][64 + tx * 4]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i) {
                #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
        }
        __syncthreads();
    }
}

// Store 4 consecutive values of one output row starting at column col (bounds-checked).
__device__ __forceinline__ void km_store4(float* __restrict__ crow, int col, int N, bool vec,
                                          float v0, float v1, float v2, float v3) {
    if (vec && col + 3 < N) {
        *reinterpret_cast<float4*>(crow + col) = make_float4(v0, v1, v2, v3);
    } else {
        if (col < N) crow[col] = v0;
        if (col + 1 < N) crow[col + 1] = v1;
        if (col + 2 < N) crow[col + 2] = v2;
        if (col + 3 < N) crow[col + 3] = v3;
    }
}

#define KM_NEG_BIG (-3.402823466e38f)
#define KM_FULL 0xffffffffu

// Merge two partial (max, sum of exp(x - max)) pairs. An empty pair is (KM_NEG_BIG, 0).
__device__ __forceinline__ void ms_combine(float& m, float& s, float m2, float s2) {
    float mn = fmaxf(m, m2);
    s = s * expf(m - mn) + s2 * expf(m2 - mn);
    m = mn;
}

__device__ __forceinline__ void ms_push(float& m, float& s, float v) {
    if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
    } else {
        s += expf(v - m);
    }
}

// Block-wide (max, sum) reduction; blockDim.x must be a multiple of 32 (<= 1024).
// Every thread gets the result.
__device__ __forceinline__ void block_ms(float& m, float& s) {
    __shared__ float sh_m[32];
    __shared__ float sh_s[32];
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(KM_FULL, m, o);
        float s2 = __shfl_xor_sync(KM_FULL, s, o);
        ms_combine(m, s, m2, s2);
    }
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int nw = blockDim.x >> 5;
    if (lane == 0) { sh_m[wid] = m; sh_s[wid] = s; }
    __syncthreads();
    if (wid == 0) {
        m = lane < nw ? sh_m[lane] : KM_NEG_BIG;
        s = lane < nw ? sh_s[lane] : 0.0f;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            float m2 = __shfl_xor_sync(KM_FULL, m, o);
            float s2 = __shfl_xor_sync(KM_FULL, s, o);
            ms_combine(m, s, m2, s2);
        }
        if (lane == 0) { sh_m[0] = m; sh_s[0] = s; }
    }
    __syncthreads();
    m = sh_m[0];
    s = sh_s[0];
    __syncthreads();  // sh_m/sh_s may be reused by the next call
}

// Per-thread (max, sum) over one row, float4 loads when possible.
__device__ __forceinline__ void row_ms(const float* __restrict__ xr, long cols, bool vec, float& m, float& s) {
    m = KM_NEG_BIG;
    s = 0.0f;
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const long n4 = cols >> 2;
        for (long i = threadIdx.x; i < n4; i += blockDim.x) {
            float4 v = x4[i];
            ms_push(m, s, v.x); ms_push(m, s, v.y); ms_push(m, s, v.z); ms_push(m, s, v.w);
        }
    } else {
        for (long i = threadIdx.x; i < cols; i += blockDim.x) ms_push(m, s, xr[i]);
    }
}

__global__ __launch_bounds__(256) void linear_bias_gelu(const float* __restrict__ X, const float* __restrict__ W,
                                                        const float* __restrict__ bias, float* __restrict__ H,
                                                        int M, int N, int K) {
    float acc[8][8];
    const int m0 = blockIdx.y * KM_BM, n0 = blockIdx.x * KM_BN;
    sgemm_tile_128x128<true>(X, W, M, N, K, m0, n0, acc);
    const int ty = threadIdx.x >> 4, tx = threadIdx.x & 15;
    float bj[8];
    #pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int col = n0 + km_sub(j, tx);
        bj[j] = col < N ? bias[col] : 0.0f;
    }
    const bool vec = ((N & 3) == 0) && km_aligned16(H);
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + km_sub(i, ty);
        if (row >= M) continue;
        float v[8];
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            const float z = acc[i][j] + bj[j];
            v[j] = 0.5f * z * (1.0f + erff(z * 0.70710678118654752f));   // exact GELU, as F.gelu's default
        }
        float* hrow = H + (long)row * N;
        km_store4(hrow, n0 + tx * 4, N, vec, v[0], v[1], v[2], v[3]);
        km_store4(hrow, n0 + 64 + tx * 4, N, vec, v[4], v[5], v[6], v[7]);
    }
}

__global__ __launch_bounds__(1024) void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long cols) {
    const bool vec = ((cols & 3) == 0) &&
        (((reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y)) & 15ull) == 0ull);
    for (long row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* xr = x + row * cols;
        float* yr = y + row * cols;
        float m, s;
        row_ms(xr, cols, vec, m, s);
        block_ms(m, s);
        if (vec) {
            const float4* x4 = reinterpret_cast<const float4*>(xr);
            float4* y4 = reinterpret_cast<float4*>(yr);
            for (long i = threadIdx.x; i < (cols >> 2); i += blockDim.x) {
                float4 v = x4[i];
                v.x = expf(v.x - m) / s; v.y = expf(v.y - m) / s; v.z = expf(v.z - m) / s; v.w = expf(v.w - m) / s;
                y4[i] = v;
            }
        } else {
            for (long i = threadIdx.x; i < cols; i += blockDim.x) yr[i] = expf(xr[i] - m) / s;
        }
    }
}
"""

mod = nvrtc.compile(SRC)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # parameters only; never called

    def forward(self, x):
        x = x.contiguous()
        w = self.linear.weight.contiguous()
        b = self.linear.bias.contiguous()
        M, K = x.shape
        N = w.shape[0]
        assert w.shape[1] == K and b.numel() == N
        h = torch.empty((M, N), device=x.device, dtype=x.dtype)
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        if M == 0 or N == 0:
            return y
        grid = ((N + 127) // 128, (M + 127) // 128)
        mod.linear_bias_gelu(grid=grid, block=(256,), args=(x, w, b, h, M, N, K))
        mod.softmax_rows(grid=(min(M, 2**31 - 1),), block=(1024,), args=(h, y, M, N))
        return y
