"""Export a trajectory store as a Hugging Face dataset (Parquet + dataset card).

    from kernelmosaic.data import export
    res = export("runs/store.db", "iterative", "out/ds", kernelbench_dir="shared/kernelbench")

Views, all built from the same records:

* ``iterative`` - one row per episode: the best turn's recorded context (``turn.messages``:
  system, task prompt, any summary, the last k turns with their feedback, the prompt) plus
  that turn's reply, so training sees exactly what the model saw and said at inference.
* ``direct`` - one row per episode: system, task prompt, the final code in a python block.
* ``steps`` - one row per useful consecutive turn pair (i, i+1): ``repair`` (turn i not
  correct, turn i+1 correct, or compile_error -> a later failure) and ``optimize`` (turn i+1
  is an optimize turn, correct and measurably faster than the best kernel before it).

Rows are split into train/validation by a seeded hash of the task key, so a task never
appears in both splits. With ``kernelbench_dir`` every task that computes what a KernelBench
problem computes is dropped, by the rule task curation uses (:mod:`kernelmosaic.task.decontam`).

pyarrow is imported lazily, so ``kernelmosaic.data`` does not need it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..vocab import NOT_A_VERDICT
from .schema import STAGES, TurnRecord
from .._card import md_table, size_category
from .._json import number as _num
from ..task.decontam import THRESHOLD as SIMILARITY_THRESHOLD
from ..task.decontam import Contamination, contaminated, index_sources
from .best import best_turn, better, is_correct
from .store import Store, StoreError, require_store

VIEWS = ("iterative", "direct", "steps")
# how much of an episode an iterative row holds: the context the model saw at its best turn
# (the last k turns verbatim, older ones summarized; k = EpisodeConfig.context_turns), or every
# turn up to the best one verbatim (training then keeps what fits its max_length, or the last k)
HISTORIES = ("recorded", "full")
SPLITS = ("train", "validation")
PROJECT_LICENSE = "Apache-2.0"  # pyproject.toml [project] license
KERNELBENCH_LICENSE = "MIT"

_EPISODE_COLUMNS = [
    ("messages", "list of {role, content}", "the chat to train on; the last message is the assistant's"),
    ("task", "string", "task key (the split is by task)"),
    ("episode_id", "string", "episode id in the source store"),
    ("run_id", "string", "run id in the source store"),
    ("model", "string", "the model that generated the trajectory (runs.model)"),
    ("n_turns", "int64", "turns up to and including the best turn"),
    ("episode_turns", "int64", "all turns the episode recorded"),
    ("best_turn", "int64", "index of the best turn (the last turn when unverified episodes are kept)"),
    ("status", "string", "verdict status of the best turn"),
    ("speedup_eager", "float64 (nullable)", "best turn's speedup over PyTorch eager"),
    ("speedup_compile", "float64 (nullable)", "best turn's speedup over torch.compile"),
    ("backend", "string (nullable)", "verifier backend (cuda, triton, ...)"),
    ("final_code", "string (nullable)", "the best turn's extracted code"),
    ("baseline", "struct (nullable)", "where the best turn's eager/compile times came from: {source (measured, cache, "
     "given), timed_at, device_name, torch, eager_spread, steady}"),
    ("assistant_progress", "list of bool", "one per assistant message of `messages`, in order: did that reply make "
     "progress (see the card); training can put loss on those replies only"),
]
_STEP_COLUMNS = [
    ("messages", "list of {role, content}", "turn i+1's recorded context plus its reply"),
    ("kind", "string", "repair | optimize"),
    ("task", "string", "task key (the split is by task)"),
    ("episode_id", "string", "episode id in the source store"),
    ("run_id", "string", "run id in the source store"),
    ("model", "string", "the model that generated the trajectory (runs.model)"),
    ("turn", "int64", "index of the after-turn (i+1)"),
    ("stage", "string", "stage of the after-turn"),
    ("before_status", "string", "verdict status of turn i"),
    ("after_status", "string", "verdict status of turn i+1"),
    ("speedup_eager", "float64 (nullable)", "after-turn's speedup over PyTorch eager"),
    ("baseline", "struct (nullable)", "where the after-turn's eager time came from (as in the episode views)"),
    ("assistant_progress", "list of bool", "one per assistant message of `messages`, in order: did that reply make "
     "progress"),
]


@dataclass
class ExportResult:
    view: str
    paths: dict[str, Path]  # train, validation, card; an empty split has no file and no entry
    counts: dict[str, int]  # rows per split
    split_tasks: dict[str, list[str]]  # task keys per split (disjoint)
    dropped: list[dict[str, Any]]  # decontaminated tasks: task, kernelbench_file, score, match
    n_episodes_seen: int
    n_filtered: dict[str, int]  # reason -> count (see export())
    unchecked_tasks: list[str] = field(default_factory=list)  # no source in the store: not decontaminated
    kinds: dict[str, int] = field(default_factory=dict)  # steps view: rows per kind

    @property
    def n_rows(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["paths"] = {k: str(v) for k, v in self.paths.items()}
        return d


# -- reading the store ---------------------------------------------------------------------------
@dataclass
class _Ep:
    episode_id: str
    run_id: str
    task: str
    sample: int
    status: str
    best_turn: int | None
    turns: list[TurnRecord]
    model: str
    # an agent's episode on a KernelBench problem (started from L<level>/<id>): a benchmark
    # measurement, never training data, whatever the decontamination settings
    bench_only: bool = False


def _read_store(path: Path, run_ids: list[str] | None) -> tuple[dict[str, dict], list[_Ep], dict[str, str | None]]:
    with Store(require_store(path)) as store:
        with store._read() as conn:  # one consistent snapshot of runs, episodes, turns and tasks
            runs = {r["run_id"]: dict(r) for r in conn.execute("SELECT run_id, model, task_set FROM runs")}
            if run_ids is not None:
                unknown = [r for r in run_ids if r not in runs]
                if unknown:
                    raise ValueError(f"{path}: unknown run id(s) {unknown}; the store has {sorted(runs)}")
                runs = {r: runs[r] for r in run_ids}
            rows = conn.execute("SELECT episode_id, run_id, task_key, sample, status, best_turn, meta FROM episodes "
                                "ORDER BY task_key, run_id, sample").fetchall()
            eps = [_Ep(r["episode_id"], r["run_id"], r["task_key"], r["sample"], r["status"], r["best_turn"],
                       Store._turns(conn, r["episode_id"]), runs[r["run_id"]]["model"], _bench_only(r["meta"]))
                   for r in rows if r["run_id"] in runs]
            sources = {r["task_key"]: r["source"] for r in conn.execute("SELECT task_key, source FROM tasks")}
    return runs, eps, {e.task: sources.get(e.task) for e in eps}


def _bench_only(meta: str | None) -> bool:
    try:
        task = ((json.loads(meta or "{}") or {}).get("external") or {}).get("task") or {}
    except ValueError:
        return False
    return task.get("origin") == "kernelbench"


# -- verdict helpers -----------------------------------------------------------------------------------
def _timing(t: TurnRecord, name: str) -> float | None:
    """One of the turn's timing numbers (None: untimed or not a finite number)."""
    return _num(getattr(t.verdict.timing, name, None))


