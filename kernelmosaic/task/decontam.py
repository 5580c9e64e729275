"""Decontamination against KernelBench L1-L3: drop every task that computes what a
KernelBench problem computes.

The score of a task against a problem is ``0.7 * op_sim + 0.3 * src_sim``: ``op_sim`` is the
difflib ratio of their op sequences (:func:`~kernelmosaic.task.features.op_sequence`: the same
ops in the same order whatever the shapes, dtypes or spelling), ``src_sim`` the cosine of the
bigram counts of their normalized tokens (renamed copies score 1). A task is dropped when its
best score reaches the threshold; the report names the nearest problem for every task.

This is the one decontamination rule: task curation (``kmosaic tasks decontam``) and the
dataset export (``kmosaic export --kernelbench``) both call it. The export used to have its
own (difflib ratio of normalized source >= 0.9), which let through a renamed or reshaped
copy of a KernelBench problem that curation would have dropped.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter
from dataclasses import dataclass

from .features import bigrams, normalized_tokens, op_sequence

THRESHOLD = 0.75  # a single op that KernelBench has (relu, sdpa, conv2d) scores >= 0.76 at any shape or dtype
OP_WEIGHT = 0.7


@dataclass
class Ref:
    key: str
    ops: list[str]
    grams: Counter
    norm: float


def _norm(c: Counter) -> float:
    return math.sqrt(sum(v * v for v in c.values())) or 1.0


def cosine(a: Counter, na: float, b: Counter, nb: float) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0) for k, v in a.items()) / (na * nb)


def reference_index(problems) -> list[Ref]:
    """KernelBench problems (Task records) prepared for scoring."""
    return index_sources((t.key, t.source) for t in problems)


def index_sources(named_sources) -> list[Ref]:
    """(name, source) pairs prepared for scoring, e.g. KernelBench files by their relative path."""
    refs = []
    for name, src in named_sources:
        g = bigrams(normalized_tokens(src))
        refs.append(Ref(name, op_sequence(src), g, _norm(g)))
    return refs


@dataclass
class Contamination:
    """A task that computes what a KernelBench problem computes (it is dropped)."""

    task: str
    problem: str  # the nearest problem's name
    score: float
    op_sim: float
    src_sim: float

    @property
    def exact(self) -> bool:
        return self.score >= 1.0

    def to_dict(self) -> dict:
        return {"task": self.task, "problem": self.problem, "score": self.score, "op_sim": self.op_sim,
                "src_sim": self.src_sim, "match": "exact" if self.exact else "similar"}


def contaminated(sources: dict[str, str], refs: list[Ref], threshold: float = THRESHOLD) -> list[Contamination]:
    """The tasks of ``sources`` (name -> source) to drop, in name order."""
    out = []
    for name, row in zip(sorted(sources), decontaminate([(n, sources[n]) for n in sorted(sources)], refs, threshold)):
        if row["dropped"]:
            out.append(Contamination(name, row["nearest"], row["score"], row["op_sim"], row["src_sim"]))
    return out


def nearest(source: str, refs: list[Ref], ops: list[str] | None = None) -> dict:
    """The closest problem and the scores."""
    ops = ops if ops is not None else op_sequence(source)
    g = bigrams(normalized_tokens(source))
    ng = _norm(g)
    best = {"score": -1.0}
    sm = difflib.SequenceMatcher(autojunk=False)
    sm.set_seq2(ops)
    for r in refs:
        sm.set_seq1(r.ops)
        # real_quick_ratio and quick_ratio bound ratio from above: skip hopeless pairs cheaply
        op_upper = sm.real_quick_ratio()
        if OP_WEIGHT * op_upper + (1 - OP_WEIGHT) < best["score"]:
            continue
        op_sim = sm.ratio() if (ops or r.ops) else 1.0
        src_sim = cosine(g, ng, r.grams, r.norm) if g and r.grams else 0.0
        score = OP_WEIGHT * op_sim + (1 - OP_WEIGHT) * src_sim
        if score > best["score"]:
            best = {"score": round(score, 4), "op_sim": round(op_sim, 4), "src_sim": round(src_sim, 4), "nearest": r.key,
                    "nearest_ops": r.ops}
    best["ops"] = ops
    return best


def decontaminate(items: list[tuple[str, str]], refs: list[Ref], threshold: float = THRESHOLD, progress=None) -> list[dict]:
    """One row per (name, source): the nearest problem, its score, and whether the task is dropped."""
    rows = []
    for i, (name, src) in enumerate(items):
        n = nearest(src, refs)
        n["name"] = name
        n["dropped"] = n["score"] >= threshold
        rows.append(n)
        if progress:
            progress(i + 1, len(items))
    return rows
