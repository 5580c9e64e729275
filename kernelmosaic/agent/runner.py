"""One episode's files: ``kmosaic solve`` writes its trajectory and best kernel here.

(Many episodes at once, committed to a store, are the controller's job:
``kernelmosaic.scale.generate``.)"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from ..task import Task
from .episode import EpisodeConfig, EpisodeResult


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
             "verdict": t.verdict.to_dict(), "feedback": t.feedback, "guidance_ids": t.guidance_ids, "usage": t.usage,
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
