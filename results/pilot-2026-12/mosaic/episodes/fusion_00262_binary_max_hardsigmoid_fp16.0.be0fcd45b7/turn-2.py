import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_hardsigmoid_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, USE_I64: tl.constexpr):
    if USE_I64:
        pid = tl.program_id(0).to(tl.int64)
    else:
        pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    b = tl.load(y_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    m = tl.maximum(a, b).to(tl.float32)
    # hardsigmoid in fp32 opmath: min(max(x + 3, 0), 6) * (1/6)
    h = tl.minimum(tl.maximum(m + 3.0, 0.0), 6.0) * 0.16666666666666666
    tl.store(out_ptr + offs, h.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        if n == 0:
            return out
        BLOCK = 4096
        nblocks = triton.cdiv(n, BLOCK)
        use_i64 = nblocks * BLOCK >= 2 ** 31
        max_hardsigmoid_kernel[(nblocks,)](x, y, out, n, BLOCK=BLOCK, USE_I64=use_i64, num_warps=4)
        return out
