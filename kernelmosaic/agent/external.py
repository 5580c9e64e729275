"""Any coding agent as the policy: episodes driven from outside, one call per turn.

The loop in :mod:`.episode` asks a :class:`Policy` for each reply. Here the reply arrives
from outside instead, from an MCP client (``kmosaic mcp``, :mod:`.mcp_server`) or from a
command (``kmosaic episode``), and :class:`Workbench` is the one library both call:

* ``start`` records a new episode and returns the prompt the loop would show a model first;
* ``submit`` verifies a candidate, records the turn, and returns the verdict, the rendered
  feedback, the guidance and the next prompt, exactly as the loop builds them (the same
  :class:`Episode` methods, so the same stages and budgets);
* ``submit_many`` does that for many episodes through one ``Verifier.verify_each``, which
  builds in parallel, runs candidates on every device lane, and hands each verdict over as it
  comes (each is recorded at once);
* ``status``, ``best`` and ``finish``.

Nothing is kept in memory between calls: an episode is its rows in the store (its settings
and task in the episode's ``meta["external"]``, its state a function of its turns), so a
restarted server or a later command carries on where the last one stopped. Every
submission is a turn of an episode of the run whose model is ``external:<agent>``.

Bad input raises :class:`ExternalError` with a message meant for the agent; nothing is
recorded for it.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .._json import finite
from ..data import EpisodeRecord, Store, StoreError, TurnRecord
from ..task import Task, TaskError, load_kernelbench, resolve_task_spec
from ..verify import TimingConfig, Verifier
from .episode import Episode, EpisodeConfig, one_line
from .parse import extract_candidate
from .prompts import SYSTEM

POLICY_PREFIX = "external:"


class ExternalError(Exception):
    """Bad input from the agent (unknown or finished episode, empty candidate, unknown task)."""


def policy_name(agent: str | None, version: str | None = None) -> str:
    """``external:<name>/<version>``, from an MCP clientInfo or a ``--agent`` value."""
    name = " ".join((agent or "").split())[:80] or "unknown"
    if version and version.strip():
        name = f"{name}/{' '.join(version.split())[:40]}"
    return POLICY_PREFIX + name


@dataclass
class Settings:
    """How new episodes run (an episode keeps the settings it started with)."""

    device: str = "cpu"
    backend: str = "cpp"
    policy: str = "strict"
    max_repair: int = 4
    max_optimize: int = 2
    trials: int = 5
    timing: TimingConfig = field(default_factory=TimingConfig)
    profile: bool = True
    guidance_k: int = 3
    context_turns: int = 2

    def config(self) -> EpisodeConfig:
        return EpisodeConfig(backend=self.backend, policy=self.policy, max_repair=self.max_repair,
                             max_optimize=self.max_optimize, trials=self.trials, timing=self.timing,
                             profile=self.profile, guidance_k=self.guidance_k, context_turns=self.context_turns)


def config_to_dict(cfg: EpisodeConfig) -> dict:
    return asdict(cfg)


def config_from_dict(d: dict) -> EpisodeConfig:
    known = {f.name for f in fields(EpisodeConfig)}
    kw = {k: v for k, v in d.items() if k in known}
    if isinstance(kw.get("timing"), dict):
        tk = {f.name for f in fields(TimingConfig)}
        kw["timing"] = TimingConfig(**{k: v for k, v in kw["timing"].items() if k in tk})
    return EpisodeConfig(**kw)


class _Pending(NamedTuple):
    """A submission checked and ready for the batch's verification."""

    index: int  # its place in the batch
    rec: EpisodeRecord
    ep: Episode
    turns: list[TurnRecord]
    stage: str
    messages: list[dict]
    guidance_ids: list[str]
    reply: str
    code: str | None
    problem: str | None  # why there is no code
    latency_s: float


