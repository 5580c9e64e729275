"""``kmosaic bench``: a model on KernelBench problems, recorded in a store; resumable.

Episodes run through :func:`kernelmosaic.scale.generate` (the runner), so a rerun of the same
command skips every finished (task, sample) and continues an interrupted one after its last
committed turn. ``single`` mode is one implement turn per sample (KernelBench's own protocol);
``agent`` mode is the Episode loop with R repair and O optimize turns and execution feedback.

Baselines (see :mod:`.baselines`) are settled before the first episode: ``measure`` times every
problem's eager and torch.compile model on this machine and caches them, so every verdict of
the run divides by the same numbers; ``kernelbench`` divides candidate times by KernelBench's
stored ones; ``none`` records candidate times only (no speedups, so fast_p is 0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable

from ..agent import LLM, EpisodeConfig
from ..scale import generate
from ..data import Store
from ..task import Task, TaskError, load_kernelbench
from ..verify import TimingConfig, Verifier, VerifyRequest
from ..vocab import PROTOCOLS, Protocol
from .baselines import SOURCES, STORED_HARDWARE, measure_baselines, stored_baselines

MODES = ("single", "agent")
# what a resumed run must share with its first call (problems, executor and device may change)
RESUME_MUST_MATCH = ("mode", "samples", "turns", "backend", "policy", "baselines", "stored_hardware", "timing", "protocol")


def parse_problems(spec: str | None) -> set | None:
    """``"1-20,25,L2/76"`` -> {1..20, 25, (2, 76)}: a bare id or range applies to every level, an
    ``L<level>/<id>`` entry to that level only. None or "" -> None (all)."""
    if not spec or not spec.strip():
        return None
    ids: set = set()
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(?:[Ll](\d+)/)?(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ValueError(f"--problems expects ids and ranges like 1-20,25,L2/76, not {spec!r}")
        lo, hi = int(m.group(2)), int(m.group(3) or m.group(2))
        if hi < lo:
            raise ValueError(f"--problems range {part!r} runs backwards")
        level = int(m.group(1)) if m.group(1) else None
        ids.update(range(lo, hi + 1) if level is None else ((level, i) for i in range(lo, hi + 1)))
    return ids


def parse_levels(spec: str) -> list[int]:
    try:
        levels = [int(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--levels must be comma-separated integers, not {spec!r}") from None
    if not levels:
        raise ValueError("--levels names no level")
    return levels


def parse_turns(spec: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", spec or "")
    if not m:
        raise ValueError(f"--turns expects R,O (repair and optimize turns), e.g. 4,2, not {spec!r}")
    return int(m.group(1)), int(m.group(2))


def select_tasks(kernelbench_dir: str | None, levels: list[int], problems: set[int] | None) -> list[Task]:
    """KernelBench problems of ``levels`` (ids in ``problems`` when given), without the ones
    that need model weights."""
    tasks = [t for t in load_kernelbench(kernelbench_dir, levels) if not t.needs_weights]
    if problems is not None:
        tasks = [t for t in tasks if t.problem_id in problems or (t.level, t.problem_id) in problems]
    if not tasks:
        raise TaskError(str(kernelbench_dir or "KernelBench"), "no problems match the given --levels/--problems")
    return tasks


def default_run_id(mode: str, model: str) -> str:
    """Stable across reruns of the same command, so they resume."""
    return "bench-" + mode + "-" + re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("_")


def given_from_stored(stored: dict[str, dict]) -> dict[str, dict]:
    """KernelBench's stored timings as the episodes' given baselines (``EpisodeConfig.baselines``):
    candidates are timed where they run, and eager and torch.compile are not run at all, so no
    local baseline can leak into the verdict. A problem not in ``stored`` gets no speedups."""
    return {k: {"eager_ms": b.get("eager_ms"), "compile_ms": b.get("compile_ms"),
                "note": f"eager/torch.compile times are KernelBench's stored ones ({b.get('hardware')}, "
                        f"{b.get('source')}), not measured here"}
            for k, b in stored.items()}


@dataclass
class BenchConfig:
    mode: str = "agent"  # single | agent
    samples: int = 1
    max_repair: int = 4
    max_optimize: int = 2
    backend: str = "cuda"
    policy: str = "strict"
    baselines: str = "measure"  # measure | kernelbench | none
    stored_hardware: str = STORED_HARDWARE
    warm_lanes: int = 0  # parallel torch.compile warm-up processes before timing baselines
    concurrency: int = 4
    timing: TimingConfig = field(default_factory=TimingConfig)
    max_tokens: int | None = None
    max_wall_s: float | None = None
    # False: only the task's own shape is checked, as KernelBench's protocol does (for comparisons)
    shape_variants: bool = True
    # kernelbench: every turn with code is also judged by KernelBench's evaluator's semantics
    # (verify/protocols.py) after the episodes, and recorded beside its verdict, so that one run
    # gives the comparable score and the project's; the episodes run on the project's verdicts
    protocol: str = "kernelmosaic"

    def episode_config(self) -> EpisodeConfig:
        repair, optimize = (0, 0) if self.mode == "single" else (self.max_repair, self.max_optimize)
        timing = self.timing
        if self.baselines == "none":
            timing = replace(timing, eager=False, compile=False, use_cache=False)
        return EpisodeConfig(backend=self.backend, policy=self.policy, max_repair=repair, max_optimize=optimize,
                             max_tokens=self.max_tokens, max_wall_s=self.max_wall_s, timing=timing,
                             shape_variants=self.shape_variants)


@dataclass
class BenchResult:
    run_id: str
    tasks: int
    baselines_measured: int
    baselines_cached: int
    baseline_errors: dict[str, str]
    episodes_pending: int
    # measured but too noisy to cache (spread over the limit): each verdict times these again
    baselines_noisy: int = 0
    # turns judged again under BenchConfig.protocol by this call
    protocol_verdicts: int = 0


def run_bench(tasks: list[Task], llm: LLM, verifier: Verifier | None, store: Store, cfg: BenchConfig, *,
              kernelbench_dir: str | None = None, run_id: str | None = None, task_set: str = "",
              on_baseline: Callable[[Task, dict | None, str | None], None] | None = None,
              on_warm: Callable[[Task, str | None], None] | None = None,
              on_start: Callable[[int, int], None] | None = None,
              on_turn=None, on_episode=None, on_protocol=None, runner_kwargs: dict | None = None) -> BenchResult:
    """Baselines first, then every pending (task, sample) episode through the runner.

    ``on_start(baselines_to_measure, episodes_pending)`` is called once both are known.
    ``runner_kwargs`` go to :func:`kernelmosaic.scale.generate` as they are (e.g. an executor).
    With a Ray executor (``runner_kwargs["executor"]``) and no ``verifier``, this process may
    have no GPU: baselines are then measured by the actors on their own GPUs, at each
    problem's first timed verdict, and cached there like any other.
    """
    executor = (runner_kwargs or {}).get("executor")
    if verifier is None and executor is None:
        raise TypeError("run_bench() needs a verifier or an executor")
    if cfg.mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {cfg.mode!r}")
    if cfg.baselines not in SOURCES:
        raise ValueError(f"baselines must be one of {SOURCES}, not {cfg.baselines!r}")
    if cfg.protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS}, not {cfg.protocol!r}")
    ep_cfg = cfg.episode_config()
    run_id = run_id or default_run_id(cfg.mode, llm.name)
    settings = {"bench": {"mode": cfg.mode, "samples": cfg.samples, "turns": [ep_cfg.max_repair, ep_cfg.max_optimize],
                          "backend": cfg.backend, "policy": cfg.policy, "baselines": cfg.baselines,
                          "stored_hardware": cfg.stored_hardware if cfg.baselines == "kernelbench" else None,
                          "timing": {"n": cfg.timing.n, "warmup": cfg.timing.warmup, "compile": cfg.timing.compile},
                          "problems": [t.key for t in tasks], "protocol": cfg.protocol,
                          "verifier_device": (verifier or executor).device,
                          "executor": executor.name if executor is not None else "local"}}
    # before anything is recorded: a bad --stored-hardware must not leave a run behind
    stored = stored_baselines(kernelbench_dir, cfg.stored_hardware) if cfg.baselines == "kernelbench" else None
    before = store.get_run(run_id)
    if before is not None:
        # a resumed run keeps its recorded settings: different ones would be reported as the old
        old, new = before.settings.get("bench", {}), settings["bench"]
        diff = [k for k in RESUME_MUST_MATCH if k in old and old[k] != new[k]]
        if diff:
            raise ValueError(f"run {run_id!r} was started with other settings ("
                             + ", ".join(f"{k}: {old[k]!r}, now {new[k]!r}" for k in diff)
                             + "); rerun with the same options, or pass --run-id for a new run")
    # created here with the bench's settings; the runner then resumes this run unchanged
    store.start_run(model=llm.name, settings=settings, task_set=task_set, run_id=run_id)
    pending = store.pending(run_id, [t.key for t in tasks], cfg.samples)
    pending_keys = {k for k, _ in pending}
    measured = cached = noisy = 0
    errors: dict[str, str] = {}
    if stored is not None:
        # they travel with the episode config, so Ray actors apply them as the local lanes do
        ep_cfg = replace(ep_cfg, baselines=given_from_stored(stored))
    elif cfg.baselines == "measure" and cfg.timing.enabled and verifier is not None:
        # only problems that still have episodes to run need a baseline now
        need = [t for t in tasks if t.key in pending_keys]
        n_cold = sum(verifier.cached_baseline(t, cfg.timing) is None for t in need)
        if on_start is not None:
            on_start(n_cold, len(pending))

        def got(t, b, err):
            nonlocal measured, cached, noisy
            if err is not None:
                errors[t.key] = err
            elif b.get("cached"):
                cached += 1
            else:
                measured += 1
                noisy += int(b.get("steady") is False)
            if on_baseline is not None:
                on_baseline(t, b, err)

        measure_baselines(need, verifier, cfg.timing, warm_lanes=cfg.warm_lanes, on_result=got, on_warm=on_warm)
    if cfg.baselines != "measure" or not cfg.timing.enabled or verifier is None:
        if on_start is not None:
            on_start(0, len(pending))
    if pending:
        generate(tasks, llm, verifier, store, ep_cfg, run_id=run_id, samples=cfg.samples, concurrency=cfg.concurrency,
                 task_set=task_set, on_turn=on_turn, on_episode=on_episode, **(runner_kwargs or {}))
    judged = 0
    stop = (runner_kwargs or {}).get("stop")
    if cfg.protocol != Protocol.KERNELMOSAIC and not (stop is not None and stop.is_set()):
        # where the episodes were judged: this machine's verifier, or the executor's (Ray actors)
        judged = judge_again(tasks, verifier or executor, store, run_id, cfg, ep_cfg, on_verdict=on_protocol, stop=stop)
    return BenchResult(run_id=run_id, tasks=len(tasks), baselines_measured=measured, baselines_cached=cached,
                       baseline_errors=errors, episodes_pending=len(pending), baselines_noisy=noisy,
                       protocol_verdicts=judged)


def judge_again(tasks: list[Task], verifier, store: Store, run_id: str, cfg: BenchConfig, ep_cfg,
                *, on_verdict=None, stop=None, batch: int = 16) -> int:
    """Every turn of the run that has code and no verdict under ``cfg.protocol`` yet, judged under
    it and recorded beside the turn's own verdict (``Store.add_protocol_verdict``); returns how
    many. Resumable: a batch is recorded as it finishes, and a rerun judges only what is missing,
    an ``infra_error`` included.
    The same candidates, backend and baselines (measured, KernelBench's stored ones, or none) as
    the episodes; only the protocol differs. ``verifier``: a Verifier, or an executor
    (``scale.Executor``), whichever judged the episodes: both have ``verify_many``."""
    by_key = {t.key: t for t in tasks}
    done = store.protocol_verdicts(run_id, cfg.protocol, final=True)  # an infra_error's turn is judged again
    todo = []
    for ep in store.episodes(run_id):
        if ep.status == "running" or ep.task_key not in by_key:
            continue  # an interrupted episode is judged once it has finished
        for t in store.turns(ep.episode_id):
            if t.code and (ep.episode_id, t.idx) not in done:
                todo.append((ep.episode_id, t.idx, t.code, by_key[ep.task_key]))
    n = 0
    for lo in range(0, len(todo), batch):
        if stop is not None and stop.is_set():
            break
        part = todo[lo:lo + batch]
        reqs = [VerifyRequest(candidate=code, task=task, backend=cfg.backend, protocol=cfg.protocol, timing=ep_cfg.timing,
                              baselines=ep_cfg.given_baselines(task.key))
                for _, _, code, task in part]
        for (episode_id, idx, _, task), v in zip(part, verifier.verify_many(reqs)):
            if isinstance(v, TaskError):
                continue  # the task is broken: its episodes' own verdicts say so already
            store.add_protocol_verdict(episode_id, idx, v)
            n += 1
            if on_verdict is not None:
                on_verdict(task, v, n, len(todo))
    return n
