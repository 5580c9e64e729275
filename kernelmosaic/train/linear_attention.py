"""Packed (padding-free) batches through Qwen3.5's gated-delta-net (GDN) layers.

TRL's padding-free collator flattens a batch into one row and hands the model the sequence
boundaries (``cu_seq_lens_q``, ``seq_idx``). A GDN layer (``Qwen3_5GatedDeltaNet.forward``) has two
places where tokens of one sequence can reach the next, and transformers (5.17 on the H200, 5.25
on the CPU machines) handles them like this:

- the gated delta rule, called as ``torch_chunk_gated_delta_rule(..., cu_seqlens=cu_seq_lens_q)``:
  with flash-linear-attention (``fla``) importable when the modeling module is imported, that
  name runs fla's ``chunk_gated_delta_rule``, which restarts the state at each boundary. Without
  fla (or on the CPU) it is a torch reference without ``cu_seqlens``: 5.17 drops the argument and
  carries the state from one packed sequence into the next; 5.25 raises ``ValueError``.
- the short causal convolution (kernel 4), ``causal_conv1d_fn(..., **kwargs)``: Dao-AILab's
  ``causal_conv1d`` package when importable (it takes ``seq_idx``), else ``F.conv1d`` over the
  whole row, which mixes the last 3 tokens of each sequence into the first 3 of the next (5.17,
  silently) or raises (5.25). fla does not help here: transformers never calls fla's convolution.

So with fla alone (the H200's setup) the delta rule is right and the convolution still leaks.
``install()`` replaces both module-level functions of the modeling module (the forward looks
them up there at call time) with wrappers that, for a packed row (batch 1 with
``cu_seq_lens_q``/``cu_seqlens``), call fla's varlen ops on CUDA
(``fla.modules.causal_conv1d.causal_conv1d`` and ``fla.ops.gated_delta_rule.chunk_gated_delta_rule``,
both with ``cu_seqlens``) or elsewhere a torch path that keeps the boundaries (a masked
convolution; the delta rule run per sequence). Every other call (padded batches, generation with
a cache) goes to transformers' own function unchanged.

``enable(config)`` installs it for a supported model when fla imports; ``sft.decide_packing``
packs linear-attention models only then. ``packed_check`` measures packed rows against each
sequence run alone, through whatever functions are installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import torch

# model_type (of the text config) -> the transformers module whose GDN layers are patched. The
# Qwen3.5 MoE models use the same GDN code; qwen3_next (the same layer, older) is not covered.
MODULES = {
    "qwen3_5": "transformers.models.qwen3_5.modeling_qwen3_5",
    "qwen3_5_text": "transformers.models.qwen3_5.modeling_qwen3_5",
    "qwen3_5_moe": "transformers.models.qwen3_5_moe.modeling_qwen3_5_moe",
    "qwen3_5_moe_text": "transformers.models.qwen3_5_moe.modeling_qwen3_5_moe",
}
CONV, DELTA = "causal_conv1d_fn", "torch_chunk_gated_delta_rule"
FLA_ACTIVATIONS = (None, "silu", "swish")  # what fla's causal_conv1d fuses

_originals: dict[str, dict[str, Callable]] = {}  # module -> {function name: transformers' function}


@lru_cache(maxsize=1)
def fla_ops() -> tuple[Callable, Callable] | None:
    """fla's (chunk_gated_delta_rule, causal_conv1d), or None where fla does not import."""
    try:
        from fla.modules.causal_conv1d import causal_conv1d
        from fla.ops.gated_delta_rule import chunk_gated_delta_rule
    except Exception:  # noqa: BLE001 - a broken install (triton mismatch, missing einops) means: not available
        return None
    return chunk_gated_delta_rule, causal_conv1d


FLA_GUARD_MODULE = "fla.ops.common.chunk_o"  # where fla keeps its Hopper/Triton refusal (#640)


