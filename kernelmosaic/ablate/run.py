"""``kmosaic ablate``: direct against iterative training, from one store to one report.

    from kernelmosaic.ablate import load_config, run_ablation
    result = run_ablation(load_config("configs/ablate/tiny-cpu.yaml"))

In order, all under ``cfg.out``:

1. **Snapshot.** The store is copied (SQLite's online backup) to ``store.db``; every later step
   reads the copy, so a store still being written, or a committed one of an older schema that
   opening would migrate, is left as it is. Its sha256 goes into the report.
2. **Matched data.** The direct and the iterative view are exported from the same episodes: those
   that give a row in both (the direct view drops an episode whose best turn has no code). So both
   arms train on the same tasks and episodes, split the same way (by task). ``data/direct`` and
   ``data/iterative``.
3. **Budget** (``budget.match``): ``steps`` gives every arm the same number of optimizer steps at
   the same batch size and max_length; ``tokens`` stops every arm when it has trained on the same
   number of input tokens: ``epochs`` x the smallest arm's tokens per epoch (an iterative row is
   longer than a direct one, so at equal steps the iterative arm sees more tokens). Either way
   the tokens each arm saw, its steps and its loss-carrying tokens are recorded.
4. **Training**, one arm after the other, through ``kmosaic train``'s library (``train/<arm>``).
   Each arm's targets (``loss_turns``, ``history_turns``) are its own; everything else comes
   from the same training config.
5. **Bench**, every arm with the same protocol: the same problems, mode, turns, samples,
   sampling and baselines, through the transformers LLM on the model the arm produced
   (``bench/<arm>.db``, run id ``ablate-<arm>``). One verifier serves all arms.
6. **Report**: ``ablation.md`` and ``ablation.json`` (see :mod:`.report`).

A rerun with the same config reuses each arm whose training finished with the same settings
(and resumes its bench when the bench settings are the same too); an arm trained again, or
benched with other settings, is benched again from scratch.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..task import sha256_file
from .config import AblateConfig, AblateError, Arm

log = logging.getLogger(__name__)


@dataclass
class ArmResult:
    arm: Arm
    data_dir: Path
    train_dir: Path
    model_dir: Path
    train: dict[str, Any]  # what the report needs from TrainResult
    bench_store: Path
    run_id: str
    reused: bool = False


@dataclass
class AblationResult:
    out: Path
    report_md: Path
    report_json: Path
    arms: list[ArmResult] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def _say(on_event: Callable[[str], None] | None, msg: str) -> None:
    log.info(msg)
    if on_event is not None:
        on_event(msg)


# -- 1. snapshot ------------------------------------------------------------------------------------
def snapshot_store(src: str | Path, dst: Path) -> str:
    """Copy a store; returns the sha256 of the copy. A store with a write-ahead log beside it may
    be in use: it is copied with SQLite's backup API (consistent while another process writes it,
    the log included), read-only. Without one, every commit is in the file itself, which is copied
    as it is: even a read-only SQLite connection leaves -wal and -shm files beside a WAL database,
    and a committed store must stay as it was."""
    from ..data import require_store
    from ..data.store import StoreError

    try:
        src = require_store(src)
    except StoreError as e:
        raise AblateError(str(e)) from None
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp")
    tmp.unlink(missing_ok=True)
    if not Path(str(src) + "-wal").exists():
        shutil.copyfile(src, tmp)
    else:
        try:
            s = sqlite3.connect(f"file:{Path(src).resolve()}?mode=ro", uri=True)
            d = sqlite3.connect(tmp)
            try:
                s.backup(d)
            finally:
                d.close()
                s.close()
        except sqlite3.Error as e:
            raise AblateError(f"{src}: cannot copy the store ({e})") from None
    tmp.replace(dst)
    for side in ("-wal", "-shm"):
        Path(str(dst) + side).unlink(missing_ok=True)
    return sha256_file(dst)


# -- 2. matched data --------------------------------------------------------------------------------
def _episode_ids(res) -> set[str]:
    import pyarrow.parquet as pq

    ids: set[str] = set()
    for split in ("train", "validation"):
        if split in res.paths:
            ids |= set(pq.read_table(res.paths[split], columns=["episode_id"]).column("episode_id").to_pylist())
    return ids


def matched_exports(store: Path, data_dir: Path, cfg: AblateConfig) -> dict[str, Any]:
    """The direct and iterative exports over the same episodes; their results and the episode count."""
    from ..data.export import export

    e = cfg.export
    common: dict[str, Any] = dict(run_ids=e.run_ids, verified_only=e.verified_only, val_fraction=e.val_fraction,
                                  seed=e.seed, reasoning=e.reasoning)
    try:
        d = export(store, "direct", data_dir / "direct", **common)
        it = export(store, "iterative", data_dir / "iterative", history=e.history, **common)
        ids_d, ids_i = _episode_ids(d), _episode_ids(it)
        both = ids_d & ids_i
        if not both:
            raise AblateError(f"{store}: no episode gives a row in both the direct and the iterative view")
        if ids_d != both:
            d = export(store, "direct", data_dir / "direct", episode_ids=both, **common)
        if ids_i != both:
            it = export(store, "iterative", data_dir / "iterative", history=e.history, episode_ids=both, **common)
    except ValueError as err:
        raise AblateError(str(err)) from None
    if d.split_tasks != it.split_tasks:  # the same episodes and seed give the same split; checked, not assumed
        raise AblateError("the direct and iterative exports split the tasks differently")
    return {"direct": d, "iterative": it, "episodes": len(both), "dropped_unmatched": len((ids_d | ids_i) - both)}


# -- 3 and 4. budget and training ---------------------------------------------------------------------
def _arm_overrides(cfg: AblateConfig, arm: Arm, data_dir: Path, train_dir: Path) -> dict[str, Any]:
    o: dict[str, Any] = {"sft.save_strategy": "no"}  # the ablation keeps the final model only
    o.update(cfg.train.set)
    o.update({"data.path": str(data_dir / arm.view), "output_dir": str(train_dir), "data.loss_turns": arm.loss_turns,
              "data.history_turns": arm.history_turns, "sft.include_num_input_tokens_seen": "non_padding"})
    if cfg.budget.match == "steps":
        o["sft.max_steps"] = cfg.budget.steps
    else:
        o["sft.max_steps"] = cfg.budget.max_steps  # a cap: the token budget stops the run
    return o


def _train_config(cfg: AblateConfig, arm: Arm, data_dir: Path, train_dir: Path):
    from ..train import ConfigError, load_config as load_train

    try:
        return load_train(cfg.train.config, _arm_overrides(cfg, arm, data_dir, train_dir))
    except ConfigError as e:
        raise AblateError(f"train.config for arm {arm.name}: {e}") from None


def epoch_tokens(tcfg) -> dict[str, Any]:
    """The arm's training rows as train/targets.py builds them: rows, tokens, loss tokens per epoch."""
    from ..train.sft import _load_tokenizer, load_messages
    from ..train.targets import PROGRESS_COLUMN, prepare

    ds = load_messages(tcfg.train_file, (PROGRESS_COLUMN,))
    _, stats = prepare(ds, _load_tokenizer(tcfg), loss_turns=tcfg.data.loss_turns or "all",
                       history_turns=tcfg.data.history_turns, max_length=tcfg.data.max_length)
    return stats.to_dict()


