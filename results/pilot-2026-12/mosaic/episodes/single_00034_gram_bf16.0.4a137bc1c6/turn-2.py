import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# C[b] = A[b] @ A[b]^T / 768 with A[b]: (M, K) bf16 row-major.
# Two kernels: gram_bf16_panel (K <= 768, the task's shape; described in the source)
# and the general gram_bf16 below for any other K / alignment.
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

// ============================================================================
// Fast path (K <= 768, K % 8 == 0): one CTA per 128-row panel i of one batch.
// The whole A_i panel (128 x K) stays resident in shared memory, so for each
// output tile (i, j), j = i..T-1, only the A_j panel is streamed (4-stage ring,
// BK = 32). The diagonal tile (j = i) is computed first and streams A_i into
// its resident slots. 8 warps, each a 64x32 sub-tile. Results are written
// straight from registers: tile as is, and transposed (pairs formed via shfl).
// ============================================================================
#define PBK 32
#define PSTAGES 4
#define PTHREADS 256
#define PTILE_BYTES (BM * PBK * 2)        // 8 KiB per k-tile of 128 rows

__device__ __forceinline__ unsigned ptile_off(int r, int c) {   // 64-byte rows, 4 chunks
    return (unsigned)(r * (PBK * 2) + ((c ^ ((r >> 1) & 3)) << 4));
}

// rows [row0, row0+128) x k [k0, k0+32) -> swizzled 8 KiB tile; 2 chunks per thread
__device__ __forceinline__ void pload_tile(unsigned sdst, const __nv_bfloat16* __restrict__ A,
                                           long row0, long k0, long M, long K, int tid) {
    #pragma unroll
    for (int q = 0; q < 2; ++q) {
        const int id = tid + q * PTHREADS;
        const int r = id >> 2;
        const int c = id & 3;
        const long grow = row0 + r;
        const long gk = k0 + c * 8;
        const bool ok = (grow < M) && (gk < K);
        const __nv_bfloat16* src = ok ? (A + grow * K + gk) : A;
        cp_async16(sdst + ptile_off(r, c), src, ok ? 16 : 0);
    }
}

__device__ __forceinline__ unsigned pack_bf16x2(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<unsigned*>(&v);
}

