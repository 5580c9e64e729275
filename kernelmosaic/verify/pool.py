"""Isolated worker processes: one lane per GPU (or N on the CPU), each with warm spares.

Candidates run only in workers. A worker that crashes, hangs or exits is killed
(its whole process group, so a stuck compiler goes too) and replaced; the job gets
a verdict that says what happened. By default every job gets a fresh process, so a
candidate that patches torch or corrupts the CUDA context cannot touch the next
one; a spare that was warming in the background takes over at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import queue
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from .infra import INFRA_RETRIES, lane_share
from .spec import JobSpec

DEFAULT_TIMEOUTS = {"startup": 240.0, "compile": 600.0, "load": 120.0, "check": 180.0, "time": 600.0}


@dataclass
class Outcome:
    """What came back from a worker for one job."""

    result: dict | None  # the worker's result event, or None when it died or hung
    failure: str | None = None  # "timeout" | "crash"
    phase: str = "compile"
    message: str = ""
    log_tail: str = ""
    worker_env: dict = field(default_factory=dict)
    wall_s: float = 0.0
    # the runs before this one that failed for the verifier's own reasons (a judge lost, an
    # infra_error result), each on a judge that was then replaced: {attempt, phase, kind, message}
    attempts: list = field(default_factory=list)
    # how long the job waited in the pipe for its judge to finish the last job's clean-up (s)
    queue_s: float | None = None
    # the wait for a free lane before the job was dispatched (other jobs of a batch holding them)
    lane_wait_s: float = 0.0
    # several lanes on its GPU: the job ran with the GPU to itself (GpuGate), and why
    alone: str | None = None
    # ... and how long it waited for the other lanes' jobs to finish first
    gpu_wait_s: float = 0.0

    @property
    def infra(self) -> bool:
        """The verifier failed, not the candidate: its judge process died or was lost (a
        candidate runs in a process of its own, whose death the judge reports), or the judge
        reported infra_error."""
        return self.failure == "crash" or (self.result is not None and self.result.get("status") == "infra_error")

    def infra_summary(self) -> dict:
        if self.failure is not None:
            return {"phase": self.phase, "kind": "worker_lost", "message": self.message}
        err = (self.result or {}).get("error") or {}
        return {"phase": self.phase, "kind": str(err.get("kind") or "infra"), "message": str(err.get("message") or "")[:500]}


class _Events:
    """Reads JSON lines from a pipe with timeouts."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = b""

    def next(self, timeout: float) -> dict | str:
        """An event dict, ``"eof"`` or ``"timeout"``."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            r, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if not r:
                continue
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return "eof"
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            return {"event": "garbage", "line": line[:200].decode(errors="replace")}


# candidate processes a GPU judge keeps started ahead of its jobs (see WorkerProcess)
WARM_CANDIDATES = 4


def warm_candidates(device: str, env: dict[str, str]) -> int:
    """Candidate processes each judge keeps started ahead: WARM_CANDIDATES per GPU, split over the
    lanes that share it (KMOSAIC_GPU_LANES), at least one each. Every one holds a CUDA context
    (0.6 GiB on an H100), and so do the spare judges' own: four lanes with four each left 48
    processes holding 29 GiB of an H100's 80 in the pilot (2026-12-06), and the candidates'
    memory budgets smaller than KernelBench L1's 6 GiB outputs. Lanes take turns at the GPU, so
    as many warm processes per GPU cover as many verdicts as with one lane."""
    if device != "cuda":
        return 1
    try:
        lanes = max(1, int(env.get("KMOSAIC_GPU_LANES") or 1))
    except ValueError:
        lanes = 1
    return max(1, -(-WARM_CANDIDATES // lanes))

class WorkerProcess:
    """A judge process (``worker.py``); it starts its own sandboxed candidate process."""

    def __init__(self, device: str, env: dict[str, str], jobs: int = 1, build_dir: str | None = None):
        self.device = device
        r, w = os.pipe()
        self.log = tempfile.NamedTemporaryFile(prefix="kmosaic-worker-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            # candidate processes start ahead on a GPU: a start (torch, CUDA, CUPTI, the sandbox)
            # took 9-11 s on an H200 while verdicts took 1-5 s, and with two ahead half the
            # verdicts waited seconds for theirs. Four cover a start with four verdicts (four per GPU,
            # split over its lanes: warm_candidates).
            [sys.executable, "-m", "kernelmosaic.verify.worker", "--device", device, "--fd", str(w), "--jobs", str(jobs),
             "--warm", str(warm_candidates(device, env)),
             *(["--build-dir", build_dir] if build_dir else [])],
            stdin=subprocess.PIPE,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            pass_fds=(w,),
            start_new_session=True,
            env=env,
        )
        os.close(w)
        self.events = _Events(r)
        self._rfd = r
        self.ready: dict | None = None
        self.jobs_left = jobs

    def wait_ready(self, timeout: float) -> dict | str:
        if self.ready is not None:
            return self.ready
        ev = self.events.next(timeout)
        if isinstance(ev, dict) and ev.get("event") == "ready":
            self.ready = ev
        return ev

    def send(self, job: JobSpec) -> None:
        self.jobs_left -= 1
        self.proc.stdin.write((job.to_json() + "\n").encode())
        self.proc.stdin.flush()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin,):
            try:
                f.close()
            except OSError:
                pass
        try:
            os.close(self._rfd)
        except OSError:
            pass

    def close(self) -> None:
        self.kill()
        try:
            self.log.close()
            os.unlink(self.log.name)
        except OSError:
            pass

    def exit_description(self) -> str:
        try:
            rc = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return "the worker stopped answering"
        return describe_exit(rc, "the worker process")

    def log_tail(self, limit: int = 6000) -> str:
        try:
            with open(self.log.name, "rb") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - limit))
                return f.read().decode(errors="replace")
        except OSError:
            return ""


def describe_exit(rc: int, who: str) -> str:
    """"the candidate process was killed by SIGSEGV (segmentation fault: ...)" and the like. A
    return code of 128 + N is signal N too: a launcher reports its child's death that way."""
    if rc < 0 or rc > 128:
        sig = -rc if rc < 0 else rc - 128
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        hint = {"SIGSEGV": " (segmentation fault: an invalid memory access)", "SIGBUS": " (bus error: a misaligned or unmapped access)",
                "SIGABRT": " (abort)", "SIGFPE": " (arithmetic exception)", "SIGKILL": " (killed: out of memory?)"}.get(name, "")
        return f"{who} was killed by {name}{hint}"
    return f"{who} exited with code {rc}"


