"""Comparing a candidate's outputs with the reference's: the judge's arithmetic.

Runs only in the judge process (the candidate process never holds a reference output).
"""

from __future__ import annotations

import math

import torch

from .spec import TOLERANCES_FP32, TOLERANCES_HALF

# Outputs are compared in slices of this many elements: a KernelBench output can be 6 GiB, and
# the comparison's temporaries (float copies, masks, differences) would be several times that
CHUNK = 1 << 26


def flatten(out) -> list:
    if isinstance(out, (list, tuple)):
        flat = []
        for o in out:
            flat.extend(flatten(o))
        return flat
    return [out]


def clone(x):
    if isinstance(x, torch.Tensor):
        return x.clone()
    if isinstance(x, (list, tuple)):
        return type(x)(clone(v) for v in x)
    return x


def same(a, b) -> bool:
    """Bitwise-equal inputs (so NaN equals NaN), compared slice by slice."""
    if isinstance(a, torch.Tensor):
        if not isinstance(b, torch.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        af, bf = a.reshape(-1), b.reshape(-1)
        if af.is_floating_point() or af.is_complex():
            bits = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}.get(af.element_size())
            if bits is not None:
                af, bf = af.view(bits), bf.view(bits)
            else:  # complex128: compare its two float64 halves
                af, bf = torch.view_as_real(af).reshape(-1).view(torch.int64), torch.view_as_real(bf).reshape(-1).view(torch.int64)
        return all(bool(torch.equal(af[lo:lo + CHUNK], bf[lo:lo + CHUNK])) for lo in range(0, af.numel(), CHUNK))
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return True


def all_finite(a: torch.Tensor) -> bool:
    af = a.reshape(-1)
    return all(bool(torch.isfinite(af[lo:lo + CHUNK]).all()) for lo in range(0, af.numel(), CHUNK))


def max_abs_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    """max |a - b| over finite differences (NaN counts as 0), slice by slice."""
    af, bf = a.reshape(-1), b.reshape(-1)
    best = 0.0
    for lo in range(0, af.numel(), CHUNK):
        d = (af[lo:lo + CHUNK].float() - bf[lo:lo + CHUNK].float()).abs().nan_to_num(0)
        if d.numel():
            best = max(best, float(d.max()))
    return best


def same_layout(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        (x.shape == y.shape and x.dtype == y.dtype) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else type(x) is type(y)
        for x, y in zip(a, b))


def default_tolerances(dtype: torch.dtype) -> dict[str, float]:
    if dtype in (torch.float16, torch.bfloat16):
        return dict(TOLERANCES_HALF)
    return dict(TOLERANCES_FP32)


def compare(ref, out, tol: dict[str, float], trial: int) -> dict | None:
    """None when ``out`` matches ``ref``; otherwise mismatch statistics."""
    refs, outs = flatten(ref), flatten(out)
    if len(refs) != len(outs):
        return {"reason": f"the reference returns {len(refs)} outputs, the candidate {len(outs)}", "trial": trial}
    for k, (r, o) in enumerate(zip(refs, outs)):
        where = f"output {k}: " if len(refs) > 1 else ""
        if not isinstance(r, torch.Tensor):
            if r != o:
                return {"reason": f"{where}expected {r!r}, got {o!r}", "trial": trial}
            continue
        if not isinstance(o, torch.Tensor):
            return {"reason": f"{where}expected a tensor, got {type(o).__name__}", "trial": trial}
        if o.shape != r.shape:
            return {"reason": f"{where}shape {tuple(o.shape)} != expected {tuple(r.shape)}", "trial": trial}
        if o.dtype != r.dtype:
            return {"reason": f"{where}dtype {o.dtype} != expected {r.dtype}", "trial": trial}
        if o.device != r.device:
            return {"reason": f"{where}device {o.device} != expected {r.device}", "trial": trial}
        if r.numel() == 0:
            continue
        if not r.is_floating_point() and not r.is_complex():
            bad = o != r
            if bool(bad.any()):
                idx = _unravel(int(bad.flatten().nonzero()[0]), r.shape)
                return {"reason": f"{where}integer outputs differ", "first_bad_index": idx, "trial": trial,
                        "max_abs_err": float((o.double() - r.double()).abs().max())}
            continue
        mm = compare_float(r, o, tol)
        if mm is not None:
            mm["reason"] = where + mm["reason"]
            mm["trial"] = trial
            return mm
    return None


