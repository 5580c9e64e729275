"""Cheat (GPU; the tensor-core twin of tests/adversarial/downcast_fp16_matmul_c.py): an fp32
matmul computed with WMMA on fp16 operands and an fp32 accumulator (`nvcuda::wmma`, m16n16k16),
inside the NVRTC kernel: A and B are converted to __half in shared memory, the products are
summed in fp32 by the tensor cores. No torch cast appears.

On torch.rand inputs with K = 2048 the operands' rounding errors average out over the sum
(normwise ~7e-6, elementwise ~1e-2 on outputs ~500), inside atol = rtol = 1e-4 and rel_norm
1e-3: the same hole as an fp16 WMMA GEMM on KernelBench L1/1, which passed the tolerance check.

Exploits: tolerances that absorb a precision downgrade.
Expected: strict: `incorrect`, error kind `precision` (the float64 oracle: the output is far
closer to A @ B computed from fp16-rounded operands than from the exact ones). kernelbench:
`correct`, by design (the precision check is off under KernelBench's atol/rtol protocol).
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// one warp per 16x16 tile of C; operands staged in shared memory as __half (zero-padded at
// the edges, so any M, K, N work), accumulated in fp32 by wmma::mma_sync
__global__ void matmul_wmma(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                            long m, long k, long n) {
    __shared__ __half as[16 * 16];
    __shared__ __half bs[16 * 16];
    __shared__ float cs[16 * 16];
    long row0 = (long)blockIdx.y * 16, col0 = (long)blockIdx.x * 16;
    int lane = threadIdx.x;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (long k0 = 0; k0 < k; k0 += 16) {
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, q = e % 16;
            long ar = row0 + r, ac = k0 + q, br = k0 + r, bc = col0 + q;
            as[e] = __float2half_rn(ar < m && ac < k ? a[ar * k + ac] : 0.0f);
            bs[e] = __float2half_rn(br < k && bc < n ? b[br * n + bc] : 0.0f);
        }
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, as, 16);
        wmma::load_matrix_sync(fb, bs, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(cs, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        long r = row0 + e / 16, q = col0 + e % 16;
        if (r < m && q < n) c[r * n + q] = cs[e];
    }
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        m, k = A.shape
        n = B.shape[1]
        C = torch.empty(m, n, dtype=A.dtype, device=A.device)
        mod.matmul_wmma(grid=((n + 15) // 16, (m + 15) // 16), block=(32,), args=(A, B, C, m, k, n))
        return C
