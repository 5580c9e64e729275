"""The best turn of an episode: one rule, used by the episode, the export and the metrics.

The best turn is a correct turn. Among correct turns, one with a measured candidate time
beats one without, and the faster of two measured ones wins. Ties (the same time, or both
unmeasured) keep the earlier turn, so a later optimization replaces the best kernel only
when it is measurably faster. There used to be three copies of this rule, and they
disagreed: among untimed correct turns the episode kept the latest and the export the
earliest, and the metrics ranked unfinished episodes by eager speedup.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..vocab import Status


def _ms(turn: Any) -> float | None:
    """The turn's measured candidate time in ms; None when it was not timed (or is not a
    finite number, as in records written before non-finite numbers were stored as null)."""
    v = turn.verdict
    timing = (v.get("timing") if isinstance(v, dict) else getattr(v, "timing", None)) or {}
    ms = timing.get("candidate_ms") if isinstance(timing, dict) else getattr(timing, "candidate_ms", None)
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not math.isfinite(ms):
        return None
    return float(ms)


def is_correct(turn: Any) -> bool:
    return turn.status == Status.CORRECT


def better(a: Any, b: Any | None) -> bool:
    """Does correct turn ``a`` replace ``b`` (the best so far, or None) as the best?"""
    if b is None:
        return True
    ma, mb = _ms(a), _ms(b)
    if ma is None:
        return False  # unmeasured never replaces a best (measured or the earlier unmeasured one)
    return mb is None or ma < mb


def best_turn(turns: Sequence[Any]) -> int | None:
    """The position in ``turns`` of the best correct turn; None when no turn is correct.
    ``turns`` are TurnRecords (anything with ``status`` and ``verdict``), in order."""
    best = None
    for i, t in enumerate(turns):
        if is_correct(t) and better(t, None if best is None else turns[best]):
            best = i
    return best
