import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
// Unbiased std over dim 1 of a contiguous tensor viewed as (B, C, inner).
// Each thread owns V consecutive inner positions and walks the C axis in
// chunks of 8: exact two-pass mean / M2 inside the chunk (registers), then a
// Chan et al. parallel merge into the running (n, mean, M2). One read of x.

#define CHUNK 8

template <int V>
__device__ __forceinline__ void load_vec(const float* __restrict__ p, float* out) {
    if (V == 4) {
        float4 a = __ldcs(reinterpret_cast<const float4*>(p));
        out[0] = a.x; out[1] = a.y; out[2] = a.z; out[3] = a.w;
    } else {
        #pragma unroll
        for (int k = 0; k < V; ++k) out[k] = __ldcs(p + k);
    }
}

template <int V>
__device__ __forceinline__ void std_core(const float* __restrict__ base, long inner, long C, float* res) {
    float mean[V], m2[V];
    #pragma unroll
    for (int k = 0; k < V; ++k) { mean[k] = 0.f; m2[k] = 0.f; }
    float n = 0.f;
    for (long c0 = 0; c0 < C; c0 += CHUNK) {
        long rem = C - c0;
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
    float denom = (float)(C - 1);
    #pragma unroll
    for (int k = 0; k < V; ++k) res[k] = sqrtf(m2[k] / denom);
}

__global__ void std_dim1_vec4(const float* __restrict__ x, float* __restrict__ y,
                              long B, long C, long inner) {
    long inner4 = inner >> 2;
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= B * inner4) return;
    long b = t / inner4;
    long i = (t - b * inner4) * 4;
    float r[4];
    std_core<4>(x + b * C * inner + i, inner, C, r);
    float4 o; o.x = r[0]; o.y = r[1]; o.z = r[2]; o.w = r[3];
    *reinterpret_cast<float4*>(y + b * inner + i) = o;
}

__global__ void std_dim1_scalar(const float* __restrict__ x, float* __restrict__ y,
                                long B, long C, long inner) {
    long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (t >= B * inner) return;
    long b = t / inner;
    long i = t - b * inner;
    float r[1];
    std_core<1>(x + b * C * inner + i, inner, C, r);
    y[b * inner + i] = r[0];
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
        threads = 256
        vec_ok = (inner % 4 == 0) and (x.data_ptr() % 16 == 0) and (y.data_ptr() % 16 == 0)
        if vec_ok:
            total = B * (inner // 4)
            mod.std_dim1_vec4(grid=((total + threads - 1) // threads,), block=(threads,),
                              args=(x, y, B, C, inner))
        else:
            total = B * inner
            mod.std_dim1_scalar(grid=((total + threads - 1) // threads,), block=(threads,),
                                args=(x, y, B, C, inner))
        return y