_BASELINE_FIELDS = ("source", "timed_at", "device_name", "torch", "eager_spread", "steady")


def _baseline(t: TurnRecord) -> dict[str, Any] | None:
    """The provenance of a turn's baselines (verdict.BaselineSource), so that a speedup can be weighed."""
    b = getattr(t.verdict.timing, "baseline", None)
    if b is None:
        return None
    row = {k: getattr(b, k, None) for k in _BASELINE_FIELDS}
    row["eager_spread"] = _num(row["eager_spread"])
    return row


def _correct(t: TurnRecord) -> bool:
    return is_correct(t)


def _msgs(messages: Iterable[dict]) -> list[dict[str, str]]:
    return [{"role": str(m.get("role", "")), "content": "" if m.get("content") is None else str(m["content"])}
            for m in messages]


# -- which replies made progress, and the whole episode as one chat ------------------------------------
def _pair_kinds(turns: list[TurnRecord]) -> list[str | None]:
    """kinds[i] for i >= 1: the steps view's kind of the pair (i-1, i) - "repair" (turn i-1 not
    correct, turn i correct, or compile_error -> a later failure), "optimize" (turn i an optimize
    turn, correct and measurably faster than the best kernel before it) - or None; kinds[0] is None."""
    kinds: list[str | None] = [None] * len(turns)
    best = None  # index of the best correct turn among turns[:i]
    for i in range(1, len(turns)):
        a, b = turns[i - 1], turns[i]
        if _correct(a) and better(a, None if best is None else turns[best]):
            best = i - 1
        # an optimize step is kept only when it is the new best: measurably faster than the best before it
        if b.stage == "optimize" and _correct(b) and best is not None and better(b, turns[best]):
            kinds[i] = "optimize"
        elif not _correct(a) and (_correct(b) or (a.status == "compile_error" and b.status in
                                                  ("runtime_error", "incorrect", "timeout"))):
            kinds[i] = "repair"
    return kinds


