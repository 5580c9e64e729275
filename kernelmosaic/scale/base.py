"""The executor interface: where verifications and episodes run.

An executor never sees the store. It runs episodes and yields what happened as events
(:class:`TurnDone`, :class:`EpisodeDone`, :class:`EpisodeLost`); the controller
(:mod:`kernelmosaic.scale.controller`) is the one process that writes them to the store,
each turn once, in order. Keeping the bookkeeping in one place is the point: it used to be
written twice, once per executor, and the copies drifted.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Union

if TYPE_CHECKING:
    from ..agent.episode import EpisodeConfig, EpisodeResult
    from ..agent.llm import LLM
    from ..data import TurnRecord
    from ..task import Task, TaskError
    from ..verify import Verdict, VerifyRequest

OnTurn = Callable[[str, "TurnRecord"], None]
OnEpisode = Callable[[str, "EpisodeResult | None", "str | None"], None]


@dataclass
class EpisodeJob:
    """One (task, sample) episode to run: ``done_turns`` are the turns already committed,
    which the episode resumes after."""

    task: "Task"
    sample: int
    episode_id: str
    done_turns: list["TurnRecord"] = field(default_factory=list)


@dataclass
class TurnDone:
    episode_id: str
    turn: "TurnRecord"


@dataclass
class EpisodeDone:
    """The episode ran to its end (``result``), or raised ``error`` (a failed episode)."""

    episode_id: str
    result: "EpisodeResult | None"
    error: str | None = None


@dataclass
class EpisodeLost:
    """The executor gave the episode up (its worker was lost too often): recorded as failed."""

    episode_id: str
    error: str


Event = Union[TurnDone, EpisodeDone, EpisodeLost]


class Executor(ABC):
    """Runs verification jobs and agent episodes; ``local`` (in this process) or ``ray``."""

    name: str = ""
    device: str = ""  # where candidates run: "cuda" or "cpu"

    @abstractmethod
    def verify_many(self, reqs: list["VerifyRequest"]) -> list["Verdict | TaskError"]:
        """Verdicts in the order of ``reqs``, as :meth:`Verifier.verify_many` returns them."""

    @abstractmethod
    def episodes(
        self,
        jobs: list[EpisodeJob],
        llm: "LLM",
        config: "EpisodeConfig",
        *,
        concurrency: int,
        stop: threading.Event | None = None,
    ) -> Iterator[Event]:
        """Runs the jobs, at most ``concurrency`` at a time, and yields their events.

        A turn's :class:`TurnDone` is yielded before the episode's next turn is asked for
        where the executor can hold it back (local), so that the caller commits it first.
        Once ``stop`` is set no queued job starts; episodes in flight end after the turn
        they are on (whose event is still yielded) and yield no :class:`EpisodeDone`, so
        they stay resumable."""

    def close(self) -> None:
        pass

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
