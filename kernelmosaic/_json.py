"""JSON helpers shared by records that must survive json.dumps(allow_nan=False)."""

from __future__ import annotations

import math
from typing import Any


def finite(o: Any) -> Any:
    """JSON has no NaN or Infinity: such floats become the strings "nan" / "inf"."""
    if isinstance(o, float) and not math.isfinite(o):
        return str(o)
    if isinstance(o, dict):
        return {k: finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [finite(v) for v in o]
    return o
