"""KernelBench metrics over a run recorded in a :class:`~kernelmosaic.data.Store`.

Definitions (all documented choices are repeated in :func:`compute_metrics`):

* ``pass_at_k(n, c, k)``: the unbiased estimator of Chen et al. (2021),
  ``1 - C(n-c, k) / C(n, k)``, computed as a product (no big binomials).
* ``fast_p(results, p, baseline)``: KernelBench's fast_p, the fraction of ALL problems whose
  kernel is correct AND faster than the baseline by a factor greater than ``p``
  (``speedup > p``). ``fast_0`` is therefore "correct and timed".

Rates are stored as fractions in ``[0, 1]`` (``fast_p``, ``pass_at_k``) except the two fields
named ``*_pct``, which are percentages in ``[0, 100]``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .._json import number as _num
from ..data import Store
from ..data.best import best_turn
from ..verify.verdict import Failure, Verdict
from ..vocab import NOT_A_VERDICT, Status

FAST_PS = (0.0, 0.5, 1.0, 1.5, 2.0)
PASS_KS = (1, 5, 10)
BASELINES = ("eager", "compile")
OTHER_LEVEL = 0  # tasks without a level
_KEY_LEVEL = re.compile(r"^L(\d+)/")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k estimate from ``n`` samples of which ``c`` are correct.

    ``1 - C(n-c, k)/C(n, k) = 1 - prod_{i=n-c+1}^{n} (1 - k/i)``. Needs ``1 <= k <= n`` and
    ``0 <= c <= n``; raises ValueError otherwise.
    """
    n, c, k = int(n), int(c), int(k)
    if n < 1 or not 0 <= c <= n:
        raise ValueError(f"pass_at_k needs n >= 1 and 0 <= c <= n (n={n}, c={c})")
    if not 1 <= k <= n:
        raise ValueError(f"pass_at_k needs 1 <= k <= n (n={n}, k={k})")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def _get(r: Any, name: str) -> Any:
    if isinstance(r, Mapping):
        return r.get(name)
    return getattr(r, name, None)


def _speedup(r: Any, baseline: str) -> float | None:
    if baseline not in BASELINES:
        raise ValueError(f"baseline must be one of {BASELINES}, not {baseline!r}")
    s = _get(r, f"speedup_{baseline}")
    if s is None and isinstance(_get(r, "timing"), Mapping):
        s = _get(r, "timing").get(f"speedup_{baseline}")
    return _num(s)


def fast_p(results: Iterable[Any], p: float, baseline: str = "eager") -> float:
    """KernelBench fast_p: the fraction of ALL problems that are correct and have
    ``speedup_<baseline> > p``.

    ``results`` holds one entry per problem: a dict or object with ``correct`` and
    ``speedup_eager`` / ``speedup_compile`` (or a ``timing`` dict holding them). A correct
    problem with no finite speedup (not timed) never counts, not even for p=0.
    An empty ``results`` gives 0.0.
    """
    results = list(results)
    if not results:
        return 0.0
    hits = 0
    for r in results:
        if not _get(r, "correct"):
            continue
        s = _speedup(r, baseline)
        if s is not None and s > p:
            hits += 1
    return hits / len(results)