def fla_refusal() -> str | None:
    """Why fla will refuse the gated delta rule's backward in this process, or None.

    fla 0.6 raises in ``chunk_bwd_dqkwg`` on Hopper with 3.4.0 <= Triton < 3.7.1 (Triton
    miscompiles one of its tiles there: fla issue #640), unless tilelang is installed for fla's
    dispatch to use instead. transformers calls the same kernel whenever fla is installed, padded
    rows too, so a run that goes ahead crashes at its first backward, after the model has loaded.
    Read from fla's own flags, so a fla release that changes the range is followed."""
    if fla_ops() is None:
        return None
    try:
        mod = importlib.import_module(FLA_GUARD_MODULE)
    except Exception:  # noqa: BLE001 - another fla layout: nothing known to refuse
        return None
    flags = ("IS_NVIDIA_HOPPER", "TRITON_ABOVE_3_4_0", "TRITON_ABOVE_3_7_1")
    if not all(hasattr(mod, f) for f in flags):
        return None
    if not (mod.IS_NVIDIA_HOPPER and mod.TRITON_ABOVE_3_4_0 and not mod.TRITON_ABOVE_3_7_1):
        return None
    if importlib.util.find_spec("tilelang") is not None:
        return None
    from importlib.metadata import PackageNotFoundError, version

    try:
        triton = version("triton")
    except PackageNotFoundError:  # fla says it is there; the name only fills the message
        triton = "?"
    return (f"flash-linear-attention refuses the gated delta rule's backward on Hopper with Triton "
            f"{triton} (3.4.0 <= Triton < 3.7.1 miscompiles it: fla issue #640). Install "
            f"Triton >= 3.7.1 or tilelang, or uninstall flash-linear-attention (transformers then runs its "
            f"torch reference of the delta rule, which is much slower, and rows are not packed)")


def unguard_fla() -> bool:
    """Lift fla's #640 refusal in this process; True if there was one to lift. For measurement
    only (``benchmarks/train_throughput.py --fla-unguarded``), and only beside
    ``delta_rule_check``, which compares fla's gradients with the torch reference on this GPU:
    fla's report places the miscompile at 64-wide key tiles, and Hopper's tiling is 128 wide."""
    if fla_refusal() is None:
        return False
    importlib.import_module(FLA_GUARD_MODULE).TRITON_ABOVE_3_7_1 = True
    return True


def text_model_type(config: Any) -> str | None:
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    return getattr(text, "model_type", None)


def _module(model_type: str) -> ModuleType:
    name = MODULES.get(model_type)
    if name is None:
        raise ValueError(f"no packed linear-attention path for model_type {model_type!r} "
                         f"(supported: {', '.join(sorted(MODULES))})")
    mod = importlib.import_module(name)
    missing = [f for f in (CONV, DELTA) if not hasattr(mod, f)]
    if missing:  # another transformers layout: refuse rather than patch half of it
        raise ValueError(f"{name} has no {', '.join(missing)}: this transformers release is not supported")
    return mod


def supported(model_type: str | None) -> bool:
    try:
        _module(model_type or "")
    except (ValueError, ImportError):
        return False
    return True


def installed(model_type: str, what: str | None = None) -> bool:
    """Whether our wrappers are in place (both, or the one named CONV or DELTA)."""
    done = _originals.get(MODULES.get(model_type, ""), {})
    return what in done if what else {CONV, DELTA} <= done.keys()


def install(model_type: str = "qwen3_5_text", *, conv: bool = True, delta_rule: bool = True) -> None:
    """Put the varlen-aware wrappers into the model's modeling module (idempotent; ``conv`` and
    ``delta_rule`` choose which, for the correctness check that attributes a leak)."""
    mod = _module(model_type)
    done = _originals.setdefault(mod.__name__, {})
    for name, want, make in ((CONV, conv, _conv_wrapper), (DELTA, delta_rule, _delta_wrapper)):
        if want and name not in done:
            done[name] = getattr(mod, name)
            setattr(mod, name, make(done[name]))


def uninstall(model_type: str = "qwen3_5_text") -> None:
    """Give transformers its own functions back."""
    mod = _module(model_type)
    for name, fn in _originals.pop(mod.__name__, {}).items():
        setattr(mod, name, fn)


