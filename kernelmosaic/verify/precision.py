"""The precision check: the candidate's error against a float64 oracle, bounded by a multiple of
the task-dtype reference's own error (issue 15, item 1).

The tolerance check (``compare``) cannot see a kernel that quietly computes an fp32 task in
fp16, bf16 or TF32: on KernelBench L1/1 (``torch.rand`` inputs, K = 4096) an fp32 GEMM whose
inputs were rounded to fp16 inside the candidate's own WMMA kernel passed atol = rtol = 1e-4.
Its error is ~50x the fp32 reference's, yet still ~1e-4 of the tolerance. So the judge runs
the reference once more in float64 (the oracle), on one trial's inputs, and asks two questions:

1. **Is the candidate's error within a multiple of the reference's own?**
   ``‖c - o‖ <= max(MULTIPLE * ‖r - o‖, floor)`` over the finite elements, where ``o`` is the
   oracle, ``r`` the task-dtype reference and ``c`` the candidate, all norms in float64. The
   floor is ``‖o‖ * (FLOOR_ULPS * eps + eps32 * sqrt(R)) + FLOOR_ULPS * tiny * sqrt(n)``:

   - ``eps`` and ``tiny`` are the task dtype's (``torch.finfo``): the relative spacing, and the
     smallest normal number; ``eps32`` is float32's, because honest kernels accumulate in fp32
     (torch's fp16 and bf16 references do), and one that accumulates in fp16 is the downcast;
   - ``R`` estimates how many terms feed each output element: FLOPs (torch's counter, which
     knows matmul, convolution, attention) over twice the output's size, or the longest sum any
     aten op of the forward computes (``sum``, ``mean``, ``var``, a softmax's row, a LayerNorm's
     normalized shape, ...), whichever is larger. An honest sequential fp32 sum of R terms is off by
     ~0.1-0.15 sqrt(R) eps (measured: ``benchmarks/precision_calibration.py --emulate``) while a
     blocked library sum (MKL, cuBLAS with split-K) is not: without this term an honest naive
     loop over a long K would be rejected for being less lucky than the library;
   - the ``tiny * sqrt(n)`` term is the absolute floor for outputs near zero: an element below
     the normal range may honestly be flushed to zero (GPU FTZ), so elements there are judged
     absolutely at that scale, not relatively.

2. **Is the candidate's output the answer to rounded inputs?** The oracle runs again on inputs
   and parameters rounded to TF32 (10-bit mantissa, fp32 range: the same rounding as fp16 for
   values in fp16's range) and to bf16. If the candidate is ``SIGNATURE`` times closer to one of
   those than to the exact oracle (and farther from the exact oracle than the reference is), it
   computed on downcast inputs. This catches what (1) cannot on positive inputs and long sums:
   rounding errors of the inputs average out over K terms (``~2^-11 / sqrt(K)``) while honest
   sequential accumulation grows (``~sqrt(K) eps``), so past K of a few thousand the two have
   the same size and no multiple separates them; but their *direction* differs, and an honest
   kernel's error is not correlated with the rounding of its inputs. Only fp32 tasks get the
   TF32 signature, fp32 and fp16 tasks the bf16 one.

The check is skipped (and the verdict says why) where it cannot answer: a reference that does
not compute in float64 when given float64 inputs (it casts, or builds fp32 tensors inside), one
that raises in float64, outputs too large for the memory budget, no floating outputs of
fp32/fp16/bf16. The signature runs are skipped when the first oracle run took more than a third
of ``BUDGET_S``. Runs only in the judge process: the candidate never sees the oracle.
"""

from __future__ import annotations

import copy
import math
import os
import time

import torch

from .compare import CHUNK, compare, compare_float, flatten
from .spec import PRECISION_MULTIPLE
from .verdict import Precision

# Calibration (benchmarks/precision_calibration.py; numbers in docs/verification.md): honest
# kernels stayed below 4x the reference's error and below half the floor; fp16/bf16/TF32
# downcasts of fp32 work were above 30x or matched their signature.
MULTIPLE = PRECISION_MULTIPLE
FLOOR_ULPS = 4.0
SIGNATURE = 4.0
BUDGET_S = 60.0
CHECKED_DTYPES = (torch.float32, torch.float16, torch.bfloat16)
ACC_EPS = torch.finfo(torch.float32).eps  # honest accumulation is in fp32 (torch's, for fp16/bf16 too)


