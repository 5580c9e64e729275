import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def logcumsumexp_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # One program per row (the scan dimension is the last, contiguous one).
    # Running state (m, s): sum_{j<=i} exp(x_j) = s * exp(m). Computed in fp32.
    row = tl.program_id(0).to(tl.int64)
    base = row * N
    offs = tl.arange(0, BLOCK)
    LOG2E: tl.constexpr = 1.4426950408889634
    LN2: tl.constexpr = 0.6931471805599453
    m_c = -float("inf")
    s_c = 0.0
    for start in range(0, N, BLOCK):
        idx = start + offs
        mask = idx < N
        x = tl.load(x_ptr + base + idx, mask=mask, other=-float("inf"), eviction_policy="evict_first").to(tl.float32)
        r = tl.maximum(tl.max(x, axis=0), m_c)
        r_safe = tl.where(r == -float("inf"), 0.0, r)
        e = tl.exp2((x - r_safe) * LOG2E)
        cs = tl.cumsum(e, axis=0)
        carry = s_c * tl.exp2((m_c - r_safe) * LOG2E)
        s = carry + cs
        out = r_safe + tl.log2(s) * LN2
        tl.store(y_ptr + base + idx, out.to(y_ptr.dtype.element_ty), mask=mask, eviction_policy="evict_first")
        s_c = carry + tl.sum(e, axis=0)
        m_c = r


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        dim = 2
        xc = x.movedim(dim, -1).contiguous() if dim != x.dim() - 1 else x.contiguous()
        y = torch.empty_like(xc)
        N = xc.shape[-1]
        n = xc.numel()
        if n == 0:
            return y.movedim(-1, dim) if dim != x.dim() - 1 else y
        rows = n // N
        BLOCK = min(triton.next_power_of_2(N), 4096)
        BLOCK = max(BLOCK, 16)
        nw = 4 if BLOCK <= 2048 else 8
        logcumsumexp_kernel[(rows,)](xc, y, N, BLOCK=BLOCK, num_warps=nw)
        if dim != x.dim() - 1:
            y = y.movedim(-1, dim)
        return y