def enable(config: Any) -> bool:
    """Install the packed path for ``config``'s model if it is supported and fla imports; True
    when packed batches are then kept apart in its linear-attention layers. Without fla nothing
    is installed and packing is not offered: the torch path exists so the CPU (tests, the check)
    can run packed rows correctly, but its delta rule is transformers' slow reference run one
    sequence at a time with a host sync per layer, and it has not been measured against padding."""
    mt = text_model_type(config)
    if fla_ops() is None or not supported(mt):
        return False
    install(mt)
    return True


def _packed(cu: torch.Tensor | None, x: torch.Tensor) -> bool:
    return cu is not None and x.shape[0] == 1


def _use_fla(x: torch.Tensor) -> bool:
    """fla's Triton kernels run on CUDA tensors; anything else takes the torch path."""
    return x.is_cuda and fla_ops() is not None


# --- the convolution -----------------------------------------------------------------------------

def sequence_ids(cu_seqlens: torch.Tensor, length: int, device: torch.device | str | None = None) -> torch.Tensor:
    """[length] index of the packed sequence each position belongs to (no host sync)."""
    import torch

    cu = cu_seqlens.to(device=device)
    pos = torch.arange(length, device=cu.device, dtype=cu.dtype)
    return torch.searchsorted(cu, pos, right=True) - 1


def segment_causal_conv1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None,
                          activation: str | None = None, cu_seqlens: torch.Tensor | None = None) -> torch.Tensor:
    """Depthwise causal convolution of one packed row that never reaches across a boundary.

    ``x`` [1, D, T] (transformers' layout), ``weight`` [D, W]. Output position t sums
    ``weight[:, W-1-j] * x[:, t-j]`` over the taps j < W whose position t-j is in t's sequence,
    which is ``F.conv1d(..., padding=W-1)[..., :T]`` run on each sequence alone. Computed in
    float32 (one rounding at the end, like the fused kernels). Without ``cu_seqlens`` the row is
    one sequence."""
    import torch
    import torch.nn.functional as F
    from transformers.activations import ACT2FN

    T, W = x.shape[-1], weight.shape[-1]
    xf, wf = x.float(), weight.float()
    seq = (sequence_ids(cu_seqlens, T, x.device) if cu_seqlens is not None
           else torch.zeros(T, dtype=torch.long, device=x.device))
    out = xf * wf[:, W - 1, None]
    for j in range(1, min(W, T)):
        same = (seq[j:] == seq[:-j]).to(xf.dtype)  # tap j of position t stays in t's sequence
        out = out + F.pad(xf[..., :-j] * wf[:, W - 1 - j, None] * same, (j, 0))
    if bias is not None:
        out = out + bias.float()[:, None]
    if activation is not None:
        out = ACT2FN[activation](out)
    return out.to(x.dtype)


def _fla_conv(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, activation: str | None,
              cu: torch.Tensor) -> torch.Tensor:
    """fla's Triton varlen convolution; [1, D, T] in and out (fla's layout is [B, T, D]). The
    input is cast to the weight's dtype first, as transformers' own convolution does."""
    y, _ = fla_ops()[1](x=x.to(weight.dtype).transpose(1, 2), weight=weight, bias=bias, activation=activation,
                        cu_seqlens=cu)
    return y.transpose(1, 2).to(x.dtype)


def _conv_wrapper(original: Callable) -> Callable:
    def causal_conv1d_fn(hidden_states, weight, bias=None, activation=None, **kwargs):
        cu = kwargs.get("cu_seq_lens_q")
        if not _packed(cu, hidden_states):
            return original(hidden_states, weight, bias, activation=activation, **kwargs)
        if _use_fla(hidden_states) and activation in FLA_ACTIVATIONS:
            return _outside_graphs(_fla_conv)(hidden_states, weight, bias, activation, cu)
        return segment_causal_conv1d(hidden_states, weight, bias, activation, cu)

    causal_conv1d_fn.kmosaic_original = original
    return causal_conv1d_fn


# --- the gated delta rule ------------------------------------------------------------------------