def turn_progress(turns: list[TurnRecord]) -> list[bool]:
    """Did each turn make progress? The first turn when it is correct; a later one when it ends a
    repair or optimize pair of the steps view. The best turn of an episode always did."""
    kinds = _pair_kinds(turns)
    return [_correct(t) if i == 0 else kinds[i] is not None for i, t in enumerate(turns)]


def _assistant(t: TurnRecord, reasoning: bool, content: str | None = None) -> dict[str, Any]:
    m: dict[str, Any] = {"role": "assistant", "content": t.reply if content is None else content}
    if reasoning:
        m["reasoning_content"] = t.reasoning
    return m


def _with_reasoning(messages: list[dict], reasoning: bool) -> list[dict]:
    return [{**m, "reasoning_content": None} for m in messages] if reasoning else messages


def _recorded_progress(context: list[dict], turns: list[TurnRecord], progress: list[bool]) -> list[bool]:
    """Progress flags for the assistant messages of a recorded context that precedes turns[len(turns)]:
    the last of them are the most recent turns' replies (oldest first); any before those (the
    reply to a summary of older turns) is no turn's reply and made no progress."""
    n = sum(m.get("role") == "assistant" for m in context)
    m = min(n, len(turns))
    return [False] * (n - m) + progress[len(turns) - m:len(turns)]


def _chat(ep: _Ep, b: int, history: str, reasoning: bool, progress: list[bool]) -> tuple[list[dict], list[bool]]:
    """The messages of an iterative row ending with turn b's reply, and one progress flag per assistant message."""
    best = ep.turns[b]
    if history == "recorded":
        context = _with_reasoning(_msgs(best.messages), reasoning)
        return context + [_assistant(best, reasoning)], _recorded_progress(best.messages, ep.turns[:b], progress) + [progress[b]]
    # every turn verbatim: the system and task prompts, then each reply followed by the prompt
    # the next turn was given (its feedback and guidance), up to turn b's reply
    messages = _with_reasoning(_msgs(ep.turns[0].messages[:2]), reasoning)
    for j in range(b + 1):
        messages.append(_assistant(ep.turns[j], reasoning))
        if j < b:
            messages += _with_reasoning(_msgs(ep.turns[j + 1].messages[-1:]), reasoning)
    return messages, progress[:b + 1]


def _code_block(code: str) -> str:
    return f"```python\n{code.rstrip()}\n```"


# -- decontamination -----------------------------------------------------------------------------------
def _kernelbench_files(kb_dir: Path) -> list[tuple[str, str]]:
    """Every KernelBench problem file under ``kb_dir``: (path relative to it, source)."""
    if not kb_dir.is_dir():
        raise ValueError(f"kernelbench_dir {kb_dir} is not a directory")
    files = sorted(p for p in kb_dir.rglob("*.py") if not any(part.startswith((".", "_")) for part in p.relative_to(kb_dir).parts))
    if not files:
        raise ValueError(f"kernelbench_dir {kb_dir} holds no .py problem files (expected level1/, level2/, ...)")
    return [(p.relative_to(kb_dir).as_posix(), p.read_text(errors="replace")) for p in files]


def find_contamination(sources: dict[str, str], kb_dir) -> list[Contamination]:
    """Tasks whose source computes what a KernelBench problem computes, by the curation rule
    (:mod:`kernelmosaic.task.decontam`, score >= its THRESHOLD)."""
    return contaminated(sources, index_sources(_kernelbench_files(Path(kb_dir))))


# -- the split -------------------------------------------------------------------------------------------
def _unit(task: str, seed: int) -> float:
    h = hashlib.sha256(f"{int(seed)}\x00{task}".encode()).digest()
    return int.from_bytes(h[:8], "big") / 2.0**64


def split_tasks(tasks: Iterable[str], val_fraction: float, seed: int = 0) -> dict[str, str]:
    """task -> "train" | "validation", by a seeded hash of the task key. With two or more
    tasks and 0 < val_fraction < 1 neither split is left empty (the task nearest the cut moves)."""
    tasks = sorted(set(tasks))
    u = {t: _unit(t, seed) for t in tasks}
    out = {t: "validation" if u[t] < val_fraction else "train" for t in tasks}
    if len(tasks) >= 2 and 0 < val_fraction < 1:
        if "validation" not in out.values():
            out[min(tasks, key=lambda t: u[t])] = "validation"
        if "train" not in out.values():
            out[max(tasks, key=lambda t: u[t])] = "train"
    return out


