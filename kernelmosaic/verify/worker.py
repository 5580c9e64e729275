"""A verifier worker process: ``python -m kernelmosaic.verify.worker --device cuda --fd N``.

It imports torch, warms up the device, says it is ready, then takes jobs as JSON
lines on stdin and writes events as JSON lines to file descriptor N. Its stdout
and stderr go to a log file that the orchestrator reads when the worker dies, so
a candidate's prints never corrupt the protocol. The orchestrator kills the whole
process group on a timeout; a crash is seen as end-of-file on the event pipe.
"""

from __future__ import annotations

import argparse
import gc
import faulthandler
import json
import os
import sys
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--fd", type=int, required=True)
    ap.add_argument("--jobs", type=int, default=1, help="jobs before exiting (1: a fresh process per candidate)")
    args = ap.parse_args()
    out = os.fdopen(args.fd, "w", buffering=1)

    def emit(obj: dict) -> None:
        out.write(json.dumps(obj, default=str) + "\n")
        out.flush()

    t0 = time.perf_counter()
    # on SIGSEGV/SIGBUS the Python stack goes to the log, which the verdict quotes
    faulthandler.enable()
    import torch

    from . import harness

    device = torch.device(args.device)
    if device.type == "cuda":
        torch.cuda.init()
        torch.zeros(1, device=device).add_(1)
        torch.cuda.synchronize(device)
    harness.warm_up(device)
    harness.take_snapshot()
    info = {"torch": torch.__version__, "cuda": torch.version.cuda}
    if device.type == "cuda":
        cap = torch.cuda.get_device_capability(device)
        info.update(gpu=torch.cuda.get_device_name(device), arch=f"{cap[0]}.{cap[1]}")
    emit({"event": "ready", "pid": os.getpid(), "startup_s": round(time.perf_counter() - t0, 3), "env": info})

    for _ in range(max(1, args.jobs)):
        line = sys.stdin.readline()
        if not line:
            break
        req = json.loads(line)
        kind = req.get("kind", "verify")
        if kind == "ceilings":
            emit({"event": "result", "ceilings": harness.measure_ceilings(device)})
            continue
        with tempfile.TemporaryDirectory(prefix="kmosaic-job-") as wd:
            req["workdir"] = wd
            job = harness.Job(req, emit)
            result = build_only(job) if kind == "build" else job.run_baseline() if kind == "baseline" else job.run()
            # paths of the throwaway job folder mean nothing to the reader of a verdict
            emit(json.loads(json.dumps({"event": "result", **result}, default=str).replace(wd + "/", "")))
            del job
            if device.type == "cuda" and args.jobs > 1:
                if "torch._dynamo" in sys.modules:
                    # whatever a finished job left reachable (Dynamo's caches, reference cycles)
                    # keeps its GPU memory: a torch.compile warm-up worker once held 77-100 GiB next
                    # to the timing worker on the same GPU, which then ran out of memory
                    torch._dynamo.reset()
                gc.collect()
                torch.cuda.empty_cache()
    out.flush()
    # skip interpreter teardown: candidate threads or CUDA libraries must not hang the exit
    os._exit(0)


def build_only(job) -> dict:
    """Compile a candidate's extensions into the shared build cache, on the CPU."""
    from .harness import JobFailed

    try:
        job._prepare_env()
        job.load_candidate()
        return {"built": True, "phases_s": job.phases}
    except JobFailed as f:
        if f.status == "compile_error":
            return {"built": False, "status": "compile_error", "error": f.error, "phases_s": job.phases}
        # anything else (e.g. code that needs a GPU at import) is for the GPU worker to judge
        return {"built": False, "status": None, "phases_s": job.phases}


if __name__ == "__main__":
    main()