def _fla_delta(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, g: torch.Tensor, beta: torch.Tensor,
               cu: torch.Tensor, output_final_state: bool, use_qk_l2norm: bool) -> tuple[torch.Tensor, Any]:
    # fla >= 0.5 takes fewer query/key heads than value heads (5.25 passes them so; 5.17 repeats them first)
    return fla_ops()[0](query, key, value, g=g, beta=beta, initial_state=None, output_final_state=output_final_state,
                        use_qk_l2norm_in_kernel=use_qk_l2norm, cu_seqlens=cu)


def delta_rule_per_sequence(original: Callable, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                            g: torch.Tensor, beta: torch.Tensor, cu_seqlens: torch.Tensor,
                            output_final_state: bool = False, **kwargs: Any) -> tuple[torch.Tensor, Any]:
    """transformers' torch delta rule run on each packed sequence alone, outputs concatenated
    along T (final states stacked as [N, ...], fla's varlen convention). Syncs to read the
    boundaries. ``original`` is unwrapped to the torch function: transformers' wrapper may hold
    fla's kernel, which does not run on the CPU."""
    import torch

    reference = inspect.unwrap(original)
    bounds = [int(b) for b in cu_seqlens.tolist()]
    outs, states = [], []
    for a, b in zip(bounds[:-1], bounds[1:]):
        if b > a:
            o, s = reference(query[:, a:b], key[:, a:b], value[:, a:b], g=g[:, a:b], beta=beta[:, a:b],
                             initial_state=None, output_final_state=output_final_state, **kwargs)
            outs.append(o)
            states.append(s)
    return torch.cat(outs, 1), (torch.cat(states, 0) if output_final_state else None)


def _delta_wrapper(original: Callable) -> Callable:
    def torch_chunk_gated_delta_rule(query, key, value, *args, **kwargs):
        cu = kwargs.get("cu_seqlens")
        if args or not _packed(cu, query) or kwargs.get("initial_state") is not None:
            return original(query, key, value, *args, **kwargs)
        g, beta = kwargs["g"], kwargs["beta"]
        final = bool(kwargs.get("output_final_state", False))
        l2norm = bool(kwargs.get("use_qk_l2norm_in_kernel", False))
        if _use_fla(query):
            return _outside_graphs(_fla_delta)(query, key, value, g, beta, cu, final, l2norm)
        keep = {k: kwargs[k] for k in ("use_qk_l2norm_in_kernel", "chunk_size") if k in kwargs}
        # outside torch.compile graphs too: it reads the boundaries on the host, and each new
        # sequence length would retrace transformers' chunked reference
        return _outside_graphs(delta_rule_per_sequence)(original, query, key, value, g, beta, cu, final, **keep)

    torch_chunk_gated_delta_rule.kmosaic_original = original
    return torch_chunk_gated_delta_rule


@lru_cache(maxsize=None)
def _outside_graphs(fn: Callable) -> Callable:
    """``fn`` left out of torch.compile graphs (``model.compile: layers``): fla's calls and the
    per-sequence delta rule read the boundaries on the host, and fla launches autotuned Triton
    kernels, which Dynamo should not trace."""
    import torch

    return torch.compiler.disable(fn)


# --- the correctness check -----------------------------------------------------------------------

CHECK_LENGTHS = (37, 300, 5, 1000, 129, 64, 2)  # boundaries inside and at fla's 64-token chunks


