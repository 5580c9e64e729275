import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// out = softmax(t) * (log(softmax(t)) - log_softmax(p)), with xlogy(0, 0) = 0.
__device__ __forceinline__ float kl_elem(float p, float t, float mp, float lsp, float mt, float inv_st) {
    float lp = (p - mp) - lsp;                 // log_softmax(p)
    float T = expf(t - mt) * inv_st;           // softmax(t)
    float tl = (T > 0.f) ? T * logf(T) : 0.f;  // xlogy(T, T)
    return tl - T * lp;
}

// One warp per row; row cached in registers (N <= 32 * 16 = 512).
__global__ void kl_rows_reg(const float* __restrict__ pred, const float* __restrict__ targ,
                            float* __restrict__ out, long M, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= M) return;
    const float* pr = pred + row * N;
    const float* tr = targ + row * N;
    float* orow = out + row * N;
    float pv[16], tv[16];
    float mp = NEG_INF, mt = NEG_INF;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        long c = lane + 32L * j;
        if (c < N) {
            pv[j] = __ldcs(pr + c);
            tv[j] = __ldcs(tr + c);
        } else {
            pv[j] = NEG_INF;
            tv[j] = NEG_INF;
        }
    }
    #pragma unroll
    for (int j = 0; j < 16; ++j) { mp = fmaxf(mp, pv[j]); mt = fmaxf(mt, tv[j]); }
    mp = warp_max(mp);
    mt = warp_max(mt);
    float sp = 0.f, st = 0.f;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        long c = lane + 32L * j;
        if (c < N) { sp += expf(pv[j] - mp); st += expf(tv[j] - mt); }
    }
    sp = warp_sum(sp);
    st = warp_sum(st);
    const float lsp = logf(sp);
    const float inv_st = 1.0f / st;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        long c = lane + 32L * j;
        if (c < N) __stcs(orow + c, kl_elem(pv[j], tv[j], mp, lsp, mt, inv_st));
    }
}

// Generic: one warp per row, any N (three passes over memory).
__global__ void kl_rows_generic(const float* __restrict__ pred, const float* __restrict__ targ,
                                float* __restrict__ out, long M, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= M) return;
    const float* pr = pred + row * N;
    const float* tr = targ + row * N;
    float* orow = out + row * N;
    float mp = NEG_INF, mt = NEG_INF;
    for (long c = lane; c < N; c += 32) { mp = fmaxf(mp, pr[c]); mt = fmaxf(mt, tr[c]); }
    mp = warp_max(mp);
    mt = warp_max(mt);
    float sp = 0.f, st = 0.f;
    for (long c = lane; c < N; c += 32) { sp += expf(pr[c] - mp); st += expf(tr[c] - mt); }
    sp = warp_sum(sp);
    st = warp_sum(st);
    const float lsp = logf(sp);
    const float inv_st = 1.0f / st;
    for (long c = lane; c < N; c += 32) orow[c] = kl_elem(pr[c], tr[c], mp, lsp, mt, inv_st);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        out = torch.empty_like(p)
        N = p.shape[-1]
        M = p.numel() // N if N > 0 else 0
        if M == 0 or N == 0:
            return out
        warps = 8
        grid = ((M + warps - 1) // warps,)
        if N <= 512:
            mod.kl_rows_reg(grid=grid, block=(32 * warps,), args=(p, t, out, M, N))
        else:
            mod.kl_rows_generic(grid=grid, block=(32 * warps,), args=(p, t, out, M, N))
        return out
