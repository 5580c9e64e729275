"""Published numbers to put next to our own: PUBLISHED, NOT MEASURED BY US.

Only numbers whose source we can name go here; nothing is estimated or filled in. Each row:
``system``, ``level`` (KernelBench level), ``correct_pct`` (percent of problems correct, as
claimed), ``source`` and ``note``.
"""

from __future__ import annotations

PUBLISHED_LABEL = "Published, not measured by us"

_SEED_SYSTEM = "9B model fine-tuned on iterative repair traces"
_SEED_SOURCE = "KernelMosaic project seed (the claim the project set out to reproduce)"
_SEED_NOTE = ("claimed after fine-tuning; the same model was reported at about 0% correct before "
              "fine-tuning; not reproduced or measured by us")

PUBLISHED: list[dict] = [
    {"system": _SEED_SYSTEM, "level": 1, "correct_pct": 88.0, "source": _SEED_SOURCE, "note": _SEED_NOTE},
    {"system": _SEED_SYSTEM, "level": 2, "correct_pct": 82.0, "source": _SEED_SOURCE, "note": _SEED_NOTE},
    {"system": _SEED_SYSTEM, "level": 3, "correct_pct": 16.0, "source": _SEED_SOURCE, "note": _SEED_NOTE},
]


def published(level: int | None = None) -> list[dict]:
    """Copies of the published rows, optionally for one level."""
    return [dict(r) for r in PUBLISHED if level is None or r["level"] == level]
