"""Many episodes at once, every turn committed to the store as it finishes; resumable."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path
from typing import Callable

from ..data import Store, TurnRecord
from ..task import Task
from ..verify import Verifier
from .episode import Episode, EpisodeConfig, EpisodeResult
from .policy import Policy


def generate(
    tasks: list[Task],
    policy: Policy,
    verifier: Verifier,
    store: Store,
    config: EpisodeConfig,
    *,
    run_id: str | None = None,
    samples: int = 1,
    concurrency: int = 4,
    task_set: str = "",
    on_turn: Callable[[str, TurnRecord], None] | None = None,
    on_episode: Callable[[str, EpisodeResult | None, str | None], None] | None = None,
) -> str:
    """Run every (task, sample) episode not yet done in ``run_id``; returns the run id.

    A run that was killed resumes where it stopped: finished episodes are skipped and an
    interrupted one continues after its last committed turn.
    """
    settings = {"config": _jsonable(asdict(config)), "samples": samples, "verifier_device": verifier.device}
    run_id = store.start_run(model=policy.name, settings=settings, task_set=task_set, run_id=run_id)
    by_key = {t.key: t for t in tasks}
    for t in tasks:
        store.add_task(t.key, t.sha256, t.source, level=t.level, metadata=t.metadata)
    todo = store.pending(run_id, list(by_key), samples)
    lock = threading.Lock()

    def one(task_key: str, sample: int) -> tuple[str, EpisodeResult | None, str | None]:
        ep, done_turns = store.begin_episode(run_id, task_key, sample)
        ep_id = ep.episode_id

        def commit(turn: TurnRecord) -> None:
            store.add_turn(turn)  # committed before the next turn starts
            if on_turn is not None:
                with lock:
                    on_turn(ep_id, turn)

        episode = Episode(by_key[task_key], policy, verifier, config, episode_id=ep_id, on_turn=commit)
        try:
            res = episode.run(resume=done_turns)
        except Exception as e:  # noqa: BLE001 - one broken episode must not stop the run
            store.finish_episode(ep_id, "failed", error=f"{type(e).__name__}: {e}")
            return ep_id, None, f"{type(e).__name__}: {e}"
        failed = res.stopped in ("policy_error", "task_error")
        store.finish_episode(
            ep_id, "failed" if failed else "done", best_turn=res.best_turn, best_code=res.best_code,
            best_speedup=res.best_speedup, correct=res.correct, wall_s=res.wall_s, error=res.error,
        )
        return ep_id, res, res.error

    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="kmosaic-episode") as ex:
        futures = [ex.submit(one, k, s) for k, s in todo]
        for f in as_completed(futures):
            ep_id, res, err = f.result()
            if on_episode is not None:
                with lock:
                    on_episode(ep_id, res, err)
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
