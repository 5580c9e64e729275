"""Diversity selection: pick N tasks that cover the space, by greedy k-center or MMR, with
the N split over categories in proportion to the square root of their sizes (capped at what
each has), so that the many distinct fusion chains do not crowd out the rest.

A task's feature vector joins its op histogram (unit length), category and dtype (one-hot),
shape class (layout and size bucket), FLOPs per byte (log) and chain length, each block
weighted. Greedy k-center repeatedly takes the task farthest from everything chosen so far;
MMR trades closeness to the middle of the timing window against similarity to the chosen.
"""

from __future__ import annotations

import math
import random

import numpy as np

WEIGHTS = {"ops": 1.0, "category": 1.0, "dtype": 0.6, "shape": 0.5, "intensity": 0.6, "length": 0.3}


def shape_class(rec: dict) -> str:
    shapes = rec.get("shapes") or {}
    if not shapes:
        return "unknown"
    first = next(iter(shapes.values()))
    numel = math.prod(first) if first else 1
    size = "S" if numel < 1 << 22 else "M" if numel < 1 << 26 else "L"
    return f"rank{len(first)}-{size}"


def intensity(rec: dict) -> float:
    f = rec.get("measured_flops") or rec.get("flops") or 0
    b = rec.get("measured_bytes") or rec.get("bytes") or 1
    return math.log10(max(f, 1) / max(b, 1) + 1e-3)


def featurize(recs: list[dict]) -> tuple[np.ndarray, dict]:
    ops_vocab = sorted({o for r in recs for o in r.get("ops") or []})
    cats = sorted({r.get("category", "?") for r in recs})
    dts = sorted({d for r in recs for d in r.get("dtypes") or ["?"]})
    shp = sorted({shape_class(r) for r in recs})
    idx = {"ops": {o: i for i, o in enumerate(ops_vocab)}, "category": {c: i for i, c in enumerate(cats)},
           "dtype": {d: i for i, d in enumerate(dts)}, "shape": {s: i for i, s in enumerate(shp)}}
    blocks = []
    oh = np.zeros((len(recs), len(ops_vocab)))
    for i, r in enumerate(recs):
        for o in r.get("ops") or []:
            oh[i, idx["ops"][o]] += 1
    oh /= np.maximum(np.linalg.norm(oh, axis=1, keepdims=True), 1e-9)
    blocks.append(oh * WEIGHTS["ops"])
    for key, vocab, get in (("category", cats, lambda r: [r.get("category", "?")]), ("dtype", dts, lambda r: r.get("dtypes") or ["?"]),
                            ("shape", shp, lambda r: [shape_class(r)])):
        m = np.zeros((len(recs), len(vocab)))
        for i, r in enumerate(recs):
            for v in get(r):
                m[i, idx[key][v]] = 1.0
        blocks.append(m * WEIGHTS[key] / math.sqrt(2))
    inten = np.array([[intensity(r)] for r in recs])
    blocks.append(inten / 2.0 * WEIGHTS["intensity"])
    blocks.append(np.array([[min(len(r.get("ops") or []), 12) / 12.0] for r in recs]) * WEIGHTS["length"])
    return np.concatenate(blocks, axis=1), idx


def kcenter(X: np.ndarray, k: int, seed: int = 0) -> list[int]:
    n = len(X)
    if k <= 0:  # a category whose quota is 0 (n below the number of categories)
        return []
    if k >= n:
        return list(range(n))
    first = random.Random(seed).randrange(n)
    chosen = [first]
    d = np.linalg.norm(X - X[first], axis=1)
    d[first] = -1.0
    for _ in range(k - 1):
        # ties at distance 0 (tasks with equal features) must still yield distinct picks
        j = int(np.argmax(d))
        chosen.append(j)
        d = np.minimum(d, np.linalg.norm(X - X[j], axis=1))
        d[chosen] = -1.0
    return chosen


