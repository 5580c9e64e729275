import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
// Unbiased std over dim 1 of a contiguous tensor viewed as (B, C, inner).
// A block of 256 threads = 8 warps ("groups") x 32 lanes. Every lane owns V consecutive
// inner positions (float4 when possible); the C axis is split into 8 contiguous ranges, one
// per warp, so each thread has only ceil(C/8) rows to read (all loads of a chunk in flight at
// once). Inside a thread: exact two-pass mean / M2 per chunk of 8 rows (registers), merged
// with Chan et al.; the 8 per-warp partials are merged the same way through shared memory.
// One read of x, coalesced (each warp instruction reads 512 contiguous bytes of a row).

#define CHUNK 8
#define G 8
#define LANES 32

template <int V>
__device__ __forceinline__ void load_vec(const float* __restrict__ p, float* out) {
    if (V == 4) {
        float4 a = __ldg(reinterpret_cast<const float4*>(p));
        out[0] = a.x; out[1] = a.y; out[2] = a.z; out[3] = a.w;
    } else {
        #pragma unroll
        for (int k = 0; k < V; ++k) out[k] = __ldg(p + k);
    }
}

// rows [c_begin, c_end) of one (b, inner position group); returns mean and M2 (count = c_end - c_begin)
template <int V>
__device__ __forceinline__ void std_part(const float* __restrict__ base, long inner, long c_begin, long c_end,
                                         float* mean, float* m2) {
    #pragma unroll
    for (int k = 0; k < V; ++k) { mean[k] = 0.f; m2[k] = 0.f; }
    float n = 0.f;
    for (long c0 = c_begin; c0 < c_end; c0 += CHUNK) {
        long rem = c_end - c0;
        int cnt = rem < CHUNK ? (int)rem : CHUNK;
        float v[CHUNK][V];
        #pragma unroll
        for (int j = 0; j < CHUNK; ++j) {
            if (j < cnt) {
                load_vec<V>(base + (c0 + j) * inner, v[j]);
            } else {
                #pragma unroll
                for (int k = 0; k < V; ++k) v[j][k] = 0.f;
            }
        }
        float nb = (float)cnt;
        float inv_nb = 1.0f / nb;
        float nn = n + nb;
        float w_delta = nb / nn;
        float w_m2 = n * nb / nn;
        #pragma unroll
        for (int k = 0; k < V; ++k) {
            float s = 0.f;
            #pragma unroll
            for (int j = 0; j < CHUNK; ++j) s += v[j][k];   // padded entries are 0
            float cm = s * inv_nb;
            float q = 0.f;
            #pragma unroll
            for (int j = 0; j < CHUNK; ++j) {
                float d = v[j][k] - cm;
                q = (j < cnt) ? fmaf(d, d, q) : q;
            }
            float delta = cm - mean[k];
            mean[k] = fmaf(delta, w_delta, mean[k]);
            m2[k] = m2[k] + q + delta * delta * w_m2;
        }
        n = nn;
    }
}

template <int V>
__device__ __forceinline__ void std_block(const float* __restrict__ x, float* __restrict__ y,
                                          long C, long inner, long tiles_per_b,
                                          float* s_mean, float* s_m2) {
    const long b = blockIdx.x / tiles_per_b;
    const long tile = blockIdx.x - b * tiles_per_b;
    const int lane = threadIdx.x & (LANES - 1);
    const int g = threadIdx.x / LANES;
    const long inner_v = inner / V;
    const long iv = tile * LANES + lane;
    const bool valid = iv < inner_v;
    const long i = iv * V;
    const long Cg = (C + G - 1) / G;

    float mean[V], m2[V];
    {
        long cb = (long)g * Cg; if (cb > C) cb = C;
        long ce = cb + Cg;      if (ce > C) ce = C;
        if (valid) {
            std_part<V>(x + b * C * inner + i, inner, cb, ce, mean, m2);
        } else {
            #pragma unroll
            for (int k = 0; k < V; ++k) { mean[k] = 0.f; m2[k] = 0.f; }
        }
    }
    if (g > 0) {
        #pragma unroll
        for (int k = 0; k < V; ++k) {
            s_mean[((g - 1) * V + k) * LANES + lane] = mean[k];
            s_m2[((g - 1) * V + k) * LANES + lane] = m2[k];
        }
    }
    __syncthreads();
    if (g != 0 || !valid) return;

    long c0 = Cg < C ? Cg : C;          // rows of group 0
    float n = (float)c0;
    for (int gg = 1; gg < G; ++gg) {
        long cb = (long)gg * Cg; if (cb > C) cb = C;
        long ce = cb + Cg;       if (ce > C) ce = C;
        if (ce <= cb) break;            // later groups are empty too
        float nb = (float)(ce - cb);
        float nn = n + nb;
        float w_delta = nb / nn;
        float w_m2 = n * nb / nn;
        #pragma unroll
        for (int k = 0; k < V; ++k) {
            float mb = s_mean[((gg - 1) * V + k) * LANES + lane];
            float qb = s_m2[((gg - 1) * V + k) * LANES + lane];
            float delta = mb - mean[k];
            mean[k] = fmaf(delta, w_delta, mean[k]);
            m2[k] = m2[k] + qb + delta * delta * w_m2;
        }
        n = nn;
    }
    float res[V];
    const float denom = (float)(C - 1);
    #pragma unroll
    for (int k = 0; k < V; ++k) res[k] = (C > 1) ? sqrtf(m2[k] / denom) : __int_as_float(0x7fc00000);
    float* yo = y + b * inner + i;
    if (V == 4) {
        float4 o; o.x = res[0]; o.y = res[1]; o.z = res[2]; o.w = res[V > 3 ? 3 : 0];
        *reinterpret_cast<float4*>(yo) = o;
    } else {
        #pragma unroll
        for (int k = 0; k < V; ++k) yo[k] = res[k];
    }
}

__global__ void __launch_bounds__(256) std_dim1_vec4(const float* __restrict__ x, float* __restrict__ y,
                                                     long C, long inner, long tiles_per_b) {
    __shared__ float s_mean[(G - 1) * 4 * LANES];
    __shared__ float s_m2[(G - 1) * 4 * LANES];
    std_block<4>(x, y, C, inner, tiles_per_b, s_mean, s_m2);
}

__global__ void __launch_bounds__(256) std_dim1_scalar(const float* __restrict__ x, float* __restrict__ y,
                                                       long C, long inner, long tiles_per_b) {
    __shared__ float s_mean[(G - 1) * LANES];
    __shared__ float s_m2[(G - 1) * LANES];
    std_block<1>(x, y, C, inner, tiles_per_b, s_mean, s_m2);
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        shape = list(x.shape)
        B = shape[0]
        C = shape[1]
        out_shape = [B] + shape[2:]
        inner = 1
        for s in shape[2:]:
            inner *= s
        y = torch.empty(out_shape, dtype=x.dtype, device=x.device)
        if y.numel() == 0:
            return y
        vec_ok = (inner % 4 == 0) and (x.data_ptr() % 16 == 0) and (y.data_ptr() % 16 == 0)
        if vec_ok:
            tiles = (inner // 4 + 31) // 32
            mod.std_dim1_vec4(grid=(B * tiles,), block=(256,), args=(x, y, C, inner, tiles))
        else:
            tiles = (inner + 31) // 32
            mod.std_dim1_scalar(grid=(B * tiles,), block=(256,), args=(x, y, C, inner, tiles))
        return y
