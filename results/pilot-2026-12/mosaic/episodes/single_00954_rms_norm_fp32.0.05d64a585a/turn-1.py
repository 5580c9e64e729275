import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rms_norm_single_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    # One program per row; the whole row is held in registers.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    base = row * N
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    ms = tl.sum(x * x, axis=0) / N
    r = 1.0 / tl.sqrt_rn(ms + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_last")
    y = (x * r) * w
    tl.store(y_ptr + base + offs, y, mask=mask)


@triton.jit
def rms_norm_persistent_kernel(x_ptr, w_ptr, y_ptr, ROWS, N, NPROG, eps, BLOCK: tl.constexpr):
    # Persistent programs, each walks rows pid, pid + nprog, ... with the row in registers.
    # The next row's load is issued before the current row is reduced and stored, so the load of
    # row i+1 overlaps the reduction and the store of row i. The weight is loaded once per program.
    pid = tl.program_id(0)
    nprog = NPROG
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    row = pid.to(tl.int64)
    x_next = tl.load(x_ptr + row * N + offs, mask=mask & (row < ROWS), other=0.0,
                     eviction_policy="evict_first")
    n_iter = (ROWS - pid + nprog - 1) // nprog
    for _ in range(0, n_iter):
        x = x_next
        nrow = row + nprog
        x_next = tl.load(x_ptr + nrow * N + offs, mask=mask & (nrow < ROWS), other=0.0,
                         eviction_policy="evict_first")
        ms = tl.sum(x * x, axis=0) / N
        r = 1.0 / tl.sqrt_rn(ms + eps)
        tl.store(y_ptr + row * N + offs, (x * r) * w, mask=mask)
        row = nrow


@triton.jit
def rms_norm_loop_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    # One program per row; two passes over the row (for very long rows).
    row = tl.program_id(0).to(tl.int64)
    base = row * N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        acc += x * x
    ms = tl.sum(acc, axis=0) / N
    r = 1.0 / tl.sqrt_rn(ms + eps)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0, eviction_policy="evict_first")
        w = tl.load(w_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_last")
        tl.store(y_ptr + base + offs, (x * r) * w, mask=mask)


_nsm_cache = {}


def _num_sms(dev):
    key = dev.index if dev.index is not None else torch.cuda.current_device()
    if key not in _nsm_cache:
        _nsm_cache[key] = torch.cuda.get_device_properties(key).multi_processor_count
    return _nsm_cache[key]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rms_weight = nn.Parameter(torch.ones(16384) + 0.1 * torch.randn(16384))
        self.to(torch.float32)

    def forward(self, x):
        x = x.contiguous()
        w = self.rms_weight.contiguous()
        N = x.shape[-1]
        y = torch.empty_like(x)
        rows = x.numel() // N if N > 0 else 0
        if rows == 0 or N == 0:
            return y
        eps = 1e-6
        if N <= 16384:
            BLOCK = triton.next_power_of_2(N)
            if BLOCK >= 4096:
                # 32 warps (1024 threads, <= 64 registers each: x, next x and w stay in registers
                # without spilling for BLOCK = 16384); exactly one program per SM.
                nw = 32
                grid = min(rows, _num_sms(x.device))
                rms_norm_persistent_kernel[(grid,)](x, w, y, rows, N, grid, eps, BLOCK=BLOCK, num_warps=nw)
            else:
                nw = max(1, min(16, BLOCK // 1024))
                if BLOCK >= 256:
                    nw = max(nw, 2)
                rms_norm_single_kernel[(rows,)](x, w, y, N, eps, BLOCK=BLOCK, num_warps=nw)
        else:
            BLOCK = 4096
            rms_norm_loop_kernel[(rows,)](x, w, y, N, eps, BLOCK=BLOCK, num_warps=8)
        return y
