"""Counts of a task set: by category, dtype, status (review included), generator."""

from __future__ import annotations

import statistics
from collections import Counter

from .review import edited, statuses
from .taskset import TaskSet


def set_stats(ts: TaskSet) -> dict:
    st = statuses(ts)
    recs = ts.records
    dtypes = Counter(d for r in recs for d in (r.get("dtypes") or ["unknown"]))
    eager = [r["eager_ms"] for r in recs if isinstance(r.get("eager_ms"), (int, float))]
    ops = Counter(o for r in recs for o in (r.get("ops") or []))
    out = {
        "set": ts.name,
        "path": str(ts.root),
        "tasks": len(recs),
        "by_category": dict(Counter(r.get("category", "unknown") for r in recs).most_common()),
        "by_dtype": dict(dtypes.most_common()),
        "by_status": dict(Counter(st.values()).most_common()),
        "by_generator": dict(Counter(r.get("generator", "unknown") for r in recs).most_common()),
        "categories": len({r.get("category") for r in recs}),
        "distinct_ops": len(ops),
        "edited": len(edited(ts)),
    }
    if eager:
        q = statistics.quantiles(eager, n=4) if len(eager) > 1 else [eager[0]] * 3
        out["eager_ms"] = {"measured": len(eager), "min": round(min(eager), 4), "p25": round(q[0], 4),
                           "median": round(q[1], 4), "p75": round(q[2], 4), "max": round(max(eager), 4),
                           "gpu": Counter(r.get("gpu") for r in recs if r.get("gpu")).most_common(1)[0][0]
                           if any(r.get("gpu") for r in recs) else None}
    return out
