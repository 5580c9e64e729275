"""One GPU, one clock: a lock that keeps process start-ups off a GPU while the judge times on it,
and a measure of how busy other programs kept the machine while it timed.

A lane starts candidate, reference and judge processes ahead of its jobs (a start takes seconds).
Each start initialises CUDA, runs warm-up kernels and starts CUPTI on the lane's GPU, and the GPU
time-slices between contexts: measured on an H200, a ~2 ms kernel timed while a new pool's
processes started read 5.5 ms, against 2.3 ms a moment later. So every start takes this lock
*shared* around its GPU work, and the judge takes it *exclusive* around each calibration and
timing loop. A judge's other GPU work (its reference forwards, the candidate's checked calls)
takes it shared too, one call at a time, so that several lanes on one GPU check at once
(``Verifier(lanes_per_gpu=N)``) while each timed loop has the GPU alone. Starts and checks never
overlap a timed call; they overlap each other.

It is a ``flock`` on a file per user and GPU (``CUDA_VISIBLE_DEVICES``), so verifiers of one user
on one machine share it. A second file beside it is a turnstile that lets a waiting judge go
first: the judge holds it exclusive while it waits for the lock, and a start passes through it
(shared, at once released) before each of its GPU steps, so a judge waits for the steps under
way, never for a stream of starts that keep the shared lock held between them. Only the steps
that disturb a timed kernel take the lock (candidate.main; benchmarks/start_interference.py).
A sandboxed process gets the lock's descriptors from its parent, uses them during its start
(trusted code: nothing of the candidate is loaded yet), then unlocks and closes them. The lock
guards the fidelity of times, not the verdict: a process that never let go would only make the
judge wait ``WAIT_S`` and then time anyway, with a note saying so.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import tempfile
import time

from .infra import descendants

WAIT_S = 60.0  # longest the judge waits for starts to leave the GPU before timing anyway
START_WAIT_S = 600.0  # longest a start waits for a timing loop (a slow baseline) to end


def lock_path(device: str) -> str | None:
    """The lock file for this process's GPU; None off the GPU (a CPU lane's start is CPU work all
    through, and waiting for it would cost each timing loop seconds). ``KMOSAIC_GPU_LOCK`` names
    another file (to share the lock with other tools, or to use one on the CPU) or ``off``."""
    given = os.environ.get("KMOSAIC_GPU_LOCK")
    if given:
        return None if given == "off" else given
    if not str(device).startswith("cuda"):
        return None
    gpu = re.sub(r"[^A-Za-z0-9_.-]", "_", os.environ.get("CUDA_VISIBLE_DEVICES", "") or "all")
    return os.path.join(tempfile.gettempdir(), f"kmosaic-gpu-{os.getuid()}-{gpu}.lock")


def turn_path(path: str | None) -> str | None:
    """The turnstile beside the lock file ``path``."""
    return path + ".turn" if path else None


def open_lock(path: str | None) -> int | None:
    if not path:
        return None
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None  # no lock (a read-only temp dir): times as before, unguarded


def acquire(fd: int | None, exclusive: bool, timeout: float) -> bool:
    """Take the lock within ``timeout`` seconds; False if it could not be had (or there is none)."""
    if fd is None:
        return False
    op = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
    deadline = time.monotonic() + timeout
    delay = 0.0005
    # polled, not blocking (a blocking flock has no timeout). Where lanes share a GPU the lock
    # changes hands at every timed call, so the polls are short: a judge waiting to time, with
    # the other lanes held back behind the turnstile, must not sleep through the GPU's free moments
    cap = 0.002 if exclusive else 0.01
    while True:
        try:
            fcntl.flock(fd, op)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, cap)
        except OSError:
            return False


def release(fd: int | None) -> None:
    if fd is None:
        return
    try:
        # LOCK_UN, not just close: a launcher process may hold a copy of the same descriptor
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass


@contextlib.contextmanager
def shared(fd: int | None, turn: int | None = None, timeout: float = START_WAIT_S):
    """Around one of a process start's GPU steps: behind any judge already waiting (``turn``),
    then with the lock shared."""
    deadline = time.monotonic() + timeout
    if acquire(turn, False, timeout):
        release(turn)
    got = acquire(fd, False, max(0.0, deadline - time.monotonic()))
    try:
        yield got
    finally:
        if got:
            release(fd)


class Quiet:
    """The judge's side: ``with quiet.exclusive():`` around a timing loop, ``with quiet.busy():``
    around its other GPU work (a reference forward, a checked call of the candidate). ``waits``
    holds the seconds each loop waited for starts and other judges' checks to leave the GPU;
    ``unquiet`` counts the loops timed without the lock after ``WAIT_S`` (none are counted where
    the device has no lock)."""

    def __init__(self, device: str):
        path = lock_path(device)
        self.fd = open_lock(path)
        self.turn = open_lock(turn_path(path)) if self.fd is not None else None
        self.waits: list[float] = []
        self.unquiet = 0
        self._held = 0  # busy() depth; -1 while exclusive (a busy() inside must not convert the lock)

    @contextlib.contextmanager
    def busy(self):
        """The lock shared around GPU work that is not timed, behind any judge waiting to time:
        several lanes on one GPU check at once, and none of it runs during a timed loop. Nested
        in another busy() or in exclusive() it does nothing: flock would convert the lock held."""
        if self.fd is None or self._held:
            yield
            return
        with shared(self.fd, self.turn, START_WAIT_S) as got:
            self._held = 1 if got else 0
            try:
                yield
            finally:
                self._held = 0

    @contextlib.contextmanager
    def exclusive(self):
        if self.fd is None:
            yield
            return
        if self._held < 0:  # inside another exclusive(): the GPU is already this judge's
            yield
            return
        # inside busy() (not done by the judge: timing loops run outside its GPU work) flock turns
        # the shared lock into this exclusive one, released at the end
        t0 = time.monotonic()
        # the turnstile first: starts that have not begun a GPU step wait behind this judge
        turned = acquire(self.turn, True, WAIT_S)
        try:
            got = acquire(self.fd, True, max(0.0, WAIT_S - (time.monotonic() - t0)))
        finally:
            if turned:
                release(self.turn)
        if got:
            self.waits.append(round(time.monotonic() - t0, 4))
        else:
            self.unquiet += 1
        self._held = -1 if got else 0
        try:
            yield
        finally:
            self._held = 0
            if got:
                release(self.fd)

    def close(self) -> None:
        for fd in (self.fd, self.turn):
            if fd is not None:
                os.close(fd)
        self.fd = self.turn = None


# -- other programs ---------------------------------------------------------------------------------
# A time and the baselines it is divided by must come from the same conditions. The lock above
# keeps the verifier's own starts off a GPU; programs that are not the verifier's are measured
# instead: the CPU time, over the timing phase, of every process that is not the orchestrator or
# below it (/proc/PID/stat). Counting the others directly, rather than the machine's busy time
# less the verifier's, keeps the verifier's own processes that die in the window (a killed
# sandbox takes its children's times with it) from reading as another program's load. Over this
# share of the machine's cores the conditions are not quiet: a baseline is then not cached, and
# a verdict's notes say so.
FOREIGN_MAX_SHARE = 0.25
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_ticks() -> dict[int, tuple[int, int]]:
    """pid -> (utime + stime of all its threads, start time), in clock ticks, for every process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
            out[int(name)] = (int(rest[11]) + int(rest[12]), int(rest[19]))
        except (OSError, ValueError, IndexError):
            pass  # gone meanwhile
    return out