class _LazyVerifier:
    """The verifier, started on the first verification: listing tasks or reading an
    episode's status never starts worker processes."""

    def __init__(self, device: str, verifier: Verifier | None, options: dict):
        self.device = device
        self._v = verifier
        self._owns = verifier is None
        self._options = options
        self._lock = threading.Lock()

    def get(self) -> Verifier:
        with self._lock:
            if self._v is None:
                try:
                    self._v = Verifier(device=self.device, **self._options)
                except (RuntimeError, ValueError, OSError) as e:
                    raise ExternalError(f"the verifier cannot start on {self.device}: {e}") from None
            return self._v

    def verify(self, req):
        return self.get().verify(req)

    def verify_each(self, reqs):
        """(index, verdict) as each is judged (``Verifier.verify_each``)."""
        if not reqs:
            return
        v = self.get()
        done = 0
        try:
            for item in v.verify_each(reqs):
                done += 1
                yield item
        except RuntimeError as e:  # the worker pool itself failed
            raise ExternalError(f"verification failed; {done} verdict(s) before it were recorded: {e}") from None

    def close(self) -> None:
        if self._owns and self._v is not None:
            self._v.close()


_KB_KEY = re.compile(r"^L(\d)/(\d+)_")


class Workbench:
    """Tasks to pick from, a store to record in, a verifier to judge with."""

    def __init__(self, store: str | Path, settings: Settings | None = None, *, kernelbench: str | None = None,
                 tasksets: list[str | Path] | None = None, run_id: str | None = None,
                 verifier: Verifier | None = None, verifier_options: dict | None = None, interface: str = "api"):
        self.settings = settings or Settings()
        try:
            self.store = Store(store)
        except StoreError as e:
            raise ExternalError(str(e)) from None
        self.kernelbench = kernelbench
        self.run_id = run_id
        self.interface = interface
        self.verifier = _LazyVerifier(self.settings.device, verifier, verifier_options or {})
        self._sets = _find_sets(tasksets)
        self._kb_tasks: list[Task] | None = None
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        from ..guidance import load_default

        self.kb = load_default()

    def close(self) -> None:
        self.verifier.close()
        self.store.close()

    def __enter__(self) -> "Workbench":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- tasks ----------------------------------------------------------------------------------
    def sources(self) -> list[dict]:
        out = [{"name": name, "kind": "task set", "path": str(ts.root), "tasks": len(ts.records)}
               for name, ts in self._sets.items()]
        if self._kernelbench_dir() is not None:
            out.append({"name": "kernelbench", "kind": "KernelBench levels 1-3", "path": str(self._kernelbench_dir()),
                        "tasks": len(self._kernelbench())})
        return out

    def list_tasks(self, source: str | None = None, query: str | None = None, offset: int = 0,
                   limit: int = 50) -> dict:
        """Task ids (for ``start``) with what describes them, filtered and paged."""
        names = [s["name"] for s in self.sources()]
        if source is not None and source not in names:
            raise ExternalError(f"unknown task source {source!r}; sources here: {', '.join(names) or 'none'} "
                                "(task files can be started by path)")
        rows: list[dict] = []
        for name, ts in self._sets.items():
            if source not in (None, name):
                continue
            from ..curate.review import statuses

            st = statuses(ts)
            for r in ts.records:
                if st.get(r["name"]) in ("accepted", "auto"):
                    rows.append({"id": f"{name}/{r['name']}", "category": r.get("category"), "ops": r.get("ops"),
                                 "dtypes": r.get("dtypes"), "eager_ms": r.get("eager_ms")})
        if source in (None, "kernelbench") and self._kernelbench_dir() is not None:
            rows += [{"id": f"L{t.level}/{t.problem_id}", "key": t.key, "level": t.level} for t in self._kernelbench()]
        if query:
            q = query.lower()
            rows = [r for r in rows if q in " ".join(str(v) for v in r.values()).lower()]
        offset, limit = max(0, int(offset)), max(1, min(int(limit), 500))
        return {"total": len(rows), "offset": offset, "tasks": rows[offset:offset + limit],
                "sources": self.sources()}

    def resolve_task(self, spec: str) -> Task:
        """``SET/NAME`` (a task set), ``L1/19`` or ``L1/19_ReLU`` (KernelBench), or a task file."""
        spec = (spec or "").strip()
        if not spec:
            raise ExternalError("no task given")
        head, _, rest = spec.partition("/")
        if head in self._sets and rest:
            ts = self._sets[head]
            rec = ts.by_name().get(rest)
            if rec is None:
                raise ExternalError(f"task set {head} has no task {rest!r}")
            try:
                return ts.load(rec)
            except TaskError as e:
                raise ExternalError(str(e)) from None
        m = _KB_KEY.match(spec)
        if m and not Path(spec).exists():
            spec = f"L{m.group(1)}/{m.group(2)}"
        try:
            return resolve_task_spec(spec, self.kernelbench)
        except TaskError as e:
            raise ExternalError(f"{e} (a task is SET/NAME from a task set, L<level>/<id> from KernelBench, "
                                "or a task file)") from None

    def read_task(self, spec: str) -> dict:
        t = self.resolve_task(spec)
        meta = {k: v for k, v in (t.metadata or {}).items() if k in ("category", "ops", "dtypes", "shapes", "eager_ms",
                                                                      "gpu", "status")}
        return {"id": spec, "key": t.key, "source": t.source, "metadata": meta}

    def _kernelbench_dir(self) -> Path | None:
        from ..task import resolve_kernelbench_dir

        try:
            return resolve_kernelbench_dir(self.kernelbench)
        except TaskError:
            return None

    def _kernelbench(self) -> list[Task]:
        if self._kb_tasks is None:
            self._kb_tasks = [t for t in load_kernelbench(self.kernelbench, (1, 2, 3)) if not t.needs_weights]
        return self._kb_tasks

    # -- episodes ---------------------------------------------------------------------------------
    def start(self, task_spec: str, agent: str) -> dict:
        """A new episode of ``task_spec`` for the agent named ``agent`` (see :func:`policy_name`)."""
        task = self.resolve_task(task_spec)
        policy = agent if agent.startswith(POLICY_PREFIX) else policy_name(agent)
        run_id = self.run_id or policy
        cfg = self.settings.config()
        ext = {"policy": policy, "interface": self.interface, "task_spec": task_spec, "config": config_to_dict(cfg),
               "device": self.settings.device,
               "task": {"name": task.name, "level": task.level, "problem_id": task.problem_id, "origin": task.origin,
                        "path": task.path}}
        # begin_episode hands back an episode that already exists, so another process starting the
        # same task at the same moment could pick the same sample: the nonce tells whose it is
        ext["nonce"] = uuid.uuid4().hex
        with self._lock:
            try:
                self.store.start_run(model=policy, settings={"interface": "external"}, task_set="external",
                                     run_id=run_id)
                self.store.add_task(task.key, task.sha256, task.source, level=task.level, metadata=task.metadata)
                sample = 1 + max((e.sample for e in self.store.episodes(run_id) if e.task_key == task.key), default=-1)
                for sample in range(sample, sample + 1000):
                    rec, _ = self.store.begin_episode(run_id, task.key, sample, meta={"external": ext})
                    if (rec.meta.get("external") or {}).get("nonce") == ext["nonce"]:
                        break
                else:
                    raise ExternalError(f"could not allocate a new episode of {task.key} in run {run_id}")
            except StoreError as e:
                raise ExternalError(str(e)) from None
        ep = self._episode(rec.episode_id, task, cfg)
        stage, messages, _ = ep.prompt([])
        return {"episode_id": rec.episode_id, "task": task.key, "policy": policy, "run_id": run_id, "stage": stage,
                "turn": 0, "system": SYSTEM, "prompt": messages[-1]["content"], "budgets": self._budgets(cfg, ep, [])}

    def submit(self, episode_id: str, candidate: str, agent: str | None = None) -> dict:
        """Verify one candidate (a Python file, or a reply holding one in a fenced block)."""
        r = self.submit_many([(episode_id, candidate)], agent=agent)[0]
        if "error" in r:
            raise ExternalError(r["error"])
        return r

    def submit_many(self, items: list[tuple[str, str]], agent: str | None = None,
                    on_result: Callable[[int, dict], None] | None = None) -> list[dict]:
        """One result per (episode id, candidate), in order; the candidates are verified at once
        (the verifier's lanes and build workers), and each verdict is recorded as a turn as soon
        as it comes, then handed to ``on_result(index, result)``: a batch cut short keeps every
        verdict it reached. A bad item gets ``{"episode_id", "error"}`` and the others go on."""
        results: list[dict | None] = [None] * len(items)
        held: list[threading.Lock] = []
        prepared = []
        try:
            seen: set[str] = set()
            for i, (eid, text) in enumerate(items):
                try:
                    if eid in seen:
                        raise ExternalError(f"episode {eid!r} appears twice in one batch; one candidate per turn")
                    seen.add(eid)
                    lock = self._episode_lock(eid)
                    if not lock.acquire(timeout=0):
                        raise ExternalError(f"episode {eid!r} is verifying another submission right now; "
                                            "wait for its result")
                    held.append(lock)
                    rec, ep, turns = self._load(eid, for_verify=True)
                    if rec.status != "running":
                        raise ExternalError(f"episode {eid!r} is finished ({rec.status}); it takes no more "
                                            "submissions (start a new episode)")
                    stage, messages, gids = ep.prompt(turns)
                    if stage is None:
                        raise ExternalError(f"episode {eid!r} has spent its turn budgets; finish it")
                    reply, code, problem = _candidate(text)
                    prompted = turns[-1].created_at if turns else rec.started_at
                    prepared.append(_Pending(i, rec, ep, turns, stage, messages, gids, reply, code, problem,
                                             max(0.0, time.time() - prompted)))
                except ExternalError as e:
                    results[i] = {"episode_id": eid, "error": str(e)}
            to_verify = [p for p in prepared if p.code is not None]

            def commit(p: "_Pending", verdict, verify_s: float) -> None:
                try:
                    results[p.index] = self._commit(p, verdict, verify_s, len(to_verify), agent)
                except ExternalError as e:
                    results[p.index] = {"episode_id": p.rec.episode_id, "error": str(e)}
                if on_result is not None:
                    on_result(p.index, results[p.index])

            for p in prepared:
                if p.code is None:
                    commit(p, None, 0.0)
            t0 = time.perf_counter()
            for j, verdict in self.verifier.verify_each([p.ep.request(p.code) for p in to_verify]):
                commit(to_verify[j], verdict, time.perf_counter() - t0)
        finally:
            for lock in held:
                lock.release()
        return results  # type: ignore[return-value]

    def _commit(self, p: "_Pending", verdict, verify_s: float, batch: int, agent: str | None) -> dict:
        rec, ep, turns, stage, code = p.rec, p.ep, p.turns, p.stage, p.code
        if code is None:
            vd = ep.no_code(p.problem)
        elif isinstance(verdict, TaskError):
            # the task itself is broken: the loop stops such an episode as failed, and so does this
            self.store.finish_episode(rec.episode_id, "failed", error=f"task error: {verdict}")
            raise ExternalError(f"the task is broken, not your kernel: {verdict}; the episode is closed as failed")
        else:
            vd = verdict.to_dict()
        ext = rec.meta.get("external") or {}
        # latency_s: seconds from the prompt being issued to this submission (the agent's time)
        meta = {"llm": ext.get("policy"), "interface": self.interface, "finish_reason": None}
        if agent and agent != ext.get("policy"):
            meta["agent"] = agent
        if batch > 1:
            meta["batch"] = batch  # verify_s is then the time from the batch's start to this verdict
        turn = ep.record(turns, stage, p.messages, p.guidance_ids, p.reply, code, vd, latency_s=p.latency_s,
                         verify_s=verify_s, meta=meta)
        try:
            self.store.add_turn(turn)
        except StoreError as e:
            raise ExternalError(f"not recorded: {e}") from None
        after = [*turns, turn]
        nstage, nmessages, _ = ep.prompt(after)
        guidance, gids_next = ep.guidance(vd, nstage, code) if nstage else ("", [])
        out = {"episode_id": rec.episode_id, "turn": turn.idx, "stage": stage, "status": vd.get("status"),
               "correct": vd.get("status") == "correct", "feedback": turn.feedback, "guidance": guidance,
               "guidance_ids": gids_next, "next_stage": nstage,
               "next_prompt": nmessages[-1]["content"] if nmessages else None,
               "best": _best(ep, after), "budgets": self._budgets(ep.cfg, ep, after), "done": nstage is None,
               "verdict": vd}
        if "profile" in turn.meta:
            out["profile"] = turn.meta["profile"]
        if vd.get("status") == "infra_error":
            # the verifier failed, not the kernel: the turn is recorded but charges no budget;
            # submitting the same candidate again verifies it again
            out["feedback"] = turn.feedback + "\nSubmit the same candidate again: this turn does not count against your budgets."
        if nstage is None:
            self._close(rec.episode_id, ep, after)
            out["stopped"] = "budgets spent: " + ("optimize turns used up" if out["best"] else "no correct kernel "
                                                  "within the repair turns")
        return out

    def status(self, episode_id: str) -> dict:
        rec, ep, turns = self._load(episode_id)
        stage, messages, _ = ep.prompt(turns) if rec.status == "running" else (None, [], [])
        ext = rec.meta.get("external") or {}
        return {"episode_id": rec.episode_id, "task": rec.task_key, "policy": ext.get("policy"),
                "status": rec.status, "turns": len(turns), "next_stage": stage,
                "next_prompt": messages[-1]["content"] if messages else None,
                "best": _best(ep, turns), "budgets": self._budgets(ep.cfg, ep, turns),
                "history": [{"turn": t.idx, "stage": t.stage, "status": t.verdict.status,
                             "summary": one_line(t.verdict), "guidance_ids": t.guidance_ids} for t in turns]}

    def best(self, episode_id: str) -> dict:
        rec, ep, turns = self._load(episode_id)
        b = _best(ep, turns)
        return {"episode_id": rec.episode_id, "correct": b is not None,
                "code": turns[b["turn"]].code if b else None, "best": b}

    def finish(self, episode_id: str) -> dict:
        """Ends a running episode with its best kernel; on a finished one it only reports."""
        with self._episode_lock(episode_id):
            rec, ep, turns = self._load(episode_id)
            already = rec.status != "running"
            if not already:
                self._close(rec.episode_id, ep, turns)
        return {**self.status(episode_id), "already_finished": already}

    def episodes(self, status: str | None = None) -> list[dict]:
        """Every episode driven from outside in this store (all runs with an external policy)."""
        out = []
        for rid in self.store.run_ids():
            run = self.store.get_run(rid)
            if run is None or not run.model.startswith(POLICY_PREFIX):
                continue
            for e in self.store.episodes(rid, status):
                out.append({"episode_id": e.episode_id, "task": e.task_key, "policy": run.model, "status": e.status,
                            "turns": e.n_turns, "correct": e.correct})
        return out

    # -- internals ----------------------------------------------------------------------------------
    def _episode_lock(self, eid: str) -> threading.Lock:
        with self._lock:
            return self._locks.setdefault(eid, threading.Lock())

    def _episode(self, eid: str, task: Task, cfg: EpisodeConfig) -> Episode:
        return Episode(task, None, self.verifier, cfg, episode_id=eid, guidance=self.kb)  # type: ignore[arg-type]

    def _load(self, episode_id: str, for_verify: bool = False):
        eid = (episode_id or "").strip()
        if not eid:
            raise ExternalError("no episode id given")
        try:
            rec = self.store.get_episode(eid)
        except StoreError as e:
            raise ExternalError(str(e)) from None
        if rec is None:
            raise ExternalError(f"unknown episode {eid!r} in {self.store.path}")
        ext = rec.meta.get("external")
        if not ext:
            raise ExternalError(f"episode {eid!r} belongs to a `kmosaic generate` run, not to an external agent")
        cfg = config_from_dict(ext.get("config") or {})
        if for_verify and (cfg.backend in ("cuda", "nvrtc") and self.settings.device != "cuda"
                           or cfg.backend == "cpp" and self.settings.device != "cpu"):
            raise ExternalError(f"episode {eid!r} uses the {cfg.backend} backend; this server verifies on "
                                f"{self.settings.device} (run it with --device "
                                f"{'cuda' if cfg.backend != 'cpp' else 'cpu'})")
        row = self.store.get_task(rec.task_key)
        if row is None:
            raise ExternalError(f"episode {eid!r}: its task {rec.task_key!r} is missing from the store")
        ti = ext.get("task") or {}
        task = Task(name=ti.get("name") or rec.task_key, source=row["source"], path=ti.get("path"),
                    level=row.get("level"), problem_id=ti.get("problem_id"), origin=ti.get("origin") or "file",
                    metadata=row.get("metadata") or {})
        return rec, self._episode(eid, task, cfg), self.store.turns(eid)

    def _close(self, eid: str, ep: Episode, turns: list[TurnRecord]) -> None:
        b = ep.state(turns)["best"]
        best = turns[b] if b is not None else None
        self.store.finish_episode(
            eid, "done", best_turn=b, best_code=best.code if best else None,
            best_speedup=(best.verdict.timing.speedup_eager if best and best.verdict.timing else None),
            correct=best is not None, wall_s=sum((t.latency_s or 0) + (t.verify_s or 0) for t in turns))

    @staticmethod
    def _budgets(cfg: EpisodeConfig, ep: Episode, turns: list[TurnRecord]) -> dict:
        st = ep.state(turns)
        return {"max_repair": cfg.max_repair, "max_optimize": cfg.max_optimize,
                "repair_left": max(0, cfg.max_repair - st["repairs"]),
                "optimize_left": max(0, cfg.max_optimize - st["optimizes"])}