def _token_budget_callback(limit: int):
    from transformers import TrainerCallback

    class TokenBudget(TrainerCallback):
        """Stops training at the first step that reaches ``limit`` input tokens (the arms then differ
        by less than one step's tokens, which the report shows)."""

        def on_step_end(self, args, state, control, **kw):
            if state.num_input_tokens_seen >= limit:
                control.should_training_stop = True
            return control

    return TokenBudget()


def _fingerprint(cfg: AblateConfig, arm: Arm, tcfg, data_sha: str, budget_tokens: int | None) -> str:
    d = {"arm": asdict(arm), "budget": asdict(cfg.budget), "budget_tokens": budget_tokens, "data": data_sha,
         "train_config": Path(cfg.train.config).read_text(encoding="utf-8"), "set": cfg.train.set,
         "max_length": tcfg.data.max_length}
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()


def _data_sha(data_dir: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(data_dir.rglob("*.parquet")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def train_arm(cfg: AblateConfig, arm: Arm, tcfg, budget_tokens: int | None, fingerprint: str) -> tuple[dict, bool]:
    """Train one arm (or reuse a finished one with the same fingerprint); (summary, reused)."""
    from ..train import train

    out = Path(tcfg.output_dir)
    done = out / "ablate_arm.json"
    if done.is_file():
        prev = json.loads(done.read_text())
        if prev.get("fingerprint") == fingerprint and Path(prev.get("model_dir", "")).is_dir():
            return prev, True
    if out.exists():
        shutil.rmtree(out)  # a stale or half-written arm: its base, checkpoints and model go
    callbacks = [_token_budget_callback(budget_tokens)] if budget_tokens is not None else None
    t0 = time.monotonic()
    res = train(tcfg, callbacks=callbacks)
    losses = [h["loss"] for h in res.log_history if "loss" in h]
    model_dir = res.merged_dir or res.final_dir
    summary = {
        "fingerprint": fingerprint, "model_dir": str(model_dir), "global_step": res.global_step,
        "tokens_seen": res.tokens_seen, "targets": res.targets, "first_loss": losses[0] if losses else None,
        "last_loss": losses[-1] if losses else None, "eval_loss": res.metrics.get("eval_loss"),
        "train_runtime_s": res.metrics.get("train_runtime"), "wall_s": time.monotonic() - t0,
        "rows_truncated": res.n_truncated, "packing": res.packing, "attn_implementation": res.attn_implementation,
        "lora": tcfg.lora is not None,
        "batch": {k: tcfg.sft.get(k) for k in ("per_device_train_batch_size", "gradient_accumulation_steps",
                                                "learning_rate")},
    }
    done.write_text(json.dumps(summary, indent=2, default=str))
    try:  # the next arm, and the bench, need the memory
        import gc

        import torch

        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:
        pass
    return summary, False


# -- 5. bench ---------------------------------------------------------------------------------------------
def bench_arm(cfg: AblateConfig, arm: Arm, model_dir: str, tasks, verifier, db: Path, bcfg) -> str:
    from ..agent import SamplingConfig, TransformersLLM
    from ..bench.run import run_bench
    from ..data import Store

    b = cfg.bench
    llm = TransformersLLM(model_dir, sampling=SamplingConfig(temperature=b.temperature, top_p=b.top_p,
                                                             max_tokens=b.max_new_tokens), batch_size=b.batch_size)
    # a model saved by a trainer may carry use_cache: false; generation without the KV cache would
    # recompute the whole prompt for every new token
    llm.model.config.use_cache = True
    if getattr(llm.model, "generation_config", None) is not None:
        llm.model.generation_config.use_cache = True
    run_id = f"ablate-{arm.name}"
    try:
        with Store(db) as store:
            run_bench(tasks, llm, verifier, store, bcfg, kernelbench_dir=b.kernelbench, run_id=run_id,
                      task_set=f"kernelbench:{b.levels}")
    finally:
        del llm
        try:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except ImportError:
            pass
    return run_id


def _bench_config(cfg: AblateConfig):
    from ..bench.run import BenchConfig, parse_turns
    from ..verify import TimingConfig

    b = cfg.bench
    try:
        rep, opt = parse_turns(b.turns)
    except ValueError as e:
        raise AblateError(f"bench.turns: {e}") from None
    return BenchConfig(mode=b.mode, samples=b.samples, max_repair=rep, max_optimize=opt, backend=b.backend,
                       policy=b.policy, baselines=b.baselines, stored_hardware=b.stored_hardware,
                       concurrency=b.concurrency, warm_lanes=4 if b.device == "cuda" and b.baselines == "measure" else 0,
                       timing=TimingConfig(n=b.timing_runs), protocol=b.protocol)


def bench_tasks(cfg: AblateConfig):
    from ..bench.run import parse_levels, parse_problems, select_tasks
    from ..task import TaskError

    b = cfg.bench
    try:
        return select_tasks(b.kernelbench, parse_levels(b.levels), parse_problems(b.problems))
    except ValueError as e:
        raise AblateError(f"bench: {e}") from None
    except TaskError as e:
        raise AblateError(f"bench: {e}") from None


def _training_overlap(store: Path, train_tasks: set[str], tasks) -> list[str]:
    """Bench problems that the arms trained on: the same key, or the same source (sha256)."""
    from ..data import Store

    with Store(store) as st:
        shas = {(st.get_task(k) or {}).get("sha256") for k in train_tasks} - {None}
    return sorted(t.key for t in tasks if t.key in train_tasks or t.sha256 in shas)


# -- the whole run ------------------------------------------------------------------------------------------
def run_ablation(cfg: AblateConfig, *, on_event: Callable[[str], None] | None = None) -> AblationResult:
    from ..verify import Verifier
    from .report import write_ablation_report

    if cfg.bench.device is None or cfg.bench.backend is None:
        raise AblateError("bench.device and bench.backend must be set (the command line fills in the defaults)")
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    tasks = bench_tasks(cfg)  # before anything long runs: a wrong problem list fails at once
    if cfg.bench.baselines == "kernelbench":  # and so do stored timings that are not there
        from ..bench.baselines import stored_baselines
        from ..task import TaskError

        try:
            stored_baselines(cfg.bench.kernelbench, cfg.bench.stored_hardware)
        except TaskError as e:
            raise AblateError(f"bench.baselines kernelbench: {e}") from None
    t_start = time.monotonic()

    _say(on_event, f"snapshot of {cfg.store}")
    store = out / "store.db"
    store_sha = snapshot_store(cfg.store, store)
    data_dir = out / "data"
    ex = matched_exports(store, data_dir, cfg)
    train_tasks = set(ex["direct"].split_tasks["train"])
    _say(on_event, f"matched data: {ex['episodes']} episodes, {len(train_tasks)} training tasks "
                   f"({ex['dropped_unmatched']} episode(s) without a row in both views left out)")
    data_sha = _data_sha(data_dir)

    tcfgs = {a.name: _train_config(cfg, a, data_dir, out / "train" / a.name) for a in cfg.arms}
    per_epoch = {a.name: epoch_tokens(tcfgs[a.name]) for a in cfg.arms}
    budget_tokens = None
    if cfg.budget.match == "tokens":
        smallest = min(per_epoch[a.name]["tokens"] for a in cfg.arms)
        budget_tokens = int(round(cfg.budget.epochs * smallest))
        _say(on_event, f"budget: {budget_tokens} input tokens per arm ({cfg.budget.epochs:g} x the smallest arm's "
                       f"{smallest} tokens per epoch)")
    else:
        _say(on_event, f"budget: {cfg.budget.steps} optimizer steps per arm")

    arms: list[ArmResult] = []
    for a in cfg.arms:
        tcfg = tcfgs[a.name]
        fp = _fingerprint(cfg, a, tcfg, data_sha, budget_tokens)
        _say(on_event, f"train {a.name} ({a.view}, loss on {a.loss_turns} replies, history "
                       f"{a.history_turns or 'all that fits'})")
        summary, reused = train_arm(cfg, a, tcfg, budget_tokens, fp)
        db = out / "bench" / f"{a.name}.db"
        protocol = out / "bench" / f"{a.name}.protocol.json"
        same_protocol = protocol.is_file() and json.loads(protocol.read_text()) == json.loads(
            json.dumps(asdict(cfg.bench), default=str))
        if not reused or not same_protocol:
            for side in ("", "-wal", "-shm"):
                Path(str(db) + side).unlink(missing_ok=True)  # results of another model, or of another protocol
        protocol.parent.mkdir(parents=True, exist_ok=True)
        protocol.write_text(json.dumps(asdict(cfg.bench), indent=2, default=str))
        arms.append(ArmResult(arm=a, data_dir=data_dir / a.view, train_dir=Path(tcfg.output_dir),
                              model_dir=Path(summary["model_dir"]), train={**summary, "epoch": per_epoch[a.name]},
                              bench_store=db, run_id=f"ablate-{a.name}", reused=reused))
        _say(on_event, f"  {a.name}: {'reused, ' if reused else ''}{summary['global_step']} steps, "
                       f"{summary['tokens_seen']} tokens, loss {summary['first_loss']} -> {summary['last_loss']}")

    bcfg = _bench_config(cfg)
    b = cfg.bench
    (out / "bench").mkdir(parents=True, exist_ok=True)
    with Verifier(device=b.device, workers=b.workers) as verifier:
        for r in arms:
            _say(on_event, f"bench {r.arm.name}: {len(tasks)} problems, {b.mode} mode, {b.samples} sample(s)")
            t0 = time.monotonic()
            bench_arm(cfg, r.arm, str(r.model_dir), tasks, verifier, r.bench_store, bcfg)
            r.train["bench_wall_s"] = time.monotonic() - t0

    overlap = _training_overlap(store, set(ex["direct"].split_tasks["train"]) | set(ex["direct"].split_tasks["validation"]),
                                tasks)
    md, js, summary = write_ablation_report(cfg, arms, out, store_sha=store_sha, exports=ex, budget_tokens=budget_tokens,
                                            overlap=overlap, wall_s=time.monotonic() - t_start)
    _say(on_event, f"wrote {md} and {js}")
    return AblationResult(out=out, report_md=md, report_json=js, arms=arms, summary=summary)
