"""The default executor: this process, a thread per episode in flight, and the verifier's
worker processes (one lane per GPU, or N on the CPU)."""

from __future__ import annotations

import queue
import threading
from collections import deque

from .base import EpisodeDone, EpisodeJob, Executor, TurnDone


class _Stopped(Exception):
    """Raised from an episode's on_turn once the run is stopping: it ends after that turn."""


class LocalExecutor(Executor):
    """Episodes run in threads of this process; candidates in the :class:`Verifier`'s workers.

    Pass a ``verifier`` to share one (it is not closed here), or the Verifier's options to
    make one that this executor owns.
    """

    name = "local"

    def __init__(self, verifier=None, *, device: str = "cuda", **verifier_options):
        if verifier is None:
            from ..verify import Verifier

            verifier = Verifier(device=device, **verifier_options)
            self._owns = True
        else:
            self._owns = False
        self.verifier = verifier
        self.device = verifier.device

    def verify_many(self, reqs):
        return self.verifier.verify_many(reqs)

    def episodes(self, jobs, llm, config, *, concurrency: int, stop: threading.Event | None = None):
        from ..agent.episode import Episode

        stop = stop or threading.Event()
        closed = threading.Event()  # the consumer went away: episodes stop after their turn
        items: queue.Queue = queue.Queue()
        todo: deque[EpisodeJob] = deque(jobs)
        running = 0

        def one(job: EpisodeJob) -> None:
            def on_turn(turn) -> None:
                # the episode waits until the controller has taken (committed) the turn, so a
                # turn is durable before the next one starts, as the episode promises
                taken = threading.Event()
                items.put(("turn", TurnDone(job.episode_id, turn), taken))
                taken.wait()
                if stop.is_set() or closed.is_set():
                    raise _Stopped

            episode = Episode(job.task, llm, self.verifier, config, episode_id=job.episode_id, on_turn=on_turn)
            try:
                items.put(("event", EpisodeDone(job.episode_id, episode.run(resume=job.done_turns)), None))
            except _Stopped:
                pass  # left running in the store: a rerun resumes it after its last turn
            except Exception as e:  # noqa: BLE001 - one broken episode must not stop the run
                items.put(("event", EpisodeDone(job.episode_id, None, f"{type(e).__name__}: {e}"), None))
            finally:
                items.put(("ended", None, None))

        try:
            while todo or running:
                while todo and running < max(1, concurrency) and not stop.is_set():
                    threading.Thread(target=one, args=(todo.popleft(),), daemon=True, name="kmosaic-episode").start()
                    running += 1
                if stop.is_set():
                    todo.clear()  # queued episodes are cancelled; they never began a turn
                if not running:
                    break
                try:
                    kind, ev, taken = items.get(timeout=0.5)  # wakes up to see stop being set
                except queue.Empty:
                    continue
                if kind == "ended":
                    running -= 1
                    continue
                try:
                    yield ev
                finally:
                    if taken is not None:
                        taken.set()
        finally:
            closed.set()
            while True:  # release episodes waiting on turns nobody will take
                try:
                    _, _, taken = items.get_nowait()
                except queue.Empty:
                    break
                if taken is not None:
                    taken.set()

    def close(self) -> None:
        if self._owns:
            self.verifier.close()