# -- what a model reads: the MCP tools' text and the step CLI's human output ---------------------------
def render_submit(r: dict) -> str:
    head = f"episode {r['episode_id']}, turn {r['turn']} ({r['stage']}): {str(r['status']).upper()}"
    if r.get("done"):
        best = r.get("best")
        tail = (f"The episode is finished ({r.get('stopped')}). "
                + (f"Best kernel: turn {best['turn']}." if best else "No correct kernel."))
        return "\n\n".join([head, r["feedback"], tail])
    left = r["budgets"]
    return "\n\n".join([head, r["next_prompt"],
                        f"[next turn: {r['next_stage']}; repair turns left {left['repair_left']}, optimize turns "
                        f"left {left['optimize_left']}]"])


def render_status(r: dict) -> str:
    lines = [f"episode {r['episode_id']} ({r['task']}, {r['policy']}): {r['status']}, {r['turns']} turns"]
    for h in r["history"]:
        lines.append(f"- turn {h['turn']} ({h['stage']}): {h['summary']}")
    b = r.get("best")
    lines.append(f"best: turn {b['turn']}" if b else "best: none yet")
    if r.get("next_prompt"):
        lines.append(f"next turn: {r['next_stage']}\n\n{r['next_prompt']}")
    return "\n".join(lines)


