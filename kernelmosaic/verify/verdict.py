"""The Verdict record (PROTOCOL.md, "Verdict"): one JSON object per candidate."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .._json import finite

STATUSES = (
    "correct",
    "incorrect",
    "compile_error",
    "runtime_error",
    "timeout",
    "rejected",
    "invalid_candidate",
)

BACKENDS = ("cuda", "nvrtc", "triton", "cpp")
POLICIES = ("strict", "kernelbench")


@dataclass
class Verdict:
    status: str
    backend: str
    policy: str
    task: str
    device: str
    correct: bool = False
    compiled: bool = False
    seeds: list[int] = field(default_factory=list)
    tolerances: dict[str, float] = field(default_factory=dict)
    error: dict[str, Any] | None = None  # {kind, message, log}
    mismatch: dict[str, Any] | None = None  # {max_abs_err, max_rel_err, rel_norm_err, first_bad_index, trial}
    rejections: list[dict[str, str]] = field(default_factory=list)  # [{rule, detail}]
    timing: dict[str, Any] | None = None  # {candidate_ms, eager_ms, compile_ms, speedup_eager, speedup_compile, cv, n}
    phases_s: dict[str, float] = field(default_factory=dict)  # {compile, load, check, time}
    env: dict[str, Any] = field(default_factory=dict)  # {gpu, torch, cuda, driver}
    # Things a reader must know to trust the verdict (e.g. that parameters were
    # copied from the reference, or that a baseline came from the cache).
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")
        self.correct = self.status == "correct"

    def to_dict(self) -> dict[str, Any]:
        return finite(asdict(self))

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False, default=_json_default)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Verdict":
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})


def _json_default(o: Any) -> Any:
    # numpy scalars and the like, which a worker may leave in metrics
    if hasattr(o, "item"):
        return o.item()
    return str(o)
