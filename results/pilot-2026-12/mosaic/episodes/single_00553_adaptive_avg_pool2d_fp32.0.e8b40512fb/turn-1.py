import torch
import torch.nn as nn
import triton
import triton.language as tl


# adaptive_avg_pool2d to (OUT, OUT): one program per (plane, output row i).
# Rows of the band [rs, re) are summed elementwise into a [BH, BW] fp32 tile; UNROLL row
# blocks are loaded per loop iteration (independent loads, all in flight together) so a whole
# band (<= UNROLL * BH rows) is fetched in one round trip instead of one BH-row block at a time.
# Then the column sums are split into the OUT column bins and divided by the bin areas.
@triton.jit
def adaptive_avg_pool2d_kernel(x_ptr, y_ptr, H, W,
                               OUT_H: tl.constexpr, OUT_W: tl.constexpr, OUT_WP: tl.constexpr,
                               BH: tl.constexpr, BW: tl.constexpr, UNROLL: tl.constexpr):
    pid = tl.program_id(0)
    plane = pid // OUT_H
    i = pid % OUT_H
    rs = (i * H) // OUT_H
    re = ((i + 1) * H + OUT_H - 1) // OUT_H

    base = x_ptr + plane.to(tl.int64) * H * W

    j = tl.arange(0, OUT_WP)
    cs = (j * W) // OUT_W
    ce = ((j + 1) * W + OUT_W - 1) // OUT_W
    jvalid = j < OUT_W

    rows = tl.arange(0, BH)
    cols = tl.arange(0, BW)

    binsum = tl.zeros([OUT_WP], dtype=tl.float32)
    for c0 in tl.range(0, W, BW):
        cc = c0 + cols
        cmask = cc < W
        acc = tl.zeros([BH, BW], dtype=tl.float32)
        for r0 in tl.range(rs, re, BH * UNROLL):
            for u in tl.static_range(UNROLL):
                rr = r0 + u * BH + rows
                m = (rr < re)[:, None] & cmask[None, :]
                ptrs = base + rr[:, None] * W + cc[None, :]
                acc += tl.load(ptrs, mask=m, other=0.0)
        colsum = tl.sum(acc, axis=0)  # [BW]
        inbin = (cc[None, :] >= cs[:, None]) & (cc[None, :] < ce[:, None]) & jvalid[:, None]
        binsum += tl.sum(tl.where(inbin, colsum[None, :], 0.0), axis=1)

    cnt = ((re - rs) * (ce - cs)).to(tl.float32)
    cnt = tl.where(jvalid, cnt, 1.0)
    out = binsum / cnt
    optr = y_ptr + plane.to(tl.int64) * (OUT_H * OUT_W) + i * OUT_W + j
    tl.store(optr, out, mask=jvalid)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        OUT = 7
        x = x.contiguous()
        H, W = x.shape[-2], x.shape[-1]
        lead = x.shape[:-2]
        y = torch.empty(*lead, OUT, OUT, dtype=x.dtype, device=x.device)
        planes = x.numel() // (H * W) if H * W > 0 else 0
        if planes == 0:
            return y
        BW = min(triton.next_power_of_2(W), 256)
        BH = max(1, min(8, 2048 // BW))
        # tallest row band (host-side integer arithmetic on the sizes)
        maxbin = max(((i + 1) * H + OUT - 1) // OUT - (i * H) // OUT for i in range(OUT))
        UNROLL = max(1, min(8, triton.cdiv(maxbin, BH)))
        grid = (planes * OUT,)
        adaptive_avg_pool2d_kernel[grid](x, y, H, W, OUT_H=OUT, OUT_W=OUT, OUT_WP=8,
                                         BH=BH, BW=BW, UNROLL=UNROLL, num_warps=8)
        return y
