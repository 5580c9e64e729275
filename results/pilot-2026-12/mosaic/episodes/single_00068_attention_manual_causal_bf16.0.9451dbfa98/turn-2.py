import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# Flash-attention style causal attention (head dim 32, bf16) with mma.sync m16n8k16.
# 64 queries per CTA (4 warps x 16 rows), 64-key tiles, 3-stage cp.async ring (one barrier per tile).
# Scores follow the reference's rounding: s = bf16(q.k), then bf16(s * 0.176777); softmax in fp32.
# The bf16 roundings are done with integer round-to-nearest-even (full-rate ALU) instead of
# conversion instructions, and exp uses ex2.approx: the quarter-rate pipe was the bottleneck.
mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

#define BM 64
#define BN 64
#define HD 32
#define SROW 40   // padded smem row (bf16 elements) -> conflict-free ldmatrix
#define NSTAGE 3
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ unsigned smem_u32(const void* p) {
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void cp_async16(unsigned saddr, const void* gmem) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(saddr), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_1() { asm volatile("cp.async.wait_group 1;\n" ::); }

__device__ __forceinline__ void ldsm_x4(unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3, unsigned saddr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(saddr));
}
__device__ __forceinline__ void ldsm_x4_t(unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3, unsigned saddr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(saddr));
}
__device__ __forceinline__ void mma_bf16(float* d, const unsigned* a, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ float fast_ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
// float -> bf16 (round to nearest even) -> float, with integer ops (finite / inf inputs)
__device__ __forceinline__ float rbf(float x) {
    unsigned u = __float_as_uint(x);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    return __uint_as_float(u);
}
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi) {
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<unsigned*>(&h);
}

