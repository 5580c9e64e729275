"""Telling the verifier's own failures from the candidate's (``infra_error``), and the GPU memory budget.

A verdict is the candidate's record, so a failure it did not cause must not land on it: a judge
process that died or was lost, an out-of-memory in the judge's own work (the reference, the
inputs, the comparison) while the candidate kept within its budget, a full disk where the verifier
writes, or a candidate process that failed to start before any candidate code was loaded. Those
get the status ``infra_error``, and the pool runs the job again on a fresh judge (``INFRA_RETRIES``
times) before it gives that status back.

Only evidence the judge holds decides this (its own exceptions, its own measurements of memory,
its own process table); nothing the candidate process says does: a candidate that claims "out of
memory" or "no space left on device" gets no more than the candidate's own ``runtime_error``
unless the judge's measurements agree.

Torch-free, so that the orchestrator's pool can import it.
"""

from __future__ import annotations

import errno
import os
import re
import time
from typing import Callable

# runs of a job after the first that ended in infra_error, each on a fresh judge process
INFRA_RETRIES = 2
# GPU memory kept out of every lane's budget: the CUDA contexts of the judge, its warm candidate
# processes (four on a GPU) and its reference process, about 0.5 GiB each on an H200
GPU_MARGIN_BYTES = 3 << 30
# what a process that has no job under way holds of a GPU at most: a CUDA context and the
# libraries' workspaces (about 0.6 GiB each on an H100 and an H200, by torch's out-of-memory
# listings in the pilot of 2026-12-06); more is a job's memory, or one being given back
IDLE_PROCESS_BYTES = 2 << 30
# errnos of a write that found no room: a full file system, a quota, a file-size limit
DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def is_oom(e: BaseException) -> bool:
    """An allocation that failed: Python's MemoryError, torch's OutOfMemoryError (CUDA caching
    allocator), the CPU allocator's and the CUDA runtime's out-of-memory errors."""
    if isinstance(e, MemoryError) or type(e).__name__ == "OutOfMemoryError":
        return True
    if isinstance(e, RuntimeError):
        msg = str(e)
        return any(s in msg for s in ("out of memory", "can't allocate memory", "CUBLAS_STATUS_ALLOC_FAILED",
                                      "cudaErrorMemoryAllocation"))
    return False


def is_disk_full(e: BaseException) -> bool:
    return isinstance(e, OSError) and e.errno in DISK_FULL_ERRNOS


# a file system with less room than this is full, for a build that failed on it
MIN_FREE_BYTES = 64 << 20


def check_room(path) -> None:
    """Raise ENOSPC when the file system of ``path`` has (nearly) no room left, as the judge itself
    measures it (statvfs): a failed build or write there is the verifier's, not the candidate's,
    whatever the compiler printed. A candidate cannot fake this: the judge asks the kernel."""
    try:
        st = os.statvfs(path)
    except OSError:
        return
    free = st.f_bavail * st.f_frsize
    if free < MIN_FREE_BYTES or (st.f_files and st.f_favail == 0):
        raise OSError(errno.ENOSPC, f"no space left on the file system of {path} ({free >> 20} MiB free)")


def lane_share(lanes_on_gpu: int) -> float:
    """The share of one GPU that each of the lanes sharing it may use."""
    return 1.0 / max(1, lanes_on_gpu)


def gpu_budget(total: int, share: float, judge_bytes: int, free: int | None = None, held: int = 0) -> int:
    """The candidate process's budget, everything it may hold at once: its lane's share of the
    GPU, less the margin for the processes' CUDA contexts and less what the judge itself holds
    (the reference, the inputs, the buffers it shares with the candidate). With ``free`` (the
    device's free memory when the budget is set), never more than that less the margin, plus
    ``held``, what the candidate process already held then (its CUDA context, the harness's copy
    of the outputs for the empty calls): the lane's other processes (spare judges, the reference
    process, each with a CUDA context of about 0.6 GiB on the H200) hold memory the share does
    not know about, and a candidate that took all that is free would leave the judge none for its
    own work. ``held`` counts once: free memory no longer holds it, but the budget is compared
    with all the candidate holds. Before it was counted, an honest KernelBench kernel whose 6 GiB
    output copy the harness already held got a 4.2 GiB budget and was charged an out-of-memory
    (the pilot on an H100 with four lanes, 2026-12-06)."""
    budget = int(total * share) - GPU_MARGIN_BYTES - max(0, judge_bytes)
    if free is not None:
        budget = min(budget, int(free) - GPU_MARGIN_BYTES + max(0, held))
    return max(0, budget)


