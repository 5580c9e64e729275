import torch
import torch.nn as nn
import torch.nn.functional as F
from kernelmosaic.verify import nvrtc

# out[r, j] = lerp(sqrt(a[r,2j]^2 + a[r,2j+1]^2 + a[r,2j+2]^2), y[r, j], 0.3),  a = log1p(|x|)
# (lp_pool1d with p=2, k=3, s=2: avg_pool(a^2) * 3 then ^(1/2) == sqrt of the window sum of squares)
mod = nvrtc.compile(r"""
#define TPB 256
#define OPT 4
#define OUT_TILE (TPB * OPT)
#define IN_TILE (2 * OUT_TILE + 1)

__global__ void __launch_bounds__(TPB) log1p_abs_lp_pool_lerp(
        const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
        long Lin, long Lout, long tiles_per_row, long vec_ok)
{
    __shared__ float s[IN_TILE + 3];
    const long tile = blockIdx.x;
    const long row = tile / tiles_per_row;
    const long tc = tile - row * tiles_per_row;
    const long j0 = tc * OUT_TILE;
    long n_out = Lout - j0;
    if (n_out > OUT_TILE) n_out = OUT_TILE;
    const long n_in = 2 * (n_out - 1) + 3;   // inputs used by this tile
    const float* xr = x + row * Lin + 2 * j0;
    const int t = threadIdx.x;

    if (vec_ok && n_out == OUT_TILE) {
        // full tile, 16-byte aligned: 2*OUT_TILE floats as float4 + 1 extra float
        const float4* xv = reinterpret_cast<const float4*>(xr);
        float4 v0 = __ldcs(xv + t);
        float4 v1 = __ldcs(xv + t + TPB);
        float extra = 0.f;
        if (t == 0) extra = __ldcs(xr + 2 * OUT_TILE);
        float4 a0, a1;
        a0.x = log1pf(fabsf(v0.x)); a0.y = log1pf(fabsf(v0.y));
        a0.z = log1pf(fabsf(v0.z)); a0.w = log1pf(fabsf(v0.w));
        a1.x = log1pf(fabsf(v1.x)); a1.y = log1pf(fabsf(v1.y));
        a1.z = log1pf(fabsf(v1.z)); a1.w = log1pf(fabsf(v1.w));
        reinterpret_cast<float4*>(s)[t] = a0;
        reinterpret_cast<float4*>(s)[t + TPB] = a1;
        if (t == 0) s[2 * OUT_TILE] = log1pf(fabsf(extra));
    } else {
        for (long i = t; i < n_in; i += TPB) s[i] = log1pf(fabsf(__ldcs(xr + i)));
    }
    __syncthreads();

    const float* yr = y + row * Lout + j0;
    float* orow = out + row * Lout + j0;
    #pragma unroll
    for (int k = 0; k < OPT; ++k) {
        const int j = t + k * TPB;
        if (j < n_out) {
            float b0 = s[2 * j], b1 = s[2 * j + 1], b2 = s[2 * j + 2];
            float p = sqrtf(b0 * b0 + b1 * b1 + b2 * b2);
            float yv = __ldcs(yr + j);
            __stcs(orow + j, p + 0.3f * (yv - p));
        }
    }
}
""")

OUT_TILE = 1024


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