def delta_rule_check(lengths: tuple[int, ...] | list[int] = CHECK_LENGTHS, *, heads: int = 16, value_heads: int = 32,
                     head_dim: int = 128, seed: int = 0, tol: float = 0.05) -> dict[str, Any]:
    """fla's varlen gated delta rule (bf16, CUDA) against transformers' torch reference run on
    each sequence alone in float32: the output and the gradients of q, k, v, g and beta, each as
    ||fla - ref|| / ||ref||. The defaults are Qwen3.5-9B's linear-attention heads (16 query/key
    heads, 32 value heads, 128 wide). fla's issue #640 is wrong gradients of beta and g on Hopper,
    which this sees and a packed-against-alone check through fla alone cannot. ``ok``: every
    difference within ``tol``."""
    import torch

    from transformers.models.qwen3_5 import modeling_qwen3_5 as mq

    ops = fla_ops()
    if ops is None:
        return {"ok": False, "error": "flash-linear-attention does not import"}
    reference = inspect.unwrap(mq.torch_chunk_gated_delta_rule)
    reference = getattr(reference, "kmosaic_original", reference)
    gen = torch.Generator(device="cuda").manual_seed(seed)
    T, rep = sum(lengths), value_heads // heads

    def rand(*shape):
        return torch.randn(*shape, device="cuda", generator=gen)

    leaves = {"q": rand(1, T, heads, head_dim), "k": rand(1, T, heads, head_dim), "v": rand(1, T, value_heads, head_dim),
              # log-decay in (-0.05, 0): slow, so state carried across a boundary would show
              "g": -0.05 * torch.rand(1, T, value_heads, device="cuda", generator=gen),
              "beta": torch.rand(1, T, value_heads, device="cuda", generator=gen)}
    w = rand(1, T, value_heads, head_dim)
    cu = torch.tensor([0, *torch.tensor(list(lengths)).cumsum(0).tolist()], device="cuda", dtype=torch.int32)

    def run(fn, dtype):
        x = {n: t.detach().to(dtype).requires_grad_(True) for n, t in leaves.items()}
        o = fn(x)
        (o.float() * w).sum().backward()
        return o.detach().float(), {n: t.grad.float() for n, t in x.items()}

    def fla_fn(x):
        return ops[0](x["q"], x["k"], x["v"], g=x["g"], beta=x["beta"], initial_state=None, output_final_state=False,
                      use_qk_l2norm_in_kernel=True, cu_seqlens=cu.long())[0]

    def ref_fn(x):  # transformers 5.17 repeats the query/key heads before its delta rule; so here
        return delta_rule_per_sequence(reference, x["q"].repeat_interleave(rep, 2), x["k"].repeat_interleave(rep, 2),
                                       x["v"], x["g"], x["beta"], cu, use_qk_l2norm_in_kernel=True)[0]

    res: dict[str, Any] = {"lengths": list(lengths), "heads": heads, "value_heads": value_heads,
                           "head_dim": head_dim, "tol": tol}
    try:
        o_ref, g_ref = run(ref_fn, torch.float32)
        o_fla, g_fla = run(fla_fn, torch.bfloat16)
    except Exception as e:  # noqa: BLE001 - fla refusing (#640) or failing is the result
        return {**res, "ok": False, "error": f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"}

    def rel(a, b):
        return (a - b).norm().item() / max(b.norm().item(), 1e-30)

    res["rel_diff"] = {"o": rel(o_fla, o_ref), **{f"d{n}": rel(g_fla[n], g_ref[n]) for n in leaves}}
    res["ok"] = all(v < tol for v in res["rel_diff"].values())
    return res


def slow_decay(model: Any, low: float = 0.001, high: float = 0.05, seed: int = 0) -> int:
    """Slow decays (A in [low, high]) in every gated-delta-net layer, for the check: the random
    init's A up to 16 forgets within a few tokens, which would hide a delta-rule state carried
    across a boundary. Returns the number of layers changed."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    n = 0
    with torch.no_grad():
        for m in model.modules():
            if hasattr(m, "A_log") and hasattr(m, "dt_bias"):
                a = torch.empty(m.A_log.shape).uniform_(low, high, generator=gen)
                m.A_log.copy_(a.log().to(m.A_log))
                n += 1
    return n


def packed_check(model: Any, lengths: tuple[int, ...] | list[int] = CHECK_LENGTHS, *, seed: int = 0,
                 grads: bool = True, tol: float = 0.05) -> dict[str, Any]:
    """Packed rows against each sequence run alone, through the model as it stands (patched or
    not): the batch comes from TRL's padding-free collator, so it carries what a packed training
    step carries (position_ids, cu_seq_lens_q/k, max_length_q/k, seq_idx).

    Measured: the largest logit difference over all tokens (and per sequence), the largest
    per-token loss difference (next-token cross-entropy inside each sequence) and, with ``grads``,
    ||g_packed - g_alone|| / ||g_alone|| over all parameters as one vector (and the worst single
    parameter), the loss being the sum of the per-token losses. Logit differences are scaled by
    the largest absolute reference logit, so ``tol`` reads as a fraction of the signal (bf16
    arithmetic alone should stay near 1e-2; a leak changes whole sequences: 0.25-0.45 on the CPU
    test model). ``ok``: the logit and the gradient differences within ``tol``; the loss
    differences follow from the logits and are reported only. An exception in the packed forward
    (transformers refusing packed input) is reported as ``error`` with ``ok`` False."""
    import torch
    import torch.nn.functional as F
    from trl.trainer.sft_trainer import DataCollatorForLanguageModeling

    device = next(model.parameters()).device
    vocab = model.config.get_text_config().vocab_size
    gen = torch.Generator().manual_seed(seed)
    seqs = [torch.randint(3, vocab, (n,), generator=gen) for n in lengths]
    batch = DataCollatorForLanguageModeling(pad_token_id=0, padding_free=True)([{"input_ids": s.tolist()} for s in seqs])
    batch.pop("labels")
    batch = {k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}

    def token_losses(logits, ids):  # per-token next-token loss of one sequence
        return F.cross_entropy(logits[:-1].float(), ids[1:].to(device), reduction="none")

    def params():
        return [(n, p) for n, p in model.named_parameters() if p.requires_grad]

    res: dict[str, Any] = {"lengths": list(lengths), "tokens": sum(lengths), "tol": tol}
    model.zero_grad(set_to_none=True)
    ref_logits, ref_losses = [], []
    with torch.set_grad_enabled(grads):
        for s in seqs:
            out = model(input_ids=s[None].to(device), use_cache=False).logits[0]
            loss = token_losses(out, s)
            if grads:
                loss.sum().backward()
            ref_logits.append(out.detach().float())
            ref_losses.append(loss.detach())
    ref_grads = {n: p.grad.detach().float().clone() for n, p in params() if p.grad is not None} if grads else {}
    model.zero_grad(set_to_none=True)
    try:
        with torch.set_grad_enabled(grads):
            out = model(**batch, use_cache=False).logits[0]
            bounds = batch["cu_seq_lens_q"].tolist()
            losses = [token_losses(out[a:b], s) for s, a, b in zip(seqs, bounds[:-1], bounds[1:])]
            if grads:
                torch.stack([x.sum() for x in losses]).sum().backward()
    except Exception as e:  # noqa: BLE001 - refusing packed input is a result too
        model.zero_grad(set_to_none=True)
        return {**res, "ok": False, "error": f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"}
    ref = torch.cat(ref_logits)
    d_tok = (out.detach().float() - ref).abs().amax(-1)
    res["logits_max_abs_diff"] = d_tok.max().item()
    scale = max(ref.abs().max().item(), 1e-30)
    res["logits_rel_diff"] = res["logits_max_abs_diff"] / scale
    # nothing precedes the first sequence, so a leak leaves it alone and changes the others
    res["logits_rel_diff_by_sequence"] = [round(d_tok[a:b].max().item() / scale, 6)
                                          for a, b in zip(bounds[:-1], bounds[1:])]
    lp, lr = torch.cat([x.detach() for x in losses]), torch.cat(ref_losses)
    res["loss_max_abs_diff"] = (lp - lr).abs().max().item()
    res["loss_rel_diff"] = res["loss_max_abs_diff"] / max(lr.abs().max().item(), 1e-30)
    ok = res["logits_rel_diff"] < tol
    if grads:
        worst, name, num, den = 0.0, None, 0.0, 0.0
        for n, p in params():
            if n in ref_grads and p.grad is not None:
                diff, ref_norm = (p.grad.float() - ref_grads[n]).norm().item(), ref_grads[n].norm().item()
                num, den = num + diff ** 2, den + ref_norm ** 2
                if diff / max(ref_norm, 1e-30) > worst:
                    worst, name = diff / max(ref_norm, 1e-30), n
        res["grad_rel_diff"] = (num / max(den, 1e-30)) ** 0.5  # all parameters as one vector
        res["grad_rel_diff_worst_param"], res["grad_worst_param"] = worst, name
        ok = ok and res["grad_rel_diff"] < tol
        model.zero_grad(set_to_none=True)
    res["ok"] = bool(ok)
    return res