def oom_infra(out: "Outcome") -> bool:
    """The verifier's own out-of-memory (the judge's, or the candidate's within its budget while
    the other processes on the GPU held the rest): the one failure another lane's job can cause."""
    r = out.result or {}
    return r.get("status") == "infra_error" and (r.get("error") or {}).get("kind") == "out_of_memory"


class GpuGate:
    """Admission to one GPU that several lanes share (``lanes_per_gpu`` > 1).

    A lane's judge keeps its own work (inputs, the reference's outputs, the timing sets) within
    its lane's share of the GPU, and its candidate within a budget of that share; but a task's
    inputs alone can be larger than a share: KernelBench L1's 6 GiB tensors left a second judge
    out of memory while the first held 54.6 GiB of the H200 (the pilot, 2026-12-04). So a job
    runs either *shared*, at once with the other lanes' jobs, or *alone*, with the GPU to itself:
    it waits for the shared jobs under way, and none starts until it ends (a waiting alone job
    goes before new shared ones, so a stream of small jobs cannot starve it).

    A job runs alone when its task is known to need more than a share: its last run on this GPU
    ran out of memory in the verifier's own work (``oom_infra``: run again alone at once), or its
    judge reported using more than its share (``learn``). Tasks are known by their reference's
    text, for as long as the pool lives. Alone, the job's judge and candidate get the whole GPU
    (``JobSpec.gpu_share``)."""

    def __init__(self, share: float):
        self.share = share  # each lane's share of the GPU (KMOSAIC_GPU_SHARE of its lanes)
        self._cond = threading.Condition()
        self._shared = 0
        self._alone = False
        self._waiting_alone = 0
        self._big: dict[str, str] = {}  # task key -> why its jobs run alone

    @staticmethod
    def task_key(job: JobSpec) -> str:
        return hashlib.sha256(job.reference.encode()).hexdigest()

    def why_alone(self, job: JobSpec) -> str | None:
        with self._cond:
            return self._big.get(self.task_key(job))

    def mark(self, job: JobSpec, why: str) -> None:
        with self._cond:
            self._big.setdefault(self.task_key(job), why)

    def learn(self, job: JobSpec, out: "Outcome") -> None:
        """Remember a task whose judge (by its own peak) or candidate (by its budget's use) took
        more than a lane's share of the GPU, so that its next jobs run alone rather than fail."""
        mem = (out.result or {}).get("gpu_memory") or {}
        total = mem.get("total_bytes")
        used = sum(int(mem.get(k) or 0) for k in ("judge_peak_bytes", "candidate_bytes"))
        if isinstance(total, (int, float)) and total > 0 and used > self.share * total:
            self.mark(job, f"its last run used {used / total:.0%} of the GPU, over a lane's share ({self.share:.0%})")

    @contextmanager
    def hold(self, alone: bool):
        """Yields the seconds waited for admission."""
        t0 = time.monotonic()
        with self._cond:
            if alone:
                self._waiting_alone += 1
                try:
                    while self._alone or self._shared:
                        self._cond.wait()
                finally:
                    self._waiting_alone -= 1
                self._alone = True
            else:
                while self._alone or self._waiting_alone:
                    self._cond.wait()
                self._shared += 1
        try:
            yield time.monotonic() - t0
        finally:
            with self._cond:
                if alone:
                    self._alone = False
                else:
                    self._shared -= 1
                self._cond.notify_all()


