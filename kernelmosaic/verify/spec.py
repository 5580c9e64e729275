"""The job spec: the one wire format between the orchestrator and a judge process."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any


# A baseline is timed again (up to BASELINE_ATTEMPTS runs in all) while the interquartile range of
# its raw round trips exceeds this share of their median, and one that stays wider is never
# cached: on a loaded 2-core machine relu's eager time was cached at 37.6 ms for a real 0.087 ms,
# and every later speedup of that task was off by that factor.
BASELINE_MAX_SPREAD = 0.25
BASELINE_ATTEMPTS = 3
# what a baseline's measurement says about its own conditions (verdict.BaselineSource), carried
# from the judge into the verdict and the cache
# the default tolerances by output dtype: KernelBench's current defaults, plus the relative-norm
# bound of PROTOCOL.md (compare.default_tolerances applies them; the prompts state them)
TOLERANCES_FP32 = {"atol": 1e-4, "rtol": 1e-4, "rel_norm": 1e-3}
TOLERANCES_HALF = {"atol": 1e-2, "rtol": 1e-2, "rel_norm": 2e-2}  # float16 and bfloat16
# the precision check's bound (precision.py): this multiple of the task-dtype reference's own
# error against a float64 oracle
PRECISION_MULTIPLE = 16.0
BASELINE_PROVENANCE = ("eager_spread", "compile_spread", "attempts", "load_per_core", "foreign_cores")


@dataclass
class TimingConfig:
    """How a verdict times: part of the public API (``kernelmosaic.verify.TimingConfig``) and of
    the job spec. ``use_cache`` is the orchestrator's business; the judge ignores it."""

    enabled: bool = True
    n: int = 30
    warmup: int = 3
    eager: bool = True
    compile: bool = True  # time torch.compile(Model) too
    use_cache: bool = True  # reuse cached eager/compile baselines for the same task and machine
    refresh: bool = False  # time the baselines again and replace the cached ones (with use_cache)
    # benchmarks only: break each timed call down (the judge's round trip and copy, and the
    # candidate process's own, untrusted, event time) into ``Timing.diagnostics``
    diagnostics: bool = False
    # GPU: also take off the extra a long call pays over an empty one (judge.Judge.calibrate_waits),
    # measured before any candidate code is loaded with empty calls that wait on the GPU
    long_call_calibration: bool = True
    # the time a verdict reports: the median of the timed calls, or their mean (KernelBench's;
    # protocols.py)
    statistic: str = "median"
    # GPU, an experiment on timing fidelity (benchmarks/boundary_timing.py --spin): in calibration
    # and timing loops the judge and the candidate (or reference) process wait for each other's
    # messages by polling, a core each, not asleep: a wake-up's cost grows with the sleep before
    # it, so a long call would otherwise pay more of it than the empty calls it is calibrated by
    spin_wait: bool = False


@dataclass
class JobSpec:
    """What a judge does. ``kind``: ``verify`` (judge a candidate), ``build`` (run the candidate's
    import on the CPU so that its extensions are built into the cache, before a GPU lane loads it),
    ``baseline`` (time the reference alone), ``ceilings`` (measure the GPU's speed of light) or
    ``filter`` (curation's checks on the reference alone, ``reference.py``: ``seeds`` are its two
    input seeds, ``timing`` its eager timing)."""

    kind: str = "verify"
    device: str = "cpu"
    backend: str = "cpp"
    policy: str = "strict"
    reference: str = ""
    candidate: str = ""
    seeds: list[int] = field(default_factory=list)
    timing_seeds: list[int] = field(default_factory=list)
    tolerances: dict[str, float | None] = field(default_factory=dict)
    kernel_names: list[str] = field(default_factory=list)
    build_dir: str = ""
    timing: TimingConfig = field(default_factory=TimingConfig)
    ceilings: dict[str, float] | None = None
    # eager/compile times given or cached by the orchestrator: {eager_ms, eager_cv, compile_ms, compile_cv}
    baselines: dict[str, Any] | None = None
    shape_variants: bool = True
    # the float64 oracle's precision check (precision.py): None = on under strict, off under kernelbench
    precision: bool | None = None
    # kernelmosaic | kernelbench (protocols.py): which checks make the verdict
    protocol: str = "kernelmosaic"
    # the share of its GPU this job may use (the judge's own work and its candidate's budget):
    # None = its lane's (KMOSAIC_GPU_SHARE); the pool sets it for a job that runs alone on a GPU
    # that several lanes share (pool.GpuGate)
    gpu_share: float | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "JobSpec":
        d = json.loads(text)
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in d.items() if k in known}
        if isinstance(d.get("timing"), dict):
            tk = {f.name for f in fields(TimingConfig)}
            d["timing"] = TimingConfig(**{k: v for k, v in d["timing"].items() if k in tk})
        return cls(**d)