def geomean(values: Iterable[float | None]) -> float | None:
    """Geometric mean of the finite positive values; None when there are none."""
    logs = [math.log(v) for v in values if v is not None and math.isfinite(v) and v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


def level_order(level: int) -> tuple[bool, int]:
    """Sort key for levels: 1, 2, 3, ..., then 0 ("other")."""
    return (level == OTHER_LEVEL, level)


def level_label(level: int | None) -> str:
    return "all" if level is None else ("other" if level == OTHER_LEVEL else f"L{level}")


@dataclass
class TaskRow:
    """One problem of a run, described by its primary sample (the lowest sample id used)."""

    task: str
    level: int
    sample: int
    episode_id: str
    episode_status: str  # running | done | failed
    correct: bool  # the best turn is correct
    best_turn: int | None
    first_correct_turn: int | None  # turn index (0-based) of the first correct turn
    n_turns: int
    candidate_ms: float | None
    eager_ms: float | None
    compile_ms: float | None
    speedup_eager: float | None
    speedup_compile: float | None
    compiled: bool  # any turn of the episode compiled
    final_status: str | None  # the verdict status of the last turn
    best_status: str | None  # the verdict status of the best turn
    n_samples: int = 1  # samples of this task in the run (all used for pass@k)
    n_correct_samples: int = 0
    # turns the verifier failed on (infra_error): no verdict on their candidates, not failures
    infra_error_turns: int = 0
    # no correct turn, and the last turn is infra_error: the verifier never judged where the
    # episode ended, so the problem is neither correct nor incorrect (counted apart)
    no_verdict: bool = False


@dataclass
class LevelMetrics:
    level: int | None  # None for the whole run
    label: str
    n_problems: int
    n_episodes: int
    compiled_pct: float | None
    correct_pct: float | None
    fast_p_eager: dict[float, float] = field(default_factory=dict)
    fast_p_compile: dict[float, float] = field(default_factory=dict)
    geomean_speedup_eager: float | None = None
    geomean_speedup_compile: float | None = None
    n_correct_timed_eager: int = 0
    n_correct_timed_compile: int = 0
    pass_at_k: dict[int, float] = field(default_factory=dict)
    turns_to_first_correct: dict[int, int] = field(default_factory=dict)  # turns used -> problems
    never_correct: int = 0
    # problems without a verdict (TaskRow.no_verdict): left out of compiled %, correct % and
    # fast_p, whose denominators are the judged problems; and infra_error turns in all
    n_no_verdict: int = 0
    n_infra_error_turns: int = 0


@dataclass
class RunMetrics:
    run_id: str
    model: str
    store_path: str
    samples: list[int]
    levels: dict[int, LevelMetrics]
    overall: LevelMetrics
    tasks: list[TaskRow]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def level_rows(self) -> list[LevelMetrics]:
        """Each level in order, then the whole run."""
        return [self.levels[k] for k in sorted(self.levels, key=level_order)] + [self.overall]


def task_level(store: Store, task_key: str, _cache: dict[str, int] | None = None) -> int:
    """The task's level from the tasks table; for a task with no level recorded (or not
    registered) the ``L<n>/`` prefix of its key; else 0 ("other")."""
    if _cache is not None and task_key in _cache:
        return _cache[task_key]
    row = store.get_task(task_key)
    level = row.get("level") if row else None
    if level is None:
        m = _KEY_LEVEL.match(task_key)
        level = int(m.group(1)) if m else OTHER_LEVEL
    if _cache is not None:
        _cache[task_key] = int(level)
    return int(level)


def _open(store: Store | str | os.PathLike) -> tuple[Store, bool]:
    if isinstance(store, Store):
        return store, False
    if not os.path.isfile(store):
        raise FileNotFoundError(f"no store at {store}")
    return Store(store), True


def _shown_turn(ep, turns) -> int | None:
    """The turn whose verdict the row shows: the best turn (data.best.best_turn, the rule the
    episode and the export use); for an unfinished (running or failed) episode with no correct
    turn, its last turn stands in; a done episode without a correct turn shows none."""
    b = best_turn(turns)
    if b is None and ep.status != "done" and turns:
        return len(turns) - 1
    return b


def _task_row(ep, turns, level: int) -> TaskRow:
    best = _shown_turn(ep, turns)
    bv = turns[best].verdict if best is not None else None
    timing = bv.timing if bv is not None else None

    def ms(name: str) -> float | None:
        return _num(getattr(timing, name, None))

    first = next((t.idx for t in turns if t.status == "correct"), None)
    return TaskRow(
        task=ep.task_key, level=level, sample=ep.sample, episode_id=ep.episode_id,
        episode_status=ep.status, correct=bv is not None and bv.correct, best_turn=best,
        first_correct_turn=first, n_turns=len(turns),
        candidate_ms=ms("candidate_ms"), eager_ms=ms("eager_ms"), compile_ms=ms("compile_ms"),
        speedup_eager=ms("speedup_eager"), speedup_compile=ms("speedup_compile"),
        compiled=any(t.verdict.compiled for t in turns),
        final_status=turns[-1].status if turns else None, best_status=bv.status if bv is not None else None,
        infra_error_turns=sum(t.status in NOT_A_VERDICT for t in turns),
        no_verdict=(bv is None or not bv.correct) and bool(turns) and turns[-1].status in NOT_A_VERDICT)


def _aggregate(level: int | None, all_rows: list[TaskRow], per_task_samples: list[tuple[int, int]]) -> LevelMetrics:
    # a problem the verifier never judged (infra_error) is not incorrect: the per-problem rates
    # are over the judged problems, and the others are counted apart
    rows = [r for r in all_rows if not r.no_verdict]
    n = len(rows)
    pct = (lambda k: 100.0 * k / n) if n else (lambda k: None)
    correct_rows = [r for r in rows if r.correct]
    hist: dict[int, int] = {}
    for r in rows:
        if r.first_correct_turn is not None:
            hist[r.first_correct_turn + 1] = hist.get(r.first_correct_turn + 1, 0) + 1
    pak: dict[int, float] = {}
    if per_task_samples:
        min_n = min(ns for ns, _ in per_task_samples)
        for k in PASS_KS:
            if min_n >= k:
                pak[k] = sum(pass_at_k(ns, c, k) for ns, c in per_task_samples) / len(per_task_samples)
    return LevelMetrics(
        level=level, label=level_label(level), n_problems=len(all_rows), n_episodes=sum(ns for ns, _ in per_task_samples),
        compiled_pct=pct(sum(r.compiled for r in rows)), correct_pct=pct(len(correct_rows)),
        fast_p_eager={p: fast_p(rows, p, "eager") for p in FAST_PS},
        fast_p_compile={p: fast_p(rows, p, "compile") for p in FAST_PS},
        geomean_speedup_eager=geomean(r.speedup_eager for r in correct_rows),
        geomean_speedup_compile=geomean(r.speedup_compile for r in correct_rows),
        n_correct_timed_eager=sum(r.speedup_eager is not None for r in correct_rows),
        n_correct_timed_compile=sum(r.speedup_compile is not None for r in correct_rows),
        pass_at_k=pak, turns_to_first_correct=dict(sorted(hist.items())),
        never_correct=sum(r.first_correct_turn is None for r in rows),
        n_no_verdict=len(all_rows) - n, n_infra_error_turns=sum(r.infra_error_turns for r in all_rows))


def under_protocol(turns: list, verdicts: Mapping, protocol: str) -> list:
    """The turns as another protocol judged them (``Store.protocol_verdicts``): each turn's
    verdict replaced by its verdict under ``protocol``. A turn without code keeps its own (no code
    is the same verdict under any protocol); a turn with code that has none yet is no verdict
    (``infra_error``), so an unfinished pass is counted apart, never as incorrect."""
    out = []
    for t in turns:
        v = verdicts.get((t.episode_id, t.idx))
        if v is None and t.code:
            v = Verdict(status=Status.INFRA_ERROR.value, backend=t.verdict.backend, policy=t.verdict.policy,
                        task=t.verdict.task, device=t.verdict.device, protocol=protocol,
                        error=Failure("infra", f"not judged under the {protocol} protocol yet"))
        out.append(t if v is None else replace(t, verdict=v))
    return out


def compute_metrics(store: Store | str | os.PathLike, run_id: str, *,
                    samples: int | Iterable[int] | None = None, protocol: str | None = None) -> RunMetrics:
    """KernelBench metrics of one run, per level and overall.

    * ``samples``: which sample ids to use: None (all recorded), a count ``n`` (ids ``0..n-1``)
      or an iterable of ids.
    * Problems are the tasks with at least one episode (among those samples) in the run: the
      store does not record a run's intended task list, so an unattempted task is not counted.
    * Level: the task's recorded level, else the ``L<n>/`` prefix of its key, else 0 ("other").
    * Per-problem numbers (compiled %, correct %, fast_p, geomean speedups, turns to the first
      correct turn, the per-task table) use the problem's **primary sample**, its lowest used
      sample id (normally sample 0); they are not averaged over samples. pass@k uses **all**
      used samples of each task: ``c`` = samples whose best turn is correct.
    * compiled: any turn of the episode compiled. correct: the episode has a best turn
      (:func:`kernelmosaic.data.best.best_turn`, the episode's and the export's rule, computed
      from the turns). An unfinished (running or failed) episode with no correct turn shows its
      last turn; a done one is incorrect and untimed. Timing and speedups are the best turn's.
    * geomean speedups: over correct problems with a finite positive speedup.
    * pass@k is reported for k in (1, 5, 10) only when every task of the group has >= k samples.
    * turns_to_first_correct: {turns used (first correct turn index + 1): problems};
      ``never_correct`` counts problems with no correct turn at all.
    * ``protocol`` (e.g. ``kernelbench``): every number as that protocol judged the same turns
      (:func:`under_protocol`), by the same rules; None: the verdicts the episodes ran on.
    """
    st, owned = _open(store)
    try:
        run = st.get_run(run_id)
        if run is None:
            raise KeyError(f"{st.path}: no run {run_id!r}")
        wanted: set[int] | None
        if samples is None:
            wanted = None
        elif isinstance(samples, int):
            wanted = set(range(samples))
        else:
            wanted = {int(s) for s in samples}
        episodes = [e for e in st.episodes(run_id) if wanted is None or e.sample in wanted]
        by_task: dict[str, list] = {}
        for e in episodes:
            by_task.setdefault(e.task_key, []).append(e)
        cache: dict[str, int] = {}
        judged = st.protocol_verdicts(run_id, protocol) if protocol else None
        rows: list[TaskRow] = []
        counts: dict[str, tuple[int, int]] = {}
        for key in sorted(by_task, key=lambda k: (level_order(task_level(st, k, cache)), _natural(k))):
            eps = sorted(by_task[key], key=lambda e: e.sample)
            level = task_level(st, key, cache)
            sample_rows = [_task_row(e, st.turns(e.episode_id) if judged is None else
                                     under_protocol(st.turns(e.episode_id), judged, protocol), level) for e in eps]
            primary = sample_rows[0]
            primary.n_samples = len(sample_rows)
            primary.n_correct_samples = sum(r.correct for r in sample_rows)
            rows.append(primary)
            counts[key] = (primary.n_samples, primary.n_correct_samples)
        levels = {}
        for lv in sorted({r.level for r in rows}, key=level_order):
            lrows = [r for r in rows if r.level == lv]
            levels[lv] = _aggregate(lv, lrows, [counts[r.task] for r in lrows])
        overall = _aggregate(None, rows, [counts[r.task] for r in rows])
        used = sorted({e.sample for e in episodes})
        return RunMetrics(run_id=run_id, model=run.model, store_path=str(st.path), samples=used,
                          levels=levels, overall=overall, tasks=rows)
    finally:
        if owned:
            st.close()


def _natural(key: str) -> list:
    """Sort key: "L1/2_x" before "L1/10_y"."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", key)]
