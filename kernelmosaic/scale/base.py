"""The executor interface: where verifications and episodes run.

Whatever the executor, the process that calls it (the controller) is the only one that
writes to the store: workers hand back turns and verdicts as plain values and the
controller commits them, each turn once, in order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..agent.episode import EpisodeConfig, EpisodeResult
    from ..agent.policy import Policy
    from ..data import Store, TurnRecord
    from ..task import Task, TaskError
    from ..verify import Verdict, VerifyRequest

OnTurn = Callable[[str, "TurnRecord"], None]
OnEpisode = Callable[[str, "EpisodeResult | None", "str | None"], None]


class Executor(ABC):
    """Runs verification jobs and agent episodes; ``local`` (in this process) or ``ray``."""

    name: str = ""
    device: str = ""  # where candidates run: "cuda" or "cpu"

    @abstractmethod
    def verify_many(self, reqs: list["VerifyRequest"]) -> list["Verdict | TaskError"]:
        """Verdicts in the order of ``reqs``, as :meth:`Verifier.verify_many` returns them."""

    @abstractmethod
    def run_episodes(
        self,
        store: "Store",
        run_id: str,
        jobs: list[tuple["Task", int]],
        policy: "Policy",
        config: "EpisodeConfig",
        *,
        concurrency: int,
        on_turn: OnTurn | None = None,
        on_episode: OnEpisode | None = None,
    ) -> None:
        """Runs every (task, sample) episode of ``run_id`` to the end, committing each turn to
        ``store`` as it arrives and finishing each episode there. Episodes already done are
        skipped; interrupted ones continue after their last committed turn."""

    def close(self) -> None:
        pass

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def finish_episode(store: "Store", episode_id: str, result: "EpisodeResult | None", error: str | None) -> str | None:
    """Records how an episode ended; returns its error (None when it ended normally)."""
    if result is None:
        store.finish_episode(episode_id, "failed", error=error)
        return error
    failed = result.stopped in ("policy_error", "task_error")
    store.finish_episode(
        episode_id, "failed" if failed else "done", best_turn=result.best_turn, best_code=result.best_code,
        best_speedup=result.best_speedup, correct=result.correct, wall_s=result.wall_s, error=result.error,
    )
    return result.error