def _round_tf32(x: torch.Tensor) -> torch.Tensor:
    """fp32 rounded to nearest (ties to even) at 10 mantissa bits, keeping fp32's exponent:
    TF32, and fp16's rounding for values in fp16's range."""
    u = x.contiguous().view(torch.int32).to(torch.int64)
    u = (u + 0xFFF + ((u >> 13) & 1)) & ~0x1FFF
    u = torch.where(u >= 2**31, u - 2**32, u).to(torch.int32)  # back into int32's range
    r = u.view(torch.float32).view(x.shape)
    return torch.where(torch.isfinite(x), r, x)


def _rounder(fmt: str | None):
    def go(t: torch.Tensor) -> torch.Tensor:
        if fmt == "tf32":
            t = _round_tf32(t.float())
        elif fmt == "bf16":
            t = t.to(torch.bfloat16)
        return t.to(torch.float64)
    return go


def _cast(x, fn):
    if isinstance(x, torch.Tensor):
        return fn(x) if x.dtype in CHECKED_DTYPES else x.clone()
    if isinstance(x, (list, tuple)):
        return type(x)(_cast(v, fn) for v in x)
    return x


def _oracle_module(ref, fn):
    """A float64 copy of the reference: parameters and buffers, and plain tensor attributes a
    task may keep outside them (``.double()`` does not see those)."""
    if not isinstance(ref, torch.nn.Module):
        return ref
    m = copy.deepcopy(ref)
    with torch.no_grad():
        for p in list(m.parameters()) + list(m.buffers()):
            if p.dtype in CHECKED_DTYPES:
                p.data = fn(p.data)
        for sub in m.modules():
            for k, v in list(vars(sub).items()):
                if isinstance(v, torch.Tensor) and not isinstance(v, torch.nn.Parameter) and v.dtype in CHECKED_DTYPES:
                    setattr(sub, k, fn(v))
    return m


def _nbytes64(xs) -> int:
    return sum(t.numel() * 8 for t in flatten(list(xs)) if isinstance(t, torch.Tensor))


def _free_bytes(device: torch.device) -> int:
    if device.type == "cuda":
        return int(torch.cuda.mem_get_info(device)[0])
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError):
        return 1 << 32


