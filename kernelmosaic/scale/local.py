"""The default executor: this process, a thread per episode in flight, and the verifier's
worker processes (one lane per GPU, or N on the CPU)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, as_completed

from .base import Executor, OnEpisode, OnTurn, finish_episode


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

    def run_episodes(self, store, run_id, jobs, policy, config, *, concurrency: int,
                     on_turn: OnTurn | None = None, on_episode: OnEpisode | None = None) -> None:
        from ..agent.episode import Episode

        lock = threading.Lock()

        def one(task, sample: int):
            ep, done_turns = store.begin_episode(run_id, task.key, sample)
            ep_id = ep.episode_id

            def commit(turn) -> None:
                store.add_turn(turn)  # committed before the next turn starts
                if on_turn is not None:
                    with lock:
                        on_turn(ep_id, turn)

            episode = Episode(task, policy, self.verifier, config, episode_id=ep_id, on_turn=commit)
            try:
                res, err = episode.run(resume=done_turns), None
            except Exception as e:  # noqa: BLE001 - one broken episode must not stop the run
                res, err = None, f"{type(e).__name__}: {e}"
            return ep_id, res, finish_episode(store, ep_id, res, err)

        with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="kmosaic-episode") as ex:
            futures = [ex.submit(one, t, s) for t, s in jobs]
            for f in as_completed(futures):
                ep_id, res, err = f.result()
                if on_episode is not None:
                    with lock:
                        on_episode(ep_id, res, err)

    def close(self) -> None:
        if self._owns:
            self.verifier.close()
