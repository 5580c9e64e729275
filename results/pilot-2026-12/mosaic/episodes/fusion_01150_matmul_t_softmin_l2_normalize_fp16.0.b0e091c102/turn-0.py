import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# y = normalize(softmin(x @ W^T)) along the last dim.
# Since softmin(s)_i = e_i / sum(e) with e_i = exp(m - s_i) (m = row min), the L2 normalisation cancels
# the softmin denominator: y_i = exp(m - s_i) / sqrt(sum_j exp(2 (m - s_j))).
# Kernel 1: tensor-core GEMM (mma.sync m16n8k16, fp32 accumulate) writing fp16 logits (as the reference
#           rounds them) plus per-(row, 128-col tile) partial stats (min, sum exp(2(min - s))).
# Kernel 2: per row, combine partial stats and rewrite the logits in place with the final values.
mod = nvrtc.compile(r"""
#include <cuda_fp16.h>

#define BM 128
#define BN 128
#define BK 32
#define SK 40          // padded smem row (halves): 80 bytes -> conflict-free ldmatrix
#define STAGES 4
#define CS 136         // padded C-tile row (halves)
#define LOG2E 1.4426950408889634f
#define POS_INF __int_as_float(0x7f800000)

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_u32(smem)), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N)); }
__device__ __forceinline__ void ldsm_x4(unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3, const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_u32(p)));
}
__device__ __forceinline__ void mma_f16(float* d, const unsigned* a, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// x: [M, K] fp16, w: [N, K] fp16, out: [M, N] fp16 logits, stats: [M, N/BN, 2] float32 (min, sumexp2)
// Requires N % BN == 0, K % BK == 0. grid = (N/BN, ceil(M/BM)), block = 256.
__global__ void __launch_bounds__(256) gemm_logits_stats(const __half* __restrict__ x, const __half* __restrict__ w,
                                                         __half* __restrict__ out, float* __restrict__ stats,
                                                         long M, long N, long K) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __half* As = reinterpret_cast<__half*>(smem_raw);
    __half* Bs = As + STAGES * BM * SK;

    const int tid = threadIdx.x;
    const int warp = tid >> 5, lane = tid & 31;
    const int wm = warp >> 2;   // 0..1 -> 64 rows each
    const int wn = warp & 3;    // 0..3 -> 32 cols each
    const int g = lane >> 2, t = lane & 3;
    const long bn0 = (long)blockIdx.x * BN;
    const long bm0 = (long)blockIdx.y * BM;
    const int KT = (int)(K / BK);

    auto load_stage = [&](int kt, int st) {
        __half* as = As + st * BM * SK;
        __half* bs = Bs + st * BN * SK;
        const long k0 = (long)kt * BK;
        #pragma unroll
        for (int i = 0; i < 2; ++i) {
            int c = tid + i * 256;       // 512 chunks of 16B per operand tile
            int row = c >> 2, part = c & 3;
            long grow = bm0 + row;
            if (grow > M - 1) grow = M - 1;
            cp_async16(as + row * SK + part * 8, x + grow * K + k0 + part * 8);
            cp_async16(bs + row * SK + part * 8, w + (bn0 + row) * K + k0 + part * 8);
        }
    };

    float acc[4][4][4];
    #pragma unroll
    for (int a = 0; a < 4; ++a)
        #pragma unroll
        for (int b = 0; b < 4; ++b)
            acc[a][b][0] = acc[a][b][1] = acc[a][b][2] = acc[a][b][3] = 0.f;

    #pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_stage(s, s);
        cp_async_commit();
    }

    for (int kt = 0; kt < KT; ++kt) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            int nk = kt + STAGES - 1;
            if (nk < KT) load_stage(nk, nk % STAGES);
            cp_async_commit();
        }
        const int st = kt % STAGES;
        const __half* as = As + st * BM * SK;
        const __half* bs = Bs + st * BN * SK;
        #pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
            unsigned af[4][4];
            #pragma unroll
            for (int mt = 0; mt < 4; ++mt) {
                int row = wm * 64 + mt * 16 + (lane & 15);
                int col = kk * 16 + (lane >> 4) * 8;
                ldsm_x4(af[mt][0], af[mt][1], af[mt][2], af[mt][3], as + row * SK + col);
            }
            unsigned bf[4][2];
            #pragma unroll
            for (int np = 0; np < 2; ++np) {
                int row = wn * 32 + np * 16 + (lane & 7) + ((lane >> 4) << 3);
                int col = kk * 16 + ((lane >> 3) & 1) * 8;
                ldsm_x4(bf[2 * np][0], bf[2 * np][1], bf[2 * np + 1][0], bf[2 * np + 1][1], bs + row * SK + col);
            }
            #pragma unroll
            for (int mt = 0; mt < 4; ++mt)
                #pragma unroll
                for (int nt = 0; nt < 4; ++nt)
                    mma_f16(acc[mt][nt], af[mt], bf[nt][0], bf[nt][1]);
        }
    }
    cp_async_wait<0>();
    __syncthreads();   // pipeline smem is reused below

    __half* Cs = reinterpret_cast<__half*>(smem_raw);                        // [BM][CS]
    float* smin = reinterpret_cast<float*>(smem_raw + BM * CS * sizeof(__half)); // [BM][4]
    float* ssum = smin + BM * 4;                                               // [BM][4]

    #pragma unroll
    for (int mt = 0; mt < 4; ++mt) {
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int rl = wm * 64 + mt * 16 + g + 8 * h;
            float vals[8];
            float mn = POS_INF;
            #pragma unroll
            for (int nt = 0; nt < 4; ++nt) {
                __half2 hv = __floats2half2_rn(acc[mt][nt][2 * h], acc[mt][nt][2 * h + 1]);
                *reinterpret_cast<__half2*>(Cs + rl * CS + wn * 32 + nt * 8 + 2 * t) = hv;
                float2 fv = __half22float2(hv);
                vals[2 * nt] = fv.x;
                vals[2 * nt + 1] = fv.y;
                mn = fminf(mn, fminf(fv.x, fv.y));
            }
            mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, 1));
            mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, 2));
            const float mb = mn * (2.f * LOG2E);
            float sm = 0.f;
            #pragma unroll
            for (int i = 0; i < 8; ++i) sm += exp2f(fmaf(-vals[i], 2.f * LOG2E, mb));
            sm += __shfl_xor_sync(0xffffffffu, sm, 1);
            sm += __shfl_xor_sync(0xffffffffu, sm, 2);
            if (t == 0) {
                smin[rl * 4 + wn] = mn;
                ssum[rl * 4 + wn] = sm;
            }
        }
    }
    __syncthreads();

    // per-row combine of the 4 warp-column partials -> one (min, sum) per (row, tile)
    if (tid < BM) {
        const long grow = bm0 + tid;
        if (grow < M) {
            float m0 = smin[tid * 4 + 0], m1 = smin[tid * 4 + 1], m2 = smin[tid * 4 + 2], m3 = smin[tid * 4 + 3];
            float mm = fminf(fminf(m0, m1), fminf(m2, m3));
            const float mb = mm * (2.f * LOG2E);
            float s = ssum[tid * 4 + 0] * exp2f(fmaf(-m0, 2.f * LOG2E, mb))
                    + ssum[tid * 4 + 1] * exp2f(fmaf(-m1, 2.f * LOG2E, mb))
                    + ssum[tid * 4 + 2] * exp2f(fmaf(-m2, 2.f * LOG2E, mb))
                    + ssum[tid * 4 + 3] * exp2f(fmaf(-m3, 2.f * LOG2E, mb));
            {
                const long si = (grow * (N / BN) + blockIdx.x) * 2;
                stats[si] = mm;
                stats[si + 1] = s;
            }
        }
    }

    // coalesced 16-byte stores of the fp16 logits tile
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        int c = tid + i * 256;        // 2048 chunks: 128 rows x 16 chunks
        int row = c >> 4, part = c & 15;
        long grow = bm0 + row;
        if (grow < M) {
            uint4 v = *reinterpret_cast<const uint4*>(Cs + row * CS + part * 8);
            *reinterpret_cast<uint4*>(out + grow * N + bn0 + part * 8) = v;
        }
    }
}

// One warp per row: combine NT partial stats, then y = exp(m - s) / sqrt(S) in place. N % 8 == 0, NT <= 32.
__global__ void finalize_rows(__half* __restrict__ out, const float* __restrict__ stats, long M, long N) {
    const int lane = threadIdx.x & 31;
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= M) return;
    const int NT = (int)(N / BN);
    float2 st = make_float2(POS_INF, 0.f);
    if (lane < NT) st = make_float2(stats[(row * NT + lane) * 2], stats[(row * NT + lane) * 2 + 1]);
    float mm = st.x;
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) mm = fminf(mm, __shfl_xor_sync(0xffffffffu, mm, o));
    float s = (lane < NT) ? st.y * exp2f((mm - st.x) * (2.f * LOG2E)) : 0.f;
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    const float inv = 1.0f / sqrtf(s);
    const float mb = mm * LOG2E;
    uint4* rp = reinterpret_cast<uint4*>(out + row * N);
    const long nv = N >> 3;
    for (long c = lane; c < nv; c += 32) {
        uint4 v = rp[c];
        unsigned* pv = reinterpret_cast<unsigned*>(&v);
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            float2 f = __half22float2(*reinterpret_cast<__half2*>(&pv[j]));
            float y0 = exp2f(fmaf(-f.x, LOG2E, mb)) * inv;
            float y1 = exp2f(fmaf(-f.y, LOG2E, mb)) * inv;
            __half2 r = __floats2half2_rn(y0, y1);
            pv[j] = *reinterpret_cast<unsigned*>(&r);
        }
        __stcs(rp + c, v);
    }
}
""")

_BM, _BN, _BK, _STAGES, _SK = 128, 128, 32, 4, 40
_SMEM = max(_STAGES * (_BM + _BN) * _SK * 2, _BM * 136 * 2 + _BM * 8 * 4)
mod.gemm_logits_stats.set_max_dynamic_shared_memory(_SMEM)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 512) * 0.04419)
        self.to(torch.float16)

    def forward(self, x):
        w = self.weight.contiguous()
        N, K = w.shape
        assert N % _BN == 0 and N // _BN <= 32 and K % _BK == 0
        lead = x.shape[:-1]
        x2 = x.contiguous().view(-1, K)
        M = x2.shape[0]
        out = torch.empty(tuple(lead) + (N,), dtype=x.dtype, device=x.device)
        if M == 0:
            return out
        out2 = out.view(M, N)
        stats = torch.empty((M, N // _BN, 2), dtype=torch.float32, device=x.device)
        mod.gemm_logits_stats(grid=(N // _BN, (M + _BM - 1) // _BM), block=(256,),
                              args=(x2, w, out2, stats, M, N, K), shared_mem=_SMEM)
        warps = 8
        mod.finalize_rows(grid=((M + warps - 1) // warps,), block=(32 * warps,), args=(out2, stats, M, N))
        return out
