import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l2norm_rows_kernel(x_ptr, y_ptr, M, N, stride_m,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, SINGLE: tl.constexpr):
    # Each program reduces BLOCK_M full rows. With SINGLE (N <= BLOCK_N) the whole
    # BLOCK_M x N tile is loaded at once (one wide batch of 16-byte loads in flight per thread),
    # squared and summed in fp32; otherwise the row is walked in BLOCK_N chunks.
    pid = tl.program_id(0)
    rows = pid.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    row_mask = rows < M
    cols = tl.arange(0, BLOCK_N)
    row_ptr = x_ptr + rows[:, None] * stride_m
    if SINGLE:
        m = row_mask[:, None] & (cols[None, :] < N)
        v = tl.load(row_ptr + cols[None, :], mask=m, other=0.0).to(tl.float32)
        s = tl.sum(v * v, axis=1)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for n0 in range(0, N, BLOCK_N):
            c = n0 + cols
            m = row_mask[:, None] & (c[None, :] < N)
            v = tl.load(row_ptr + c[None, :], mask=m, other=0.0).to(tl.float32)
            acc += v * v
        s = tl.sum(acc, axis=1)
    r = tl.sqrt(s)
    tl.store(y_ptr + rows, r.to(y_ptr.dtype.element_ty), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        assert x.dim() == 2, "expects a 2-D input (reduction over dim 1)"
        M = x.shape[0]
        N = x.shape[1]
        y = torch.empty((M,), dtype=x.dtype, device=x.device)
        if M == 0:
            return y
        BLOCK_N = min(1024, triton.next_power_of_2(max(N, 1)))
        single = N <= BLOCK_N
        # ~32 KiB of fp16 per program (16 rows of 1024): 128 B of loads in flight per thread.
        BLOCK_M = max(1, min(256, 16384 // BLOCK_N))
        if not single:
            BLOCK_M = max(1, 4096 // BLOCK_N)
        grid = (triton.cdiv(M, BLOCK_M),)
        l2norm_rows_kernel[grid](x, y, M, N, x.stride(0),
                                 BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, SINGLE=single, num_warps=8)
        return y
