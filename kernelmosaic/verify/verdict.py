"""The Verdict record (PROTOCOL.md, "Verdict"): one JSON object per candidate.

It is typed all the way down: a failure, a mismatch, each rejection, the timing and the
isolation report are dataclasses of their own. ``to_dict`` writes the protocol's JSON shape
(the one the store, the export and the bench read), and ``from_dict`` reads it back, also
from records written before the parts were typed.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .._json import finite
from ..vocab import BACKENDS, POLICIES, STATUSES, Status

__all__ = ["BACKENDS", "POLICIES", "STATUSES", "BaselineSource", "Failure", "Isolation", "Mismatch", "Precision", "Rejection", "Timing",
           "Verdict"]


def _known(cls, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in d.items() if k in names}


@dataclass
class Failure:
    """Why a candidate did not pass: ``kind`` says which step, ``log`` is trimmed for a reader."""

    kind: str
    message: str
    log: str = ""


@dataclass
class Rejection:
    rule: str
    detail: str = ""


@dataclass
class Mismatch:
    """Where the candidate's output first differs from the reference's."""

    reason: str
    trial: int | None = None
    seed: int | None = None
    max_abs_err: float | str | None = None
    max_rel_err: float | str | None = None
    rel_norm_err: float | str | None = None
    first_bad_index: list[int] | None = None
    expected_at_first_bad: float | None = None
    got_at_first_bad: float | None = None
    shape_variant: dict[str, Any] | None = None
    call: int | None = None  # the timed call whose output was wrong


@dataclass
class Target:
    """The GPU a candidate is judged on, as the verifier measured it (its speed-of-light ceilings):
    what a prompt tells the model about the machine. ``sms`` is None in ceilings cached before it
    was recorded."""

    name: str
    sms: int | None = None
    bandwidth_gbs: float | None = None  # copy bandwidth (torch's copy_), not the datasheet's HBM peak
    peak_tflops: float | None = None  # bf16 matrix peak (torch's matmul)


@dataclass
class BaselineSource:
    """Where a verdict's eager and torch.compile times came from, so that a speedup can be
    weighed: ``source`` is ``measured`` (in this verdict, by a process that never ran candidate
    code), ``cache`` (an earlier verdict's or ``kmosaic baselines``' measurement on this machine)
    or ``given`` (by the caller). ``*_spread`` is the interquartile range over the median of the
    raw round trips (the noise check), ``attempts`` how many timing runs it took to get under the
    limit, ``cached`` whether these times were (or are) in the cache: wide ones never are.
    ``load_per_core`` is the machine's 1-minute load average over its cores when they were timed;
    ``foreign_cores`` how many cores, on average, programs other than the verifier kept busy while
    they were timed (over a quarter of the machine's, they are not cached: ``quiet.py``)."""

    source: str
    timed_at: str | None = None
    device_name: str | None = None
    torch: str | None = None
    eager_spread: float | None = None
    compile_spread: float | None = None
    attempts: int | None = None
    steady: bool | None = None
    cached: bool = False
    load_per_core: float | None = None
    foreign_cores: float | None = None


@dataclass
class Timing:
    """Milliseconds by the judge's clock. ``overhead_ms`` is the calibrated cost of an empty call
    through the same channel, already taken off every time here."""

    candidate_ms: float
    eager_ms: float | None = None
    compile_ms: float | None = None
    speedup_eager: float | None = None
    speedup_compile: float | None = None
    cv: float | None = None
    n: int = 0
    eager_cv: float | None = None
    compile_cv: float | None = None
    floor_ms: float | None = None
    overhead_ms: float | None = None
    checked_calls: int | None = None  # timed calls whose output the judge compared in full
    sampled_calls: int | None = None  # timed calls whose (large) output it compared on random elements
    clock: str | None = None
    # only when TimingConfig.diagnostics: medians of the parts of a timed call. ``candidate_event_ms``
    # is the candidate process's own claim (CUDA events around its forward) and decides nothing.
    diagnostics: dict | None = None
    baseline: BaselineSource | None = None
    # the long-call excess (GPU) taken off each median besides ``overhead_ms``: what an empty call
    # that waits on the GPU as long as the call did costs over an empty call, by process kind
    # ({"candidate": ms, "eager": ms, "compile": ms})
    long_call_ms: dict | None = None
    # while the candidate was timed: {"foreign_cores", "cpus", "quiet"} (quiet.conditions): how
    # busy programs other than the verifier kept the machine, measured, not assumed
    conditions: dict | None = None
    # what candidate_ms, eager_ms and compile_ms are of the timed calls: "median", or "mean"
    # (KernelBench's protocol; TimingConfig.statistic)
    statistic: str = "median"

    def __post_init__(self) -> None:
        if isinstance(self.baseline, dict):
            self.baseline = BaselineSource(**{"source": "?", **_known(BaselineSource, self.baseline)})


@dataclass
class Precision:
    """The precision check against a float64 oracle (``verify/precision.py``). Errors are
    normwise, relative to the oracle: ``ref_err`` is the task-dtype reference's own, ``cand_err``
    the candidate's, ``threshold`` its bound (the larger of ``multiple`` x ``ref_err`` and
    ``floor``). ``signature`` maps a format (``tf32``, ``bf16``) to the candidate's distance from
    the oracle run on inputs rounded to it, over its distance from the exact oracle (below
    1/4: it computed on rounded inputs). ``status`` is ``passed``, ``failed`` or ``skipped``."""

    status: str
    reason: str = ""
    dtype: str | None = None
    trial: int | None = None
    seed: int | None = None
    output: int | None = None
    ref_err: float | None = None
    cand_err: float | None = None
    threshold: float | None = None
    multiple: float | None = None
    floor: float | None = None
    terms: float | None = None
    ref_max_err: float | None = None
    cand_max_err: float | None = None
    signature: dict[str, float] = field(default_factory=dict)
    oracle_s: float | None = None


@dataclass
class Isolation:
    """What stood between the candidate and the judge: each sandbox layer and whether it was on.

    ``layers`` maps a layer name to ``"on"`` or ``"off: <why>"`` (a machine that refuses a
    layer falls back to the next; the verdict says which ones held)."""

    layers: dict[str, str] = field(default_factory=dict)
    processes: str = "judge and candidate in separate processes"

    def active(self) -> list[str]:
        return [k for k, v in self.layers.items() if v == "on"]


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
    error: Failure | None = None
    mismatch: Mismatch | None = None
    rejections: list[Rejection] = field(default_factory=list)
    timing: Timing | None = None
    phases_s: dict[str, float] = field(default_factory=dict)  # {setup, compile, load, check, time, baselines, build, total}
    env: dict[str, Any] = field(default_factory=dict)  # {gpu, torch, cuda, driver}
    isolation: Isolation | None = None
    precision: Precision | None = None  # the float64 oracle check; None where it did not run
    # Things a reader must know to trust the verdict (e.g. that parameters were
    # copied from the reference, or that a baseline came from the cache).
    notes: list[str] = field(default_factory=list)
    # runs of this job before the one reported that failed for the verifier's own reasons (a judge
    # process lost, its out-of-memory, a full disk), each retried on a fresh judge:
    # [{attempt, phase, kind, message}]. With status infra_error, the last run failed that way too.
    attempts: list[dict[str, Any]] = field(default_factory=list)
    # The shape variants tried after the trials (verify/variants.py), in order: {mode, applied,
    # changed: {site: new value}, passed (when applied), refused: [{sites, reason}]}; a site is a
    # constant's name, a tuple element (``input_shape[0]``) or a literal (``get_inputs@L12:C30``).
    # Empty when none was tried (JobSpec.shape_variants off, or no size to vary: ``notes`` says).
    shape_variants: list[dict[str, Any]] = field(default_factory=list)
    # kernelmosaic (the project's checks) or kernelbench (KernelBench's evaluator: protocols.py)
    protocol: str = "kernelmosaic"

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")
        self.status = Status(self.status).value
        # the parts may arrive as plain dicts (from JSON, or from older code): type them
        if isinstance(self.error, dict):
            self.error = Failure(**_known(Failure, self.error))
        if isinstance(self.mismatch, dict):
            self.mismatch = Mismatch(**{"reason": "", **_known(Mismatch, self.mismatch)})
        self.rejections = [Rejection(**_known(Rejection, r)) if isinstance(r, dict) else r for r in self.rejections]
        if isinstance(self.timing, dict):
            self.timing = Timing(**{"candidate_ms": float("nan"), **_known(Timing, self.timing)})
        if isinstance(self.isolation, dict):
            self.isolation = Isolation(**_known(Isolation, self.isolation))
        if isinstance(self.precision, dict):
            self.precision = Precision(**{"status": "", **_known(Precision, self.precision)})
        self.correct = self.status == Status.CORRECT

    @property
    def rules(self) -> list[str]:
        return [r.rule for r in self.rejections]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["mismatch"] is not None:  # unset details stay out of the record, as before
            d["mismatch"] = {k: v for k, v in d["mismatch"].items() if v is not None or k == "reason"}
        if d["precision"] is None:
            # absent where the check did not run, so that a verdict without it reads (and hashes,
            # in the store's turn digests) exactly as verdicts written before the field existed
            del d["precision"]
        if d["protocol"] == "kernelmosaic":
            del d["protocol"]  # the same, for verdicts of the default protocol
        if d["timing"] is not None and d["timing"].get("statistic") == "median":
            del d["timing"]["statistic"]  # and for times that are medians, as they all were before
        return finite(d)

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False, default=_json_default)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Verdict":
        return cls(**_known(cls, d))


def _json_default(o: Any) -> Any:
    # numpy scalars and the like, which a worker may leave in metrics
    if hasattr(o, "item"):
        return o.item()
    return str(o)