def cpu_sample(root: int):
    """Every process's CPU time, the pids of ``root``'s tree, and a monotonic time; None where
    /proc does not tell."""
    try:
        procs = _cpu_ticks()
    except OSError:
        return None
    return procs, set(descendants(root)), time.monotonic()


def foreign_cores(a, b) -> float | None:
    """How many cores, on average, processes outside the tree (at either sample) kept busy
    between two samples: the growth of those alive at both, and all of those started since."""
    if a is None or b is None or b[2] - a[2] < 0.05:
        return None
    ours = a[1] | b[1]
    ticks = 0
    for pid, (t, start) in b[0].items():
        if pid in ours:
            continue
        before = a[0].get(pid)
        ticks += t - before[0] if before and before[1] == start else t
    return round(max(0.0, ticks / _TICK / (b[2] - a[2])), 3)


def is_quiet(foreign: float | None) -> bool | None:
    """Whether other programs kept no more than ``FOREIGN_MAX_SHARE`` of the cores busy (None:
    not measured)."""
    return None if foreign is None else foreign <= FOREIGN_MAX_SHARE * (os.cpu_count() or 1)


def conditions(a, b) -> dict:
    """The timing phase's conditions: ``foreign_cores`` (above), the machine's ``cpus``, and
    whether they were ``quiet`` (:func:`is_quiet`)."""
    fc = foreign_cores(a, b)
    return {"foreign_cores": fc, "cpus": os.cpu_count() or 1, "quiet": is_quiet(fc)}
