"""The Ray executor: verification actors pinned one per GPU, episodes as Ray tasks.

The single-controller pattern (as in verl): this process decides what runs where and is
the only writer to the store. Remote code returns plain values:

* A **verification actor** holds a :class:`Verifier` with one lane: the GPU Ray gave it
  (``num_gpus=1``, Ray sets ``CUDA_VISIBLE_DEVICES``), or ``cpus_per_actor`` CPU lanes.
  Candidates still run in the verifier's own worker processes inside the actor, so a
  crashing candidate costs a worker, never the actor.
* An **episode** is a streaming Ray task: it runs the same :class:`Episode` as the local
  executor, verifying through its actor, and yields each turn as it finishes. The
  controller commits the turn, so a turn is in the store moments after it is made.
* **Backpressure.** At most ``concurrency`` episodes are in flight, and each makes one LLM
  request or one verification at a time: the endpoint never sees more than
  ``concurrency`` requests, and the verifications queued anywhere never exceed it. An
  actor works on at most ``actor_concurrency`` of them at once (its GPU runs one at a
  time; the others wait for it or build on the CPU); the rest wait in its Ray queue.
* **Failures.** An actor whose process dies is restarted by Ray in place and its
  verifications are retried there. An actor that stops answering (its node is gone and
  it cannot be rescheduled) is killed and replaced. An episode whose task is lost (its
  worker or node died, or its actor was replaced) is re-queued and resumes after its last
  committed turn, exactly as ``kmosaic generate --run-id`` resumes. Committing is
  idempotent and in order, so no turn or episode is recorded twice.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from .base import EpisodeDone, EpisodeJob, EpisodeLost, Executor, TurnDone


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached or cannot host the actors."""


