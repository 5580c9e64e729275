"""The orchestrator: candidate source + task -> Verdict, through isolated workers.

This process parses candidates (static rules) but never imports them, and it never
imports torch. Judge processes do the rest (``judge.py``), each with its candidate in a
sandboxed process of its own (``candidate.py``). Baselines (eager and
torch.compile times) are properties of the task and the machine, so they are
cached per (task hash, device, torch version, timing settings) and reused, timed
with the same method as candidates.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import random
import secrets
import time
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..task import Task, TaskError
from ..vocab import PROTOCOLS
from .machine import cpu_name
from . import protocols
from .policy import check_candidate
from .pool import (DEFAULT_TIMEOUTS, Outcome, WorkerPool, check_lanes_per_gpu, detect_arch, detect_gpus, lane_gpus,
                   run_one_off)
from .spec import BASELINE_PROVENANCE as _PROVENANCE, JobSpec, TimingConfig
from .verdict import BACKENDS, POLICIES, BaselineSource, Failure, Rejection, Target, Verdict

# backends whose builds are slow enough to run in parallel CPU processes ahead of the GPU
_PREBUILT_BACKENDS = ("cuda", "cpp")


@dataclass
class VerifyRequest:
    candidate: str
    task: Task
    backend: str = "cuda"
    policy: str = "strict"
    trials: int = 5
    seed: int | None = None  # None: fresh random seeds (recorded in the verdict)
    tolerances: dict[str, float] = field(default_factory=dict)  # atol, rtol, rel_norm overrides
    timing: TimingConfig = field(default_factory=TimingConfig)
    # eager/torch.compile times to divide by, measured elsewhere (KernelBench's stored ones, say):
    # {"eager_ms": float | None, "compile_ms": float | None, "note": str}. Neither is then timed
    # here, and nothing is read from or written to this machine's baseline cache.
    baselines: dict | None = None
    # the precision check against a float64 oracle (precision.py): None = on under ``strict``,
    # off under ``kernelbench`` (KernelBench's protocol is atol/rtol alone); True/False forces it
    precision: bool | None = None
    # the checks on other input shapes (variants.py); off only to compare with protocols that
    # check the task's one shape (KernelBench's own), and the verdict's notes then say so
    shape_variants: bool = True
    # kernelmosaic (the project's checks) or kernelbench (KernelBench's evaluator's semantics, for
    # comparable scores: protocols.py, which sets the fields above that it fixes)
    protocol: str = "kernelmosaic"


def default_cache_dir() -> Path:
    return Path(os.environ.get("KMOSAIC_CACHE_DIR") or Path.home() / ".cache" / "kernelmosaic")


class _JsonCache:
    """A small JSON file shared by processes, updated under an exclusive lock."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def _locked(self):
        with open(str(self.path) + ".lock", "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lk, fcntl.LOCK_UN)

    def get(self, key: str):
        return self.all().get(key)

    def all(self) -> dict:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict) -> None:
        # under _locked(): a whole new file, renamed over the old one, so readers never see half
        tmp = self.path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        os.replace(tmp, self.path)

    def put(self, key: str, value) -> None:
        with self._locked():
            data = self.all()
            data[key] = value
            self._write(data)

    def drop(self, keep) -> int:
        """Remove the entries for which ``keep(key, value)`` is false; returns how many went."""
        with self._locked():
            data = self.all()
            kept = {k: v for k, v in data.items() if keep(k, v)}
            if len(kept) != len(data):
                self._write(kept)
            return len(data) - len(kept)


def baseline_entries(cache_dir: Path | str | None = None) -> list[dict]:
    """The cached eager/torch.compile baselines (``kmosaic baselines list``): one dict per entry,
    with the parts of its key (task hash, device, GPU or CPU name, timed calls, warm-up, torch)."""
    path = Path(cache_dir or default_cache_dir()) / "baselines.json"
    if not path.exists():
        return []
    rows = []
    for key, entry in sorted(_JsonCache(path).all().items()):
        parts = key.split("|")
        row = {"key": key, "task_sha256": parts[0], "device": parts[1] if len(parts) > 1 else None,
               "device_name": parts[2] if len(parts) > 2 else None}
        for p in parts[3:]:
            if p.startswith(("n=", "w=")):
                row["n" if p[0] == "n" else "warmup"] = int(p[2:]) if p[2:].isdigit() else p[2:]
            elif p.startswith("torch="):
                row["torch"] = p[6:]
        rows.append({**row, **(entry if isinstance(entry, dict) else {"value": entry})})
    return rows


