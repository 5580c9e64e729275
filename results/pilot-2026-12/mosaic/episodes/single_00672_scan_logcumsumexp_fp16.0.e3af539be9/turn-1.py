import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


# Bit-faithful re-implementation of torch's CUDA logcumsumexp numerics for fp16:
# torch scans the innermost dim in chunks of 2*num_threads_x elements with a
# Sklansky tree, and the running state is stored in the input dtype (fp16), so
# every combine  log1p(exp(min - max)) + max  (computed in fp32) is rounded to
# fp16. The chunk carry is combined into element 0 of the next chunk. We
# reproduce the same combine order and roundings, processing R rows per program.


@triton.jit
def _lae(a, b):
    # torch's _log_add_exp_helper(x=a, y=b) in fp32, result rounded to fp16 (kept as fp32)
    mn = tl.minimum(a, b)
    mx = tl.maximum(a, b)
    r = libdevice.log1p(libdevice.exp(mn - mx)) + mx
    special = (mn == mx) & (tl.abs(mn) == float("inf"))
    r = tl.where(special, a, r)
    nan = (a != a) | (b != b)
    r = tl.where(nan, a + b, r)
    return r.to(tl.float16).to(tl.float32)


@triton.jit
def logcumsumexp_kernel(x_ptr, y_ptr, n_rows, N,
                        R: tl.constexpr, C: tl.constexpr, LOGC: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid.to(tl.int64) * R + tl.arange(0, R).to(tl.int64)
    rmask = rows < n_rows
    cols = tl.arange(0, C)
    rbase = rows * N
    NEG_INF: tl.constexpr = float("-inf")
    carry = tl.full([R], NEG_INF, tl.float32)
    for start in range(0, N, C):
        idx = start + cols
        m = rmask[:, None] & (idx < N)[None, :]
        offs = rbase[:, None] + idx[None, :]
        x = tl.load(x_ptr + offs, mask=m, other=NEG_INF, eviction_policy="evict_first").to(tl.float32)
        # element 0 of the chunk absorbs the carry: op(x0, carry)
        first = cols[None, :] == 0
        x0 = tl.max(tl.where(first, x, NEG_INF), axis=1)
        x0 = _lae(x0, carry)
        buf = tl.where(first, x0[:, None], x)
        # Sklansky levels s = 1, 2, ..., C/2
        for lvl in tl.static_range(LOGC):
            S: tl.constexpr = 1 << lvl
            G: tl.constexpr = C // (2 * S)
            X = tl.reshape(buf, [R, G, 2 * S])
            j = tl.arange(0, 2 * S)[None, None, :]
            src = tl.max(tl.where(j == S - 1, X, NEG_INF), axis=2)
            Y = _lae(X, tl.broadcast_to(src[:, :, None], [R, G, 2 * S]))
            X = tl.where(j >= S, Y, X)
            buf = tl.reshape(X, [R, C])
        tl.store(y_ptr + offs, buf.to(y_ptr.dtype.element_ty), mask=m, eviction_policy="evict_first")
        carry = tl.max(tl.where(cols[None, :] == C - 1, buf, NEG_INF), axis=1)


def _torch_log_num_threads_x(num_rows, row_size):
    # mirrors at::native::get_log_num_threads_x_inner_scan (uint32 arithmetic)
    lx = 0
    while (1 << lx) < row_size:
        lx += 1
    ly = 0
    while (1 << ly) < num_rows:
        ly += 1
    diff = (lx - ly) & 0xFFFFFFFF
    t = ((9 + diff) & 0xFFFFFFFF) // 2
    return min(max(4, t), 9)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        dim = 2
        last = dim == x.dim() - 1
        xc = x.contiguous() if last else x.movedim(dim, -1).contiguous()
        y = torch.empty_like(xc)
        N = xc.shape[-1]
        n = xc.numel()
        if n == 0:
            return y if last else y.movedim(-1, dim)
        rows = n // N
        lx = _torch_log_num_threads_x(rows, N)
        C = 2 << lx
        LOGC = lx + 1
        R = max(1, min(64, 2048 // C))
        grid = (triton.cdiv(rows, R),)
        logcumsumexp_kernel[grid](xc, y, rows, N, R=R, C=C, LOGC=LOGC, num_warps=4)
        return y if last else y.movedim(-1, dim)
