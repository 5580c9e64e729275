"""A judge process: ``python -m kernelmosaic.verify.worker --device cuda --fd N``.

It imports torch, warms up the device, starts its sandboxed candidate process (so that a spare
judge has a warm candidate process too), says it is ready, then takes job specs as JSON lines on
stdin and writes events as JSON lines to file descriptor N. It never imports candidate code: that
runs only in the candidate process, which has no way to this descriptor (it inherits only its own
channel, cannot see this process in /proc, and this process is not dumpable). Its stdout and
stderr go to a log file that the orchestrator reads when the judge dies. The orchestrator kills
the whole process group on a timeout, the candidate and builder processes included.
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import json
import os
import sys
import time


# GPU memory still allocated by the judge after a job is closed above which a full collection runs
GC_ABOVE_BYTES = 256 << 20


def _dynamo_frames() -> int:
    """How many frames Dynamo has compiled in this process (0 where it was never imported)."""
    if "torch._dynamo" not in sys.modules:
        return 0
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return -1  # unknown: a reset is then always made
    return sum(counters["frames"].values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--fd", type=int, required=True)
    ap.add_argument("--jobs", type=int, default=1, help="jobs before exiting (each job has a fresh candidate process)")
    ap.add_argument("--build-dir", default=None, help="the build cache, to start candidate processes early")
    ap.add_argument("--warm", type=int, default=1, help="candidate processes kept started ahead of the jobs")
    args = ap.parse_args()
    out = os.fdopen(args.fd, "w", buffering=1)

    def emit(obj: dict) -> None:
        out.write(json.dumps(obj, default=str) + "\n")
        out.flush()

    t0 = time.perf_counter()
    faulthandler.enable()  # on SIGSEGV/SIGBUS the Python stack goes to the log, which the verdict quotes
    from . import procs, sandbox, zygote
    from .pool import apply_cpu_env

    apply_cpu_env()
    sandbox.harden_judge()
    # candidate processes start before this one imports torch: they warm up together. A judge runs
    # no candidate code, so it serves many jobs; each job takes a fresh, warm candidate process.
    from collections import deque

    warm: deque = deque()
    jobs_left = max(1, args.jobs)

    def refill() -> None:
        while args.build_dir and len(warm) < min(max(1, args.warm), jobs_left):
            warm.append(procs.CandidateProcess(args.device, args.build_dir))

    # with a process starter (zygote.py), which imports torch beside this process, candidate
    # processes are forked once both imports are done; without one, each imports torch itself
    # and starts first
    starter = zygote.starter(args.device) if args.build_dir else None
    if starter is None:
        refill()
    import torch

    if starter is not None:
        refill()

    from . import judge, reference
    from .spec import JobSpec
    from .timing import measure_ceilings

    from . import quiet

    device = torch.device(args.device)
    shared_gpu = judge._int_env("KMOSAIC_GPU_LANES", 1) > 1  # other lanes' judges use this GPU (set by the pool)
    if device.type == "cuda":
        # a spare judge starts while another judge of this GPU may be timing (quiet.py)
        path = quiet.lock_path(args.device)
        lock = quiet.open_lock(path)
        turn = quiet.open_lock(quiet.turn_path(path)) if lock is not None else None
        with quiet.shared(lock, turn):
            torch.cuda.init()
            torch.zeros(1, device=device).add_(1)
            torch.cuda.synchronize(device)
        for fd in (lock, turn):
            if fd is not None:
                os.close(fd)
    if device.type == "cuda":
        # the judge's own dispatch modes (the precision check's counters, the FLOP count of the
        # speed-of-light floor) import torch._dynamo at their first use: paid here, by a spare
        # judge before it takes a job (the likely cause of the 6.5-7 s precision phase seen once
        # per judge on an H100, results/2026-12-07g-h100 and 2026-12-07i-cpu; inferred). On the
        # CPU tensor: no GPU work outside the quiet lock. Not on the CPU, where judges are many
        # and short-lived (the tests) and most never reach those counters
        from . import candidate

        candidate.warm_dispatch(torch, "cpu")
    info = {"torch": torch.__version__, "cuda": torch.version.cuda}
    if device.type == "cuda":
        cap = torch.cuda.get_device_capability(device)
        info.update(gpu=torch.cuda.get_device_name(device), arch=f"{cap[0]}.{cap[1]}")
    if warm:
        try:
            warm[0].wait_ready(240)
        except procs.JobFailed as f:
            # reported with the first job: a judge that cannot start candidates still answers
            info["candidate_start"] = f.error["message"]
            warm.popleft().close()
        # the first start may have found a layer the device refuses (landlock under CUDA): the
        # others, started alongside it, would each find it again in a job's time (seen on an
        # H200: 8-12 s of a verdict's setup), so they start again now, without it
        for k, c in enumerate(warm):
            if c.stale():
                c.close()
                warm[k] = procs.CandidateProcess(args.device, args.build_dir)
    # on the GPU a baseline's reference process is started ahead too (a process start with CUDA
    # and CUPTI costs seconds); it never runs candidate code
    warm_ref = None

    def refill_ref():
        nonlocal warm_ref
        if warm_ref is None and args.build_dir and args.device == "cuda" and jobs_left > 0:
            warm_ref = procs.CandidateProcess(args.device, args.build_dir, role="reference")

    refill_ref()
    # what the start made (torch, the CUDA libraries' Python side) lives as long as this process:
    # kept out of the collector's sight, the full collection after each job scans only what the
    # job made
    gc.freeze()
    emit({"event": "ready", "pid": os.getpid(), "startup_s": round(time.perf_counter() - t0, 3), "env": info})

    cleanup_s = 0.0  # the last job's clean-up, done after its result was sent
    cleanup_parts: dict = {}
    dynamo_frames = _dynamo_frames()  # frames Dynamo has compiled in this process, at the last reset
    dying: list = []  # the last job's candidate processes, killed but maybe not yet gone
    while jobs_left > 0:
        line = sys.stdin.readline()
        if not line:
            break
        # when this job was read, on the host's monotonic clock (the pool's too): the pool takes
        # the time it sent the job from it, the wait for this worker to finish the last job
        read_at = time.monotonic()
        spec = JobSpec.from_json(line)
        if spec.kind in ("ceilings", "filter"):  # GPU measurements of their own, with no judge to settle
            for c in dying:
                c.reap()
            dying = []
        if spec.kind == "ceilings":
            jobs_left -= 1
            emit({"event": "result", "ceilings": measure_ceilings(device)})
            continue
        if spec.kind == "filter":  # a task's reference alone, for curation: no candidate process
            jobs_left -= 1
            emit({"event": "phase", "phase": "check"})
            emit({"event": "result", **reference.measure(spec.reference, args.device, seeds=tuple(spec.seeds or (11, 12)),
                                                         n_timing=spec.timing.n, warmup=spec.timing.warmup,
                                                         timing=spec.timing.enabled, gpu_share=spec.gpu_share)})
            gc.collect()
            if device.type == "cuda":
                torch.cuda.empty_cache()
            continue
        cand = warm.popleft() if warm and spec.kind != "baseline" else None
        jobs_left -= 1
        refill()  # the next job's candidate process warms up while this job runs
        j = judge.Judge(spec, emit, cand, ref_proc=warm_ref, dying=dying)
        dying = []
        run_at = time.monotonic()
        result = j.build_only() if spec.kind == "build" else j.run_baseline() if spec.kind == "baseline" else j.run()
        result["worker"] = {"read_at": read_at, "pre_run_s": round(run_at - read_at, 4), "last_cleanup_s": round(cleanup_s, 4),
                            "last_cleanup_parts_s": cleanup_parts}
        emit({"event": "result", **result})
        # after the verdict is sent: the candidate process's exit, the judge's buffers, the caches
        t_clean = time.monotonic()
        # its processes are killed but not waited for: the next job's judge reaps them (settle)
        # before it reads the GPU's memory or times anything, so their teardown overlaps that
        # job's untimed start instead of coming before it
        dying = j.close(wait=False)
        cleanup_parts = {"close": round(time.monotonic() - t_clean, 4), **j.close_parts}
        if j.ref_proc is None:  # the job used it
            warm_ref = None
            refill_ref()
        del j
        if device.type == "cuda" and args.jobs > 1:
            t_gc = time.monotonic()
            frames = _dynamo_frames()
            if frames < 0 or frames != dynamo_frames:
                # what a job that compiled here left reachable (Dynamo's caches) keeps its GPU
                # memory. Only then: a reset with nothing to clear took 3.9 s on the H200 once
                torch._dynamo.reset()
                dynamo_frames = _dynamo_frames()
                cleanup_parts["dynamo"] = round(time.monotonic() - t_gc, 4)
            # a full collection (0.13 s after a small job on the H200) only where the job left GPU
            # memory held (tensors in reference cycles); Python's own collector takes the rest.
            # The cache itself is emptied by the next job's settle (with lanes sharing the GPU, below)
            held = torch.cuda.memory_allocated(device)
            cleanup_parts["held_mib"] = held >> 20
            if held > GC_ABOVE_BYTES:
                t_c = time.monotonic()
                gc.collect()
                cleanup_parts["gc"] = round(time.monotonic() - t_c, 4)
        if device.type == "cuda" and shared_gpu:
            # lanes share this GPU: what this judge's allocator caches would stay out of the other
            # lanes' reach until this worker's next job, which a job waiting to run alone on the
            # GPU holds back (pool.GpuGate). In the pilot on an H100 (2026-12-06) a job run alone
            # ran out of memory while another lane's process still held 24.6 GiB
            t_e = time.monotonic()
            torch.cuda.empty_cache()
            cleanup_parts["empty_cache"] = round(time.monotonic() - t_e, 4)
        cleanup_s = time.monotonic() - t_clean
    out.flush()
    for c in [*dying, *warm]:
        c.close()
    if warm_ref is not None:
        warm_ref.close()
    # skip interpreter teardown: CUDA libraries must not hang the exit
    os._exit(0)


if __name__ == "__main__":
    main()