def clear_baselines(cache_dir: Path | str | None = None, task_sha256: str | None = None) -> int:
    """Remove cached baselines (all, or those of one task by its hash prefix); returns how many."""
    path = Path(cache_dir or default_cache_dir()) / "baselines.json"
    if not path.exists():
        return 0
    return _JsonCache(path).drop(lambda k, v: task_sha256 is not None and not k.startswith(task_sha256))

class Verifier:
    """Verify candidates against tasks on one device kind.

    >>> with Verifier(device="cpu") as v:
    ...     verdict = v.verify(VerifyRequest(candidate=src, task=load_task("relu.py"), backend="cpp"))
    """

    def __init__(
        self,
        device: str = "cuda",
        *,
        workers: int | None = None,
        gpus: list[str] | None = None,
        build_workers: int | None = None,
        cache_dir: str | os.PathLike | None = None,
        timeouts: dict[str, float] | None = None,
        prewarm: bool = True,
        # a judge runs no candidate code (each job gets a fresh candidate process), so one judge
        # may serve many jobs: half the interpreter starts per verdict
        jobs_per_worker: int = 32,
        spares: int | None = None,
        ceilings: dict | None = None,
        lanes_per_gpu: int = 1,
    ):
        if device not in ("cuda", "cpu"):
            raise ValueError("device must be 'cuda' or 'cpu'")
        check_lanes_per_gpu(lanes_per_gpu)
        if device == "cuda" and lanes_per_gpu > 1:
            # several judges on one GPU: their checks run at once, each candidate within its share of
            # the memory, and each timed loop alone on the GPU (quiet.py). ``workers`` picks the
            # first N GPUs, as with one lane each, before each gets its lanes (the pool would
            # otherwise cut the expanded list: a Ray actor's ``workers=1`` left one lane)
            base = gpus if gpus is not None else detect_gpus()
            gpus = lane_gpus(base[:workers] if workers else base, lanes_per_gpu)
            workers = None
        self.device = device
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self.build_dir = self.cache_dir / "build"
        self.build_dir.mkdir(parents=True, exist_ok=True)
        self.timeouts = {**DEFAULT_TIMEOUTS, **(timeouts or {})}
        self._given_timeouts = dict(timeouts or {})
        self.baselines = _JsonCache(self.cache_dir / "baselines.json")
        self.ceilings_cache = _JsonCache(self.cache_dir / "ceilings.json")
        extra = {}
        if device == "cuda":
            arch = os.environ.get("TORCH_CUDA_ARCH_LIST") or detect_arch()
            if arch:
                extra["TORCH_CUDA_ARCH_LIST"] = arch
        self.pool = WorkerPool(device, workers=workers, gpus=gpus, prewarm=prewarm, jobs_per_worker=jobs_per_worker, env=extra,
                               spares=spares, build_dir=str(self.build_dir))
        # builds stay off the cores that the GPU lanes time on, and yield to them
        self._build_env = dict(extra)
        if self.pool.cpu_split:
            self._build_env.update(KMOSAIC_CPUS=",".join(map(str, self.pool.cpu_split[1])), KMOSAIC_NICE="10")
        self.build_workers = build_workers or max(1, len(self.pool.cpu_split[1]) if self.pool.cpu_split else os.cpu_count() or 1)
        self._builds = ThreadPoolExecutor(max_workers=self.build_workers, thread_name_prefix="kmosaic-build")
        # copy bandwidth (GB/s) and matrix peak (TFLOP/s) for the speed-of-light floor:
        # measured once per GPU model unless given
        self._ceilings: dict | None = ceilings

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        self._builds.shutdown(wait=True)
        self.pool.close()

    def __enter__(self) -> "Verifier":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- public API ------------------------------------------------------------------------
    def verify(self, req: VerifyRequest) -> Verdict:
        """One verdict. Raises :class:`TaskError` when the task itself is broken."""
        r = self.verify_many([req])[0]
        if isinstance(r, TaskError):
            raise r
        return r

    def verify_many(self, reqs: list[VerifyRequest]) -> list[Verdict | TaskError]:
        """Verdicts for many candidates: builds run in parallel on all CPU cores, then
        the device lanes take the candidates as they become ready."""
        return [f.result() for f in self._submit(reqs)]

    def verify_each(self, reqs: list[VerifyRequest]) -> Iterator[tuple[int, Verdict | TaskError]]:
        """``verify_many`` as each verdict comes: (index into ``reqs``, verdict), so that a caller
        can record each one at once and a batch cut short keeps what it reached."""
        futures = self._submit(reqs)
        index = {f: i for i, f in enumerate(futures)}
        for f in as_completed(futures):
            yield index[f], f.result()

    def _submit(self, reqs: list[VerifyRequest]) -> list[Future]:
        for r in reqs:
            if r.backend not in BACKENDS:
                raise ValueError(f"unknown backend {r.backend!r} (choose from {', '.join(BACKENDS)})")
            if r.policy not in POLICIES:
                raise ValueError(f"unknown policy {r.policy!r} (choose from {', '.join(POLICIES)})")
            if r.trials < 1:
                raise ValueError("trials must be at least 1")
            if r.protocol not in PROTOCOLS:
                raise ValueError(f"unknown protocol {r.protocol!r} (choose from {', '.join(PROTOCOLS)})")
        if self.device == "cuda" and any(r.timing.enabled for r in reqs):
            self._ensure_ceilings()
        return [self._builds.submit(self._one, r) for r in reqs]

    def baseline(self, task: Task, timing: TimingConfig | None = None, *, use_cache: bool = True,
                 protocol: str = "kernelmosaic") -> dict:
        """Eager and torch.compile times of ``task`` on this machine, by the verifier's timing
        protocol (or KernelBench's: ``protocol``), cached per (task, device, torch, timing
        settings). Raises TaskError."""
        req = protocols.apply(VerifyRequest(candidate="", task=task, timing=timing or TimingConfig(), protocol=protocol))
        timing = req.timing
        key = self._baseline_key(req)
        hit = self.cached_baseline(task, timing, protocol=protocol) if use_cache and not timing.refresh else None
        if hit:
            return {**hit, "cached": True}
        if self.device == "cuda":
            self._ensure_ceilings()
        rng = random.Random(secrets.randbits(31))
        kb = protocols.is_kernelbench(protocol)
        job = JobSpec(kind="baseline", device=self.device, reference=task.source,
                      seeds=[protocols.KB_SEED] if kb else [rng.randrange(1, 2**31 - 1)],
                      timing_seeds=[protocols.KB_SEED] if kb else [rng.randrange(1, 2**31 - 1) for _ in range(2)],
                      build_dir=str(self.build_dir), timing=timing, protocol=req.protocol)
        out = self.pool.run(job, self.timeouts_for(req.protocol))
        if out.failure is not None:
            raise TaskError(task.path or task.key, f"timing the reference failed: {out.message}")
        r = out.result
        if r.get("status") != "ok":
            raise TaskError(task.path or task.key, r["error"]["message"])
        entry = {k: r.get(k) for k in ("eager_ms", "eager_cv", "compile_ms", "compile_cv", "n", "flops", "bytes", *_PROVENANCE)}
        entry.update(timed_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), device_name=r["env"].get("gpu") or r["env"].get("cpu"),
                     torch=r["env"].get("torch"), notes=r.get("notes") or [], steady=bool(r.get("steady", True)))
        if not timing.compile:
            for k in ("compile_ms", "compile_cv", "compile_spread"):
                entry.pop(k, None)
        # a noisy measurement is returned, never cached: the next call measures again
        stored = use_cache and entry["steady"]
        if stored:
            self.baselines.put(key, entry)
        elif use_cache and timing.refresh:
            self.baselines.drop(lambda k, _v: k != key)  # the entry being refreshed was distrusted
        return {**entry, "cached": False, "stored": stored}

    def ceilings(self) -> dict | None:
        """The copy bandwidth and matrix peak of this GPU (the speed-of-light floor), measured
        once per GPU model, while nothing else of ours runs; None on the CPU."""
        if self.device != "cuda":
            return None
        self._ensure_ceilings()
        return self._ceilings

    def target(self) -> Target | None:
        """This verifier's GPU as a prompt may describe it (name, SMs, measured bandwidth and
        peak); None on the CPU or where the ceilings could not be measured."""
        c = self.ceilings()
        if not c:
            return None
        return Target(name=str(c.get("name") or self._device_name), sms=c.get("sms"), bandwidth_gbs=c.get("bandwidth_gbs"),
                      peak_tflops=c.get("peak_tflops"))

    def cached_baseline(self, task: Task, timing: TimingConfig | None = None, protocol: str = "kernelmosaic") -> dict | None:
        """The cached eager/torch.compile times of ``task`` for this machine and timing settings,
        or None when :meth:`baseline` would have to measure them."""
        req = protocols.apply(VerifyRequest(candidate="", task=task, timing=timing or TimingConfig(), protocol=protocol))
        timing = req.timing
        hit = self._steady(self.baselines.get(self._baseline_key(req)))
        if hit and "eager_ms" in hit and ("compile_ms" in hit or not timing.compile):
            return hit
        return None

    # -- internals -------------------------------------------------------------------------
    def _one(self, req: VerifyRequest) -> Verdict | TaskError:
        t0 = time.monotonic()
        req = protocols.apply(req)
        kb = protocols.is_kernelbench(req.protocol)
        base_seed = req.seed if req.seed is not None else secrets.randbits(31)
        rng = random.Random(base_seed)
        seeds = [rng.randrange(1, 2**31 - 1) for _ in range(req.trials)]
        timing_seeds = [rng.randrange(1, 2**31 - 1) for _ in range(2)]
        if kb:
            seeds, timing_seeds = list(protocols.KB_TRIAL_SEEDS), [protocols.KB_SEED]
        verdict = Verdict(
            status="invalid_candidate", backend=req.backend, policy=req.policy, task=req.task.key,
            device=self.device, seeds=seeds, protocol=req.protocol,
        )
        static = check_candidate(req.candidate, req.backend, req.policy)
        if static.invalid:
            verdict.error = Failure("invalid_candidate", static.invalid)
            return verdict
        if static.rejections and not kb:  # KernelBench has no rules on how a kernel computes
            verdict.status = "rejected"
            verdict.rejections = [Rejection(**r) for r in static.rejections]
            verdict.error = Failure("rule", "static rules: " + ", ".join(sorted({r["rule"] for r in static.rejections})))
            return verdict
        job = JobSpec(
            kind="verify", device=self.device, backend=req.backend, policy=req.policy, reference=req.task.source,
            candidate=req.candidate, seeds=seeds, timing_seeds=timing_seeds, tolerances=dict(req.tolerances),
            kernel_names=static.kernel_names, build_dir=str(self.build_dir),
            timing=req.timing,
            ceilings=self._ceilings,
            precision=req.precision,
            shape_variants=req.shape_variants,
            protocol=req.protocol,
        )
        build_s = 0.0
        if self.device == "cuda" and req.backend in _PREBUILT_BACKENDS:
            bjob = JobSpec(**{**job.__dict__, "kind": "build", "device": "cpu"})
            b = run_one_off("cpu", bjob, self.timeouts, env=dict(self._build_env), build_dir=str(self.build_dir))
            build_s = b.wall_s
            if b.failure == "timeout":
                verdict.status = "timeout"
                verdict.error = Failure("timeout", "the build " + b.message, b.log_tail[-3000:])
                verdict.phases_s = {"compile": round(build_s, 3)}
                return verdict
            if b.result and b.result.get("status") in ("compile_error", "rejected"):
                verdict.status = b.result["status"]
                verdict.error = Failure(**b.result["error"])
                verdict.rejections = [Rejection(**r) for r in b.result.get("rejections") or []]
                verdict.phases_s = b.result.get("phases_s", {})
                return verdict
        given = req.baselines
        use_cache = req.timing.enabled and req.timing.use_cache and given is None
        bkey = self._baseline_key(req) if use_cache else ""
        # refresh: measured again in this verdict, and the new times replace the cached ones
        cached = self._steady(self.baselines.get(bkey)) if use_cache and not req.timing.refresh else None
        if given is not None:
            job.baselines = {"eager_ms": given.get("eager_ms"), "compile_ms": given.get("compile_ms")}
        elif cached:
            job.baselines = cached
        out = self.pool.run(job, self.timeouts_for(req.protocol))
        v = self._to_verdict(verdict, out, req.task.path or req.task.key)
        if isinstance(v, TaskError):
            return v
        if build_s:
            v.phases_s["build"] = round(build_s, 3)
        if given is not None and v.timing:
            v.notes.append(given.get("note") or "eager/torch.compile times given with the request, not measured here")
            v.timing.baseline = BaselineSource(source="given")
        if cached and v.timing:
            v.notes.append(f"eager/torch.compile baselines from the cache (timed {cached.get('timed_at', '?')} by this verifier's protocol on {cached.get('device_name', '?')})")
            v.timing.baseline = BaselineSource(source="cache", cached=True, **{k: cached.get(k) for k in (
                "timed_at", "device_name", "torch", "steady", *_PROVENANCE)})
        measured = v.timing.baseline if v.timing and v.timing.baseline and v.timing.baseline.source == "measured" else None
        if measured is not None:
            measured.timed_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            measured.device_name, measured.torch = v.env.get("gpu") or v.env.get("cpu"), v.env.get("torch")
        if measured is not None and use_cache and v.status == "correct" and measured.steady:
            # the baselines in a verdict were timed by a process that never ran candidate code;
            # a noisy one (not steady) is reported in this verdict only, and measured again next time
            entry, new = dict(cached or {}), False
            if req.timing.eager and "eager_ms" not in entry and v.timing.eager_ms is not None:
                entry.update(eager_ms=v.timing.eager_ms, eager_cv=v.timing.eager_cv, eager_spread=measured.eager_spread)
                new = True
            if req.timing.compile and "compile_ms" not in entry:
                # None (torch.compile failed on this task) is cached too: it would fail again
                entry.update(compile_ms=v.timing.compile_ms, compile_cv=v.timing.compile_cv, compile_spread=measured.compile_spread)
                new = True
            if new:
                entry.update(timed_at=measured.timed_at, device_name=measured.device_name, torch=measured.torch, steady=True,
                             attempts=measured.attempts, load_per_core=measured.load_per_core,
                             foreign_cores=measured.foreign_cores)
                self.baselines.put(bkey, entry)
                measured.cached = True
        elif measured is not None and use_cache and req.timing.refresh and not measured.steady:
            self.baselines.drop(lambda k, _v: k != bkey)  # the entry being refreshed was distrusted
        v.phases_s["total"] = round(time.monotonic() - t0, 3)
        return v

    @functools.cached_property
    def _device_name(self) -> str:
        if self.device == "cuda":
            import subprocess

            try:
                return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0].strip()
            except (OSError, IndexError, subprocess.TimeoutExpired):
                return "cuda"
        return cpu_name() or "cpu"

    @staticmethod
    def _steady(entry: dict | None) -> dict | None:
        """A cache entry fit to reuse: entries from before the noise check (no ``steady``) are
        measured again, like noisy ones, whose times were never trusted."""
        return entry if entry and entry.get("steady") else None

    def timeouts_for(self, protocol: str | None) -> dict[str, float]:
        return protocols.timeouts(self.timeouts, self._given_timeouts, protocol)

    def _baseline_key(self, req: VerifyRequest) -> str:
        tol = json.dumps(req.tolerances, sort_keys=True)
        # lc: GPU times with the long-call excess taken off (TimingConfig.long_call_calibration)
        # are not the same measure as those without
        lc = "|lc" if self.device == "cuda" and req.timing.long_call_calibration else ""
        # a mean is not a median; KernelBench's protocol also makes its inputs its own way
        how = "" if req.timing.statistic == "median" else f"|{req.timing.statistic}"
        how += "|kb" if protocols.is_kernelbench(req.protocol) else ""
        how += "|spin" if self.device == "cuda" and req.timing.spin_wait else ""
        return f"{req.task.sha256}|{self.device}|{self._device_name}|n={req.timing.n}|w={req.timing.warmup}|{tol}|{self._torch_tag()}{lc}{how}"

    @staticmethod
    @functools.lru_cache(maxsize=1)
    def _torch_tag() -> str:
        # workers run this interpreter, so its installed torch is theirs; reading the
        # package metadata keeps torch out of the orchestrator
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"torch={version('torch')}"
        except PackageNotFoundError:
            return "torch=?"

    def _ensure_ceilings(self) -> None:
        if self._ceilings is not None:
            return
        key = f"{self._device_name}|{self._torch_tag()}"
        got = self.ceilings_cache.get(key)
        if not got:
            out = self.pool.run(JobSpec(kind="ceilings", device=self.device), self.timeouts)
            got = (out.result or {}).get("ceilings")
            if got:
                self.ceilings_cache.put(key, got)
        self._ceilings = got or None

    def _to_verdict(self, verdict: Verdict, out: Outcome, task_where: str) -> Verdict | TaskError:
        if out.failure is not None:
            # a judge process that died or was lost (its candidate runs in a process of its own,
            # whose death the judge reports as the candidate's): the verifier's failure, after
            # the pool ran the job again on fresh judges
            lost = out.failure == "crash"
            verdict.status = "timeout" if out.failure == "timeout" else "infra_error"
            verdict.compiled = out.phase not in ("compile", "startup")
            verdict.error = Failure("worker_lost" if lost else out.failure,
                                    f"the verifier failed, not the candidate: {out.message}" if lost else out.message,
                                    out.log_tail[-3000:])
            verdict.attempts = list(out.attempts)
            verdict.env = {k: out.worker_env.get(k) for k in ("gpu", "torch", "cuda", "driver")}
            verdict.phases_s = {out.phase: round(out.wall_s, 3)}
            return verdict
        r = out.result
        if r.get("status") == "task_error":
            return TaskError(task_where, r["error"]["message"])
        env = r.get("env") or {}
        verdict = Verdict(
            status=r["status"], backend=verdict.backend, policy=verdict.policy, task=verdict.task, device=verdict.device,
            seeds=verdict.seeds, protocol=verdict.protocol, compiled=bool(r.get("compiled")), error=r.get("error"), mismatch=r.get("mismatch"),
            rejections=r.get("rejections") or [], timing=r.get("timing"), tolerances=r.get("tolerances") or {},
            phases_s=r.get("phases_s") or {}, notes=r.get("notes") or [],
            env={k: env.get(k) for k in ("gpu", "torch", "cuda", "driver")}, isolation=r.get("isolation"),
            attempts=list(out.attempts), precision=r.get("precision"), shape_variants=r.get("shape_variants") or [])
        pre = (r.get("worker") or {}).get("pre_run_s")
        if verdict.timing is not None and isinstance(verdict.timing.diagnostics, dict):
            # where the queue went: the judge's clean-up of the last job, and its start of this one
            w = r.get("worker") or {}
            verdict.timing.diagnostics["worker"] = {k: w.get(k) for k in ("pre_run_s", "last_cleanup_s", "last_cleanup_parts_s")}
        if out.queue_s is not None:
            # from the job's dispatch to its judge starting on it: the judge finishing the last
            # job's clean-up, then taking a warm candidate process
            verdict.phases_s["queue"] = round(out.queue_s + (pre if isinstance(pre, (int, float)) else 0.0), 3)
        # how long the judge's lane was this job's (retries included), and how long the job
        # waited for a free lane first: a batch's verdicts share the lanes, so their totals
        # overlap, while the judge times of one lane add up to its busy time
        verdict.phases_s["judge"] = round(out.wall_s, 3)
        if out.lane_wait_s >= 0.001:  # a lock hand-off, not a wait
            verdict.phases_s["lane_wait"] = round(out.lane_wait_s, 3)
        if out.gpu_wait_s >= 0.001:  # several lanes on the GPU: the wait to be admitted (pool.GpuGate)
            verdict.phases_s["gpu_wait"] = round(out.gpu_wait_s, 3)
        if out.alone:
            verdict.notes.append(f"judged with its GPU to itself, not beside the other lanes' jobs: {out.alone}")
        if verdict.status == "infra_error" and verdict.attempts:
            verdict.notes.append(f"the verifier failed on {len(verdict.attempts) + 1} fresh judges in a row; no verdict on the candidate")
        elif verdict.attempts:
            verdict.notes.append(f"{len(verdict.attempts)} earlier run(s) failed for the verifier's own reasons and were run "
                                 "again on a fresh judge (see attempts)")
        if env.get("cpu"):
            verdict.env["cpu"] = env["cpu"]
        return verdict