def over_norm(rel_norm: float, tol: dict) -> bool:
    """Over the relative-norm bound; never where there is none (``rel_norm`` None: KernelBench's
    protocol, atol/rtol alone)."""
    return tol.get("rel_norm") is not None and rel_norm > tol["rel_norm"]


def within(ref, out, tol: dict[str, float]) -> bool:
    """A fast yes for ``compare(ref, out, tol, ...) is None``: True only when every output is
    within tolerance. False means "not shown here": call ``compare`` for the verdict and its
    statistics.

    The judge checks the output of every timed call. ``compare`` runs about 25 kernels and 5 host
    syncs per slice, which for a 6 GiB output (KernelBench L1/19) cost about 0.18 s a call on an
    H200 and made timing 100 calls take 18 s. This runs a handful of kernels per slice and syncs
    once. It needs no special case for NaN or Inf: a non-finite output makes the difference NaN or
    Inf and fails the bound, and a non-finite reference makes its norm non-finite, which answers
    False (``compare`` then judges NaN/Inf agreement)."""
    refs, outs = flatten(ref), flatten(out)
    if len(refs) != len(outs):
        return False
    checks = []
    for r, o in zip(refs, outs):
        if not isinstance(r, torch.Tensor):
            if isinstance(o, torch.Tensor) or r != o:
                return False
            continue
        if not isinstance(o, torch.Tensor) or o.shape != r.shape or o.dtype != r.dtype or o.device != r.device:
            return False
        if r.numel() == 0:
            continue
        if not r.is_floating_point():
            if not same(r, o):
                return False
            continue
        if r.is_complex():
            return False
        rflat, oflat = r.reshape(-1), o.reshape(-1)
        bad = torch.zeros((), dtype=torch.bool, device=r.device)
        ref_sq = torch.zeros((), dtype=torch.float64, device=r.device)
        err_sq = torch.zeros((), dtype=torch.float64, device=r.device)
        for lo in range(0, rflat.numel(), CHUNK):
            rf, of = rflat[lo:lo + CHUNK].float(), oflat[lo:lo + CHUNK].float()
            d = of - rf
            # the same float32 arithmetic as compare_float: |o - r| <= atol + rtol * |r|
            err_sq += torch.linalg.vector_norm(d, dtype=torch.float64).square()
            ref_sq += torch.linalg.vector_norm(rf, dtype=torch.float64).square()
            lim = rf.abs().mul_(tol["rtol"]).add_(tol["atol"])
            bad |= ~(d.abs_() <= lim).all()
            del d, lim
        checks.append((bad, ref_sq, err_sq))
    for bad, ref_sq, err_sq in checks:
        b, rs, es = bool(bad), float(ref_sq), float(err_sq)
        if b or not (math.isfinite(rs) and math.isfinite(es)):
            return False
        if over_norm(math.sqrt(es) / max(math.sqrt(rs), 1e-12), tol):
            return False
    return True


# A timed call's output larger than this (elements in all) is checked on a random sample of
# its elements, and in full on an unpredictable share of the calls (see ``within_sample``)
SAMPLE_ABOVE = 1 << 24
SAMPLE = 1 << 18


def within_sample(ref, out, tol: dict[str, float], gen: torch.Generator | None) -> bool:
    """``within``, on ``SAMPLE`` elements of each large float output drawn at random by ``gen``
    (small outputs and non-float ones are checked in full). False means "call ``compare``".

    The positions are drawn by the judge after it holds its private copy of the output, so a
    candidate cannot know them: an output that skipped a share q of its work (stale results,
    elements left poisoned) passes with probability (1 - q)^SAMPLE, below 1e-11 for q = 1e-4.
    The relative-norm bound needs every element: the full checks of ``Judge.time_process``
    apply it."""
    refs, outs = flatten(ref), flatten(out)
    if len(refs) != len(outs):
        return False
    for r, o in zip(refs, outs):
        if not (isinstance(r, torch.Tensor) and isinstance(o, torch.Tensor) and r.is_floating_point()
                and r.numel() > SAMPLE and o.shape == r.shape and o.dtype == r.dtype and o.device == r.device):
            if not within(r, o, tol):
                return False
            continue
        idx = torch.randint(0, r.numel(), (SAMPLE,), generator=gen, device=r.device)
        rf, of = r.reshape(-1)[idx].float(), o.reshape(-1)[idx].float()
        # the same float32 arithmetic as compare_float; NaN or Inf anywhere fails the bound
        if not bool(((of - rf).abs() <= rf.abs().mul_(tol["rtol"]).add_(tol["atol"])).all()):
            return False
    return True