# aten ops that sum (or average, or normalise over) many elements into one. Only these count:
# an op whose output is merely smaller (a slice, an index, a max) sums nothing, and counting it
# would loosen the floor for nothing
_REDUCTIONS = {"sum", "mean", "var", "std", "var_mean", "std_mean", "prod", "nansum", "logsumexp", "norm",
               "linalg_vector_norm", "frobenius_norm", "dist", "cdist", "_cdist_forward", "mse_loss", "l1_loss",
               "smooth_l1_loss", "huber_loss", "nll_loss", "nll_loss_forward", "nll_loss2d_forward", "kl_div",
               "binary_cross_entropy", "binary_cross_entropy_with_logits", "soft_margin_loss", "multi_margin_loss",
               "multilabel_margin_loss_forward", "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
               "triplet_margin_loss", "cosine_similarity", "avg_pool1d", "avg_pool2d", "avg_pool3d",
               "adaptive_avg_pool1d", "_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "dot", "vdot", "mv", "trace"}


def _extent(name: str, args, out) -> float:
    """How many terms one output element of this op sums (1 for anything else)."""
    if name in ("_softmax", "_log_softmax", "softmax", "log_softmax", "cumsum", "cumprod", "logcumsumexp"):
        return float(args[0].size(args[1]))
    if name == "native_layer_norm":
        return float(math.prod(args[1]))
    if name in ("native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_functional") and args[0].dim() > 1:
        return args[0].numel() / args[0].size(1)
    if name == "native_group_norm":
        return args[0].numel() / (args[0].size(0) * args[-2])
    if name in ("_fused_rms_norm", "rms_norm"):
        return float(math.prod(args[1]))
    if name in _REDUCTIONS:
        from torch.utils._pytree import tree_flatten

        ins = [t.numel() for t in tree_flatten(args)[0] if isinstance(t, torch.Tensor)]
        outs = [t.numel() for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        if ins and outs and outs[0]:
            return max(ins) / outs[0]
    return 1.0


def _extent_mode():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Extents(TorchDispatchMode):
        """Records the longest sum any op of the forward computes (``_extent``): FLOP counts know
        matmul and convolution, not a LayerNorm's mean over 4M elements or a softmax's row sum."""

        def __init__(self):
            super().__init__()
            self.terms = 1.0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            try:
                self.terms = max(self.terms, _extent(func.overloadpacket.__name__, args, out))
            except Exception:  # noqa: BLE001 - an unexpected signature only loses this op's count
                pass
            return out

    return Extents()


def _run(ref, inputs, fmt: str | None, count: bool = False):
    """The reference in float64 on ``inputs`` (and parameters) rounded by ``fmt``. With ``count``,
    also R: the most terms one output element sums (FLOPs over twice the output's size for matmul
    and convolution, whose FLOPs torch counts, and the longest reduction any op computes)."""
    fn = _rounder(fmt)
    m = _oracle_module(ref, fn)
    xs = _cast(inputs, fn)
    terms = None
    with torch.no_grad():
        if count:
            from torch.utils.flop_counter import FlopCounterMode

            try:
                ext = _extent_mode()
                with FlopCounterMode(display=False) as fc, ext:
                    out = m(*xs)
                n_out = sum(t.numel() for t in flatten(out) if isinstance(t, torch.Tensor)) or 1
                terms = max(ext.terms, fc.get_total_flops() / (2 * n_out))
            except Exception:  # noqa: BLE001 - the counters only size the floor; run without them
                out = m(*xs)
        else:
            out = m(*xs)
    return out, terms


def _norms(o: torch.Tensor, r: torch.Tensor, c: torch.Tensor, tiny_rel: float, f: torch.Tensor | None = None):
    """‖o‖, ‖r - o‖, ‖c - o‖ over the elements finite in all of them, their count, the elementwise
    max errors (relative, with the near-zero floor) and, given ``f`` (a rounded-input oracle),
    ‖c - f‖. Slice by slice: a KernelBench output can be 6 GiB, and float64 temporaries of all
    of it would be many times that."""
    o, r, c = o.detach().reshape(-1), r.detach().reshape(-1), c.detach().reshape(-1)
    f = None if f is None else f.detach().reshape(-1)
    on = rn = cn = fn = 0.0
    rmax = cmax = 0.0
    n = 0
    for lo in range(0, o.numel(), CHUNK):
        oo = o[lo:lo + CHUNK].to(torch.float64)
        rr = r[lo:lo + CHUNK].to(oo.device, torch.float64)
        cc = c[lo:lo + CHUNK].to(oo.device, torch.float64)
        fin = torch.isfinite(oo) & torch.isfinite(rr) & torch.isfinite(cc)
        ff = None
        if f is not None:
            ff = f[lo:lo + CHUNK].to(oo.device, torch.float64)
            fin &= torch.isfinite(ff)
        # boolean indexing copies: the in-place steps below touch no caller's tensor
        oo, rr, cc = oo[fin], rr[fin], cc[fin]
        n += int(oo.numel())
        if not oo.numel():
            continue
        scale = oo.abs().add_(tiny_rel)
        dr, dc = rr.sub_(oo), cc.sub_(oo)
        on += float(oo.square().sum())
        rn += float(dr.square().sum())
        cn += float(dc.square().sum())
        rmax = max(rmax, float((dr.abs() / scale).max()))
        cmax = max(cmax, float((dc.abs() / scale).max()))
        if ff is not None:
            fn += float((dc + oo - ff[fin]).square().sum())  # c - f = (c - o) + o - f
    return math.sqrt(on), math.sqrt(rn), math.sqrt(cn), n, rmax, cmax, math.sqrt(fn)


def enabled(flag: bool | None, policy: str) -> bool:
    """Whether a verdict runs the check: ``flag`` when given (``VerifyRequest.precision``), else on
    under ``strict`` and off under ``kernelbench``, whose protocol (for comparison with published
    numbers) is atol/rtol alone."""
    return bool(flag) if flag is not None else policy == "strict"


def check(ref, inputs: list, ref_out, cand_out, device: torch.device, *, trial: int | None = None,
          seed: int | None = None, multiple: float = MULTIPLE, budget_s: float = BUDGET_S) -> Precision:
    """Judge ``cand_out`` (the candidate's outputs for ``inputs``) against a float64 oracle.
    ``ref`` is the reference module; it is copied, never changed. Never raises: a reference the
    oracle cannot run gives a ``skipped`` report that says why."""
    try:
        return _check(ref, inputs, ref_out, cand_out, device, trial, seed, multiple, budget_s)
    except Exception as e:  # noqa: BLE001 - out of memory, say: the check cannot answer, the verdict says so
        _release(device)
        return Precision(status="skipped", trial=trial, seed=seed, multiple=multiple,
                               reason=f"the precision check could not run: {type(e).__name__}: {str(e)[:200]}")


def _check(ref, inputs, ref_out, cand_out, device, trial, seed, multiple, budget_s) -> Precision:
    refs, cands = flatten(ref_out), flatten(cand_out)
    which = [k for k, r in enumerate(refs) if isinstance(r, torch.Tensor) and r.dtype in CHECKED_DTYPES and r.numel()]
    rep = Precision(status="skipped", trial=trial, seed=seed, multiple=multiple)
    if not which:
        rep.reason = "no floating output of float32, float16 or bfloat16"
        return rep
    params = list(ref.parameters()) + list(ref.buffers()) if isinstance(ref, torch.nn.Module) else []
    # float64 copies of the inputs and parameters for two runs at a time (the exact oracle's
    # output is kept through the rounded runs), two outputs and the forward's temporaries
    need = 2 * _nbytes64(inputs) + 2 * _nbytes64(params) + 3 * _nbytes64(refs)
    if need > 0.6 * _free_bytes(device):
        rep.reason = f"the float64 oracle would need ~{need / 2**30:.1f} GiB, over 60 % of the free memory"
        return rep
    t0 = time.perf_counter()
    try:
        oracle, counted = _run(ref, inputs, None, count=True)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
    except Exception as e:  # noqa: BLE001 - a reference that has no float64 path is not the candidate's fault
        rep.reason = f"the reference does not run in float64: {type(e).__name__}: {str(e)[:200]}"
        _release(device)
        return rep
    rep.oracle_s = round(time.perf_counter() - t0, 4)
    outs = flatten(oracle)
    if len(outs) != len(refs) or any(not isinstance(outs[k], torch.Tensor) or outs[k].dtype != torch.float64
                                     or outs[k].shape != refs[k].shape for k in which):
        rep.reason = ("the reference does not compute in float64 when given float64 inputs and parameters "
                      "(it casts, or makes tensors of a fixed dtype)")
        return rep
    n_out = sum(refs[k].numel() for k in which)
    n_in = max([t.numel() for t in flatten(list(inputs)) if isinstance(t, torch.Tensor) and t.is_floating_point()] or [1])
    # the inputs' size over the outputs' stands in for the reductions only where the counters failed
    terms = max(1.0, counted) if counted is not None else max(1.0, n_in / n_out)
    rep.terms = round(terms, 2)
    worst = None
    for k in which:
        o = outs[k]
        eps, tiny = torch.finfo(refs[k].dtype).eps, torch.finfo(refs[k].dtype).tiny  # each output by its own dtype
        on, rn, cn, n, rmax, cmax, _ = _norms(o, refs[k], cands[k], tiny / eps)
        # the sum's allowance is in fp32's eps whatever the task dtype: an fp16 or bf16 task's
        # reference accumulates in fp32, and a kernel that accumulates in fp16 is the downcast
        floor = on * (FLOOR_ULPS * eps + ACC_EPS * math.sqrt(terms)) + FLOOR_ULPS * tiny * math.sqrt(n)
        bound = max(multiple * rn, floor)
        # the signature needs the candidate to err more than the reference does (an output as good
        # as the reference's is not a downcast, however the rounded run lies) and more than the
        # near-zero floor
        plain = max(rn, FLOOR_ULPS * tiny * math.sqrt(n))
        row = {"k": k, "dtype": refs[k].dtype, "tiny_rel": tiny / eps, "on": max(on, 1e-300), "rn": rn, "cn": cn,
               "bound": bound, "floor": floor, "plain": plain, "rmax": rmax, "cmax": cmax, "o": o}
        if worst is None or cn / max(bound, 1e-300) > worst["cn"] / max(worst["bound"], 1e-300):
            worst = row
    on, dtype = worst["on"], worst["dtype"]
    rep.dtype = str(dtype).removeprefix("torch.")
    rep.output, rep.ref_err, rep.cand_err = worst["k"], worst["rn"] / on, worst["cn"] / on
    rep.threshold, rep.floor = worst["bound"] / on, worst["floor"] / on
    rep.ref_max_err, rep.cand_max_err = worst["rmax"], worst["cmax"]
    reasons = []
    if worst["cn"] > worst["bound"]:
        ratio = worst["cn"] / worst["rn"] if worst["rn"] > 0 else math.inf
        reasons.append(f"the output's error against a float64 oracle is {rep.cand_err:.3g} (normwise, relative), "
                       f"{ratio:.3g}x the {rep.dtype} reference's own error {rep.ref_err:.3g}, over the bound "
                       f"{rep.threshold:.3g} (the larger of {multiple:g}x the reference's error and the floor {rep.floor:.3g})")
    # the signature runs (also after a failure above: the record then says which format it was),
    # only where the exact oracle was quick
    formats = ["tf32", "bf16"] if dtype == torch.float32 else ["bf16"] if dtype == torch.float16 else []
    if formats and rep.oracle_s > budget_s / 3:
        rep.reason = f"the rounded-input runs were skipped: the float64 oracle took {rep.oracle_s:.1f} s"
        formats = []
    elif formats and worst["cn"] <= worst["plain"]:
        # a signature needs the candidate farther from the oracle than ``plain`` (its distance over
        # a subset of these elements is no larger than ``cn``): no rounded run can find one, so
        # the two reference runs they cost are saved (the honest kernel as exact as the library,
        # an elementwise op say, is the common case, issue 16)
        rep.reason = "the rounded-input runs were skipped: the output is no farther from the oracle than the reference is"
        formats = []
    del oracle, outs
    k = worst["k"]
    for fmt in formats:
        try:
            rounded, _ = _run(ref, inputs, fmt)
        except Exception:  # noqa: BLE001 - e.g. a value out of range: no signature to compare with
            continue
        routs = flatten(rounded)
        if k >= len(routs) or not isinstance(routs[k], torch.Tensor) or routs[k].shape != refs[k].shape:
            continue
        # over the elements finite in the rounded run too (an fp16-range overflow, say)
        _, _, to_exact, _, _, _, to_rounded = _norms(worst["o"], refs[k], cands[k], worst["tiny_rel"], routs[k])
        del rounded, routs
        if to_exact > 0:
            rep.signature[fmt] = round(to_rounded / to_exact, 5)
        if to_exact > worst["plain"] and to_rounded * SIGNATURE <= to_exact:
            reasons.append(f"the output is {to_exact / max(to_rounded, 1e-300):.3g}x closer to the reference computed in "
                           f"float64 from inputs and parameters rounded to {fmt} than from the exact ones (its error "
                           f"{rep.cand_err:.3g} against the exact oracle, the {rep.dtype} reference's {rep.ref_err:.3g})")
            break
    _release(device)
    if reasons:
        rep.status = "failed"
        rep.reason = ("; ".join(reasons) + f": the kernel computes in lower precision than {rep.dtype} (fp16, bf16 or TF32 "
                      "operands or arithmetic, a tensor-core accumulator, which rounds toward zero, chained over a long K, or "
                      "approximations far beyond the reference's)")
    else:
        rep.status = "passed"
    return rep


def reference_rounding(ref, inputs: list, ref_out, cand_out, device: torch.device, tol: dict) -> tuple[float | None, str]:
    """Is it the reference that is off? Asked when the candidate's output is outside the
    tolerance of the task-dtype reference (the pilot's honest bf16 RMSNorm, issue 20: it computes
    in fp32 and rounds once, the reference rounds five times in bf16, and 120 of 10^9 elements
    were 2 ulps from the reference's).

    The candidate is cleared when, against the float64 oracle, every element is within the same
    atol/rtol (NaN and Inf where the oracle has them), the relative-norm bound holds, and its
    normwise error is no larger than the reference's own: it is closer to the exact answer than
    the reference. The answer is then ``(factor, detail)``: the comparisons against the task-dtype
    reference that follow (other trials, timed calls, shape variants) widen atol and rtol by
    ``factor = (1 + k)(1 + rtol)``, where ``k`` is the reference's own worst error against the oracle
    in units of the tolerance (``|c - r| <= |c - o| + |o - r|``: a kernel within tolerance of the
    oracle is within ``factor`` tolerances of the reference). Otherwise ``(None, why)``. Never
    raises; runs only in the judge."""
    try:
        return _reference_rounding(ref, inputs, ref_out, cand_out, device, tol)
    except Exception as e:  # noqa: BLE001 - out of memory, say: the reference's verdict stands
        return None, f"the float64 oracle could not run: {type(e).__name__}: {str(e)[:200]}"
    finally:
        _release(device)


def _reference_rounding(ref, inputs, ref_out, cand_out, device, tol) -> tuple[float | None, str]:
    refs, cands = flatten(ref_out), flatten(cand_out)
    which = [k for k, r in enumerate(refs) if isinstance(r, torch.Tensor) and r.dtype in CHECKED_DTYPES and r.numel()]
    if not which or len(cands) != len(refs):
        return None, "no floating output of float32, float16 or bfloat16"
    others = [k for k in range(len(refs)) if k not in which]
    if others and compare([refs[k] for k in others], [cands[k] for k in others], tol, -1) is not None:
        return None, "an output that is not floating differs"
    if any(not isinstance(cands[k], torch.Tensor) or cands[k].shape != refs[k].shape or cands[k].dtype != refs[k].dtype
           for k in which):
        return None, "the output's shape or dtype differs"
    params = list(ref.parameters()) + list(ref.buffers()) if isinstance(ref, torch.nn.Module) else []
    need = _nbytes64(inputs) + _nbytes64(params) + 2 * _nbytes64(refs)
    if need > 0.6 * _free_bytes(device):
        return None, f"the float64 oracle would need ~{need / 2**30:.1f} GiB, over 60 % of the free memory"
    oracle, _ = _run(ref, inputs, None)
    outs = flatten(oracle)
    if len(outs) != len(refs) or any(not isinstance(outs[k], torch.Tensor) or outs[k].dtype != torch.float64
                                     or outs[k].shape != refs[k].shape for k in which):
        return None, "the reference does not compute in float64 when given float64 inputs and parameters"
    k_ref, worst = 0.0, []
    for k in which:
        o, r, c = outs[k], refs[k], cands[k]
        eps, tiny = torch.finfo(r.dtype).eps, torch.finfo(r.dtype).tiny
        on, rn, cn, *_ = _norms(o, r, c, tiny / eps)
        if cn > rn:
            return None, (f"it is farther from the float64 oracle than the reference is (normwise {cn / max(on, 1e-300):.3g} "
                          f"against {rn / max(on, 1e-300):.3g})")
        # the same elementwise comparison as against the reference (NaN/Inf agreement, atol/rtol,
        # the relative-norm bound), with the oracle in the reference's place
        mm = compare_float(o, c, tol)
        if mm is not None:
            return None, f"against the float64 oracle too: {mm['reason']}"
        worst.append((cn / max(on, 1e-300), rn / max(on, 1e-300)))
        k_ref = max(k_ref, _in_tolerances(r, o, tol))
    factor = (1.0 + k_ref) * (1.0 + tol["rtol"])
    c_err, r_err = max(w[0] for w in worst), max(w[1] for w in worst)
    return factor, (f"every element is within atol={tol['atol']:g}, rtol={tol['rtol']:g} of the float64 oracle, and the "
                    f"output is closer to it than the reference is (normwise {c_err:.3g} against {r_err:.3g}): the "
                    f"reference's own rounding, up to {k_ref:.3g} tolerances")


def _in_tolerances(r: torch.Tensor, o: torch.Tensor, tol: dict) -> float:
    """The reference's worst distance from the oracle in units of the tolerance at the reference,
    max |r - o| / (atol + rtol |r|), over the elements finite in both; slice by slice."""
    r, o = r.reshape(-1), o.reshape(-1)
    worst = 0.0
    for lo in range(0, o.numel(), CHUNK):
        oo = o[lo:lo + CHUNK]
        rr = r[lo:lo + CHUNK].to(oo.device, torch.float64)
        d = torch.where(torch.isfinite(oo) & torch.isfinite(rr), (rr - oo).abs(), torch.zeros((), dtype=oo.dtype, device=oo.device))
        worst = max(worst, float((d / (tol["atol"] + tol["rtol"] * rr.abs())).max()))
    return worst


def _release(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.empty_cache()
