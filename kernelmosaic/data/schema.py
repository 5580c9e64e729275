"""Trajectory records: one run -> many episodes (task, sample) -> many turns.

Plain dataclasses with ``to_dict``/``from_dict`` so records travel as JSON
(logs, training sets) as well as through the SQLite store.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .._json import finite
from ..verify.verdict import Failure, Verdict

# the names come from the one vocabulary; FIXABLE: failures a repair turn can fix
# ("rejected"/"invalid_candidate" are rule or format problems, not kernel bugs, so they are
# not mined as repair examples)
from ..vocab import EPISODE_STATUSES, FIXABLE, STAGES  # noqa: E402,F401


def episode_key(run_id: str, task_key: str, sample: int) -> str:
    """Deterministic episode id, so a restarted run finds the same episode.

    Task keys may contain '/', which makes the readable part ambiguous
    ("a/b" + "c" vs "a" + "b/c"); the hash of the exact triple keeps ids unique.
    """
    digest = hashlib.sha1(json.dumps([run_id, task_key, int(sample)]).encode()).hexdigest()[:10]
    return f"{run_id}/{task_key}/{int(sample)}#{digest}"


def no_code_verdict(task: str, message: str, backend: str = "cuda", policy: str = "strict",
                    device: str = "") -> Verdict:
    """The verdict recorded for a reply with no usable code, so every turn has a verdict."""
    return Verdict(status="invalid_candidate", backend=backend, policy=policy, task=task, device=device,
                   error=Failure("invalid_candidate", message))


class _Record:
    def to_dict(self) -> dict[str, Any]:
        return finite(asdict(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]):
        # unknown keys are dropped so records written by a newer version still load
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class TurnRecord(_Record):
    episode_id: str
    idx: int
    stage: str
    messages: list[dict[str, Any]]
    reply: str
    code: str | None
    verdict: Verdict  # typed; a dict in the protocol's JSON shape (a stored record) is read into one
    feedback: str = ""
    guidance_ids: list[str] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    latency_s: float = 0.0
    verify_s: float = 0.0
    created_at: float = field(default_factory=time.time)
    meta: dict[str, Any] = field(default_factory=dict)
    # a reasoning model's thinking before ``reply``, as the endpoint returned it apart from the
    # reply (``reasoning_content``); None when there was none
    reasoning: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.verdict, dict):
            if not self.verdict.get("status"):
                raise ValueError(f"turn {self.idx} of {self.episode_id!r}: the verdict has no status "
                                 "(no_code_verdict() for a reply without code)")
            # a partial record (hand-made, or from an older writer) reads with empty identity fields
            self.verdict = Verdict.from_dict({"backend": "", "policy": "", "task": "", "device": "", **self.verdict})

    def to_dict(self) -> dict[str, Any]:
        d = finite(asdict(self))
        d["verdict"] = self.verdict.to_dict()  # the protocol's shape (unset mismatch details left out)
        if d.get("reasoning") is None:
            # left out when absent, so the digest of every turn recorded before the field existed
            # (and of every turn without thinking) is unchanged and a resumed run still matches
            d.pop("reasoning", None)
        return d

    @property
    def status(self) -> str:
        return self.verdict.status


@dataclass
class EpisodeRecord(_Record):
    episode_id: str
    run_id: str
    task_key: str
    sample: int
    status: str = "running"
    best_turn: int | None = None
    best_code: str | None = None
    best_speedup: float | None = None
    correct: bool = False
    n_turns: int = 0
    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    wall_s: float | None = None
    error: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunRecord(_Record):
    run_id: str
    created_at: float
    model: str
    settings: dict[str, Any] = field(default_factory=dict)
    task_set: str = ""
    notes: str = ""
