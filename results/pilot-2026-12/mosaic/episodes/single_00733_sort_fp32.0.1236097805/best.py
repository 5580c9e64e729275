import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sort_rows_kernel(x_ptr, y_ptr, N, stride_x, stride_y, T: tl.constexpr, E: tl.constexpr):
    # The row is loaded as an [E, T] tile, element (e, t) = x[e*T + t] (coalesced along t), then
    # transposed and flattened so it sits at flat index t*E + e. A sort does not depend on the order
    # of its input, and this order gives each thread 4*E consecutive flat indices in registers (with the
    # 4-wide vector load along t): the low index bits, which the bitonic network touches most often,
    # are then exchanged inside a thread instead of through warp shuffles / shared memory.
    row = tl.program_id(0).to(tl.int64)
    e = tl.arange(0, E)[:, None]
    t = tl.arange(0, T)[None, :]
    src = e * T + t
    # pad with +inf so padding sorts to the end and is never stored
    v = tl.load(x_ptr + row * stride_x + src, mask=src < N, other=float("inf"))
    v = tl.reshape(tl.trans(v), [T * E])
    s = tl.sort(v, dim=0)
    offs = tl.arange(0, T * E)
    tl.store(y_ptr + row * stride_y + offs, s, mask=offs < N)


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
        nw = max(1, min(16, BLOCK // 512))
        T = min(BLOCK, 128 * nw)
        E = BLOCK // T
        sort_rows_kernel[(M,)](x2, y2, N, N, N, T=T, E=E, num_warps=nw)
        return y
