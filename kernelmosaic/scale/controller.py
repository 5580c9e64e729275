"""The controller: the one writer of the store while episodes run.

``generate`` begins each pending episode in the store, hands the jobs to an executor, and
commits what the executor reports: every turn as it arrives (idempotent, in order), and how
each episode ended. Executors only yield events, so the local and the Ray executor share
this bookkeeping instead of each keeping a copy.

Stopping: when ``stop`` is set (``kmosaic generate`` sets it on Ctrl-C) no queued episode
starts, episodes in flight end after the turn they are on, and that turn is committed here
before ``generate`` returns. Episodes that did not end stay ``running``: rerunning with the
same run id resumes them after their last committed turn.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from typing import TYPE_CHECKING, Callable

from .base import EpisodeDone, EpisodeJob, EpisodeLost, Executor, TurnDone

if TYPE_CHECKING:
    from ..agent.episode import EpisodeConfig, EpisodeResult
    from ..agent.llm import LLM
    from ..data import Store, TurnRecord
    from ..task import Task
    from ..verify import Verifier


def generate(
    tasks: list["Task"],
    llm: "LLM",
    verifier: "Verifier | None",
    store: "Store",
    config: "EpisodeConfig",
    *,
    run_id: str | None = None,
    samples: int = 1,
    concurrency: int = 4,
    task_set: str = "",
    on_turn: Callable[[str, "TurnRecord"], None] | None = None,
    on_episode: Callable[[str, "EpisodeResult | None", str | None], None] | None = None,
    executor: Executor | None = None,
    stop: threading.Event | None = None,
) -> str:
    """Run every (task, sample) episode not yet done in ``run_id``; returns the run id.

    A run that was killed resumes where it stopped: finished episodes are skipped and an
    interrupted one continues after its last committed turn.

    ``executor`` says where episodes run; without one they run in this process on
    ``verifier`` (the local executor). This process commits every turn.
    """
    from .local import LocalExecutor

    if executor is None:
        if verifier is None:
            raise TypeError("generate() needs a verifier or an executor")
        executor = LocalExecutor(verifier)
    settings = {"config": _jsonable(asdict(config)), "samples": samples, "verifier_device": executor.device}
    run_id = store.start_run(model=llm.name, settings=settings, task_set=task_set, run_id=run_id)
    by_key = {t.key: t for t in tasks}
    for t in tasks:
        store.add_task(t.key, t.sha256, t.source, level=t.level, metadata=t.metadata)
    jobs = []
    for key, sample in store.pending(run_id, list(by_key), samples):
        ep, done_turns = store.begin_episode(run_id, key, sample)
        if ep.status != "done":
            jobs.append(EpisodeJob(by_key[key], sample, ep.episode_id, done_turns))
    for ev in executor.episodes(jobs, llm, config, concurrency=concurrency, stop=stop):
        if isinstance(ev, TurnDone):
            store.add_turn(ev.turn)  # idempotent, and only ever the next idx
            if on_turn is not None:
                on_turn(ev.episode_id, ev.turn)
        elif isinstance(ev, EpisodeDone):
            err = finish_episode(store, ev.episode_id, ev.result, ev.error)
            if on_episode is not None:
                on_episode(ev.episode_id, ev.result, err)
        elif isinstance(ev, EpisodeLost):
            finish_episode(store, ev.episode_id, None, ev.error)
            if on_episode is not None:
                on_episode(ev.episode_id, None, ev.error)
    return run_id


def finish_episode(store: "Store", episode_id: str, result: "EpisodeResult | None", error: str | None) -> str | None:
    """Records how an episode ended; returns its error (None when it ended normally)."""
    if result is None:
        store.finish_episode(episode_id, "failed", error=error)
        return error
    # an episode the verifier kept failing on (infra_error) is not done: rerunning the run resumes
    # it, and its last turn's code is verified again
    failed = result.stopped in ("llm_error", "task_error", "infra_error")
    store.finish_episode(
        episode_id, "failed" if failed else "done", best_turn=result.best_turn, best_code=result.best_code,
        best_speedup=result.best_speedup, correct=result.correct, wall_s=result.wall_s, error=result.error,
    )
    return result.error


def _jsonable(o):
    from .._json import finite

    return json.loads(json.dumps(finite(o), default=str))
