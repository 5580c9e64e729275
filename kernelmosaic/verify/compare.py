"""Comparing a candidate's outputs with the reference's: the judge's arithmetic.

Runs only in the judge process (the candidate process never holds a reference output).
"""

from __future__ import annotations

import math

import torch


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
    """Bitwise-equal inputs (NaN equals NaN)."""
    if isinstance(a, torch.Tensor):
        if not isinstance(b, torch.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            return bool(torch.equal(torch.isnan(a), torch.isnan(b)) and torch.equal(torch.nan_to_num(a, nan=0.0), torch.nan_to_num(b, nan=0.0)))
        return bool(torch.equal(a, b))
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return True


def same_layout(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        (x.shape == y.shape and x.dtype == y.dtype) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else type(x) is type(y)
        for x, y in zip(a, b))


def default_tolerances(dtype: torch.dtype) -> dict[str, float]:
    # KernelBench's current defaults, plus the relative-norm bound of PROTOCOL.md
    if dtype in (torch.float16, torch.bfloat16):
        return {"atol": 1e-2, "rtol": 1e-2, "rel_norm": 2e-2}
    return {"atol": 1e-4, "rtol": 1e-4, "rel_norm": 1e-3}


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
        rf, of = r.float(), o.float()
        r_nan, o_nan = torch.isnan(rf), torch.isnan(of)
        r_inf, o_inf = torch.isinf(rf), torch.isinf(of)
        special_bad = (r_nan != o_nan) | (r_inf != o_inf) | (r_inf & o_inf & (torch.sign(rf) != torch.sign(of)))
        finite = ~(r_nan | r_inf) & ~(o_nan | o_inf)
        diff = torch.where(finite, (of - rf).abs(), torch.zeros_like(rf))
        close = diff <= tol["atol"] + tol["rtol"] * rf.abs()
        bad = special_bad | (finite & ~close)
        rf0 = torch.where(finite, rf, torch.zeros_like(rf))
        of0 = torch.where(finite, of, torch.zeros_like(of))
        ref_norm = float(torch.linalg.vector_norm(rf0.double() if rf0.numel() < 50_000_000 else rf0))
        err_norm = float(torch.linalg.vector_norm((of0 - rf0).double() if rf0.numel() < 50_000_000 else of0 - rf0))
        rel_norm = err_norm / max(ref_norm, 1e-12)
        n_bad = int(bad.sum())
        if n_bad or rel_norm > tol["rel_norm"]:
            max_abs = float(diff.max())
            rel = diff / rf.abs().clamp_min(1e-12)
            max_rel = float(torch.where(finite, rel, torch.zeros_like(rel)).max())
            first = _unravel(int(bad.flatten().nonzero()[0]), r.shape) if n_bad else None
            reasons = []
            if n_bad:
                reasons.append(f"{n_bad} of {r.numel()} elements outside atol={tol['atol']:g}, rtol={tol['rtol']:g}")
            if int(special_bad.sum()):
                n_nan = int((o_nan & ~r_nan).sum())
                reasons.append(f"{int(special_bad.sum())} NaN/Inf mismatches" + (f" ({n_nan} NaN where the reference is finite: unwritten output?)" if n_nan else ""))
            if rel_norm > tol["rel_norm"]:
                reasons.append(f"relative norm error {rel_norm:.3g} > {tol['rel_norm']:g}")
            return {
                "reason": where + "; ".join(reasons),
                "max_abs_err": _finite(max_abs),
                "max_rel_err": _finite(max_rel),
                "rel_norm_err": _finite(rel_norm),
                "first_bad_index": first,
                "trial": trial,
                "expected_at_first_bad": float(r.flatten()[_ravel(first, r.shape)]) if first is not None else None,
                "got_at_first_bad": float(o.flatten()[_ravel(first, r.shape)]) if first is not None else None,
            }
    return None


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
