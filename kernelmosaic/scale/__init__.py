"""Executors: where verification jobs and agent episodes run.

* ``local`` (the default): this process, a thread per episode, and the verifier's worker
  processes, one lane per GPU (or N on the CPU).
* ``ray``: verification actors pinned one per GPU of a Ray cluster, episodes as Ray
  tasks, with this process as the single controller and the only writer to the store.

Both run the same :class:`~kernelmosaic.agent.Episode` and the same verifier workers, so
they give the same verdicts and turns on the same inputs; see docs/scale.md. Executors yield
events; :func:`generate` (the controller, ``controller.py``) is the only writer to the store.
"""

from __future__ import annotations

from .base import EpisodeDone, EpisodeJob, EpisodeLost, Event, Executor, TurnDone
from .controller import finish_episode, generate
from .local import LocalExecutor

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "EpisodeDone", "EpisodeJob", "EpisodeLost", "Event", "Executor", "LocalExecutor", "RayExecutor",
           "RayUnavailable", "TurnDone", "finish_episode", "generate", "make_executor"]


def make_executor(kind: str = "local", *, device: str = "cuda", workers: int | None = None,
                  ray_address: str | None = None, **options) -> Executor:
    """``local``: ``workers`` verifier lanes (default one per GPU, or one per CPU core).
    ``ray``: ``workers`` verification actors (default one per GPU in the cluster, or one
    per ``cpus_per_actor`` CPUs); ``ray_address`` joins a running cluster (``auto``)."""
    if kind == "local":
        if ray_address is not None:
            raise ValueError("--ray-address needs --executor ray")
        return LocalExecutor(device=device, workers=workers, **options)
    if kind == "ray":
        from .ray_executor import RayExecutor

        return RayExecutor(device=device, address=ray_address, actors=workers, **options)
    raise ValueError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")


def __getattr__(name: str):
    # Ray stays an optional import: only touching the Ray executor loads it
    if name in ("RayExecutor", "RayUnavailable"):
        from . import ray_executor

        return getattr(ray_executor, name)
    raise AttributeError(name)
