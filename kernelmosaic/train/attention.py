"""Attention for padding-free (packed) training batches without a flash-attn wheel.

PyTorch ships FlashAttention-2 as ``torch.nn.attention.varlen.varlen_attn`` (CUDA only): it takes
the packed tokens and the sequence boundaries (``cu_seq_lens``) that TRL's padding-free collator
already computes, so packed documents never attend to each other and no masked work is done.
SDPA on a packed row would need a dense block-diagonal mask and would compute every masked block.

``register()`` adds it to transformers' ``AttentionInterface`` as ``"torch_varlen"``. Its mask
function is FlashAttention's (no 4D mask is built). A batch without ``cu_seq_lens`` (generation,
an unpacked eval batch, the CPU) falls back to transformers' SDPA, with a block-diagonal causal
mask when the position ids show packed sequences.
"""

from __future__ import annotations

import inspect
from functools import lru_cache

NAME = "torch_varlen"


@lru_cache(maxsize=1)
def varlen_available() -> bool:
    try:
        import torch
        from torch.nn.attention import varlen  # noqa: F401
    except ImportError:
        return False
    return torch.cuda.is_available()


@lru_cache(maxsize=1)
def _varlen_kwargs() -> tuple[dict, bool]:
    """The causal flag for this torch release (``window_size`` since 2.11/2.12, ``is_causal`` before)
    and whether it takes ``enable_gqa``."""
    from torch.nn.attention.varlen import varlen_attn

    params = inspect.signature(varlen_attn).parameters
    causal = {"window_size": (-1, 0)} if "window_size" in params else {"is_causal": True}
    return causal, "enable_gqa" in params


def _sdpa_fallback(module, query, key, value, attention_mask, **kwargs):
    import torch
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    pos = kwargs.get("position_ids")
    if attention_mask is None and pos is not None and pos.shape[-1] == query.shape[2] == key.shape[2]:
        # packed rows without cu_seq_lens: a new sequence starts wherever the position does not go up by one
        pos = pos.expand(query.shape[0], -1)
        seq = (torch.diff(pos, prepend=pos[:, :1] - 1, dim=-1) != 1).cumsum(-1)
        if bool((seq[:, -1] > 0).any()):
            causal = torch.ones(pos.shape[-1], pos.shape[-1], dtype=torch.bool, device=query.device).tril()
            attention_mask = (seq[:, None, :, None] == seq[:, None, None, :]) & causal
    if attention_mask is not None and attention_mask.ndim == 2:
        # the flash-style mask function hands over the 2D padding mask; SDPA needs a 4D one
        q_len, kv_len = query.shape[2], key.shape[2]
        causal = torch.ones(q_len, kv_len, dtype=torch.bool, device=query.device).tril(kv_len - q_len)
        attention_mask = causal & attention_mask[:, None, None, -kv_len:].to(device=query.device, dtype=torch.bool)
    return sdpa_attention_forward(module, query, key, value, attention_mask, **kwargs)


def varlen_attention_forward(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """transformers attention signature: q/k/v are [batch, heads, seq, dim]; returns ([batch, seq, heads, dim], None)."""
    cu_q, cu_k = kwargs.get("cu_seq_lens_q"), kwargs.get("cu_seq_lens_k")
    # the kernel does plain causal attention: anything else (sliding window, dropout) goes to SDPA
    if cu_q is None or query.shape[0] != 1 or not query.is_cuda or kwargs.get("sliding_window") or dropout:
        return _sdpa_fallback(module, query, key, value, attention_mask, scaling=scaling, dropout=dropout, **kwargs)
    return _outside_graphs()(query, key, value, cu_q, cu_k, kwargs.get("max_length_q"), kwargs.get("max_length_k"),
                             scaling)


def _packed_attention(query, key, value, cu_q, cu_k, max_q, max_k, scaling):
    import torch
    from torch.nn.attention.varlen import varlen_attn

    causal, has_gqa = _varlen_kwargs()
    q = query[0].transpose(0, 1)  # [tokens, heads, dim]
    k = key[0].transpose(0, 1)
    v = value[0].transpose(0, 1)
    extra = dict(causal)
    if k.shape[1] != q.shape[1]:
        if has_gqa:
            extra["enable_gqa"] = True
        else:  # older releases: expand the key/value heads
            rep = q.shape[1] // k.shape[1]
            k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
    cu_q = cu_q.to(device=q.device, dtype=torch.int32)
    cu_k = cu_q if cu_k is None else cu_k.to(device=q.device, dtype=torch.int32)
    max_q = int(max_q or (cu_q[1:] - cu_q[:-1]).max())
    max_k = int(max_k or max_q)
    out = varlen_attn(q, k, v, cu_q, cu_k, max_q, max_k, scale=scaling, **extra)
    return out.unsqueeze(0), None


@lru_cache(maxsize=1)
def _outside_graphs():
    """The kernel call, left out of torch.compile graphs (``model.compile: layers``): its
    max-length arguments are Python ints that change with every batch, so a traced call would
    specialize the graph to each batch's longest sequence and recompile."""
    import torch

    return torch.compiler.disable(_packed_attention)


def register() -> str:
    """Register ``"torch_varlen"`` with transformers (idempotent); returns the name."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, flash_attention_mask

    AttentionInterface.register(NAME, varlen_attention_forward)
    AttentionMaskInterface.register(NAME, flash_attention_mask)
    return NAME


def choose(requested: str, *, packing: bool, device: str) -> str:
    """``auto``: the torch varlen kernel for packed batches on CUDA, else SDPA. Any other value is used as is."""
    if requested == "auto":
        if packing and device == "cuda" and varlen_available():
            return register()
        return "sdpa"
    if requested == NAME:
        if not varlen_available():
            raise ValueError(f"attn_implementation {NAME!r} needs CUDA and torch.nn.attention.varlen (torch >= 2.10)")
        return register()
    return requested