# -- rows --------------------------------------------------------------------------------------------------
def _episode_row(view: str, ep: _Ep, b: int, history: str = "recorded", reasoning: bool = False) -> dict[str, Any] | None:
    best = ep.turns[b]
    if view == "iterative":
        messages, flags = _chat(ep, b, history, reasoning, turn_progress(ep.turns))
    else:
        if not best.code:
            return None
        # the final code alone: there is no reply whose thinking led to it, so none is kept
        messages = _with_reasoning(_msgs(ep.turns[0].messages[:2]), reasoning) + [
            {"role": "assistant", "content": _code_block(best.code), **({"reasoning_content": None} if reasoning else {})}]
        flags = [True]
    return {"assistant_progress": flags,
        "messages": messages, "task": ep.task, "episode_id": ep.episode_id, "run_id": ep.run_id, "model": ep.model,
        "n_turns": b + 1, "episode_turns": len(ep.turns), "best_turn": b, "status": best.status or "",
        "speedup_eager": _timing(best, "speedup_eager"), "speedup_compile": _timing(best, "speedup_compile"),
        "backend": best.verdict.backend, "final_code": best.code, "baseline": _baseline(best),
    }


def _step_rows(ep: _Ep, verified_only: bool, stages: set[str] | None, n_filtered: Counter,
               reasoning: bool = False) -> list[dict[str, Any]]:
    rows = []
    kinds = _pair_kinds(ep.turns)
    progress = turn_progress(ep.turns)
    for i in range(len(ep.turns) - 1):
        a, b = ep.turns[i], ep.turns[i + 1]
        kind = kinds[i + 1]
        if kind is None:
            continue
        if verified_only and not _correct(b):
            n_filtered["steps_after_not_correct"] += 1
            continue
        if stages is not None and b.stage not in stages:
            n_filtered["steps_stage"] += 1
            continue
        rows.append({
            "messages": _with_reasoning(_msgs(b.messages), reasoning) + [_assistant(b, reasoning)], "kind": kind,
            "assistant_progress": _recorded_progress(b.messages, ep.turns[:i + 1], progress) + [True],
            "task": ep.task, "episode_id": ep.episode_id, "run_id": ep.run_id, "model": ep.model, "turn": b.idx,
            "stage": b.stage, "before_status": a.status or "", "after_status": b.status or "",
            "speedup_eager": _timing(b, "speedup_eager"), "baseline": _baseline(b),
        })
    return rows


def _arrow_schema(view: str, reasoning: bool = False):
    import pyarrow as pa

    fields = [("role", pa.string()), ("content", pa.string())] + ([("reasoning_content", pa.string())] if reasoning else [])
    msg = pa.list_(pa.struct(fields))
    base = pa.struct([("source", pa.string()), ("timed_at", pa.string()), ("device_name", pa.string()), ("torch", pa.string()),
                      ("eager_spread", pa.float64()), ("steady", pa.bool_())])
    if view == "steps":
        return pa.schema([("messages", msg), ("kind", pa.string()), ("task", pa.string()), ("episode_id", pa.string()),
                          ("run_id", pa.string()), ("model", pa.string()), ("turn", pa.int64()), ("stage", pa.string()),
                          ("before_status", pa.string()), ("after_status", pa.string()),
                          ("speedup_eager", pa.float64()), ("baseline", base), ("assistant_progress", pa.list_(pa.bool_()))])
    return pa.schema([("messages", msg), ("task", pa.string()), ("episode_id", pa.string()), ("run_id", pa.string()),
                      ("model", pa.string()), ("n_turns", pa.int64()), ("episode_turns", pa.int64()),
                      ("best_turn", pa.int64()), ("status", pa.string()), ("speedup_eager", pa.float64()),
                      ("speedup_compile", pa.float64()), ("backend", pa.string()), ("final_code", pa.string()),
                      ("baseline", base), ("assistant_progress", pa.list_(pa.bool_()))])


def _write_parquet(rows: list[dict], view: str, path: Path, reasoning: bool = False) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _arrow_schema(view, reasoning)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp)
    tmp.replace(path)


