import torch
import torch.nn as nn
import triton
import triton.language as tl

SCALE = 0.176777
LOG2E = 1.4426950408889634


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, D, qk_scale, N_M,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
                    EVEN_N: tl.constexpr, EVEN_D: tl.constexpr):
    # Flash-attention forward. 1-D grid with the query block fastest, so the query blocks of one
    # (batch, head) run back to back and share its K/V through L2.
    pid = tl.program_id(0)
    bh = (pid // N_M).to(tl.int64)
    pid_m = pid % N_M
    base = bh * S * D
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    offs_n0 = tl.arange(0, BLOCK_N)
    m_mask = offs_m < S
    d_mask = offs_d < D

    q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :],
                mask=m_mask[:, None] & d_mask[None, :], other=0.0)

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], tl.float32)

    for start_n in range(0, S, BLOCK_N):
        offs_n = start_n + offs_n0
        n_mask = offs_n < S
        kv_off = base + offs_n[:, None] * D + offs_d[None, :]
        if EVEN_N and EVEN_D:
            k = tl.load(k_ptr + kv_off)
        else:
            k = tl.load(k_ptr + kv_off, mask=n_mask[:, None] & d_mask[None, :], other=0.0)
        qk = tl.dot(q, tl.trans(k))                     # fp32 accumulate
        if not EVEN_N:
            qk = tl.where(n_mask[None, :], qk, float("-inf"))
        # qk_scale = scale * log2(e) > 0, so max(qk) * qk_scale is the max of the scaled row
        m_new = tl.maximum(m_i, tl.max(qk, axis=1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        if EVEN_N and EVEN_D:
            v = tl.load(v_ptr + kv_off)
        else:
            v = tl.load(v_ptr + kv_off, mask=n_mask[:, None] & d_mask[None, :], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new

    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=m_mask[:, None] & d_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        q = q.contiguous()
        k = k.contiguous()
        v = v.contiguous()
        S = q.shape[-2]
        D = q.shape[-1]
        BH = q.numel() // (S * D) if S * D > 0 else 0
        o = torch.empty_like(q)
        if BH == 0 or S == 0 or D == 0:
            return o
        BLOCK_D = max(16, triton.next_power_of_2(D))
        BLOCK_M = 128 if S > 64 else 64
        BLOCK_N = 64
        nw = 8 if BLOCK_M == 128 else 4
        n_m = triton.cdiv(S, BLOCK_M)
        grid = (BH * n_m,)
        attn_fwd_kernel[grid](q, k, v, o, S, D, SCALE * LOG2E, n_m,
                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D,
                              EVEN_N=(S % BLOCK_N == 0), EVEN_D=(D == BLOCK_D),
                              num_warps=nw, num_stages=3)
        return o
