"""Many episodes at once, every turn committed to the store as it finishes; resumable."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..data import Store, TurnRecord
from ..task import Task
from ..verify import Verifier
from .episode import EpisodeConfig, EpisodeResult
from .policy import Policy

if TYPE_CHECKING:
    from ..scale import Executor


def generate(
    tasks: list[Task],
    policy: Policy,
    verifier: Verifier | None,
    store: Store,
    config: EpisodeConfig,
    *,
    run_id: str | None = None,
    samples: int = 1,
    concurrency: int = 4,
    task_set: str = "",
    on_turn: Callable[[str, TurnRecord], None] | None = None,
    on_episode: Callable[[str, EpisodeResult | None, str | None], None] | None = None,
    executor: "Executor | None" = None,
) -> str:
    """Run every (task, sample) episode not yet done in ``run_id``; returns the run id.

    A run that was killed resumes where it stopped: finished episodes are skipped and an
    interrupted one continues after its last committed turn.

    ``executor`` says where episodes run (``kernelmosaic.scale``); without one they run
    in this process on ``verifier`` (the local executor). This process commits every turn.
    """
    from ..scale import LocalExecutor

    if executor is None:
        if verifier is None:
            raise TypeError("generate() needs a verifier or an executor")
        executor = LocalExecutor(verifier)
    settings = {"config": _jsonable(asdict(config)), "samples": samples, "verifier_device": executor.device}
    run_id = store.start_run(model=policy.name, settings=settings, task_set=task_set, run_id=run_id)
    by_key = {t.key: t for t in tasks}
    for t in tasks:
        store.add_task(t.key, t.sha256, t.source, level=t.level, metadata=t.metadata)
    todo = store.pending(run_id, list(by_key), samples)
    executor.run_episodes(store, run_id, [(by_key[k], s) for k, s in todo], policy, config,
                          concurrency=concurrency, on_turn=on_turn, on_episode=on_episode)
    return run_id


def write_solution(out_dir: str | Path, task: Task, model: str, config: EpisodeConfig, result: EpisodeResult) -> Path:
    """``DIR/trajectory.json`` (task, model, settings, turns) and ``DIR/best.py``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    traj = {
        "task": {"key": task.key, "path": task.path, "sha256": task.sha256},
        "model": model,
        "settings": _jsonable(asdict(config)),
        "correct": result.correct,
        "best_turn": result.best_turn,
        "stopped": result.stopped,
        "error": result.error,
        "wall_s": result.wall_s,
        "turns": [
            {"idx": t.idx, "stage": t.stage, "prompt": t.messages, "reply": t.reply, "code": t.code,
             "verdict": t.verdict, "feedback": t.feedback, "guidance_ids": t.guidance_ids, "usage": t.usage,
             "latency_s": t.latency_s, "verify_s": t.verify_s}
            for t in result.turns
        ],
    }
    (out / "trajectory.json").write_text(json.dumps(_jsonable(traj), indent=1))
    if result.best_code:
        (out / "best.py").write_text(result.best_code)
    return out


def _jsonable(o):
    from .._json import finite

    return json.loads(json.dumps(finite(o), default=str))
