import torch
import torch.nn as nn
import torch.nn.functional as F
from kernelmosaic.verify import nvrtc

# out[r, j] = lerp(sqrt(a[r,2j]^2 + a[r,2j+1]^2 + a[r,2j+2]^2), y[r, j], 0.3),  a = log1p(|x|)
# (lp_pool1d with p=2, k=3, s=2: avg_pool(a^2) * 3 then ^(1/2) == sqrt of the window sum of squares)
# One block per (row, tile of 2048 outputs): y is prefetched into registers, x is loaded with
# all loads in flight at once (float4 when the row is 16-byte aligned), log1p(|x|) is computed once
# per input element into shared memory (hardware log2), then each thread produces 8 outputs.
mod = nvrtc.compile(r"""
#define TPB 256
#define OPT 8
#define OUT_TILE (TPB * OPT)
#define IN_TILE (2 * OUT_TILE + 1)
#define NV4 (OPT / 2)

// log1p(|v|) via the hardware log2 (MUFU.LG2): |v| >= 0 so 1 + |v| is in [1, inf);
// absolute error is a few 1e-7, well inside the fp32 tolerances of this task.
__device__ __forceinline__ float la(float v) { return __logf(1.0f + fabsf(v)); }

__device__ __forceinline__ float fast_sqrt(float v) {
    float r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

__global__ void __launch_bounds__(TPB, 6) log1p_abs_lp_pool_lerp(
        const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
        long Lin, long Lout, long tiles_per_row, long vec_ok)
{
    __shared__ __align__(16) float s[IN_TILE + 7];
    const long tile = blockIdx.x;
    const long row = tile / tiles_per_row;
    const long tc = tile - row * tiles_per_row;
    const long j0 = tc * OUT_TILE;
    long n_out = Lout - j0;
    if (n_out > OUT_TILE) n_out = OUT_TILE;
    const long rem_in = Lin - 2 * j0;        // elements left in this row from the tile start
    const float* xr = x + row * Lin + 2 * j0;
    const float* yr = y + row * Lout + j0;
    float* orow = out + row * Lout + j0;
    const int t = threadIdx.x;

    // prefetch y
    float yv[OPT];
    #pragma unroll
    for (int k = 0; k < OPT; ++k) {
        const int j = t + k * TPB;
        yv[k] = (j < n_out) ? __ldcs(yr + j) : 0.0f;
    }

    if (vec_ok) {
        const float4* xv = reinterpret_cast<const float4*>(xr);
        float4 v[NV4];
        #pragma unroll
        for (int p = 0; p < NV4; ++p) {
            const long q = t + p * TPB;
            const long b = 4 * q;
            if (b + 3 < rem_in) {
                v[p] = __ldcs(xv + q);
            } else {
                v[p].x = (b     < rem_in) ? __ldcs(xr + b)     : 0.0f;
                v[p].y = (b + 1 < rem_in) ? __ldcs(xr + b + 1) : 0.0f;
                v[p].z = (b + 2 < rem_in) ? __ldcs(xr + b + 2) : 0.0f;
                v[p].w = 0.0f;
            }
        }
        float extra = 0.0f;
        if (t == 0 && 2 * OUT_TILE < rem_in) extra = __ldcs(xr + 2 * OUT_TILE);
        #pragma unroll
        for (int p = 0; p < NV4; ++p) {
            float4 a;
            a.x = la(v[p].x); a.y = la(v[p].y); a.z = la(v[p].z); a.w = la(v[p].w);
            reinterpret_cast<float4*>(s)[t + p * TPB] = a;
        }
        if (t == 0) s[2 * OUT_TILE] = la(extra);
    } else {
        float v[2 * OPT + 1];
        #pragma unroll
        for (int k = 0; k < 2 * OPT + 1; ++k) {
            const long i = t + k * TPB;
            v[k] = (i < rem_in && i < IN_TILE) ? __ldcs(xr + i) : 0.0f;
        }
        #pragma unroll
        for (int k = 0; k < 2 * OPT + 1; ++k) {
            const int i = t + k * TPB;
            if (i < IN_TILE) s[i] = la(v[k]);
        }
    }
    __syncthreads();

    #pragma unroll
    for (int k = 0; k < OPT; ++k) {
        const int j = t + k * TPB;
        if (j < n_out) {
            const float2 b01 = reinterpret_cast<const float2*>(s)[j];
            const float b2 = s[2 * j + 2];
            const float p = fast_sqrt(b01.x * b01.x + b01.y * b01.y + b2 * b2);
            __stcs(orow + j, p + 0.3f * (yv[k] - p));
        }
    }
}
""")

OUT_TILE = 2048


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x.contiguous()
        Lin = x.shape[-1]
        Lout = (Lin - 3) // 2 + 1
        out_shape = tuple(x.shape[:-1]) + (Lout,)
        if tuple(y.shape) != out_shape:
            y = y.expand(out_shape)
        y = y.contiguous()
        out = torch.empty(out_shape, dtype=x.dtype, device=x.device)
        rows = out.numel() // Lout if Lout > 0 else 0
        if rows == 0:
            return out
        tiles_per_row = (Lout + OUT_TILE - 1) // OUT_TILE
        vec_ok = 1 if (Lin % 4 == 0 and x.data_ptr() % 16 == 0) else 0
        mod.log1p_abs_lp_pool_lerp(grid=(rows * tiles_per_row,), block=(256,),
                                   args=(x, y, out, Lin, Lout, tiles_per_row, vec_ok))
        return out
