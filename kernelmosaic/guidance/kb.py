"""The knowledge base and its matcher (the trigger language is documented in the package docstring)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

CATEGORIES = ("compile", "launch", "memory", "sync", "numerics", "correctness", "policy", "optimize", "triton", "cpu")
from .._json import number  # noqa: E402 - the one reader of stored numbers
from ..vocab import BACKENDS, STAGES, STATUSES  # noqa: E402 - the one vocabulary

MISMATCH_CLASSES = ("nan", "rel_norm_high", "small", "shape", "dtype", "partial", "all")
TIMING_CLASSES = ("slower_than_eager", "slower_than_compile", "faster")

# How much one key of a fired trigger says about the cause: a regex or a rule names the
# problem, a status only says which family it belongs to.
SPECIFICITY = {
    "pattern": 3.0, "rule": 3.0, "mismatch": 2.0, "task": 2.0, "timing": 1.5, "error_kind": 1.5,
    "status": 0.5, "backend": 0.25, "stage": 0.25,
}
_ENUMS = {"status": STATUSES, "backend": BACKENDS, "stage": STAGES, "mismatch": MISMATCH_CLASSES, "timing": TIMING_CLASSES}

REL_NORM_HIGH = 0.05  # above this the output is not a rounding away from the reference
ALL_WRONG = 0.9  # fraction of elements wrong from which a mismatch counts as "all"

_ENTRY_KEYS = {"id", "title", "category", "triggers", "text", "example"}
_OPTIONAL_ENTRY_KEYS = {"status", "evidence", "see_also", "done_when"}  # drafts from mine.py carry status/evidence
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$")


@dataclass(frozen=True, eq=False)  # identity equality keeps Entry hashable despite the dict
class Trigger:
    conds: dict[str, Any]  # key -> frozenset of allowed values, or a compiled regex for pattern/task
    weight: float = 1.0

    @property
    def specificity(self) -> float:
        return sum(SPECIFICITY[k] for k in self.conds)

    @property
    def specific(self) -> bool:
        """Whether the trigger names the problem (a regex or a rule), not only its family."""
        return "pattern" in self.conds or "rule" in self.conds


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    category: str
    triggers: tuple[Trigger, ...]
    text: str
    example: str
    raw: dict[str, Any] = field(repr=False, compare=False, hash=False)
    # the code already does what the entry advises (float4 loads, wmma, shuffles): not shown for
    # it. The pilot's agents called such advice mismatched (issue 20)
    done_when: re.Pattern | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Match:
    entry: Entry
    score: float
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Signals:
    """What the triggers can see of one verdict, computed once per match call."""

    status: str
    backend: str
    error_kind: str
    rules: frozenset[str]
    text: str
    mismatch: frozenset[str]
    timing: frozenset[str]
    stage: str
    task: str


def mismatch_classes(mm: dict[str, Any] | None) -> frozenset[str]:
    if not mm:
        return frozenset()
    reason = str(mm.get("reason") or "")
    out = set()
    if re.search(r"NaN|\bInf\b", reason) or number(mm.get("max_abs_err")) is None and mm.get("max_abs_err") is not None:
        out.add("nan")
    if re.search(r"\bshape\b.*!= expected|outputs, the candidate", reason):
        out.add("shape")
    if re.search(r"\bdtype\b.*!= expected", reason):
        out.add("dtype")
    m = re.search(r"(\d+) of (\d+) elements outside", reason)
    if m and int(m.group(2)):
        out.add("all" if int(m.group(1)) / int(m.group(2)) >= ALL_WRONG else "partial")
    rel = number(mm.get("rel_norm_err"))
    if rel is None:
        m = re.search(r"relative norm error ([0-9.eE+-]+)", reason)
        rel = number(m.group(1)) if m else None
    if rel is not None and not out & {"shape", "dtype"}:
        out.add("rel_norm_high" if rel >= REL_NORM_HIGH else "small")
    return frozenset(out)


def timing_classes(t: dict[str, Any] | None) -> frozenset[str]:
    if not t:
        return frozenset()
    out = set()
    se = number(t.get("speedup_eager"))
    if se is None:
        cand, eager = number(t.get("candidate_ms")), number(t.get("eager_ms"))
        se = eager / cand if cand and eager is not None else None
    sc = number(t.get("speedup_compile"))
    if sc is None:
        cand, comp = number(t.get("candidate_ms")), number(t.get("compile_ms"))
        sc = comp / cand if cand and comp is not None else None
    if se is not None:
        out.add("slower_than_eager" if se < 1.0 else "faster")
    if sc is not None and sc < 1.0:
        out.add("slower_than_compile")
    return frozenset(out)


def signals(verdict: Any, stage: str | None = None) -> Signals:
    # triggers are written against the protocol's JSON shape: a typed Verdict is read as its dict
    if hasattr(verdict, "to_dict"):
        verdict = verdict.to_dict()
    err = verdict.get("error") or {}
    mm = verdict.get("mismatch") or {}
    rej = [r for r in verdict.get("rejections") or [] if isinstance(r, dict)]
    status = str(verdict.get("status") or "")
    parts = [str(err.get("message") or ""), str(err.get("log") or ""), str(mm.get("reason") or "")]
    parts += [str(r.get("detail") or "") for r in rej]
    return Signals(
        status=status,
        backend=str(verdict.get("backend") or ""),
        error_kind=str(err.get("kind") or ""),
        rules=frozenset(str(r.get("rule")) for r in rej if r.get("rule")),
        text="\n".join(parts),
        mismatch=mismatch_classes(mm),
        timing=timing_classes(verdict.get("timing")),
        stage=stage or ("optimize" if status == "correct" else "repair"),
        task=str(verdict.get("task") or ""),
    )


def _fires(t: Trigger, s: Signals) -> list[str] | None:
    """The reasons a trigger fires, or None when one of its conditions fails."""
    reasons = []
    for key, want in t.conds.items():
        if key == "pattern":
            m = want.search(s.text)
            if not m:
                return None
            reasons.append(f"pattern matched {m.group(0)[:60]!r}")
        elif key == "task":
            if not want.search(s.task):
                return None
            reasons.append(f"task {s.task!r}")
        elif key == "rule":
            hit = sorted(s.rules & want)
            if not hit:
                return None
            reasons.append("rule " + ",".join(hit))
        elif key in ("mismatch", "timing"):
            hit = sorted((s.mismatch if key == "mismatch" else s.timing) & want)
            if not hit:
                return None
            reasons.append(f"{key} {','.join(hit)}")
        else:
            value = getattr(s, key)
            if value not in want:
                return None
            reasons.append(f"{key}={value}")
    return reasons


def _parse_trigger(entry_id: str, i: int, raw: Any) -> Trigger:
    where = f"entry {entry_id!r} trigger {i}"
    if not isinstance(raw, dict) or not raw:
        raise ValueError(f"{where}: a trigger must be a non-empty object")
    unknown = set(raw) - set(SPECIFICITY) - {"weight"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    weight = raw.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight > 0:
        raise ValueError(f"{where}: weight must be a positive number")
    conds: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "weight":
            continue
        if key in ("pattern", "task"):
            if not isinstance(value, str) or not value:
                raise ValueError(f"{where}: {key} must be a non-empty regex string")
            try:
                conds[key] = re.compile(value, re.IGNORECASE)
            except re.error as e:
                raise ValueError(f"{where}: bad {key} regex {value!r}: {e}") from None
            continue
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise ValueError(f"{where}: {key} must be a string or a non-empty list of strings")
        allowed = _ENUMS.get(key)
        if allowed is not None and set(values) - set(allowed):
            raise ValueError(f"{where}: {key} {sorted(set(values) - set(allowed))} not among {list(allowed)}")
        conds[key] = frozenset(values)
    return Trigger(conds=conds, weight=float(weight))


def _parse_entry(raw: Any, index: int) -> Entry:
    if not isinstance(raw, dict):
        raise ValueError(f"entry {index}: not an object")
    eid = raw.get("id")
    if not isinstance(eid, str) or not _ID.match(eid):
        raise ValueError(f"entry {index}: bad or missing id {eid!r} (want a dotted slug like 'compile.nvrtc-no-host-headers')")
    missing = _ENTRY_KEYS - set(raw)
    if missing:
        raise ValueError(f"entry {eid!r}: missing {sorted(missing)}")
    unknown = set(raw) - _ENTRY_KEYS - _OPTIONAL_ENTRY_KEYS
    if unknown:
        raise ValueError(f"entry {eid!r}: unknown keys {sorted(unknown)}")
    if raw["category"] not in CATEGORIES:
        raise ValueError(f"entry {eid!r}: category {raw['category']!r} not among {list(CATEGORIES)}")
    for key in ("title", "text", "example"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise ValueError(f"entry {eid!r}: {key} must be a non-empty string")
    if not isinstance(raw["triggers"], list) or not raw["triggers"]:
        raise ValueError(f"entry {eid!r}: triggers must be a non-empty list")
    triggers = tuple(_parse_trigger(eid, i, t) for i, t in enumerate(raw["triggers"]))
    done_when = None
    if "done_when" in raw:
        if not isinstance(raw["done_when"], str) or not raw["done_when"]:
            raise ValueError(f"entry {eid!r}: done_when must be a non-empty regex string")
        try:
            done_when = re.compile(raw["done_when"], re.MULTILINE)  # code: case matters
        except re.error as e:
            raise ValueError(f"entry {eid!r}: bad done_when regex {raw['done_when']!r}: {e}") from None
    return Entry(eid, raw["title"], raw["category"], triggers, raw["text"].strip(), raw["example"].rstrip(), raw,
                 done_when)


class KnowledgeBase:
    def __init__(self, version: str, entries: Iterable[Entry], source: str = "<memory>"):
        self.version = version
        self.source = source
        self.entries: tuple[Entry, ...] = tuple(entries)
        self._by_id = {e.id: e for e in self.entries}

    @classmethod
    def from_dict(cls, data: Any, source: str = "<memory>") -> "KnowledgeBase":
        if not isinstance(data, dict) or not isinstance(data.get("version"), str) or not isinstance(data.get("entries"), list):
            raise ValueError(f"{source}: expected {{\"version\": str, \"entries\": [...]}}")
        entries, seen = [], set()
        for i, raw in enumerate(data["entries"]):
            e = _parse_entry(raw, i)
            if e.id in seen:
                raise ValueError(f"{source}: duplicate entry id {e.id!r}")
            seen.add(e.id)
            entries.append(e)
        return cls(data["version"], entries, source)

    @classmethod
    def load(cls, path: str | Path | None = None) -> "KnowledgeBase":
        if path is None:
            res = resources.files(__package__).joinpath("entries.json")
            text, source = res.read_text(encoding="utf-8"), "kernelmosaic/guidance/entries.json"
        else:
            text, source = Path(path).read_text(encoding="utf-8"), str(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{source}: not valid JSON: {e}") from None
        return cls.from_dict(data, source)

    def get(self, entry_id: str) -> Entry:
        return self._by_id[entry_id]

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def scored(self, verdict: dict[str, Any], stage: str | None = None) -> list[tuple[Entry, float, list[str], bool]]:
        """Every entry with a fired trigger: (entry, score, reasons, fired a specific trigger)."""
        if stage is not None and stage not in STAGES:
            raise ValueError(f"stage {stage!r} not among {list(STAGES)}")
        s = signals(verdict, stage)
        out = []
        for e in self.entries:
            score, reasons, specific = 0.0, [], False
            for t in e.triggers:
                r = _fires(t, s)
                if r is None:
                    continue
                score += t.weight * t.specificity
                specific |= t.specific
                reasons.append("; ".join(r))
            if reasons:
                out.append((e, round(score, 6), reasons, specific))
        return out

    def match(self, verdict: dict[str, Any], k: int = 3, stage: str | None = None, exclude: Iterable[str] = (),
              code: str | None = None) -> list[Match]:
        """The ``k`` best entries for a verdict; with ``code`` (the judged candidate), not those
        whose ``done_when`` finds what they advise already in it."""
        excluded = set(exclude)
        hits = [(e, sc, r) for e, sc, r, _ in self.scored(verdict, stage) if e.id not in excluded
                and not (code and e.done_when is not None and e.done_when.search(code))]
        hits.sort(key=lambda h: (-h[1], h[0].id))
        return [Match(e, sc, tuple(r)) for e, sc, r in hits[: max(k, 0)]]

    def covers(self, verdict: dict[str, Any]) -> list[str]:
        """Ids of entries that a regex or rule trigger fires for: the verdict's problem is known."""
        return sorted(e.id for e, _, _, specific in self.scored(verdict) if specific)

    @staticmethod
    def render(matches: Iterable[Match], examples: bool = True) -> str:
        matches = list(matches)
        if not matches:
            return ""
        lines = ["### Guidance"]
        for m in matches:
            e = m.entry
            lines.append(f"- [{e.id}] {e.title}: {' '.join(e.text.split())}")
            if examples and e.example:
                ex = e.example.splitlines()
                if len(ex) == 1:
                    lines.append(f"  example: {ex[0].strip()}")
                else:
                    lines.append("  example:")
                    lines.extend("    " + ln if ln.strip() else "" for ln in ex)
        return "\n".join(lines)


@functools.lru_cache(maxsize=1)
def load_default() -> KnowledgeBase:
    return KnowledgeBase.load()