class VerifierActor:
    """A :class:`Verifier` inside a Ray actor. Wrapped with ``ray.remote`` by the executor."""

    def __init__(self, device: str, options: dict):
        from ..verify import Verifier

        self.verifier = Verifier(device=device, **options)

    def verify(self, req):
        from ..task import TaskError

        try:
            return self.verifier.verify(req)
        except TaskError as e:  # its constructor takes two arguments: sent as a plain tuple
            return ("task_error", e.where, e.problem)

    def info(self) -> dict:
        import socket

        import ray

        return {"pid": os.getpid(), "host": socket.gethostname(), "node": ray.get_runtime_context().get_node_id(),
                "lanes": len(self.verifier.pool), "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}

    def close(self) -> None:
        self.verifier.close()


def _unwrap(out):
    from ..task import TaskError

    if isinstance(out, tuple) and out and out[0] == "task_error":
        return TaskError(out[1], out[2])
    return out


class _ActorVerifier:
    """What an episode needs of a Verifier (``device``, ``verify``), served by an actor."""

    def __init__(self, actor, device: str):
        self.actor = actor
        self.device = device

    def verify(self, req):
        import ray

        from ..task import TaskError

        out = _unwrap(ray.get(self.actor.verify.remote(req)))
        if isinstance(out, TaskError):
            raise out
        return out


def _episode_task(task, policy, config, episode_id: str, done_turns: list, actor, device: str):
    """One episode attempt as a streaming Ray task: ("started", info), ("turn", TurnRecord)...,
    then ("result", EpisodeResult | None, error). Infrastructure failures (a lost actor)
    propagate, so the controller re-queues the attempt instead of recording a failure."""
    import queue
    import socket
    import threading

    import ray

    from ..agent.episode import Episode

    yield ("started", {"pid": os.getpid(), "host": socket.gethostname()})
    items: queue.Queue = queue.Queue()

    def body() -> None:
        try:
            ep = Episode(task, policy, _ActorVerifier(actor, device), config, episode_id=episode_id,
                         on_turn=lambda t: items.put(("turn", t)))
            items.put(("result", ep.run(resume=done_turns), None))
        except ray.exceptions.RayError as e:
            items.put(("lost", e))
        except Exception as e:  # noqa: BLE001 - as in the local executor: the episode failed
            items.put(("result", None, f"{type(e).__name__}: {e}"))
        except BaseException as e:  # noqa: BLE001 - never leave the generator waiting
            items.put(("lost", e))

    # the episode runs in a thread so that each turn can be yielded the moment it is made
    threading.Thread(target=body, daemon=True, name="kmosaic-episode").start()
    while True:
        item = items.get()
        if item[0] == "lost":
            raise item[1]
        yield item
        if item[0] == "result":
            return


@dataclass
class _Slot:
    """One verification actor as the controller sees it."""

    handle: object
    index: int
    load: int = 0  # episodes or verifications assigned and not finished
    ping_ref: object = None
    ping_sent: float = 0.0
    last_ok: float = field(default_factory=time.monotonic)
    info: dict = field(default_factory=dict)


@dataclass
class _Attempt:
    job: EpisodeJob
    tries: int
    episode_id: str
    slot: _Slot
    info: dict = field(default_factory=dict)


class RayExecutor(Executor):
    """Verification actors (one per GPU, or CPU actors of ``cpus_per_actor`` lanes) and
    episodes as Ray tasks, driven from this process.

    ``address``: ``None`` starts a local Ray instance (unless Ray is already initialised in
    this process, which is then used as is); ``"auto"`` or ``"HOST:PORT"`` joins a running
    cluster. ``ship_code`` sends this ``kernelmosaic`` package to the cluster's workers
    (``runtime_env`` ``py_modules``), so nodes need Python, torch and Ray but not this
    package; it defaults to on when joining a cluster.
    """

    name = "ray"

    def __init__(
        self,
        device: str = "cuda",
        *,
        address: str | None = None,
        actors: int | None = None,
        cpus_per_actor: int = 1,
        actor_concurrency: int = 8,
        verifier_options: dict | None = None,
        episode_cpus: float = 0.0,
        max_attempts: int = 3,
        actor_timeout_s: float = 300.0,
        startup_timeout_s: float = 600.0,
        ship_code: bool | None = None,
        init_options: dict | None = None,
    ):
        if device not in ("cuda", "cpu"):
            raise ValueError("device must be 'cuda' or 'cpu'")
        try:
            import ray
        except ImportError as e:
            raise RayUnavailable(f"the ray executor needs Ray: pip install 'kernelmosaic[ray]' ({e})") from None
        self._ray = ray
        self.device = device
        self.cpus_per_actor = max(1, int(cpus_per_actor))
        self.actor_concurrency = max(1, int(actor_concurrency))
        self.max_attempts = max(1, int(max_attempts))
        self.actor_timeout_s = actor_timeout_s
        self.stats = {"requeued": 0, "actors_replaced": 0, "lost": []}
        self._owns_ray = False
        self._inflight: dict = {}
        if not ray.is_initialized():
            self._init_ray(address, ship_code, init_options or {})
        lanes = 1 if device == "cuda" else self.cpus_per_actor
        self._verifier_options = {**(verifier_options or {}), "workers": lanes}
        if device == "cuda":
            self._verifier_options.pop("gpus", None)  # the actor's GPU is the one Ray assigned
        resources = ray.cluster_resources()
        if device == "cuda":
            n = actors or int(resources.get("GPU", 0))
            if n < 1:
                raise RayUnavailable("the Ray cluster has no GPUs (ray.cluster_resources() lists none); "
                                     "use --device cpu, or add GPU nodes")
            opts = {"num_gpus": 1, "num_cpus": self.cpus_per_actor}
        else:
            n = actors or max(1, int(resources.get("CPU", 1)) // self.cpus_per_actor)
            opts = {"num_cpus": self.cpus_per_actor}
        # max_restarts: a dead actor process comes back (on any node with room);
        # max_task_retries: its verifications are retried there instead of failing the episode
        self._actor_cls = ray.remote(VerifierActor).options(
            max_restarts=-1, max_task_retries=2, max_concurrency=self.actor_concurrency + 2, **opts)
        self._episode_fn = ray.remote(_episode_task).options(num_cpus=episode_cpus, max_retries=0)
        self._slots = [_Slot(self._new_actor(), i) for i in range(n)]
        self._wait_for_actors(startup_timeout_s)

    # -- cluster and actors ------------------------------------------------------------------
    def _init_ray(self, address: str | None, ship_code: bool | None, init_options: dict) -> None:
        ray = self._ray
        opts: dict = {"log_to_driver": False, "logging_level": logging.WARNING, **init_options}
        if ship_code is None:  # joining a cluster (RAY_ADDRESS does that too), not starting one
            ship_code = address is not None or bool(os.environ.get("RAY_ADDRESS"))
        if ship_code:
            import kernelmosaic

            env = dict(opts.get("runtime_env") or {})
            env["py_modules"] = list(env.get("py_modules") or []) + [str(Path(kernelmosaic.__file__).parent)]
            opts["runtime_env"] = env
        if address is None:
            opts.setdefault("include_dashboard", False)
        try:
            ray.init(address=address, **opts)
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise RayUnavailable(f"cannot start or reach {where}: {e}") from None
        self._owns_ray = True

    def _new_actor(self):
        return self._actor_cls.remote(self.device, self._verifier_options)

    def _wait_for_actors(self, timeout_s: float) -> None:
        ray = self._ray
        refs = [s.handle.info.remote() for s in self._slots]
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=timeout_s)
        if len(ready) < len(refs):
            self.close()
            raise RayUnavailable(f"only {len(ready)} of {len(refs)} verification actors started within {timeout_s:g}s "
                                 f"(each needs {'1 GPU and ' if self.device == 'cuda' else ''}{self.cpus_per_actor} CPU)")
        for s, ref in zip(self._slots, refs):
            try:
                s.info = ray.get(ref)
            except ray.exceptions.RayError as e:
                self.close()
                raise RayUnavailable(f"a verification actor failed to start: {_first_line(e)}") from None

    def actors(self) -> list[dict]:
        """Each actor's pid, host, node and lanes as of its last (re)start seen here."""
        return [dict(s.info, index=s.index, load=s.load) for s in self._slots]

    def refresh_actor_info(self) -> list[dict]:
        """Asks every actor again (after a restart its pid differs)."""
        for s in self._slots:
            s.info = self._ray.get(s.handle.info.remote())
        return self.actors()

    def _health(self) -> None:
        """Pings each actor; one that has not answered for ``actor_timeout_s`` is replaced.
        Ray restarts a crashed actor by itself; this catches the one that never comes back."""
        ray, now = self._ray, time.monotonic()
        for s in self._slots:
            if s.ping_ref is None:
                if now - s.last_ok >= min(5.0, self.actor_timeout_s / 2):
                    s.ping_ref, s.ping_sent = s.handle.info.remote(), now
                continue
            done, _ = ray.wait([s.ping_ref], timeout=0)
            if done:
                try:
                    s.info = ray.get(s.ping_ref)
                    s.last_ok, s.ping_ref = now, None
                    continue
                except ray.exceptions.RayError:
                    pass  # dead for good (e.g. killed without restart): replace it now
            elif now - s.ping_sent < self.actor_timeout_s:
                continue
            self._replace(s)

    def _replace(self, s: _Slot) -> None:
        ray = self._ray
        try:
            ray.kill(s.handle, no_restart=True)  # its pending verifications fail: their episodes are re-queued
        except Exception:  # noqa: BLE001 - already gone
            pass
        s.handle, s.ping_ref, s.last_ok, s.info = self._new_actor(), None, time.monotonic(), {}
        self.stats["actors_replaced"] += 1

    def _pick(self) -> _Slot:
        # an actor that has answered since its (re)start first, then the least busy
        return min(self._slots, key=lambda s: (not s.info, s.load, s.index))

    # -- verification jobs ---------------------------------------------------------------------
    def verify_many(self, reqs):
        ray = self._ray
        results: list = [None] * len(reqs)
        todo = deque((i, 0) for i in range(len(reqs)))
        inflight: dict = {}
        cap = self.actor_concurrency * len(self._slots)
        while todo or inflight:
            self._health()
            while todo and len(inflight) < cap:
                i, tries = todo.popleft()
                s = self._pick()
                s.load += 1
                inflight[s.handle.verify.remote(reqs[i])] = (i, tries, s)
            for ref in _ready(ray, inflight):
                i, tries, s = inflight.pop(ref)
                s.load -= 1
                try:
                    results[i] = _unwrap(ray.get(ref))
                except ray.exceptions.RayError as e:
                    # the actor was lost beyond Ray's own retries: another one takes the job
                    if tries + 1 >= self.max_attempts:
                        self._cancel(inflight)
                        raise RuntimeError(f"verification {i} was lost {tries + 1} times with its actor: "
                                           f"{_first_line(e)}") from None
                    self.stats["requeued"] += 1
                    todo.appendleft((i, tries + 1))
        return results

    # -- episodes ------------------------------------------------------------------------------
    def episodes(self, jobs, llm, config, *, concurrency: int, stop=None):
        ray = self._ray
        stop = stop or threading.Event()
        policy_ref = self._put_policy(llm)
        config_ref = ray.put(config)
        todo = deque((job, 0) for job in jobs)
        # the turns each episode has made so far: a re-queued attempt resumes after them
        # (this executor never reads the store; what it yielded is what was committed)
        made = {job.episode_id: list(job.done_turns) for job in jobs}
        inflight: dict = {}
        self._inflight = inflight
        limit = max(1, int(concurrency))
        try:
            while todo or inflight:
                if stop.is_set():
                    todo.clear()  # queued episodes are cancelled
                self._health()
                while todo and len(inflight) < limit:
                    job, tries = todo.popleft()
                    s = self._pick()
                    s.load += 1
                    gen = self._episode_fn.remote(job.task, policy_ref, config_ref, job.episode_id,
                                                  made[job.episode_id], s.handle, self.device)
                    inflight[gen] = _Attempt(job, tries, job.episode_id, s)
                for gen in _ready(ray, inflight):
                    a = inflight[gen]
                    try:
                        item = ray.get(next(gen))
                    except StopIteration:
                        item = ("lost", RuntimeError("the episode task ended without a result"))
                    except Exception as e:  # noqa: BLE001 - a lost worker, node or actor
                        item = ("lost", e)
                    if item[0] == "started":
                        a.info = item[1]
                        continue
                    if item[0] == "turn":
                        made[a.episode_id].append(item[1])
                        yield TurnDone(a.episode_id, item[1])
                        if not stop.is_set():
                            continue
                        # stopping: the episode ends after the turn it was on (resumable)
                        self._cancel({gen: a})
                    del inflight[gen]
                    a.slot.load -= 1
                    if item[0] == "result":
                        yield EpisodeDone(a.episode_id, item[1], item[2])
                    elif item[0] == "lost" and not stop.is_set():
                        ev = self._lost(a, item[1], todo)
                        if ev is not None:
                            yield ev
        finally:
            self._cancel(inflight)

    def in_flight(self) -> dict[str, dict]:
        """The episodes running now: episode id -> worker pid and host, actor index, attempt."""
        return {a.episode_id: dict(a.info, actor=a.slot.index, attempt=a.tries + 1) for a in self._inflight.values()}

    def _lost(self, a: _Attempt, error: BaseException, todo: deque) -> EpisodeLost | None:
        msg = _first_line(error)
        # until its actor answers a ping again, new work goes to the others (it may be gone)
        a.slot.info = {}
        self.stats["lost"].append({"episode_id": a.episode_id, "attempt": a.tries + 1, "error": msg})
        if a.tries + 1 >= self.max_attempts:
            return EpisodeLost(a.episode_id, f"lost its Ray worker {a.tries + 1} times; last: {msg}")
        self.stats["requeued"] += 1
        todo.appendleft((a.job, a.tries + 1))
        return None

    def _put_policy(self, policy):
        from ..agent.llm import TransformersLLM

        if isinstance(policy, TransformersLLM):
            raise ValueError("the transformers provider runs the model in this process; with --executor ray, "
                             "serve it with an OpenAI-compatible server (vLLM, SGLang) and use --provider openai")
        try:
            return self._ray.put(policy)
        except Exception as e:  # noqa: BLE001 - pickling errors come in many types
            raise ValueError(f"the policy {getattr(policy, 'name', policy)!r} cannot be sent to Ray workers: {e}") from None

    def _cancel(self, inflight: dict) -> None:
        for ref in list(inflight):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - finished or already gone
                pass

    # -- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        ray = self._ray
        slots, self._slots = getattr(self, "_slots", []), []
        if slots and ray.is_initialized():
            try:  # let each verifier stop its worker processes, then end the actors
                ray.wait([s.handle.close.remote() for s in slots], num_returns=len(slots), timeout=30)
            except Exception:  # noqa: BLE001
                pass
            for s in slots:
                try:
                    ray.kill(s.handle, no_restart=True)
                except Exception:  # noqa: BLE001
                    pass
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()
            self._owns_ray = False


def _ready(ray, inflight: dict) -> list:
    """What is ready now: waits up to a second for the first, then takes all that are ready."""
    refs = list(inflight)
    if not refs:
        return []
    ready, rest = ray.wait(refs, num_returns=1, timeout=1.0)
    if ready and rest:
        more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
        ready += more
    return ready


def _first_line(e: BaseException) -> str:
    s = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip().splitlines()  # Ray colours its task names
    return f"{type(e).__name__}: {s[0] if s else ''}"[:500]
