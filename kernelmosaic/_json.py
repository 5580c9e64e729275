"""JSON helpers shared by records that must survive json.dumps(allow_nan=False)."""

from __future__ import annotations

import math
from typing import Any


def finite(o: Any) -> Any:
    """JSON has no NaN or Infinity: such floats become null (None).

    They used to become the strings "nan" / "inf", which every reader then had to skip; a
    null is what a missing measurement already looked like. Stores migrate old records
    (data/store.py, schema version 2)."""
    if isinstance(o, float) and not math.isfinite(o):
        return None
    if isinstance(o, dict):
        return {k: finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [finite(v) for v in o]
    return o


def number(x: Any) -> float | None:
    """A finite float, or None (missing, not a number, non-finite). The one reader-side helper
    for stored numbers: a number written as text (a mismatch's "nan", an error read out of a
    message) is read as one, and the "nan"/"inf" strings of records written before non-finite
    numbers were stored as null (exports, JSONL files) read as None."""
    if isinstance(x, str):
        try:
            x = float(x)
        except ValueError:
            return None
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)