_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50}


def requested_bytes(message: str) -> int | None:
    """The size of the allocation that failed, from torch's out-of-memory message ("Tried to
    allocate 4.00 GiB"), or None."""
    m = re.search(r"Tried to allocate ([0-9.]+) ?(B|KiB|MiB|GiB|TiB|PiB)", message or "")
    return int(float(m.group(1)) * _UNITS[m.group(2)]) if m else None


def verifier_took_it(candidate: int, asked: int | None, budget: int, used: int, total: int) -> bool:
    """Whether a candidate's out-of-memory is the verifier's (``infra_error``): the candidate
    held no more than its budget, the allocation that failed would have fitted in it, and the
    others (the judge, the lane's other processes) held more than the rest of the GPU.

    ``asked`` is the candidate's word (its error message): understating it could at most turn its
    own failure into a retried infra_error, never into a verdict."""
    return candidate + (asked or 0) <= budget and used - candidate > total - budget


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it, from /proc (the candidate process sits under its
    sandbox launcher, and in a PID namespace of its own)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError):
                pass
    return out


def host_rss(pids: list[int]) -> int:
    """Resident memory of ``pids`` in bytes (VmRSS), as the kernel reports it."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, ValueError, IndexError):
            pass
    return total


def nvml_processes(device: int | str = 0) -> dict[int, int] | None:
    """GPU memory by process id on ``device`` (an NVML index, or a UUID ``"GPU-..."``: CUDA's
    device order need not be NVML's), as the driver accounts it; None where NVML is missing."""
    try:
        import pynvml  # type: ignore
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
        try:
            h = pynvml.nvmlDeviceGetHandleByUUID(device) if isinstance(device, str) else pynvml.nvmlDeviceGetHandleByIndex(device)
            procs = pynvml.nvmlDeviceGetComputeRunningProcesses(h)
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - NVML is a better measurement when present, never a requirement
        return None
    out: dict[int, int] = {}
    for p in procs:
        out[p.pid] = out.get(p.pid, 0) + int(p.usedGpuMemory or 0)
    return out


def nvml_used(pids: list[int], device: int | str = 0) -> int | None:
    """GPU memory that the driver accounts to ``pids`` on ``device``, or None where NVML is
    missing or sees none of them (in a container NVML may report host PIDs that differ from ours)."""
    procs = nvml_processes(device)
    if procs is None:
        return None
    want = set(pids)
    seen = [b for p, b in procs.items() if p in want]
    return sum(seen) if seen else None


def wait_for_others(read: Callable[[], list[int] | None], idle_bytes: int = IDLE_PROCESS_BYTES, limit_s: float = 30.0,
                    still_s: float = 3.0, poll_s: float = 0.25, clock: Callable[[], float] = time.monotonic,
                    sleep: Callable[[float], None] = time.sleep) -> dict:
    """Wait until the other processes on a GPU (``read``: what each holds, or None where that
    cannot be measured) hold no more than an idle process does, for a job that is to have the
    GPU to itself. The other lanes' jobs have ended when it starts, but their memory can lag:
    a killed candidate process's teardown, a judge's clean-up after it sent its verdict. Gives up
    when what they hold has stopped falling for ``still_s``, or after ``limit_s``: memory that
    is not given back is no reason to hold the job (its own out-of-memory then says so).

    Returns ``waited_s``, ``held_bytes`` (what the others held above ``idle_bytes`` each at the
    end; None where unmeasured) and ``why`` it stopped: idle | still | limit | unmeasured."""
    t0 = clock()
    low, fell_at = None, t0
    while True:
        held = read()
        if held is None:
            return {"waited_s": round(clock() - t0, 3), "held_bytes": None, "why": "unmeasured"}
        busy = sum(b for b in held if b > idle_bytes)
        now = clock()
        if not busy:
            return {"waited_s": round(now - t0, 3), "held_bytes": 0, "why": "idle"}
        if low is None or busy < low - (64 << 20):
            low, fell_at = busy, now
        if now - fell_at >= still_s or now - t0 >= limit_s:
            return {"waited_s": round(now - t0, 3), "held_bytes": busy, "why": "still" if now - fell_at >= still_s else "limit"}
        sleep(poll_s)
