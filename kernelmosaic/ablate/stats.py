"""Bootstrap confidence intervals over problems, for one arm and for an arm against the baseline arm.

The unit is the problem: a bench scores each problem once (its primary sample, as in
``bench.metrics``), and problems are what a different draw of the benchmark would change. So
each of B resamples draws n problems with replacement from the n of the group (a level, or all
of them) and recomputes the statistic; the interval is the percentile interval of the B values
(2.5 % and 97.5 % for a 95 % interval). Arms are compared **paired**: one resample of problem
indices is applied to both arms, since every arm was benched on the same problems, so the
spread of a difference reflects how the arms differ problem by problem rather than twice the
spread of each.

Statistics per problem set:

* ``correct_pct``: 100 x the share of problems whose best turn is correct;
* ``fast_p``: KernelBench's fast_p, the share of all problems that are correct with
  ``speedup > p`` (``bench.metrics.fast_p``);
* ``geomean``: the geometric mean speedup over the correct problems with a finite positive
  speedup; undefined for a resample with none of them, and those resamples are left out of its
  interval (their count is reported as ``undefined``).

Differences are arm minus baseline for the two rates, and the ratio arm / baseline for the
geomean. numpy's ``default_rng(seed)`` makes every interval reproducible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence


@dataclass
class Problem:
    """One problem of one arm, as the statistics need it."""

    correct: bool
    speedup: float | None  # over the chosen baseline (eager); None when untimed


def _arrays(problems: Sequence[Problem], p: float):
    import numpy as np

    correct = np.array([bool(x.correct) for x in problems], dtype=float)
    speed = np.array([x.speedup if (x.correct and x.speedup is not None and math.isfinite(x.speedup)
                                    and x.speedup > 0) else np.nan for x in problems], dtype=float)
    fast = np.array([1.0 if (x.correct and x.speedup is not None and math.isfinite(x.speedup) and x.speedup > p)
                     else 0.0 for x in problems])
    has = ~np.isnan(speed)
    logs = np.where(has, np.log(np.where(has, speed, 1.0)), 0.0)
    return correct, fast, logs, has.astype(float)


def _interval(values, confidence: float) -> list[float] | None:
    import numpy as np

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return None
    lo, hi = np.quantile(v, [(1 - confidence) / 2, (1 + confidence) / 2])
    return [float(lo), float(hi)]


def _stats(correct, fast, logs, has, idx):
    """Per resample (rows of idx): correct %, fast_p, geomean (nan when undefined)."""
    import numpy as np

    c = 100.0 * correct[idx].mean(axis=1)
    f = fast[idx].mean(axis=1)
    n = has[idx].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(n > 0, np.exp(logs[idx].sum(axis=1) / np.where(n > 0, n, 1)), np.nan)
    return c, f, g


def _point(correct, fast, logs, has):
    import numpy as np

    n = has.sum()
    return (100.0 * float(correct.mean()), float(fast.mean()),
            float(np.exp(logs.sum() / n)) if n > 0 else None)


def bootstrap(arms: dict[str, Sequence[Problem]], baseline: str, *, p: float = 1.0, resamples: int = 2000,
              confidence: float = 0.95, seed: int = 0) -> dict[str, Any]:
    """Point estimates and intervals for each arm, and paired differences against ``baseline``.

    ``arms`` maps arm name -> problems, in the same problem order for every arm."""
    import numpy as np

    sizes = {len(v) for v in arms.values()}
    if len(sizes) != 1:
        raise ValueError(f"every arm needs the same problems, in the same order (sizes {sorted(sizes)})")
    n = sizes.pop()
    out: dict[str, Any] = {"n_problems": n, "resamples": resamples, "confidence": confidence, "seed": seed, "p": p,
                           "arms": {}, "vs_baseline": {}}
    if n == 0:
        return out
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    arrays = {k: _arrays(v, p) for k, v in arms.items()}
    boot = {k: _stats(*a, idx) for k, a in arrays.items()}
    for k, a in arrays.items():
        c, f, g = _point(*a)
        bc, bf, bg = boot[k]
        out["arms"][k] = {
            "correct_pct": c, "correct_pct_ci": _interval(bc, confidence),
            "fast_p": f, "fast_p_ci": _interval(bf, confidence),
            "geomean": g, "geomean_ci": _interval(bg, confidence) if g is not None else None,
            "geomean_n": int(a[3].sum()), "geomean_undefined": int(np.isnan(bg).sum()),
        }
    b = out["arms"][baseline]
    bc0, bf0, bg0 = boot[baseline]
    for k in arms:
        if k == baseline:
            continue
        a = out["arms"][k]
        bc, bf, bg = boot[k]
        ratio_ok = a["geomean"] is not None and b["geomean"] is not None
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios = bg / bg0
        out["vs_baseline"][k] = {
            "correct_pct_diff": a["correct_pct"] - b["correct_pct"], "correct_pct_diff_ci": _interval(bc - bc0, confidence),
            "fast_p_diff": a["fast_p"] - b["fast_p"], "fast_p_diff_ci": _interval(bf - bf0, confidence),
            "geomean_ratio": a["geomean"] / b["geomean"] if ratio_ok else None,
            "geomean_ratio_ci": _interval(ratios, confidence) if ratio_ok else None,
        }
    return out