__global__ void gram_bf16_panel(const __nv_bfloat16* __restrict__ X, __nv_bfloat16* __restrict__ Y,
                                long M, long K, long T, int vec_out) {
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int wm = warp >> 2;   // rows wm*64   (0..1)
    const int wn = warp & 3;    // cols wn*32   (0..3)
    const int g = lane >> 2;
    const int tq = lane & 3;

    const long bid = blockIdx.x;
    const long b = bid / T;
    const long pi = bid - b * T;
    const __nv_bfloat16* A = X + b * M * K;
    __nv_bfloat16* C = Y + b * M * M;
    const long rowI = pi * BM;

    const long KT = (K + PBK - 1) / PBK;
    const unsigned panel = smem_addr(smem);
    const unsigned ring = panel + (unsigned)(KT * PTILE_BYTES);
    const long ntiles = T - pi;
    const long NS = ntiles * KT;
    const bool vo = vec_out != 0;

    // prologue: steps 0..PSTAGES-2
    #pragma unroll
    for (int p = 0; p < PSTAGES - 1; ++p) {
        if (p < NS) {
            const long tp = p / KT, kp = p - tp * KT;
            if (tp == 0) pload_tile(panel + (unsigned)kp * PTILE_BYTES, A, rowI, kp * PBK, M, K, tid);
            else         pload_tile(ring + (unsigned)(p % PSTAGES) * PTILE_BYTES, A, (pi + tp) * BM, kp * PBK, M, K, tid);
        }
        cp_async_commit();
    }

    float acc[4][4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j)
            #pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

    const unsigned a_row_off = (unsigned)((wm * 64 + (lane & 15)) * (PBK * 2));
    const int a_sel = lane >> 4;
    const int a_sw = ((wm * 64 + (lane & 15)) >> 1) & 3;
    const int b_r = wn * 32 + (lane & 7) + ((lane >> 4) << 3);
    const unsigned b_row_off = (unsigned)(b_r * (PBK * 2));
    const int b_sel = (lane >> 3) & 1;
    const int b_sw = (b_r >> 1) & 3;

    long tile = 0, kt = 0;
    for (long s = 0; s < NS; ++s) {
        cp_async_wait<PSTAGES - 2>();
        __syncthreads();
        {
            const long p = s + PSTAGES - 1;
            if (p < NS) {
                const long tp = p / KT, kp = p - tp * KT;
                if (tp == 0) pload_tile(panel + (unsigned)kp * PTILE_BYTES, A, rowI, kp * PBK, M, K, tid);
                else         pload_tile(ring + (unsigned)(p % PSTAGES) * PTILE_BYTES, A, (pi + tp) * BM, kp * PBK, M, K, tid);
            }
            cp_async_commit();
        }
        const unsigned sA = panel + (unsigned)kt * PTILE_BYTES;
        const unsigned sB = (tile == 0) ? sA : ring + (unsigned)(s % PSTAGES) * PTILE_BYTES;
        #pragma unroll
        for (int ks = 0; ks < PBK / 16; ++ks) {
            unsigned af[4][4];
            unsigned bf[4][2];
            // A rows: (row >> 1) & 3 is the same for all mi (mi*16 keeps it), so swizzle is per lane
            const unsigned a_ch = (unsigned)(((2 * ks + a_sel) ^ a_sw) << 4);
            const unsigned b_ch = (unsigned)(((2 * ks + b_sel) ^ b_sw) << 4);
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                ldmatrix_x4(sA + a_row_off + mi * 16 * (PBK * 2) + a_ch, af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
            #pragma unroll
            for (int nj = 0; nj < 2; ++nj)
                ldmatrix_x4(sB + b_row_off + nj * 16 * (PBK * 2) + b_ch, bf[2 * nj][0], bf[2 * nj][1], bf[2 * nj + 1][0], bf[2 * nj + 1][1]);
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    mma_bf16(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
        }

        if (kt == KT - 1) {
            // ---- epilogue for tile (pi, pj), straight from registers ----
            const long rowJ = (pi + tile) * BM;
            const float inv = 1.0f / 768.0f;
            const bool odd = (g & 1) != 0;
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    #pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const float v0 = acc[mi][ni][2 * h] * inv;
                        const float v1 = acc[mi][ni][2 * h + 1] * inv;
                        const int lr = wm * 64 + mi * 16 + g + 8 * h;     // local row
                        const int lc = wn * 32 + ni * 8 + tq * 2;          // local col (pair)
                        const long gr = rowI + lr;
                        const long gc = rowJ + lc;
                        const unsigned mine = pack_bf16x2(v0, v1);
                        if (vo) {
                            if (gr < M && gc < M)
                                *reinterpret_cast<unsigned*>(C + gr * M + gc) = mine;
                        } else {
                            if (gr < M && gc < M) C[gr * M + gc] = __float2bfloat16_rn(v0);
                            if (gr < M && gc + 1 < M) C[gr * M + gc + 1] = __float2bfloat16_rn(v1);
                        }
                        if (tile != 0) {
                            // transposed: output row = col, contiguous pair along local rows (g, g^1)
                            const unsigned other = __shfl_xor_sync(0xffffffffu, mine, 4);
                            // even g: col lc,   rows (lr, lr+1): lo = mine.lo, hi = other.lo
                            // odd g:  col lc+1, rows (lr-1, lr): lo = other.hi, hi = mine.hi
                            const unsigned packed = odd ? __byte_perm(other, mine, 0x7632)
                                                        : __byte_perm(mine, other, 0x5410);
                            const long tr = rowJ + lc + (odd ? 1 : 0);         // output row
                            const long tc = rowI + lr - (odd ? 1 : 0);         // output col (even)
                            if (vo) {
                                if (tr < M && tc < M)
                                    *reinterpret_cast<unsigned*>(C + tr * M + tc) = packed;
                            } else {
                                __nv_bfloat162 pv = *reinterpret_cast<const __nv_bfloat162*>(&packed);
                                if (tr < M && tc < M) C[tr * M + tc] = pv.x;
                                if (tr < M && tc + 1 < M) C[tr * M + tc + 1] = pv.y;
                            }
                        }
                    }
            #pragma unroll
            for (int i = 0; i < 4; ++i)
                #pragma unroll
                for (int j = 0; j < 4; ++j)
                    #pragma unroll
                    for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
            kt = 0;
            ++tile;
        } else {
            ++kt;
        }
    }
    cp_async_wait<0>();
}
""")

_SMEM = 3 * 2 * 128 * 64 * 2   # STAGES * STAGE_BYTES = 98304 (epilogue needs 2*128*136*2 = 69632)
mod.gram_bf16.set_max_dynamic_shared_memory(_SMEM)
_PANEL_KT_MAX = 24              # resident panel: 24 k-tiles of 8 KiB (K <= 768)
_PANEL_SMEM_MAX = (_PANEL_KT_MAX + 4) * 128 * 32 * 2   # + 4 ring stages = 229376 bytes
mod.gram_bf16_panel.set_max_dynamic_shared_memory(_PANEL_SMEM_MAX)


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
        KT = (K + 31) // 32
        if vec_in and 0 < KT <= _PANEL_KT_MAX:
            smem = (KT + 4) * 128 * 32 * 2
            mod.gram_bf16_panel(grid=(Bn * T,), block=(256,), args=(x, y, M, K, T, vec_out),
                                shared_mem=smem)
        else:
            mod.gram_bf16(grid=(Bn * ntri,), block=(128,), args=(x, y, M, K, T, ntri, vec_in, vec_out),
                          shared_mem=_SMEM)
        return y
