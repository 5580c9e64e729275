import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

_SRC = r"""
#define BM 128
#define BN 128
#define BK 16
#define PAD 4

__device__ __forceinline__ float epi(float v, float p0, float p1) {
    // mish(mish(v)), mish(x) = x * tanh(log1p(exp(x)))
    float t = v * tanhf(log1pf(expf(v)));
    return t * tanhf(log1pf(expf(t)));
}

// C[M,N] = epi(A[M,K] . B[N,K]^T + bias[N]).  A row-major (x), B row-major (nn.Linear weight).
// 256 threads, 128x128 tile, each thread an 8x8 micro-tile (two 4-row x two 4-col groups),
// register-prefetched double-buffered shared memory (BK = 16: one barrier per 16 k-steps), FP32 FFMA.
__global__ void __launch_bounds__(256, 2)
gemm_bias_epi(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ bias,
              float* __restrict__ C, long M, long N, long K, long ntn, float p0, float p1) {
    __shared__ __align__(16) float As[2][BK][BM + PAD];
    __shared__ __align__(16) float Bs[2][BK][BN + PAD];

    const int tid = threadIdx.x;
    // 1-D grid: consecutive blocks walk along N for the same M panel
    const long tm = (long)blockIdx.x / ntn;
    const long bm = tm * BM;
    const long bn = ((long)blockIdx.x - tm * ntn) * BN;

    // global load mapping: row = tid & 127, k-offsets lk and lk + 8 with lk = (tid >> 7) * 4
    // (a warp covers 32 consecutive rows: conflict-free transposed stores to shared memory)
    const int lrow = tid & 127;
    const int lk = (tid >> 7) * 4;
    const long arow = bm + lrow;
    const long brow = bn + lrow;
    const bool a_ok = arow < M;
    const bool b_ok = brow < N;
    const float* __restrict__ Ap = A + (a_ok ? arow : 0) * K;
    const float* __restrict__ Bp = B + (b_ok ? brow : 0) * K;
    const bool vec = ((K & 3L) == 0) &&
        (((((unsigned long long)A) | ((unsigned long long)B)) & 15ULL) == 0ULL);

    // compute mapping
    const int ty = tid >> 4;   // 0..15
    const int tx = tid & 15;   // 0..15

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    float ra[4], rb[4];
    const long ntiles = (K + BK - 1) / BK;

    // load half h of tile kt into registers: k = kt*BK + h*8 + lk + q
#define LOAD_HALF(kt_, h_) do {                                                    \
        const long kk = (long)(kt_) * BK + (h_) * 8 + lk;                          \
        if (vec) {                                                                 \
            float4 va = make_float4(0.f, 0.f, 0.f, 0.f), vb = va;                  \
            if (a_ok && kk < K) va = __ldg(reinterpret_cast<const float4*>(Ap + kk)); \
            if (b_ok && kk < K) vb = __ldg(reinterpret_cast<const float4*>(Bp + kk)); \
            ra[0] = va.x; ra[1] = va.y; ra[2] = va.z; ra[3] = va.w;                \
            rb[0] = vb.x; rb[1] = vb.y; rb[2] = vb.z; rb[3] = vb.w;                \
        } else {                                                                   \
            _Pragma("unroll")                                                      \
            for (int q = 0; q < 4; ++q) {                                          \
                ra[q] = (a_ok && kk + q < K) ? __ldg(Ap + kk + q) : 0.f;           \
                rb[q] = (b_ok && kk + q < K) ? __ldg(Bp + kk + q) : 0.f;           \
            }                                                                      \
        }                                                                          \
    } while (0)

#define STORE_HALF(buf_, h_) do {                                                  \
        _Pragma("unroll")                                                          \
        for (int q = 0; q < 4; ++q) {                                              \
            As[buf_][(h_) * 8 + lk + q][lrow] = ra[q];                             \
            Bs[buf_][(h_) * 8 + lk + q][lrow] = rb[q];                             \
        }                                                                          \
    } while (0)

#define COMPUTE_K(k_) do {                                                         \
        const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k_][ty * 4]);      \
        const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k_][64 + ty * 4]); \
        const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k_][tx * 4]);      \
        const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k_][64 + tx * 4]); \
        const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};      \
        const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};      \
        _Pragma("unroll")                                                          \
        for (int i = 0; i < 8; ++i)                                                \
            _Pragma("unroll")                                                      \
            for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]); \
    } while (0)

    LOAD_HALF(0, 0);
    STORE_HALF(0, 0);
    LOAD_HALF(0, 1);
    STORE_HALF(0, 1);
    __syncthreads();

    int cur = 0;
    for (long kt = 0; kt < ntiles; ++kt) {
        const bool has_next = (kt + 1) < ntiles;
        // the other buffer was last read before the previous barrier: fill it in two halves,
        // each half's global loads overlapping 8 k-steps of FFMA on the current buffer
        if (has_next) LOAD_HALF(kt + 1, 0);
#pragma unroll
        for (int k = 0; k < 8; ++k) COMPUTE_K(k);
        if (has_next) { STORE_HALF(cur ^ 1, 0); LOAD_HALF(kt + 1, 1); }
#pragma unroll
        for (int k = 8; k < 16; ++k) COMPUTE_K(k);
        if (has_next) STORE_HALF(cur ^ 1, 1);
        __syncthreads();
        cur ^= 1;
    }

    // epilogue
    const bool nvec = ((N & 3L) == 0) &&
        (((((unsigned long long)C) | ((unsigned long long)bias)) & 15ULL) == 0ULL);
#pragma unroll
    for (int jg = 0; jg < 2; ++jg) {
        const long c0 = bn + jg * 64 + tx * 4;
        float bb[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) bb[j] = (c0 + j < N) ? __ldg(bias + c0 + j) : 0.f;
#pragma unroll
        for (int ig = 0; ig < 2; ++ig) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const long r = bm + ig * 64 + ty * 4 + i;
                if (r >= M) continue;
                float o[4];
#pragma unroll
                for (int j = 0; j < 4; ++j) o[j] = epi(acc[ig * 4 + i][jg * 4 + j] + bb[j], p0, p1);
                float* __restrict__ cp = C + r * N + c0;
                if (nvec && c0 + 3 < N) {
                    *reinterpret_cast<float4*>(cp) = make_float4(o[0], o[1], o[2], o[3]);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j) if (c0 + j < N) cp[j] = o[j];
                }
            }
        }
    }
}
"""

_mod = nvrtc.compile(_SRC)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        w = self.linear.weight
        b = self.linear.bias
        K = x.shape[-1]
        lead = list(x.shape[:-1])
        x2 = x.reshape(-1, K).contiguous()
        w = w.contiguous()
        b = b.contiguous()
        M = x2.shape[0]
        N = w.shape[0]
        out = torch.empty((M, N), dtype=x.dtype, device=x.device)
        if M > 0 and N > 0:
            ntn = (N + 127) // 128
            ntm = (M + 127) // 128
            _mod.gemm_bias_epi(grid=(ntn * ntm,), block=(256,),
                               args=(x2, w, b, out, M, N, K, ntn, 0.0, 0.0))
        return out.reshape(lead + [N])
