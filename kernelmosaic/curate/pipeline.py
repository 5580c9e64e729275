"""The curation steps over a task set, each leaving its record in the set folder.

``dedup.jsonl`` and ``decontam.jsonl`` hold one row per task; ``filter/results.jsonl`` the
execution filters' measurements (or ``--results`` points at an H200 run). ``eligible`` reads
whatever is there and says which tasks survive every step so far, and why the others did not.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..task import TaskError, load_kernelbench, sha256_text
from ..task.decontam import THRESHOLD, decontaminate, reference_index
from .dedup import NEAR, dedup
from .filters import WINDOW_H200, load_results, reason_class, verdict
from .taskset import TaskSet, read_jsonl

DEDUP = "dedup.jsonl"
DECONTAM = "decontam.jsonl"


def _write_rows(path: Path, rows: list[dict]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tmp.replace(path)


def read_rows(path: Path) -> dict[str, dict]:
    """name -> row of a step's .jsonl (dedup, decontam)."""
    return {r["name"]: r for r in read_jsonl(path)}


def run_dedup(ts: TaskSet, near: float = NEAR) -> list[dict]:
    rows = dedup([(r, ts.source(r)) for r in ts.records], near=near)
    _write_rows(ts.root / DEDUP, rows)
    return rows


def run_decontam(ts: TaskSet, kernelbench: str | None, threshold: float = THRESHOLD, progress=None, *,
                 behaviour: bool = True, jobs: int = 1, out: Path | None = None, probe_progress=None) -> list[dict]:
    """The lexical screen over every task, then (``behaviour``) the behavioural check over the
    tasks it kept (:mod:`~kernelmosaic.curate.behaviour`). Rows go to ``SET/decontam.jsonl``, or to
    ``out`` so a shipped set can be checked without touching it; a summary row of the
    behavioural pass goes to ``<rows>.summary.json``."""
    problems = load_kernelbench(kernelbench, (1, 2, 3))
    refs = reference_index(problems)
    rows = decontaminate([(r["name"], ts.source(r)) for r in ts.records], refs, threshold, progress=progress)
    for r in rows:
        r["threshold"] = threshold
        r["drop_reason"] = "lexical" if r["dropped"] else None
    target = Path(out) if out else ts.root / DECONTAM
    target.parent.mkdir(parents=True, exist_ok=True)
    if behaviour:
        from .behaviour import ProbeUnavailable, behavioural_check

        srcs = {r["name"]: ts.source(r) for r in ts.records}
        todo = [(r["name"], srcs[r["name"]]) for r in rows if not r["dropped"]]
        try:
            brows, summary = behavioural_check(todo, [(p.key, p.source) for p in problems], jobs=jobs,
                                               progress=probe_progress)
        except ProbeUnavailable as e:  # nothing is written: no set is recorded as checked when nothing ran
            raise TaskError("the behavioural check", f"{e} (no rows written)") from None
        by = {b.pop("name"): b for b in brows}
        for r in rows:
            b = by.get(r["name"])
            r["behaviour"] = b if b is not None else {"verdict": "skipped", "error": "dropped by the lexical screen"}
            if b is not None and b["verdict"] == "same":
                r["dropped"] = True
                r["drop_reason"] = "behaviour"
        target.with_name(target.name + ".summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    _write_rows(target, rows)
    return rows


def eligible(ts: TaskSet, results: str | Path | dict | None = None, window: tuple[float, float] | None = WINDOW_H200,
             require: tuple[str, ...] = ("dedup", "decontam", "filter")) -> tuple[list[dict], dict[str, tuple[str, str, str]]]:
    """Records that passed every step in ``require``; for the rest (stage, reason class, detail)."""
    dd = read_rows(ts.root / DEDUP)
    dc = read_rows(ts.root / DECONTAM)
    for stage, rows in (("dedup", dd), ("decontam", dc)):
        if stage in require and not rows:
            raise TaskError(str(ts.root), f"no {stage} results: run `kmosaic tasks {stage}` first")
    if "filter" not in require:
        fr = {}
    elif isinstance(results, dict):  # already loaded (e.g. two passes merged)
        fr = results
    else:
        fr = load_results(Path(results) if results else ts.root / "filter")
    keep, dropped = [], {}
    for rec in ts.records:
        n = rec["name"]
        if "dedup" in require and dd.get(n, {}).get("dropped"):
            d = dd[n]
            dropped[n] = ("dedup", f"{d['kind']} duplicate", f"of {d['duplicate_of']} ({d['similarity']})")
        elif "decontam" in require and (n not in dc or dc[n]["dropped"]):
            d = dc.get(n)
            if d and d.get("drop_reason") == "behaviour":
                b = d["behaviour"]
                dropped[n] = ("decontam", "KernelBench (behaviour)",
                              f"computes {b['kb']} on {b['probe']} (max rel. error {b['max_rel_err']:.1e})")
            else:
                dropped[n] = ("decontam", "KernelBench" if d else "not scored", f"nearest {d['nearest']} score {d['score']}" if d else "")
        elif "filter" in require:
            r = fr.get(n)
            if r is None:
                dropped[n] = ("filter", "not measured", "")
                continue
            if r.get("sha256") and r["sha256"] != sha256_text(ts.source(rec)):
                dropped[n] = ("filter", "stale measurement", "the task file changed after it was measured")
                continue
            ok, reasons = verdict(r, window)
            if not ok:
                dropped[n] = ("filter", reason_class(reasons[0]) if reasons else "does not run", "; ".join(reasons))
                continue
            keep.append({**rec, "eager_ms": r.get("eager_ms"), "eager_cv": r.get("eager_cv"), "gpu": r.get("gpu"),
                         "measured_flops": r.get("flops"), "measured_bytes": r.get("bytes"),
                         "nearest_kb": dc.get(n, {}).get("nearest"), "kb_score": dc.get(n, {}).get("score"),
                         **({"kb_behaviour": dc[n]["behaviour"]} if dc.get(n, {}).get("behaviour") else {})})
        else:
            keep.append({**rec, "nearest_kb": dc.get(n, {}).get("nearest"), "kb_score": dc.get(n, {}).get("score"),
                         **({"kb_behaviour": dc[n]["behaviour"]} if dc.get(n, {}).get("behaviour") else {})})
    return keep, dropped
