import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sort_rows_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    # pad with +inf so padding sorts to the end and is never stored
    v = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=float("inf"))
    s = tl.sort(v, dim=0)
    tl.store(y_ptr + row * stride_y + offs, s, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        N = x.shape[-1]
        y = torch.empty_like(x)
        M = x.numel() // N if N > 0 else 0
        if M == 0 or N == 0:
            return y
        x2 = x.view(M, N)
        y2 = y.view(M, N)
        BLOCK = triton.next_power_of_2(N)
        nw = 4 if BLOCK <= 2048 else (8 if BLOCK <= 4096 else 16)
        sort_rows_kernel[(M,)](x2, y2, N, N, N, BLOCK=BLOCK, num_warps=nw)
        return y
