"""Dedup: exact duplicates by canonical form, near duplicates by similarity.

The canonical form of a task is its op sequence, dtype, shape signature (input shapes bucketed
to powers of two) and normalized tokens (literals and local names blanked), hashed. Near
duplicates are tasks with the same dtype and op sequence whose shape signatures match and whose
token bigrams have a cosine of at least ``near`` (0.98): the same problem written slightly
differently. The first task in set order is kept; each dropped one names the task it repeats.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict

from ..task.decontam import _norm, cosine
from ..task.features import bigrams, normalized_tokens, op_sequence, shape_signature  # noqa: F401

NEAR = 0.98


def canonical(source: str, meta: dict) -> tuple[str, list[str]]:
    ops = op_sequence(source)
    toks = normalized_tokens(source, numbers=True)
    dtype = ",".join(meta.get("dtypes") or [])
    key = "|".join([" ".join(ops), dtype, shape_signature(meta), " ".join(toks)])
    return hashlib.sha256(key.encode()).hexdigest()[:24], ops, toks


def dedup(items: list[tuple[dict, str]], near: float = NEAR) -> list[dict]:
    """``items``: (manifest record, source) in set order. One row per task: kept or the duplicate of whom."""
    rows, first_by_key = [], {}
    buckets: dict[tuple, list[tuple[str, object, float]]] = defaultdict(list)
    for rec, src in items:
        key, ops, toks = canonical(src, rec)
        row = {"name": rec["name"], "canonical": key, "ops": ops, "dropped": False}
        if key in first_by_key:
            row.update(dropped=True, kind="exact", duplicate_of=first_by_key[key], similarity=1.0)
            rows.append(row)
            continue
        first_by_key[key] = rec["name"]
        bkey = (tuple(ops), ",".join(rec.get("dtypes") or []), shape_signature(rec))
        g = bigrams(toks)
        ng = _norm(g)
        for other, og, on in buckets[bkey]:
            sim = cosine(g, ng, og, on)
            if sim >= near:
                row.update(dropped=True, kind="near", duplicate_of=other, similarity=round(sim, 4))
                break
        if not row["dropped"]:
            buckets[bkey].append((rec["name"], g, ng))
        rows.append(row)
    return rows
