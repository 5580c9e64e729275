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

// out = T * (log T - log_softmax(p)),  T = softmax(t).
// With et = exp(t - mt), st = sum et:  T = et / st,  log T = (t - mt) - log(st)  (analytic, no logf
// per element, no second exp), log_softmax(p) = (p - mp) - log(sp).  T == 0 (underflow) gives 0,
// matching xlogy(0, 0) = 0.
__device__ __forceinline__ float kl_out(float p, float t, float et, float mp, float lsp, float mt, float lst,
                                        float inv_st) {
    const float T = et * inv_st;
    return T * (((t - mt) - lst) - ((p - mp) - lsp));
}

// Vector path: one warp per row, N % 4 == 0, N <= 512, 16-byte aligned rows; row cached in registers.
__global__ void __launch_bounds__(256) kl_rows_vec(const float* __restrict__ pred, const float* __restrict__ targ,
                                                   float* __restrict__ out, long M, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= M) return;
    const long NV = N >> 2;
    const float4* pr = reinterpret_cast<const float4*>(pred + row * N);
    const float4* tr = reinterpret_cast<const float4*>(targ + row * N);
    float4* orow = reinterpret_cast<float4*>(out + row * N);
    float4 pv[4], tv[4];
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        const long c = lane + 32L * j;
        if (c < NV) {
            pv[j] = pr[c];
            tv[j] = tr[c];
        } else {
            pv[j] = make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
            tv[j] = make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
        }
    }
    float mp = NEG_INF, mt = NEG_INF;
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        mp = fmaxf(mp, fmaxf(fmaxf(pv[j].x, pv[j].y), fmaxf(pv[j].z, pv[j].w)));
        mt = fmaxf(mt, fmaxf(fmaxf(tv[j].x, tv[j].y), fmaxf(tv[j].z, tv[j].w)));
    }
    mp = warp_max(mp);
    mt = warp_max(mt);
    float sp = 0.f, st = 0.f;
    float4 ev[4];
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        const long c = lane + 32L * j;
        if (c < NV) {
            sp += (expf(pv[j].x - mp) + expf(pv[j].y - mp)) + (expf(pv[j].z - mp) + expf(pv[j].w - mp));
            ev[j].x = expf(tv[j].x - mt); ev[j].y = expf(tv[j].y - mt);
            ev[j].z = expf(tv[j].z - mt); ev[j].w = expf(tv[j].w - mt);
            st += (ev[j].x + ev[j].y) + (ev[j].z + ev[j].w);
        } else {
            ev[j] = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    sp = warp_sum(sp);
    st = warp_sum(st);
    const float lsp = logf(sp);
    const float lst = logf(st);
    const float inv_st = 1.0f / st;
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        const long c = lane + 32L * j;
        if (c < NV) {
            float4 o;
            o.x = kl_out(pv[j].x, tv[j].x, ev[j].x, mp, lsp, mt, lst, inv_st);
            o.y = kl_out(pv[j].y, tv[j].y, ev[j].y, mp, lsp, mt, lst, inv_st);
            o.z = kl_out(pv[j].z, tv[j].z, ev[j].z, mp, lsp, mt, lst, inv_st);
            o.w = kl_out(pv[j].w, tv[j].w, ev[j].w, mp, lsp, mt, lst, inv_st);
            orow[c] = o;
        }
    }
}

// Scalar register path: one warp per row, any N <= 512 / any alignment.
__global__ void __launch_bounds__(256) kl_rows_reg(const float* __restrict__ pred, const float* __restrict__ targ,
                                                   float* __restrict__ out, long M, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= M) return;
    const float* pr = pred + row * N;
    const float* tr = targ + row * N;
    float* orow = out + row * N;
    float pv[16], tv[16], ev[16];
    float mp = NEG_INF, mt = NEG_INF;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        const long c = lane + 32L * j;
        if (c < N) { pv[j] = pr[c]; tv[j] = tr[c]; } else { pv[j] = NEG_INF; tv[j] = NEG_INF; }
    }
    #pragma unroll
    for (int j = 0; j < 16; ++j) { mp = fmaxf(mp, pv[j]); mt = fmaxf(mt, tv[j]); }
    mp = warp_max(mp);
    mt = warp_max(mt);
    float sp = 0.f, st = 0.f;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        const long c = lane + 32L * j;
        ev[j] = 0.f;
        if (c < N) { sp += expf(pv[j] - mp); ev[j] = expf(tv[j] - mt); st += ev[j]; }
    }
    sp = warp_sum(sp);
    st = warp_sum(st);
    const float lsp = logf(sp);
    const float lst = logf(st);
    const float inv_st = 1.0f / st;
    #pragma unroll
    for (int j = 0; j < 16; ++j) {
        const long c = lane + 32L * j;
        if (c < N) orow[c] = kl_out(pv[j], tv[j], ev[j], mp, lsp, mt, lst, inv_st);
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
    const float lst = logf(st);
    const float inv_st = 1.0f / st;
    for (long c = lane; c < N; c += 32) {
        const float t = tr[c];
        orow[c] = kl_out(pr[c], t, expf(t - mt), mp, lsp, mt, lst, inv_st);
    }
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
        aligned = (p.data_ptr() % 16 == 0) and (t.data_ptr() % 16 == 0) and (out.data_ptr() % 16 == 0)
        if N <= 512 and N % 4 == 0 and aligned:
            mod.kl_rows_vec(grid=grid, block=(32 * warps,), args=(p, t, out, M, N))
        elif N <= 512:
            mod.kl_rows_reg(grid=grid, block=(32 * warps,), args=(p, t, out, M, N))
        else:
            mod.kl_rows_generic(grid=grid, block=(32 * warps,), args=(p, t, out, M, N))
        return out
