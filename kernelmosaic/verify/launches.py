"""Launch bookkeeping shared by the project's launchers and the worker.

The worker reads these counters around a ``forward`` call to see whether the
candidate's own kernels ran (the dynamic "a custom kernel must be launched" rule).
Candidates may not import this module (a static rule), so they cannot forge launches.
"""

from __future__ import annotations

from collections import Counter

_counts: Counter[str] = Counter()


def record(kind: str, name: str) -> None:
    _counts[f"{kind}:{name}"] += 1


def snapshot() -> Counter[str]:
    return Counter(_counts)


def since(before: Counter[str]) -> Counter[str]:
    now = Counter(_counts)
    now.subtract(before)
    return +now