def compare_float(r: torch.Tensor, o: torch.Tensor, tol: dict[str, float]) -> dict | None:
    """Elementwise atol/rtol with NaN/Inf agreement, plus a relative-norm bound; slice by slice.
    ``r`` and ``o`` may differ in dtype (the precision module holds a float64 oracle against a
    task-dtype output): both are compared in float32."""
    rflat, oflat = r.reshape(-1), o.reshape(-1)
    n = rflat.numel()
    n_bad = n_special = n_nan = 0
    first = None
    max_abs = max_rel = 0.0
    ref_sq = err_sq = 0.0
    for lo in range(0, n, CHUNK):
        rf, of = rflat[lo:lo + CHUNK].float(), oflat[lo:lo + CHUNK].float()
        r_nan, o_nan = torch.isnan(rf), torch.isnan(of)
        r_inf, o_inf = torch.isinf(rf), torch.isinf(of)
        special_bad = (r_nan != o_nan) | (r_inf != o_inf) | (r_inf & o_inf & (torch.sign(rf) != torch.sign(of)))
        finite = ~(r_nan | r_inf) & ~(o_nan | o_inf)
        zero = torch.zeros((), dtype=rf.dtype, device=rf.device)
        diff = torch.where(finite, (of - rf).abs(), zero)
        bad = special_bad | (finite & ~(diff <= tol["atol"] + tol["rtol"] * rf.abs()))
        rf0 = torch.where(finite, rf, zero)
        of0 = torch.where(finite, of, zero)
        ref_sq += float(rf0.double().square().sum())
        err_sq += float((of0 - rf0).double().square().sum())
        nb = int(bad.sum())
        if nb:
            n_bad += nb
            if first is None:
                first = lo + int(bad.nonzero()[0])
            ns = int(special_bad.sum())
            n_special += ns
            if ns:
                n_nan += int((o_nan & ~r_nan).sum())
        if rf.numel():
            max_abs = max(max_abs, float(diff.max()))
            max_rel = max(max_rel, float(torch.where(finite, diff / rf.abs().clamp_min(1e-12), zero).max()))
    rel_norm = math.sqrt(err_sq) / max(math.sqrt(ref_sq), 1e-12)
    if not n_bad and not over_norm(rel_norm, tol):
        return None
    reasons = []
    if n_bad:
        reasons.append(f"{n_bad} of {n} elements outside atol={tol['atol']:g}, rtol={tol['rtol']:g}")
    if n_special:
        reasons.append(f"{n_special} NaN/Inf mismatches" + (f" ({n_nan} NaN where the reference is finite: unwritten output?)" if n_nan else ""))
    if over_norm(rel_norm, tol):
        reasons.append(f"relative norm error {rel_norm:.3g} > {tol['rel_norm']:g}")
    return {
        "reason": "; ".join(reasons),
        "max_abs_err": _finite(max_abs),
        "max_rel_err": _finite(max_rel),
        "rel_norm_err": _finite(rel_norm),
        "first_bad_index": _unravel(first, r.shape) if first is not None else None,
        "expected_at_first_bad": float(rflat[first]) if first is not None else None,
        "got_at_first_bad": float(oflat[first]) if first is not None else None,
    }


def _finite(v: float):
    return v if math.isfinite(v) else str(v)


def _unravel(flat: int, shape) -> list[int]:
    idx = []
    for s in reversed(list(shape)):
        idx.append(flat % s)
        flat //= s
    return list(reversed(idx))


def _ravel(idx, shape) -> int:
    flat = 0
    for i, s in zip(idx, shape):
        flat = flat * s + i
    return flat