# -- the export ---------------------------------------------------------------------------------------------
_FILTER_TEXT = {
    "kernelbench_episode": "an agent's episode on a KernelBench problem (bench only, never training data)",
    "unfinished": "episode still running (unfinished)",
    "no_turns": "episode with no turns",
    "not_verified": "verified_only: no correct turn",
    "no_code": "direct view: final turn has no code",
    "min_speedup": "min_speedup: best speedup_eager below the minimum (or unmeasured)",
    "max_turns": "max_turns: more turns up to the best turn",
    "decontaminated": "decontamination: task matches a KernelBench problem",
    "no_pairs": "steps view: episode has no repair/optimize pair",
    "steps_after_not_correct": "steps, verified_only: after-turn not correct (pairs)",
    "steps_stage": "steps, stages: after-turn stage not kept (pairs)",
    "infra_error_turns": "turns the verifier failed on (infra_error; no verdict on the candidate, turns)",
}


def export(store_path, view: str, out_dir, *, run_ids: Iterable[str] | None = None, verified_only: bool = True,
           min_speedup: float | None = None, max_turns: int | None = None, stages: Iterable[str] | None = None,
           val_fraction: float = 0.1, seed: int = 0, kernelbench_dir=None,
           card_info: dict[str, Any] | None = None, history: str = "recorded", reasoning: bool = False,
           episode_ids: Iterable[str] | None = None) -> ExportResult:
    """Writes ``out_dir/{train,validation}.parquet`` and ``out_dir/README.md`` (dataset card).

    A split left empty (``val_fraction=0``, or a single task) gets no file, since ``datasets``
    can not load an empty split; ``result.paths`` then lacks it and the card says so.

    Episodes still running are skipped. Filters, in order: ``verified_only`` (iterative/direct:
    the episode's best turn is correct; steps: pairs whose after-turn is correct - when False,
    an episode with no correct turn uses its last turn), ``min_speedup`` (episode's best
    speedup_eager >= x), ``max_turns`` (turns up to the best turn <= N, or all turns when there
    is no correct turn), decontamination against ``kernelbench_dir``, and for steps ``stages``
    (after-turn stage). ``n_filtered`` counts episodes per reason, except the ``steps_*`` keys,
    which count turn pairs. ``card_info`` overrides card fields: pretty_name, license,
    description, tags (list), citation.

    ``history`` (iterative view): ``recorded`` (the context the model saw at the best turn) or
    ``full`` (every turn up to the best one, verbatim). ``reasoning``: keep each reply's thinking
    as the assistant message's ``reasoning_content`` (None where none was recorded); dropped by
    default. ``episode_ids``: only these episodes (an ablation's matched set).

    Raises ValueError for an unknown view, a missing store, unknown run ids or stages, bad
    options, and an export that filtering left empty.
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    try:
        store_path = require_store(store_path)
    except StoreError as e:
        raise ValueError(str(e)) from None
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise ValueError(f"{out_dir}: is an existing file, not a folder")
    if not 0 <= val_fraction < 1:
        raise ValueError(f"val_fraction must be in [0, 1), not {val_fraction}")
    if max_turns is not None and max_turns < 1:
        raise ValueError(f"max_turns must be >= 1, not {max_turns}")
    if history not in HISTORIES:
        raise ValueError(f"history must be one of {', '.join(HISTORIES)}, not {history!r}")
    if history != "recorded" and view != "iterative":
        raise ValueError(f"history applies to the iterative view only, not {view!r}")
    stage_set = None
    if stages is not None:
        stage_set = set([stages] if isinstance(stages, str) else stages)
        bad = stage_set - set(STAGES)
        if bad:
            raise ValueError(f"unknown stage(s) {sorted(bad)}; stages are {', '.join(STAGES)}")
        if view != "steps":
            raise ValueError(f"stages filters the steps view only, not {view!r}")
    run_ids = None if run_ids is None else ([run_ids] if isinstance(run_ids, str) else list(run_ids))

    runs, eps, sources = _read_store(store_path, run_ids)
    if episode_ids is not None:
        wanted = set(episode_ids)
        eps = [ep for ep in eps if ep.episode_id in wanted]
    n_filtered: Counter = Counter()
    # a turn the verifier failed on (infra_error) is no verdict on its candidate: it is never a
    # row, never one end of a step, and the turn that verified the same code again stands in its place
    for ep in eps:
        judged = [t for t in ep.turns if t.status not in NOT_A_VERDICT]
        n_filtered["infra_error_turns"] += len(ep.turns) - len(judged)
        ep.turns = judged

    # episode-level filters
    kept: list[tuple[_Ep, int | None]] = []
    for ep in eps:
        if ep.bench_only:
            n_filtered["kernelbench_episode"] += 1
            continue
        if ep.status == "running":
            n_filtered["unfinished"] += 1
            continue
        if not ep.turns:
            n_filtered["no_turns"] += 1
            continue
        b = best_turn(ep.turns)
        if b is None and verified_only and view != "steps":
            n_filtered["not_verified"] += 1
            continue
        if min_speedup is not None:
            s = _timing(ep.turns[b], "speedup_eager") if b is not None else None
            if s is None or s < min_speedup:
                n_filtered["min_speedup"] += 1
                continue
        if max_turns is not None and (b + 1 if b is not None else len(ep.turns)) > max_turns:
            n_filtered["max_turns"] += 1
            continue
        kept.append((ep, b))

    # decontamination
    dropped: list[dict[str, Any]] = []
    unchecked: list[str] = []
    if kernelbench_dir is not None:
        tasks = sorted({ep.task for ep, _ in kept})
        unchecked = [t for t in tasks if not sources.get(t)]
        hits = find_contamination({t: sources[t] for t in tasks if sources.get(t)}, kernelbench_dir)
        dropped = [{**h.to_dict(), "kernelbench_file": h.problem,
                    "episodes": sum(ep.task == h.task for ep, _ in kept)} for h in hits]
        bad_tasks = {d["task"] for d in dropped}
        n_filtered["decontaminated"] += sum(ep.task in bad_tasks for ep, _ in kept)
        kept = [(ep, b) for ep, b in kept if ep.task not in bad_tasks]

    # rows
    rows: list[dict[str, Any]] = []
    used: list[tuple[_Ep, int]] = []  # (episode, last turn used) for the card's statistics
    for ep, b in kept:
        if view == "steps":
            r = _step_rows(ep, verified_only, stage_set, n_filtered, reasoning)
            if not r:
                n_filtered["no_pairs"] += 1
                continue
            rows += r
            used.append((ep, max(x["turn"] for x in r)))
        else:
            bi = b if b is not None else len(ep.turns) - 1
            row = _episode_row(view, ep, bi, history, reasoning)
            if row is None:
                n_filtered["no_code"] += 1
                continue
            rows.append(row)
            used.append((ep, bi))

    n_filtered = {k: v for k, v in n_filtered.items() if v}
    if not rows:
        why = "; ".join(f"{_FILTER_TEXT.get(k, k)}: {v}" for k, v in n_filtered.items()) or "nothing was filtered"
        raise ValueError(f"export of view {view!r} is empty: {len(eps)} episode(s) seen in {store_path}"
                         f"{'' if run_ids is None else f' (runs {run_ids})'}; removed by - {why}")

    # split by task
    assign = split_tasks((r["task"] for r in rows), val_fraction, seed)
    split_rows = {s: [r for r in rows if assign[r["task"]] == s] for s in SPLITS}
    split_task_lists = {s: sorted({r["task"] for r in split_rows[s]}) for s in SPLITS}
    if set(split_task_lists["train"]) & set(split_task_lists["validation"]):
        raise AssertionError("a task landed in both splits")
    for s in SPLITS:
        split_rows[s].sort(key=lambda r: (r["task"], r["run_id"], r["episode_id"], r.get("turn", 0)))

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # datasets can not load an empty split (not even a 0-row file with the schema), so an
    # empty split (val_fraction=0, or a single task) is not written, and a stale file goes
    paths = {}
    for s in SPLITS:
        p = out_dir / f"{s}.parquet"
        if split_rows[s]:
            _write_parquet(split_rows[s], view, p, reasoning)
            paths[s] = p
        elif p.exists():
            p.unlink()
    paths["card"] = out_dir / "README.md"

    result = ExportResult(
        view=view, paths=paths, counts={s: len(split_rows[s]) for s in SPLITS}, split_tasks=split_task_lists,
        dropped=dropped, n_episodes_seen=len(eps), n_filtered=n_filtered, unchecked_tasks=unchecked,
        kinds=dict(sorted(Counter(r["kind"] for r in rows).items())) if view == "steps" else {},
    )
    settings = {
        "view": view, "store": store_path.name, "run_ids": run_ids, "verified_only": verified_only,
        "min_speedup": min_speedup, "max_turns": max_turns, "stages": sorted(stage_set) if stage_set else None,
        "history": history, "reasoning": reasoning,
        "val_fraction": val_fraction, "seed": seed,
        "kernelbench_dir": None if kernelbench_dir is None else Path(kernelbench_dir).name,
        "similarity_threshold": SIMILARITY_THRESHOLD if kernelbench_dir is not None else None,
    }
    card = _card(result, split_rows, used, runs, settings, dict(card_info or {}))
    tmp = paths["card"].with_name("README.md.tmp")
    tmp.write_text(card)
    tmp.replace(paths["card"])
    return result


export_dataset = export  # the name kernelmosaic.data exports (see its __init__)


# -- the dataset card -----------------------------------------------------------------------------------------
_table = md_table
_size_category = size_category


def _yaml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid YAML scalar


def _card(res: ExportResult, split_rows: dict[str, list[dict]], used: list[tuple[_Ep, int]],
          runs: dict[str, dict], settings: dict[str, Any], info: dict[str, Any]) -> str:
    view = res.view
    license_id = info.get("license", PROJECT_LICENSE.lower())
    tags = list(info.get("tags") or ["code", "cuda", "gpu-kernels", "kernelmosaic", f"{view}"])
    pretty = info.get("pretty_name", f"KernelMosaic {view} trajectories")

    # statistics over the turns the rows draw on
    envs: dict[tuple, int] = Counter()
    stage_status: Counter = Counter()
    for ep, last in used:
        for t in ep.turns[: last + 1]:
            stage_status[(t.stage, t.status or "?")] += 1
            env = t.verdict.env or {}
            if env:
                envs[(env.get("gpu") or env.get("cpu") or "?", env.get("torch") or "?", env.get("cuda") or "?")] += 1
    used_runs = sorted({ep.run_id for ep, _ in used})
    models = Counter(runs[r]["model"] for r in used_runs)
    task_sets = Counter(runs[r]["task_set"] or "(unnamed)" for r in used_runs)

    fm = ["---", f"license: {license_id}", f"pretty_name: {_yaml_str(pretty)}", "task_categories:", "- text-generation",
          "language:", "- en", "tags:"] + [f"- {_yaml_str(t)}" for t in tags] + [
          "size_categories:", f"- {_size_category(res.n_rows)}",
          "configs:", "- config_name: default", "  data_files:"]
    for s in SPLITS:
        if s in res.paths:
            fm += [f"  - split: {s}", f"    path: {s}.parquet"]
    fm += ["---", ""]
    out = fm + [f"# {pretty}", ""]
    out += [info.get("description") or (
        "Trajectories of a language model writing and repairing GPU kernels for PyTorch reference programs, "
        "recorded by KernelMosaic: every candidate was compiled and checked against the reference by the "
        "KernelMosaic verifier, and correct ones were timed against PyTorch eager (and torch.compile where the "
        "run enabled it)."), ""]
    out += ["## View", "", {
        "iterative": "`iterative`: one row per episode. `messages` is the recorded context of the episode's best turn "
                     "(system prompt, task prompt, a summary of older turns if any, the most recent turns with the "
                     "verifier's feedback, and the prompt of that turn), followed by that turn's reply as the final "
                     "assistant message: what the model saw and said.",
        "direct": "`direct`: one row per episode. `messages` is the system prompt, the task prompt and, as the "
                  "assistant message, the episode's final code in a python block.",
        "steps": "`steps`: one row per consecutive turn pair (i, i+1). `repair`: turn i was not correct and turn "
                 "i+1 was correct (or got from compile_error to a later failure); `optimize`: turn i+1 was an "
                 "optimize turn, correct and measurably faster than the best kernel before it. `messages` is turn "
                 "i+1's recorded context plus its reply.",
    }[view], ""]
    if settings.get("history") == "full":
        out += ["History `full`: each row holds every turn up to the best one verbatim (each reply, then the prompt "
                "the next turn was given), not the shortened context the model saw.", ""]
    if settings.get("reasoning"):
        out += ["Reasoning kept: each assistant message's `reasoning_content` is the thinking the endpoint returned "
                "apart from that reply (null where none was recorded).", ""]
    out += ["`assistant_progress` marks the replies that made progress: the first turn when it was correct, and a "
            "later turn that ends a repair or optimize step (the steps view's rule).", ""]
    cols = _STEP_COLUMNS if view == "steps" else _EPISODE_COLUMNS
    out += ["## Columns", "", _table(["column", "type", "description"], [list(c) for c in cols]), ""]

    out += ["## Splits", "",
            "Train and validation are split by task (a seeded hash of the task key), so no task appears in both.", ""]
    srows = []
    for s in SPLITS:
        r = split_rows[s]
        srows.append([s, len(r), len({x["task"] for x in r}), len({x["episode_id"] for x in r})])
    out += [_table(["split", "rows", "tasks", "episodes"], srows), ""]
    empty = [s for s in SPLITS if s not in res.paths]
    if empty:
        out += [f"Empty split(s), not written: {', '.join(empty)} (val_fraction={settings['val_fraction']}, "
                f"{len({x['task'] for s in SPLITS for x in split_rows[s]})} task(s)).", ""]
    key = "kind" if view == "steps" else "status"
    values = sorted({x[key] for s in SPLITS for x in split_rows[s]})
    out += [f"Rows per split and {'kind' if view == 'steps' else 'best-turn status'}:", "",
            _table(["split"] + values, [[s] + [sum(x[key] == v for x in split_rows[s]) for v in values] for s in SPLITS]),
            ""]
    if view == "steps":
        stg = sorted({x["stage"] for s in SPLITS for x in split_rows[s]})
        out += ["Rows per split and after-turn stage:", "",
                _table(["split"] + stg, [[s] + [sum(x["stage"] == v for x in split_rows[s]) for v in stg]
                                         for s in SPLITS]), ""]
    statuses = sorted({st for _, st in stage_status})
    out += ["Recorded turns the rows draw on (each episode up to its last turn used), by stage and verdict status:", "",
            _table(["stage"] + statuses, [[g] + [stage_status[(g, st)] for st in statuses]
                                          for g in STAGES if any(stage_status[(g, st)] for st in statuses)]), ""]

    out += ["## Hardware and software", "", "From the verifier's `env` in each verdict (turns the rows draw on):", ""]
    out += [_table(["device", "torch", "cuda", "turns"], [list(k) + [v] for k, v in sorted(envs.items())])
            if envs else "No environment was recorded in the verdicts.", ""]
    out += ["## Generators and tasks", "",
            "The LLM that wrote the assistant messages of each run (its model name as recorded in `runs.model`):", "",
            _table(["LLM (runs.model)", "runs"], [[m, n] for m, n in sorted(models.items())]), "",
            _table(["task set (runs.task_set)", "runs"], [[t, n] for t, n in sorted(task_sets.items())]), ""]

    out += ["## Decontamination", ""]
    if settings["kernelbench_dir"] is None:
        out += ["Not run: no KernelBench directory was given.", ""]
    else:
        out += [f"Every task was scored against the KernelBench problems in `{settings['kernelbench_dir']}` by the "
                "rule task curation uses: 0.7 x the similarity of their op sequences (the same ops in the same "
                "order, whatever the shapes, dtypes or names) + 0.3 x the cosine of their normalized token "
                f"bigrams. A score >= {SIMILARITY_THRESHOLD} dropped the task (1.0: an exact copy up to names).", ""]
        if res.dropped:
            out += [_table(["task", "nearest KernelBench file", "score", "match", "episodes"],
                           [[d["task"], d["kernelbench_file"], f"{d['score']:.4f}", d["match"], d.get("episodes", "")]
                            for d in res.dropped]), ""]
        else:
            out += ["No task matched.", ""]
        if res.unchecked_tasks:
            out += [f"Tasks with no source in the store (not checked): {', '.join(res.unchecked_tasks)}", ""]

    out += ["## Export settings", "", "```json", json.dumps(settings, indent=2), "```", "",
            f"Episodes seen: {res.n_episodes_seen}. Removed:", ""]
    out += [_table(["reason", "count"], [[_FILTER_TEXT.get(k, k), v] for k, v in res.n_filtered.items()])
            if res.n_filtered else "nothing.", ""]
    try:
        from .. import __version__ as km_version
    except ImportError:  # pragma: no cover
        km_version = "?"
    out += [f"Exported {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())} by KernelMosaic {km_version}.", ""]

    out += ["## Licence", "",
            f"The KernelMosaic code that produced this dataset is licensed {PROJECT_LICENSE}. Tasks derived from "
            f"KernelBench (https://github.com/ScalingIntelligence/KernelBench) are licensed {KERNELBENCH_LICENSE}. "
            f"The metadata field `license: {license_id}` above is the licence chosen for this export"
            + (" by whoever ran it (`kmosaic export --license`)." if "license" in info else
               " (the project's, by default: `kmosaic export --license` sets it).") + "", "",
            "**Warning: a teacher model's terms may apply.** The assistant messages were written by "
            + ", ".join(f"`{m}`" for m in sorted(models)) + " (see the policy table above). If a policy is a model "
            "served under its provider's terms of use or licence, those terms may restrict how its outputs are "
            "used (for example, to train other models), whatever the licence field says.", ""]
    if info.get("citation"):
        out += ["## Citation", "", "```bibtex", str(info["citation"]).strip(), "```", ""]
    return "\n".join(out)
