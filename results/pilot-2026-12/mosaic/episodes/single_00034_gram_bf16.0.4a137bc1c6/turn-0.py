import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

# C[b] = A[b] @ A[b]^T / 768 with A[b]: (M, K) bf16 row-major.
# Tensor-core kernel (mma.sync m16n8k16 bf16, fp32 accumulate), 128x128 output
# tiles, BK=32, 4-stage cp.async pipeline, 4 warps each owning a 64x64 sub-tile.
# The result is symmetric, so only tiles with bi <= bj are computed; each
# off-diagonal tile is written twice (as is and transposed) through shared memory.
mod = nvrtc.compile(r"""
#include <cuda_bf16.h>

#define BM 128
#define BK 32
#define STAGES 4
#define NTHREADS 128
#define TILE_BYTES (BM * BK * 2)          // one operand tile per stage: 8 KiB
#define STAGE_BYTES (2 * TILE_BYTES)      // A rows (bi) + A rows (bj)
#define CPITCH 136                        // bf16 elements per row of the epilogue tile

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

// byte offset of 16B chunk c (0..3) of row r inside a [BM][BK] bf16 tile (swizzled)
__device__ __forceinline__ unsigned tile_off(int r, int c) {
    return (unsigned)(r * (BK * 2) + ((c ^ ((r >> 1) & 3)) << 4));
}

// Load rows [row0, row0+128) x k-chunk [k0, k0+32) of A into a swizzled smem tile.
__device__ __forceinline__ void load_tile(unsigned sbase, const __nv_bfloat16* __restrict__ A,
                                          long row0, long k0, long M, long K, bool vec, int tid) {
    #pragma unroll
    for (int i = 0; i < (BM * BK / 8) / NTHREADS; ++i) {
        int id = tid + i * NTHREADS;
        int r = id >> 2;
        int c = id & 3;
        long grow = row0 + r;
        long gk = k0 + c * 8;
        unsigned dst = sbase + tile_off(r, c);
        if (vec) {
            bool ok = (grow < M) && (gk < K);
            const __nv_bfloat16* src = ok ? (A + grow * K + gk) : A;
            cp_async16(dst, src, ok ? 16 : 0);
        } else {
            unsigned short v[8];
            const unsigned short* a16 = reinterpret_cast<const unsigned short*>(A);
            #pragma unroll
            for (int j = 0; j < 8; ++j) {
                bool ok = (grow < M) && (gk + j < K);
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

__global__ void gram_bf16(const __nv_bfloat16* __restrict__ X, __nv_bfloat16* __restrict__ Y,
                          long M, long K, long T, long ntri, int vec_in, int vec_out) {
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int wm = warp >> 1;   // 0..1 -> rows wm*64
    const int wn = warp & 1;    // 0..1 -> cols wn*64

    long bid = blockIdx.x;
    long b = bid / ntri;
    long t = bid - b * ntri;
    long bi = 0;
    while (t >= T - bi) { t -= T - bi; ++bi; }
    long bj = bi + t;

    const __nv_bfloat16* A = X + b * M * K;
    __nv_bfloat16* C = Y + b * M * M;
    const long rowI = bi * BM;
    const long rowJ = bj * BM;
    const bool vec = vec_in != 0;

    const unsigned sbase = smem_addr(smem);
    const long KT = (K + BK - 1) / BK;

    float acc[4][8][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j)
            #pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

    // prologue
    #pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) {
            unsigned st = sbase + s * STAGE_BYTES;
            load_tile(st, A, rowI, (long)s * BK, M, K, vec, tid);
            load_tile(st + TILE_BYTES, A, rowJ, (long)s * BK, M, K, vec, tid);
        }
        cp_async_commit();
    }

    // per-lane ldmatrix row/chunk selectors
    const int a_row = lane & 15;          // + wm*64 + mi*16
    const int a_chk = lane >> 4;          // + ks*2
    const int b_row = (lane & 7) + ((lane >> 4) << 3);   // + wn*64 + nj*16
    const int b_chk = (lane >> 3) & 1;    // + ks*2

    for (long kt = 0; kt < KT; ++kt) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            long nk = kt + STAGES - 1;
            if (nk < KT) {
                unsigned st = sbase + (unsigned)(nk % STAGES) * STAGE_BYTES;
                load_tile(st, A, rowI, nk * BK, M, K, vec, tid);
                load_tile(st + TILE_BYTES, A, rowJ, nk * BK, M, K, vec, tid);
            }
            cp_async_commit();
        }
        const unsigned sA = sbase + (unsigned)(kt % STAGES) * STAGE_BYTES;
        const unsigned sB = sA + TILE_BYTES;
        #pragma unroll
        for (int ks = 0; ks < BK / 16; ++ks) {
            unsigned af[4][4];
            unsigned bf[8][2];
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi) {
                int r = wm * 64 + mi * 16 + a_row;
                ldmatrix_x4(sA + tile_off(r, ks * 2 + a_chk), af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
            }
            #pragma unroll
            for (int nj = 0; nj < 4; ++nj) {
                int r = wn * 64 + nj * 16 + b_row;
                ldmatrix_x4(sB + tile_off(r, ks * 2 + b_chk), bf[2 * nj][0], bf[2 * nj][1], bf[2 * nj + 1][0], bf[2 * nj + 1][1]);
            }
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 8; ++ni)
                    mma_bf16(acc[mi][ni], af[mi], bf[ni][0], bf[ni][1]);
        }
    }
    cp_async_wait<0>();
    __syncthreads();

    // ---------------- epilogue ----------------
    __nv_bfloat16* Cs = reinterpret_cast<__nv_bfloat16*>(smem);
    const int g = lane >> 2;
    const int tq = lane & 3;

    // phase 1: tile as is -> Cs[r][c]
    #pragma unroll
    for (int mi = 0; mi < 4; ++mi)
        #pragma unroll
        for (int ni = 0; ni < 8; ++ni) {
            int r = wm * 64 + mi * 16 + g;
            int c = wn * 64 + ni * 8 + tq * 2;
            __nv_bfloat162 v0 = __floats2bfloat162_rn(acc[mi][ni][0] / 768.0f, acc[mi][ni][1] / 768.0f);
            __nv_bfloat162 v1 = __floats2bfloat162_rn(acc[mi][ni][2] / 768.0f, acc[mi][ni][3] / 768.0f);
            *reinterpret_cast<__nv_bfloat162*>(Cs + r * CPITCH + c) = v0;
            *reinterpret_cast<__nv_bfloat162*>(Cs + (r + 8) * CPITCH + c) = v1;
        }
    __syncthreads();
    for (int id = tid; id < BM * (BM / 8); id += NTHREADS) {
        int r = id >> 4;
        int ch = id & 15;
        long grow = rowI + r;
        long gcol = rowJ + ch * 8;
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
    if (bi == bj) return;
    __syncthreads();

    // phase 2: transposed tile -> Cs[c][r], written to rows rowJ.., cols rowI..
    #pragma unroll
    for (int mi = 0; mi < 4; ++mi)
        #pragma unroll
        for (int ni = 0; ni < 8; ++ni) {
            int r = wm * 64 + mi * 16 + g;
            int c = wn * 64 + ni * 8 + tq * 2;
            Cs[c * CPITCH + r]           = __float2bfloat16_rn(acc[mi][ni][0] / 768.0f);
            Cs[(c + 1) * CPITCH + r]     = __float2bfloat16_rn(acc[mi][ni][1] / 768.0f);
            Cs[c * CPITCH + r + 8]       = __float2bfloat16_rn(acc[mi][ni][2] / 768.0f);
            Cs[(c + 1) * CPITCH + r + 8] = __float2bfloat16_rn(acc[mi][ni][3] / 768.0f);
        }
    __syncthreads();
    for (int id = tid; id < BM * (BM / 8); id += NTHREADS) {
        int r = id >> 4;
        int ch = id & 15;
        long grow = rowJ + r;
        long gcol = rowI + ch * 8;
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
""")

_SMEM = 4 * 2 * 128 * 32 * 2   # STAGES * STAGE_BYTES = 65536 (epilogue needs 128*136*2 = 34816)
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
