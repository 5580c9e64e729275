import torch
import torch.nn as nn
import triton
import triton.language as tl


# out[bag, d] = sum_l W[ids[bag, l], d]   (fp32 accumulation, one rounding to bf16 at the end)
# grid = (bags, D chunks) with the bag index varying fastest, so the programs resident at any
# time all gather the same BLOCK_D-wide column slice of the table: that slice
# (50257 x 128 bf16 = 12.9 MB) stays resident in L2 instead of the whole 103 MB table.
# The ids of the next BLOCK_L block are loaded one iteration ahead, so the dependent
# ids -> rows load chain is off the critical path.
@triton.jit
def embedding_bag_sum_kernel(ids_ptr, w_ptr, out_ptr, L, D,
                             BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0).to(tl.int64)
    pd = tl.program_id(1)
    doffs = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = doffs < D
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32)
    id_base = ids_ptr + bag * L
    lar = tl.arange(0, BLOCK_L)
    lmask = lar < L
    idx = tl.load(id_base + lar, mask=lmask, other=0).to(tl.int64)
    for start in range(0, L, BLOCK_L):
        noffs = start + BLOCK_L + lar
        nmask = noffs < L
        nidx = tl.load(id_base + noffs, mask=nmask, other=0).to(tl.int64)
        ptrs = w_ptr + idx[:, None] * D + doffs[None, :]
        rows = tl.load(ptrs, mask=lmask[:, None] & dmask[None, :], other=0.0)
        acc += rows.to(tl.float32)
        idx = nidx
        lmask = nmask
    res = tl.sum(acc, axis=0)
    tl.store(out_ptr + bag * D + doffs, res.to(out_ptr.dtype.element_ty), mask=dmask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(50257, 1024, mode='sum')
        self.to(torch.bfloat16)

    def forward(self, ids):
        w = self.emb.weight.contiguous()
        D = w.shape[1]
        ids2 = ids.reshape(-1, ids.shape[-1]).contiguous()
        B, L = ids2.shape
        out = torch.empty((B, D), dtype=w.dtype, device=w.device)
        if B == 0 or D == 0:
            return out
        BLOCK_D = min(128, triton.next_power_of_2(D))
        BLOCK_L = 32
        grid = (B, triton.cdiv(D, BLOCK_D))
        embedding_bag_sum_kernel[grid](ids2, w, out, L, D,
                                       BLOCK_L=BLOCK_L, BLOCK_D=BLOCK_D, num_warps=4)
        return out