class _Lane:
    """One execution lane (a GPU, or a CPU slot): the worker in use plus warming spares.

    A GPU worker needs seconds to start (torch import, CUDA context, CUPTI), more than a
    fast verdict takes, so several spares warm up in parallel and each verdict takes the
    oldest one.
    """

    def __init__(self, device: str, env: dict[str, str], spares: int, jobs_per_worker: int, respawn: bool = True,
                 build_dir: str | None = None, gate: GpuGate | None = None):
        self.device, self.env, self.jobs_per_worker = device, env, jobs_per_worker
        self.build_dir = build_dir
        self.gate = gate
        self.respawn = respawn
        self.n_spares = spares
        self.current: WorkerProcess | None = self._spawn()
        self.spares: list[WorkerProcess] = [self._spawn() for _ in range(spares)]

    def _spawn(self) -> WorkerProcess:
        return WorkerProcess(self.device, self.env, self.jobs_per_worker, self.build_dir)

    def _next_worker(self) -> None:
        if self.current is not None:
            self.current.close()
        if not self.respawn:
            self.current = None
            return
        if self.spares:
            self.current = self.spares.pop(0)
        else:
            self.current = self._spawn()
        while len(self.spares) < self.n_spares:
            self.spares.append(self._spawn())

    def run(self, job: JobSpec, timeouts: dict[str, float], retries: int = INFRA_RETRIES) -> Outcome:
        """The job's outcome; one that failed for the verifier's own reasons (``Outcome.infra``)
        is run again on a fresh judge, up to ``retries`` times, and the failed runs are listed in
        ``attempts``."""
        t0 = time.monotonic()
        attempts: list[dict] = []
        gate = self.gate
        alone = gate.why_alone(job) if gate is not None else None
        gpu_wait = 0.0
        while True:
            if gate is None:
                out = self._run_once(job, timeouts)
            else:
                # the judge's start (an interpreter, torch, a CUDA context: seconds) is no GPU work:
                # waited for before admission, so a job run alone after an out-of-memory does not
                # hold every other lane of the GPU through its fresh judge's start
                out = self._ready(timeouts)
                if out is None:
                    run_job = job if alone is None else dataclasses.replace(job, gpu_share=self.alone_share())
                    with gate.hold(alone is not None) as waited:
                        gpu_wait += waited
                        out = self._run_once(run_job, timeouts)
                    if alone is None:
                        gate.learn(job, out)
            if not out.infra or len(attempts) >= retries:
                break
            attempts.append({"attempt": len(attempts) + 1, **out.infra_summary()})
            if gate is not None and alone is None and oom_infra(out):
                # another lane's job may have held the memory it lacked: again, with the GPU to itself
                alone = "it ran out of GPU memory beside the other lanes' jobs"
                gate.mark(job, alone)
        out.attempts = attempts
        out.alone = alone
        out.gpu_wait_s = round(gpu_wait, 4)
        out.wall_s = time.monotonic() - t0
        return out

    @staticmethod
    def alone_share() -> float:
        """The GPU share of a job that runs alone: all of it, unless the user set a share for the
        verifier (other programs on the GPU)."""
        try:
            return float(os.environ.get("KMOSAIC_GPU_SHARE") or 1.0)
        except ValueError:
            return 1.0

    def _ready(self, timeouts: dict[str, float]) -> Outcome | None:
        """Waits for the current worker's start (a second one if the first fails); None once one
        is ready, else the startup failure's outcome."""
        t0 = time.monotonic()
        if self.current is None:
            self.current = self._spawn()
        for _ in range(2):
            ready = self.current.wait_ready(timeouts["startup"])
            if isinstance(ready, dict):
                return None
            tail = self.current.log_tail()
            why = self.current.exit_description() if ready == "eof" else "the worker did not start in time"
            self._next_worker()
            if self.current is None:
                self.current = self._spawn()
        return Outcome(None, "crash", "startup", f"{why} before the job started", tail, wall_s=time.monotonic() - t0)

    def _run_once(self, job: JobSpec, timeouts: dict[str, float]) -> Outcome:
        t0 = time.monotonic()
        failed = self._ready(timeouts)  # at once where the caller waited for it
        if failed is not None:
            return failed
        w = self.current
        env = dict(w.ready.get("env", {}))
        try:
            sent_at = time.monotonic()
            w.send(job)
        except (BrokenPipeError, OSError):
            self._next_worker()
            return Outcome(None, "crash", "startup", w.exit_description(), w.log_tail(), env, time.monotonic() - t0)
        phase = "compile"
        deadline = time.monotonic() + timeouts.get(phase, 600)
        out: Outcome
        while True:
            ev = w.events.next(max(0.0, deadline - time.monotonic()))
            if ev == "timeout":
                limit = timeouts.get(phase, 600)
                w.kill()
                out = Outcome(None, "timeout", phase, f"no result within {limit:g} s in the {phase} phase; the worker was killed", w.log_tail(), env)
                break
            if ev == "eof":
                out = Outcome(None, "crash", phase, f"{w.exit_description()} during the {phase} phase", w.log_tail(), env)
                break
            if ev.get("event") == "phase":
                phase = ev["phase"]
                deadline = time.monotonic() + timeouts.get(phase, 600)
            elif ev.get("event") == "result":
                out = Outcome(ev, None, phase, "", "", env)
                read_at = (ev.get("worker") or {}).get("read_at")
                if isinstance(read_at, (int, float)):
                    out.queue_s = round(max(0.0, read_at - sent_at), 4)
                break
        out.wall_s = time.monotonic() - t0
        if out.result is None or out.result.get("fatal") or out.infra or w.jobs_left <= 0:
            self._next_worker()  # a clean judge for the next job (and for the retry of an infra_error)
        return out

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
        for w in self.spares:
            w.close()