def _best(ep: Episode, turns: list[TurnRecord]) -> dict | None:
    b = ep.state(turns)["best"]
    if b is None:
        return None
    timing = turns[b].verdict.timing
    return {"turn": b, "timing": None if timing is None else finite(asdict(timing))}


def _candidate(text: str) -> tuple[str, str | None, str | None]:
    """(reply as recorded, code or None, why there is no code).

    A plain Python file is the candidate as it is; text with a fenced block goes through the
    loop's own reply parser, so the same rules apply and a reply without ``ModelNew`` becomes
    an ``invalid_candidate`` turn, as it does in the loop. The recorded reply is the text an
    assistant message would hold (a file gets a ```python fence)."""
    if text is None or not str(text).strip():
        raise ExternalError("the candidate is empty: send the complete Python file that defines class ModelNew")
    text = str(text)
    if "```" not in text and re.search(r"^\s*class\s+ModelNew\b", text, re.M):
        code = text.rstrip() + "\n"
        return f"```python\n{code}```", code, None
    parsed = extract_candidate(text)
    return text, parsed.code, parsed.problem


def _find_sets(paths: list[str | Path] | None) -> dict:
    """Task sets by name: each path is a set, or a folder of sets. Default: ./tasksets."""
    from ..curate.taskset import TaskSet, is_task_set

    if paths is None:
        paths = [Path("tasksets")] if Path("tasksets").is_dir() else []
    sets: dict[str, Any] = {}
    for p in map(Path, paths):
        if not p.is_dir():
            raise ExternalError(f"{p}: no such folder of task sets")
        cands = [p] if is_task_set(p) else sorted(c for c in p.iterdir() if is_task_set(c))
        for c in cands:
            try:
                ts = TaskSet.open(c)
            except TaskError as e:
                raise ExternalError(str(e)) from None
            sets[ts.name] = ts
    return sets
