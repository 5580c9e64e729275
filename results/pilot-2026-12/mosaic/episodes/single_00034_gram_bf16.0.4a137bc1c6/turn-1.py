import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# C[b] = A[b] @ A[b]^T / 768 with A[b]: (M, K) bf16 row-major.
# Tensor-core kernel (mma.sync m16n8k16 bf16, fp32 accumulate), 128x128 output
# tiles, BK=64, 3-stage cp.async pipeline (96 KiB smem, 2 CTAs/SM), 4 warps each
# owning a 64x64 sub-tile. The result is symmetric, so only tiles with bi <= bj
# are computed; off-diagonal tiles are written as is and transposed, both staged
# through shared memory for coalesced 16-byte stores.
mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

#define BM 128
#define BK 64
#define STAGES 3
#define NTHREADS 128
#define TILE_BYTES (BM * BK * 2)          // one operand tile per stage: 16 KiB
#define STAGE_BYTES (2 * TILE_BYTES)
#define CPITCH 136                        // bf16 elements per row of an epilogue tile

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    unsigned r;
    asm volatile("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
    return r;
}
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N)); }

__device__ __forceinline__ void ldmatrix_x4(unsigned addr, unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void mma_bf16(float* c, const unsigned* a, unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Tile layout in smem: [BM rows][8 chunks of 16B], chunk c of row r stored at c ^ (r & 7).
// Thread tid always handles chunk c = tid & 7 of rows r = (tid >> 3) + 16 * i.
__device__ __forceinline__ void load_tile(unsigned sdst, const __nv_bfloat16* __restrict__ A,
                                          long row0, long k0, long M, long K, bool vec, int tid) {
    const int c = tid & 7;
    const int r0 = tid >> 3;
    const long gk = k0 + c * 8;
    const unsigned dbase = sdst + (unsigned)(r0 * (BK * 2)) + (unsigned)((c ^ (r0 & 7)) << 4);
    #pragma unroll
    for (int i = 0; i < BM / 16; ++i) {
        const int r = r0 + 16 * i;
        const long grow = row0 + r;
        const unsigned dst = dbase + (unsigned)(16 * i * (BK * 2));
        if (vec) {
            const bool ok = (grow < M) && (gk < K);
            const __nv_bfloat16* src = ok ? (A + grow * K + gk) : A;
            cp_async16(dst, src, ok ? 16 : 0);
        } else {
            unsigned short v[8];
            const unsigned short* a16 = reinterpret_cast<const unsigned short*>(A);
            #pragma unroll
            for (int j = 0; j < 8; ++j) {
                const bool ok = (grow < M) && (gk + j < K);
                v[j] = ok ? a16[grow * K + gk + j] : (unsigned short)0;
            }
            unsigned w0 = v[0] | ((unsigned)v[1] << 16);
            unsigned w1 = v[2] | ((unsigned)v[3] << 16);
            unsigned w2 = v[4] | ((unsigned)v[5] << 16);
            unsigned w3 = v[6] | ((unsigned)v[7] << 16);
            asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(dst), "r"(w0), "r"(w1), "r"(w2), "r"(w3));
        }
    }
}

__device__ __forceinline__ void copy_out(__nv_bfloat16* __restrict__ C, const __nv_bfloat16* Cs,
                                         long row0, long col0, long M, bool vec_out, int tid) {
    for (int id = tid; id < BM * (BM / 8); id += NTHREADS) {
        const int r = id >> 4;
        const int ch = id & 15;
        const long grow = row0 + r;
        const long gcol = col0 + ch * 8;
        if (grow >= M) continue;
        if (vec_out) {
            if (gcol < M)
                *reinterpret_cast<uint4*>(C + grow * M + gcol) = *reinterpret_cast<const uint4*>(Cs + r * CPITCH + ch * 8);
        } else {
            #pragma unroll
            for (int j = 0; j < 8; ++j)
                if (gcol + j < M) C[grow * M + gcol + j] = Cs[r * CPITCH + ch * 8 + j];
        }
    }
}

__global__ void gram_bf16(const __nv_bfloat16* __restrict__ X, __nv_bfloat16* __restrict__ Y,
                          long M, long K, long T, long ntri, int vec_in, int vec_out) {
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int wm = warp >> 1;   // rows wm*64
    const int wn = warp & 1;    // cols wn*64

    long bid = blockIdx.x;
    long b = bid / ntri;
    long t = bid - b * ntri;
    long bi = 0;
    while (t >= T - bi) { t -= T - bi; ++bi; }
    const long bj = bi + t;
    const bool diag = (bi == bj);

    const __nv_bfloat16* A = X + b * M * K;
    __nv_bfloat16* C = Y + b * M * M;
    const long rowI = bi * BM;
    const long rowJ = bj * BM;
    const bool vec = vec_in != 0;

    const unsigned sbase = smem_addr(smem);
    const long KT = (K + BK - 1) / BK;
    const unsigned bsel = diag ? 0u : (unsigned)TILE_BYTES;   // diagonal tile: B == A

    float acc[4][8][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j)
            #pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

    #pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) {
            const unsigned st = sbase + s * STAGE_BYTES;
            load_tile(st, A, rowI, (long)s * BK, M, K, vec, tid);
            if (!diag) load_tile(st + TILE_BYTES, A, rowJ, (long)s * BK, M, K, vec, tid);
        }
        cp_async_commit();
    }

    // per-lane ldmatrix offsets (row part); chunk part depends on ks: ((2ks + sel) ^ (lane & 7)) << 4
    const int l7 = lane & 7;
    const unsigned a_row_off = (unsigned)((wm * 64 + (lane & 15)) * (BK * 2));
    const int a_sel = lane >> 4;
    const unsigned b_row_off = (unsigned)((wn * 64 + l7 + ((lane >> 4) << 3)) * (BK * 2));
    const int b_sel = (lane >> 3) & 1;

    int stage = 0;
    for (long kt = 0; kt < KT; ++kt) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const long nk = kt + STAGES - 1;
            if (nk < KT) {
                int ns = stage + STAGES - 1; if (ns >= STAGES) ns -= STAGES;
                const unsigned st = sbase + (unsigned)ns * STAGE_BYTES;
                load_tile(st, A, rowI, nk * BK, M, K, vec, tid);
                if (!diag) load_tile(st + TILE_BYTES, A, rowJ, nk * BK, M, K, vec, tid);
            }
            cp_async_commit();
        }
        const unsigned sA = sbase + (unsigned)stage * STAGE_BYTES;
        const unsigned sB = sA + bsel;
        #pragma unroll
        for (int ks = 0; ks < BK / 16; ++ks) {
            unsigned af[4][4];
            unsigned bf[8][2];
            const unsigned a_ch = (unsigned)(((2 * ks + a_sel) ^ l7) << 4);
            const unsigned b_ch = (unsigned)(((2 * ks + b_sel) ^ l7) << 4);
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                ldmatrix_x4(sA + a_row_off + mi * 16 * (BK * 2) + a_ch, af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
            #pragma unroll
            for (int nj = 0; nj < 4; ++nj)
                ldmatrix_x4(sB + b_row_off + nj * 16 * (BK * 2) + b_ch, bf[2 * nj][0], bf[2 * nj][1], bf[2 * nj + 1][0], bf[2 * nj + 1][1]);
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 8; ++ni)
                    mma_bf16(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
        }
        stage = (stage + 1 == STAGES) ? 0 : stage + 1;
    }
    cp_async_wait<0>();
    __syncthreads();

    // ---------------- epilogue ----------------
    __nv_bfloat16* Cs = reinterpret_cast<__nv_bfloat16*>(smem);              // tile as is
    __nv_bfloat16* CsT = Cs + BM * CPITCH;                                     // transposed tile
    const int g = lane >> 2;
    const int tq = lane & 3;
    const float inv = 1.0f / 768.0f;
    #pragma unroll
    for (int mi = 0; mi < 4; ++mi)
        #pragma unroll
        for (int ni = 0; ni < 8; ++ni) {
            const int r = wm * 64 + mi * 16 + g;
            const int c = wn * 64 + ni * 8 + tq * 2;
            const float e0 = acc[mi][ni][0] * inv, e1 = acc[mi][ni][1] * inv;
            const float e2 = acc[mi][ni][2] * inv, e3 = acc[mi][ni][3] * inv;
            __nv_bfloat162 v0 = __floats2bfloat162_rn(e0, e1);
            __nv_bfloat162 v1 = __floats2bfloat162_rn(e2, e3);
            *reinterpret_cast<__nv_bfloat162*>(Cs + r * CPITCH + c) = v0;
            *reinterpret_cast<__nv_bfloat162*>(Cs + (r + 8) * CPITCH + c) = v1;
            if (!diag) {
                CsT[c * CPITCH + r]           = v0.x;
                CsT[(c + 1) * CPITCH + r]     = v0.y;
                CsT[c * CPITCH + r + 8]       = v1.x;
                CsT[(c + 1) * CPITCH + r + 8] = v1.y;
            }
        }
    __syncthreads();
    const bool vo = vec_out != 0;
    copy_out(C, Cs, rowI, rowJ, M, vo, tid);
    if (!diag) copy_out(C, CsT, rowJ, rowI, M, vo, tid);
}
""")

_SMEM = 3 * 2 * 128 * 64 * 2   # STAGES * STAGE_BYTES = 98304 (epilogue needs 2*128*136*2 = 69632)
mod.gram_bf16.set_max_dynamic_shared_memory(_SMEM)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M = x.shape[-2]
        K = x.shape[-1]
        lead = list(x.shape[:-2])
        Bn = 1
        for s in lead:
            Bn *= s
        y = torch.empty(lead + [M, M], dtype=x.dtype, device=x.device)
        if Bn == 0 or M == 0:
            return y
        T = (M + 127) // 128
        ntri = T * (T + 1) // 2
        vec_in = 1 if (K % 8 == 0 and x.data_ptr() % 16 == 0) else 0
        vec_out = 1 if (M % 8 == 0 and y.data_ptr() % 16 == 0) else 0
        mod.gram_bf16(grid=(Bn * ntri,), block=(128,), args=(x, y, M, K, T, ntri, vec_in, vec_out),
                      shared_mem=_SMEM)
        return y