def worker_env(device: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    # the workers must import this very package, wherever the orchestrator found it
    pkg_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = pkg_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    if device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""
        env["TRITON_INTERPRET"] = "1"
        # keep freed blocks in the heap (not unmapped) so poisoned memory is what an
        # unwritten output would return
        env.setdefault("MALLOC_MMAP_THRESHOLD_", str(32 << 20))
        env.setdefault("MALLOC_TRIM_THRESHOLD_", str(1 << 34))
        # OpenMP threads that spin after a parallel region steal the cores that the other side of
        # a judge-candidate round trip needs; on a 2-core machine that doubled an empty call
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if extra:
        env.update(extra)
    return env


def check_lanes_per_gpu(lanes_per_gpu) -> int:
    """``lanes_per_gpu`` itself, or ValueError unless it is a whole number ≥ 1."""
    if isinstance(lanes_per_gpu, bool) or not isinstance(lanes_per_gpu, int) or lanes_per_gpu < 1:
        raise ValueError("lanes_per_gpu must be a whole number ≥ 1")
    return lanes_per_gpu


def lane_gpus(gpus: list[int | str], lanes_per_gpu: int) -> list[str]:
    """The pool's ``gpus`` for ``lanes_per_gpu`` judges on each GPU: each id repeated, in order. A
    GPU named N times gets N lanes that share it (their memory shares, a GpuGate, the quiet lock):
    the one rule for ``Verifier(lanes_per_gpu=N)`` and curation's filters."""
    check_lanes_per_gpu(lanes_per_gpu)
    return [str(g) for g in gpus for _ in range(lanes_per_gpu)]


def detect_gpus() -> list[str]:
    vis = os.environ.get("CUDA_VISIBLE_DEVICES")
    if vis is not None:
        return [v.strip() for v in vis.split(",") if v.strip() and v.strip() != "-1"]
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [str(i) for i, ln in enumerate(l for l in out.splitlines() if l.startswith("GPU "))]


def detect_arch() -> str | None:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"], capture_output=True, text=True, timeout=30).stdout
        caps = sorted({c.strip() for c in out.splitlines() if c.strip()})
        return ";".join(caps) or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def split_cpus(lanes: int) -> tuple[list[list[int]], list[int]] | None:
    """Cores for each GPU lane, and the rest for builds: the verdict's clock is the judge's host
    clock around a round trip between two processes, and a dozen compilers on the same cores
    delay either side. Where there are eight cores per lane, a lane gets half of them, up to
    eight (the judge, the candidate being timed, and the next candidate processes starting up:
    on four cores of an H200 machine a start took 9-11 s), else two. None where there are too
    few cores to set any apart."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    per = min(8, len(cpus) // (2 * max(1, lanes))) if len(cpus) >= 8 * lanes else 2
    if lanes < 1 or len(cpus) < per * lanes + 2:
        return None
    # the highest cores, away from core 0 where interrupts and the orchestrator tend to land
    own = [cpus[len(cpus) - per * (i + 1): len(cpus) - per * i] for i in range(lanes)]
    return own, cpus[: len(cpus) - per * lanes]


def apply_cpu_env() -> None:
    """In a worker: take the cores and the niceness the orchestrator chose (KMOSAIC_CPUS,
    KMOSAIC_NICE), before any child starts, so that every child inherits them."""
    cpus = os.environ.get("KMOSAIC_CPUS")
    if cpus:
        try:
            os.sched_setaffinity(0, {int(c) for c in cpus.split(",") if c.strip()})
        except (ValueError, OSError):
            pass  # a core that is gone: keep what we have
    nice = os.environ.get("KMOSAIC_NICE")
    if nice:
        try:
            os.nice(int(nice))
        except (ValueError, OSError):
            pass


class WorkerPool:
    """Lanes of isolated workers. ``run`` blocks for a free lane; ``submit`` returns a Future."""

    def __init__(
        self,
        device: str = "cpu",
        workers: int | None = None,
        gpus: list[str] | None = None,
        prewarm: bool = True,
        jobs_per_worker: int = 32,
        env: dict[str, str] | None = None,
        spares: int | None = None,
        build_dir: str | None = None,
    ):
        from . import zygote

        zygote.setting()  # a bad KMOSAIC_ZYGOTE is the caller's ValueError, not every worker's
        self.device = device
        self.cpu_split: tuple[list[list[int]], list[int]] | None = None
        self.gates: dict[str, GpuGate] = {}
        if not prewarm:
            spares = 0
        elif spares is None:
            # a judge that serves many jobs keeps its next candidate process warm itself; spare
            # judges then only cover a judge that died
            spares = (3 if device == "cuda" else 1) if jobs_per_worker <= 1 else (1 if device == "cuda" else 0)
        self.lanes: list[_Lane] = []
        if device == "cuda":
            gpus = gpus if gpus is not None else detect_gpus()
            if not gpus:
                raise RuntimeError("no NVIDIA GPU found (nvidia-smi -L lists none); use --device cpu")
            if workers:
                gpus = gpus[:workers]
            # each lane's judge and candidate get cores of their own, and builds the rest
            self.cpu_split = split_cpus(len(gpus))
            for i, g in enumerate(gpus):
                lane_env = {**(env or {}), "CUDA_VISIBLE_DEVICES": g}
                # the lane's share of its GPU, from which its judge sets the candidate's memory
                # budget (infra.gpu_budget); KMOSAIC_GPU_SHARE set by the user wins (other
                # programs on the GPU)
                lane_env["KMOSAIC_GPU_SHARE"] = os.environ.get("KMOSAIC_GPU_SHARE") or str(lane_share(gpus.count(g)))
                if gpus.count(g) > 1 and g not in self.gates:
                    # a GPU with several lanes admits each job shared or alone, by its memory (GpuGate)
                    self.gates[g] = GpuGate(float(lane_env["KMOSAIC_GPU_SHARE"]))
                # the judge then charges no out-of-memory to a candidate: the pool runs it again alone
                lane_env["KMOSAIC_GPU_LANES"] = str(gpus.count(g))
                if self.cpu_split:
                    lane_env["KMOSAIC_CPUS"] = ",".join(map(str, self.cpu_split[0][i]))
                self.lanes.append(_Lane("cuda", worker_env("cuda", lane_env), spares, jobs_per_worker, build_dir=build_dir,
                                        gate=self.gates.get(g)))
        else:
            n = workers or max(1, os.cpu_count() or 1)
            for _ in range(n):
                self.lanes.append(_Lane("cpu", worker_env("cpu", env), spares, jobs_per_worker, build_dir=build_dir))
        self._free: queue.Queue[_Lane] = queue.Queue()
        for lane in self.lanes:
            self._free.put(lane)
        self._executor = ThreadPoolExecutor(max_workers=len(self.lanes), thread_name_prefix="kmosaic-lane")
        self._closed = False
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.lanes)

    @property
    def lanes_per_gpu(self) -> int:
        """The most lanes that share one device, as the pool told their judges (KMOSAIC_GPU_LANES,
        which makes a judge count an out-of-memory as the verifier's); 1 where none share."""
        return max((int(lane.env.get("KMOSAIC_GPU_LANES") or 1) for lane in self.lanes), default=1)

    def run(self, job: JobSpec, timeouts: dict[str, float] | None = None, retries: int = INFRA_RETRIES) -> Outcome:
        """The job's outcome on the next free lane; ``retries``: how many times a run that failed
        for the verifier's reasons is run again on a fresh judge."""
        t0 = time.monotonic()
        lane = self._free.get()
        waited = time.monotonic() - t0
        try:
            out = lane.run(job, {**DEFAULT_TIMEOUTS, **(timeouts or {})}, retries)
            out.lane_wait_s = round(waited, 4)
            return out
        finally:
            self._free.put(lane)

    def submit(self, job: JobSpec, timeouts: dict[str, float] | None = None) -> Future:
        return self._executor.submit(self.run, job, timeouts)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._executor.shutdown(wait=True)
        for lane in self.lanes:
            lane.close()


def run_one_off(device: str, job: JobSpec, timeouts: dict[str, float], env: dict[str, str] | None = None,
                build_dir: str | None = None) -> Outcome:
    """A job in a fresh judge that is discarded afterwards (used for builds)."""
    lane = _Lane(device, worker_env(device, env), spares=0, jobs_per_worker=1, respawn=False, build_dir=build_dir)
    try:
        return lane.run(job, {**DEFAULT_TIMEOUTS, **timeouts})
    finally:
        lane.close()