def mmr(X: np.ndarray, k: int, quality: np.ndarray, lam: float = 0.5) -> list[int]:
    n = len(X)
    if k <= 0:  # a category whose quota is 0 (n below the number of categories)
        return []
    if k >= n:
        return list(range(n))
    Xn = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-9)
    chosen = [int(np.argmax(quality))]
    maxsim = Xn @ Xn[chosen[0]]
    taken = np.zeros(n, dtype=bool)
    taken[chosen[0]] = True
    for _ in range(k - 1):
        score = lam * quality - (1 - lam) * maxsim
        score[taken] = -np.inf
        j = int(np.argmax(score))
        chosen.append(j)
        taken[j] = True
        maxsim = np.maximum(maxsim, Xn @ Xn[j])
    return chosen


def window_quality(recs: list[dict], window=(1.0, 15.0)) -> np.ndarray:
    """1 at the log-middle of the window, falling to 0 at its edges (unmeasured tasks: 0.5)."""
    lo, hi = math.log(window[0]), math.log(window[1])
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    q = []
    for r in recs:
        ms = r.get("eager_ms")
        q.append(0.5 if not ms else max(0.0, 1 - abs(math.log(ms) - mid) / half))
    return np.array(q)


def quotas(counts: dict[str, int], n: int) -> dict[str, int]:
    """Shares proportional to the square root of each category's size, capped at its size, the
    rest handed on: big categories (the many fusion chains) still get the most, small ones keep
    most of theirs."""
    q = {c: 0 for c in counts}
    left = min(n, sum(counts.values()))
    while left > 0:
        open_ = [c for c in counts if q[c] < counts[c]]
        w = {c: math.sqrt(counts[c]) for c in open_}
        tot = sum(w.values())
        given = 0
        for c in sorted(open_, key=lambda c: -w[c]):
            give = min(max(1, int(left * w[c] / tot)), counts[c] - q[c], left - given)
            q[c] += give
            given += give
            if given == left:
                break
        left -= given
    return q


def proportional_quotas(counts: dict[str, int], n: int) -> dict[str, int]:
    """Shares proportional to each group's size (largest remainders)."""
    total = sum(counts.values())
    n = min(n, total)
    if not total:
        return {c: 0 for c in counts}
    exact = {c: n * k / total for c, k in counts.items()}
    q = {c: int(v) for c, v in exact.items()}
    for c in sorted(counts, key=lambda c: (-(exact[c] - q[c]), -counts[c], c))[: n - sum(q.values())]:
        q[c] += 1
    return q


QUOTAS = {"sqrt": quotas, "proportional": proportional_quotas}


def select(recs: list[dict], n: int, method: str = "kcenter", seed: int = 0, balance: bool = True,
           quota: str = "sqrt") -> list[dict]:
    """``balance``: split ``n`` over groups, then pick within each; the features are computed over
    all tasks, so distances mean the same in every group. ``quota="sqrt"``: the groups are the
    categories, each given a share by the square root of its size (:func:`quotas`);
    ``"proportional"``: the groups are (category, dtype) pairs, each given a share proportional to
    its size (:func:`proportional_quotas`), so the selection keeps the eligible tasks' mix of
    categories and dtypes (mosaic-v2's fusion-chain and fp32 shares)."""
    if method not in ("kcenter", "mmr"):
        raise ValueError(f"method must be kcenter or mmr, not {method!r}")
    if quota not in QUOTAS:
        raise ValueError(f"quota must be one of {', '.join(QUOTAS)}, not {quota!r}")
    if not recs:
        return []
    X, _ = featurize(recs)
    quality = window_quality(recs)
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(recs):
        key = r.get("category", "?") if quota == "sqrt" else (r.get("category", "?"), ",".join(r.get("dtypes") or []))
        groups.setdefault(key if balance else "all", []).append(i)
    q = QUOTAS[quota]({c: len(ix) for c, ix in groups.items()}, n)
    picked = []
    for c, ix in groups.items():
        sub = X[ix]
        local = kcenter(sub, q[c], seed) if method == "kcenter" else mmr(sub, q[c], quality[ix])
        picked += [ix[j] for j in local]
    return [recs[i] for i in sorted(picked)]


def coverage_radius(X: np.ndarray, chosen: list[int]) -> tuple[float, float]:
    """Largest and mean distance from any pool task to its nearest chosen one."""
    d = np.full(len(X), np.inf)
    for j in chosen:
        d = np.minimum(d, np.linalg.norm(X - X[j], axis=1))
    return float(d.max()), float(d.mean())