// q, k, v, o: [BH, L, 32] contiguous bf16. grid = (ceil(L/64), BH), block = 128.
__global__ void __launch_bounds__(128) attn_causal_fwd3(const __nv_bfloat16* __restrict__ q,
                                                        const __nv_bfloat16* __restrict__ k,
                                                        const __nv_bfloat16* __restrict__ v,
                                                        __nv_bfloat16* __restrict__ o,
                                                        long L) {
    const float scale = 0.176777f;
    const float LOG2E = 1.4426950408889634f;
    __shared__ __align__(16) __nv_bfloat16 Ks[NSTAGE][BN * SROW];
    __shared__ __align__(16) __nv_bfloat16 Vs[NSTAGE][BN * SROW];

    const int tid = threadIdx.x;
    const int warp = tid >> 5;
    const int lane = tid & 31;
    const int g = lane >> 2;
    const int t = lane & 3;

    const long nqb = (L + BM - 1) / BM;
    const long qb = nqb - 1 - (long)blockIdx.x;   // heavy query blocks first
    const long bh = blockIdx.y;
    const long q0 = qb * BM;
    const __nv_bfloat16* qh = q + bh * L * HD;
    const __nv_bfloat16* kh = k + bh * L * HD;
    const __nv_bfloat16* vh = v + bh * L * HD;
    __nv_bfloat16* oh = o + bh * L * HD;

    const long r0 = q0 + warp * 16 + g;
    const long r1 = r0 + 8;
    const long r0c = r0 < L ? r0 : L - 1;
    const long r1c = r1 < L ? r1 : L - 1;
    // rows relative to q0 (for the diagonal-tile mask)
    const int lr0 = warp * 16 + g;
    const int lr1 = lr0 + 8;

    unsigned qa[2][4];
    {
        const unsigned* q0p = reinterpret_cast<const unsigned*>(qh + r0c * HD);
        const unsigned* q1p = reinterpret_cast<const unsigned*>(qh + r1c * HD);
        #pragma unroll
        for (int ks = 0; ks < 2; ++ks) {
            qa[ks][0] = q0p[(16 * ks + 2 * t) >> 1];
            qa[ks][1] = q1p[(16 * ks + 2 * t) >> 1];
            qa[ks][2] = q0p[(16 * ks + 8 + 2 * t) >> 1];
            qa[ks][3] = q1p[(16 * ks + 8 + 2 * t) >> 1];
        }
    }

    float oacc[4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i) { oacc[i][0] = oacc[i][1] = oacc[i][2] = oacc[i][3] = 0.f; }
    float m0 = NEG_INF, m1 = NEG_INF;
    float l0 = 0.f, l1 = 0.f;

    long kend = q0 + BM;
    if (kend > L) kend = L;
    const long nkb = (kend + BN - 1) / BN;

    const unsigned Ks_u = smem_u32(&Ks[0][0]);
    const unsigned Vs_u = smem_u32(&Vs[0][0]);
    const unsigned TILE_BYTES = BN * SROW * 2;

    auto load_tile = [&](long kb, int st) {
        #pragma unroll
        for (int i = 0; i < 2; ++i) {
            int c = tid + i * 128;
            int row = c >> 2;
            int part = c & 3;
            long key = kb * BN + row;
            if (key > L - 1) key = L - 1;
            unsigned soff = st * TILE_BYTES + (unsigned)((row * SROW + part * 8) * 2);
            cp_async16(Ks_u + soff, kh + key * HD + part * 8);
            cp_async16(Vs_u + soff, vh + key * HD + part * 8);
        }
    };

    unsigned koff[4][2], voff[4][2];
    #pragma unroll
    for (int jp = 0; jp < 4; ++jp)
        #pragma unroll
        for (int ks = 0; ks < 2; ++ks)
            koff[jp][ks] = (unsigned)(((16 * jp + (lane & 7) + ((lane >> 4) << 3)) * SROW + 16 * ks + ((lane >> 3) & 1) * 8) * 2);
    #pragma unroll
    for (int kk = 0; kk < 4; ++kk)
        #pragma unroll
        for (int dp = 0; dp < 2; ++dp)
            voff[kk][dp] = (unsigned)(((16 * kk + (lane & 7) + ((lane >> 3) & 1) * 8) * SROW + 16 * dp + (lane >> 4) * 8) * 2);

    // prologue: tiles 0 .. NSTAGE-2
    #pragma unroll
    for (int s = 0; s < NSTAGE - 1; ++s) {
        if (s < nkb) load_tile(s, s);
        cp_async_commit();
    }

    int st = 0;
    for (long kb = 0; kb < nkb; ++kb) {
        cp_async_wait_1();      // tile kb has landed (NSTAGE - 2 == 1 groups may stay in flight)
        __syncthreads();        // ...for every thread; and stage (kb-1)%NSTAGE is free again
        {
            long nk = kb + NSTAGE - 1;
            int nst = st + NSTAGE - 1;
            if (nst >= NSTAGE) nst -= NSTAGE;
            if (nk < nkb) load_tile(nk, nst);
            cp_async_commit();
        }
        const unsigned kt_u = Ks_u + st * TILE_BYTES;
        const unsigned vt_u = Vs_u + st * TILE_BYTES;

        float s[8][4];
        #pragma unroll
        for (int j = 0; j < 8; ++j) { s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f; }
        #pragma unroll
        for (int jp = 0; jp < 4; ++jp) {
            #pragma unroll
            for (int ks = 0; ks < 2; ++ks) {
                unsigned b0, b1, b2, b3;
                ldsm_x4(b0, b1, b2, b3, kt_u + koff[jp][ks]);
                mma_bf16(s[2 * jp], qa[ks], b0, b1);
                mma_bf16(s[2 * jp + 1], qa[ks], b2, b3);
            }
        }

        if (kb == nkb - 1) {
            // diagonal tile (the only one that can hold keys > row): mask with local indices
            const int kl = (int)(kb * BN - q0);   // key offset of this tile relative to q0 (<= 0)
            #pragma unroll
            for (int j = 0; j < 8; ++j) {
                #pragma unroll
                for (int e = 0; e < 4; ++e) {
                    float xv = rbf(rbf(s[j][e]) * scale);
                    int key = kl + 8 * j + 2 * t + (e & 1);
                    int lr = (e < 2) ? lr0 : lr1;
                    s[j][e] = (key > lr) ? NEG_INF : xv;
                }
            }
        } else {
            #pragma unroll
            for (int j = 0; j < 8; ++j)
                #pragma unroll
                for (int e = 0; e < 4; ++e)
                    s[j][e] = rbf(rbf(s[j][e]) * scale);
        }

        float bm0 = NEG_INF, bm1 = NEG_INF;
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            bm0 = fmaxf(bm0, fmaxf(s[j][0], s[j][1]));
            bm1 = fmaxf(bm1, fmaxf(s[j][2], s[j][3]));
        }
        bm0 = fmaxf(bm0, __shfl_xor_sync(0xffffffffu, bm0, 1));
        bm0 = fmaxf(bm0, __shfl_xor_sync(0xffffffffu, bm0, 2));
        bm1 = fmaxf(bm1, __shfl_xor_sync(0xffffffffu, bm1, 1));
        bm1 = fmaxf(bm1, __shfl_xor_sync(0xffffffffu, bm1, 2));
        // every row has an unmasked key in every processed tile, so mn is finite
        const float mn0 = fmaxf(m0, bm0);
        const float mn1 = fmaxf(m1, bm1);
        const float al0 = fast_ex2((m0 - mn0) * LOG2E);
        const float al1 = fast_ex2((m1 - mn1) * LOG2E);
        m0 = mn0; m1 = mn1;
        const float mb0 = mn0 * LOG2E, mb1 = mn1 * LOG2E;
        float ps0 = 0.f, ps1 = 0.f;
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            s[j][0] = fast_ex2(fmaf(s[j][0], LOG2E, -mb0));
            s[j][1] = fast_ex2(fmaf(s[j][1], LOG2E, -mb0));
            s[j][2] = fast_ex2(fmaf(s[j][2], LOG2E, -mb1));
            s[j][3] = fast_ex2(fmaf(s[j][3], LOG2E, -mb1));
            ps0 += s[j][0] + s[j][1];
            ps1 += s[j][2] + s[j][3];
        }
        l0 = l0 * al0 + ps0;
        l1 = l1 * al1 + ps1;
        #pragma unroll
        for (int dn = 0; dn < 4; ++dn) {
            oacc[dn][0] *= al0; oacc[dn][1] *= al0;
            oacc[dn][2] *= al1; oacc[dn][3] *= al1;
        }

        #pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            unsigned pa[4];
            pa[0] = pack_bf16(s[2 * kk][0], s[2 * kk][1]);
            pa[1] = pack_bf16(s[2 * kk][2], s[2 * kk][3]);
            pa[2] = pack_bf16(s[2 * kk + 1][0], s[2 * kk + 1][1]);
            pa[3] = pack_bf16(s[2 * kk + 1][2], s[2 * kk + 1][3]);
            #pragma unroll
            for (int dp = 0; dp < 2; ++dp) {
                unsigned b0, b1, b2, b3;
                ldsm_x4_t(b0, b1, b2, b3, vt_u + voff[kk][dp]);
                mma_bf16(oacc[2 * dp], pa, b0, b1);
                mma_bf16(oacc[2 * dp + 1], pa, b2, b3);
            }
        }
        st = (st + 1 == NSTAGE) ? 0 : st + 1;
    }

    l0 += __shfl_xor_sync(0xffffffffu, l0, 1);
    l0 += __shfl_xor_sync(0xffffffffu, l0, 2);
    l1 += __shfl_xor_sync(0xffffffffu, l1, 1);
    l1 += __shfl_xor_sync(0xffffffffu, l1, 2);
    const float inv0 = 1.f / l0;
    const float inv1 = 1.f / l1;
    #pragma unroll
    for (int dn = 0; dn < 4; ++dn) {
        int d = 8 * dn + 2 * t;
        if (r0 < L) *reinterpret_cast<unsigned*>(oh + r0 * HD + d) = pack_bf16(oacc[dn][0] * inv0, oacc[dn][1] * inv0);
        if (r1 < L) *reinterpret_cast<unsigned*>(oh + r1 * HD + d) = pack_bf16(oacc[dn][2] * inv1, oacc[dn][3] * inv1);
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        q = q.contiguous()
        k = k.contiguous()
        v = v.contiguous()
        L = q.shape[-2]
        D = q.shape[-1]
        assert D == 32, "kernel is specialised for head dim 32"
        BH = q.numel() // (L * D)
        o = torch.empty_like(q)
        grid = ((L + 63) // 64, BH)
        mod.attn_causal_fwd3(grid=grid, block=(128,), args=(q, k, v, o, L))
        return o
