"""Execution filters: run each task's reference and keep it only if it is a fair problem.

A task passes when its reference runs, gives finite outputs, changes with the seed, is
neither constant nor near zero (measured the way the verifier compares: an all-zeros or
all-mean answer must *fail* the verifier's tolerances, and at least 1% of the elements must
exceed the absolute tolerance), is deterministic (two runs on the same
inputs agree within those tolerances), and its eager time lies in the window (1-15 ms on the
H200). The eager time is measured with the verifier's own timing loop (``Job._time``: L2 flush,
two rotating input buffers, a device-wide sync per call), so it is the baseline a candidate
will later be compared against.

``measure`` (one task, in this process) is what a worker runs; ``run_filters`` drives a
worker process per GPU over a whole set, appends one JSON line per task to
``DIR/results.jsonl``, skips tasks already there, and stops cleanly at a time budget so a
long pool is measured over several calls of the same command.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..task import sha256_text

RESULTS = "results.jsonl"
WINDOW_H200 = (1.0, 15.0)
CHECKS = ("runs", "finite", "deterministic", "changes_with_seed", "not_near_zero", "not_constant")


# -- one task, in a worker --------------------------------------------------------------------
def measure(source: str, device: str = "cpu", *, seeds=(11, 12), model_seed: int = 7, n_timing: int = 10,
            warmup: int = 2, timing: bool = True, skip_timing_above_ms: float = 100.0) -> dict:
    """Run the filters on one reference. Never raises for a broken task."""
    import torch

    import statistics

    from ..verify.compare import clone as _clone
    from ..verify.compare import compare, default_tolerances
    from ..verify.compare import flatten as _flatten
    from ..verify.compare import same as _same
    from ..verify.judge import Judge, TaskProblem
    from ..verify.spec import JobSpec, TimingConfig
    from ..verify.timing import Flusher as _Flusher
    from ..verify.timing import cv, time_in_process

    res: dict = {"checks": {}, "reasons": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kmosaic-filter-") as wd:
        # the judge's reference helpers only: no candidate is involved in curating a task
        job = Judge(JobSpec(device=device, reference=source, timing=TimingConfig(n=n_timing, warmup=warmup)), workdir=wd)
        try:
            mod = job.load_reference(source)
            init = job.init_inputs(mod)
            with torch.device(job.device):
                torch.manual_seed(model_seed)
                ref = mod.Model(*_clone(init))
            ref = ref.to(job.device)
            sets = [job.make_inputs(mod, s) for s in seeds]

            def run(args):
                try:
                    with torch.no_grad():
                        out = ref(*_clone(args))
                    job.sync()
                    return out
                except BaseException as e:  # noqa: BLE001
                    raise TaskProblem(f"forward raised {type(e).__name__}: {str(e)[:300]}") from None

            t = time.perf_counter()
            out_a = run(sets[0])
            first_ms = (time.perf_counter() - t) * 1e3
            t = time.perf_counter()
            out_a2 = run(sets[0])
            second_ms = (time.perf_counter() - t) * 1e3  # the first call pays lazy library init
            out_b = run(sets[1])
            res["checks"]["runs"] = True
            tensors = [o for o in _flatten(out_a) if isinstance(o, torch.Tensor)]
            if not tensors:
                raise TaskProblem("forward returned no tensor")
            floats = [o for o in tensors if o.is_floating_point()]
            tol = default_tolerances(floats[0].dtype if floats else torch.float32)
            res["tolerances"] = tol
            res["out_shapes"] = [list(o.shape) for o in tensors]
            res["out_dtypes"] = [str(o.dtype).replace("torch.", "") for o in tensors]
            res["checks"]["finite"] = all(bool(torch.isfinite(o).all()) for o in floats)
            res["checks"]["deterministic"] = compare(out_a, out_a2, tol, 0) is None
            res["bitwise_deterministic"] = bool(_same(list(_flatten(out_a)), list(_flatten(out_a2))))
            res["checks"]["changes_with_seed"] = compare(out_a, out_b, tol, 0) is not None
            zeros = [torch.zeros_like(o) if isinstance(o, torch.Tensor) else o for o in _flatten(out_a)]
            # near zero: an all-zeros answer passes the verifier, or almost no element rises
            # above its absolute tolerance (the check would rest on the norm bound alone)
            above = sum(int((o.float().abs() > tol["atol"]).sum()) for o in floats)
            res["above_atol"] = round(above / max(1, sum(o.numel() for o in floats)), 4) if floats else None
            res["checks"]["not_near_zero"] = compare(out_a, zeros, tol, 0) is not None and (not floats or res["above_atol"] >= 0.01)
            if sum(o.numel() for o in tensors) > 1:
                const = [torch.full_like(o, float(o.float().mean()) if o.is_floating_point() else int(o.float().median()))
                         if isinstance(o, torch.Tensor) else o for o in _flatten(out_a)]
                res["checks"]["not_constant"] = compare(out_a, const, tol, 0) is not None
            else:  # a scalar is constant by shape; changing with the seed is what matters
                res["checks"]["not_constant"] = res["checks"]["changes_with_seed"]
            del out_a2, out_b, zeros
            res["first_call_ms"] = round(first_ms, 4)
            res.update(job.work(ref, sets[0]))
            res["second_call_ms"] = round(second_ms, 4)
            if timing and second_ms <= skip_timing_above_ms:
                flush = _Flusher(job.device)
                times = time_in_process(ref, sets, n_timing, warmup, flush, job.device)
                res["eager_ms"] = statistics.median(times)
                res["eager_cv"] = cv(times)  # the verifier's definition (stdev / mean), not a second one
                res["timing_n"] = n_timing
                del flush
            elif timing:
                res["eager_ms"] = None
                res["reasons"].append(f"too slow to time: one call took {second_ms:.1f} ms")
        except TaskProblem as e:
            res["checks"]["runs"] = False
            res["reasons"].append(str(e).split("\n")[0][:400])
        except BaseException as e:  # noqa: BLE001 - e.g. out of memory
            res["checks"]["runs"] = False
            res["reasons"].append(f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}")
        res["reasons"] += [f"failed: {k}" for k in CHECKS if res["checks"].get(k) is False and k != "runs"]
        res["passed_checks"] = all(res["checks"].get(k) for k in CHECKS)
        res["device"] = device
        if job.is_cuda:
            res["gpu"] = torch.cuda.get_device_name(job.device)
        res["check_s"] = round(time.perf_counter() - t0, 3)
    return res


def verdict(rec: dict, window: tuple[float, float] | None) -> tuple[bool, list[str]]:
    """Keep or drop a measured task; the reasons when dropped."""
    reasons = list(rec.get("reasons") or [])
    ok = bool(rec.get("passed_checks"))
    if window is not None and ok:
        ms = rec.get("eager_ms")
        if ms is None:
            ok = False
            reasons.append("no eager time")
        elif ms < window[0]:
            ok = False
            reasons.append(f"eager {ms:.3f} ms < {window[0]:g} ms")
        elif ms > window[1]:
            ok = False
            reasons.append(f"eager {ms:.3f} ms > {window[1]:g} ms")
    return ok, reasons


def summarize(results: dict[str, dict], window: tuple[float, float] | None) -> dict:
    """Counts for a results file: measured, passed the checks, kept in the window, drops by reason."""
    import collections

    kept, drops = 0, collections.Counter()
    checks = sum(1 for r in results.values() if r.get("passed_checks"))
    for r in results.values():
        ok, reasons = verdict(r, window)
        if ok:
            kept += 1
        else:
            drops[reason_class(reasons[0]) if reasons else "does not run"] += 1
    return {"measured": len(results), "passed_checks": checks, "kept": kept, "window_ms": list(window) if window else None,
            "drops": dict(drops.most_common())}


def reason_class(reason: str) -> str:
    """A short bucket for the report."""
    r = reason.lower()
    # only the openings this module writes: a task's own error text ("index < size") must not
    # read as a timing verdict
    if r.startswith("eager ") and " < " in r:
        return "too fast"
    if (r.startswith("eager ") and " > " in r) or r.startswith("too slow to time"):
        return "too slow"
    for key, cls in (("failed: finite", "non-finite"), ("failed: deterministic", "non-deterministic"),
                     ("failed: changes_with_seed", "constant across seeds"), ("failed: not_near_zero", "near zero"),
                     ("failed: not_constant", "constant output"), ("timeout after", "timeout"), ("worker crash", "worker crash")):
        if r.startswith(key):
            return cls
    return "out of memory" if "out of memory" in r else "does not run"


# -- the worker process ---------------------------------------------------------------------
def _worker(device: str, fd: int, n_timing: int, timing: bool) -> None:
    out = os.fdopen(fd, "w", buffering=1)
    import gc

    import torch

    dev = torch.device(device)
    if dev.type == "cuda":
        torch.zeros(1, device=dev).add_(1)
    out.write(json.dumps({"event": "ready"}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        src = Path(req["path"]).read_text()
        res = measure(src, device, n_timing=n_timing, timing=timing)
        res["name"] = req["name"]
        res["sha256"] = sha256_text(src)
        out.write(json.dumps(res, default=str) + "\n")
        gc.collect()
        if dev.type == "cuda":
            torch.cuda.empty_cache()
    os._exit(0)


class _Lane:
    """One worker process on one device."""

    def __init__(self, device: str, env: dict, n_timing: int, timing: bool, log):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kernelmosaic.curate.filters", "--worker", "--device", device, "--fd", str(w),
             "--timing-runs", str(n_timing)] + ([] if timing else ["--no-timing"]),
            stdin=subprocess.PIPE, stdout=log, stderr=log, env=env, pass_fds=(w,), text=True, start_new_session=True)
        os.close(w)
        self.events = os.fdopen(r, "r")
        self.device = device
        # importing torch and touching the device takes seconds; minutes means something is stuck
        up, _, _ = select.select([self.events], [], [], 300)
        if not (up and self.events.readline()):
            self.kill()
            raise RuntimeError(f"the filter worker for {device} did not start (see {getattr(log, 'name', 'the log')})")

    def ask(self, name: str, path: str, timeout_s: float) -> dict:
        self.proc.stdin.write(json.dumps({"name": name, "path": path}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.events], [], [], timeout_s)
        line = self.events.readline() if ready else ""
        if not line:
            why = "timeout" if not ready else "worker crash"
            self.kill()
            return {"name": name, "checks": {"runs": False}, "passed_checks": False,
                    "reasons": [f"{why} after {timeout_s:.0f} s" if why == "timeout" else "worker crash (process died)"]}
        try:
            return json.loads(line)
        except json.JSONDecodeError:  # a line cut short by the worker dying mid-write
            self.kill()
            return {"name": name, "checks": {"runs": False}, "passed_checks": False,
                    "reasons": ["worker crash (its answer was cut short)"]}

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=20)
        except Exception:  # noqa: BLE001
            self.kill()


def done_names(out_dir: Path) -> set[str]:
    p = out_dir / RESULTS
    if not p.exists():
        return set()
    names = set()
    for line in p.read_text().splitlines():
        try:
            names.add(json.loads(line)["name"])
        except (json.JSONDecodeError, KeyError):
            continue  # a line cut by a kill: the task is measured again
    return names


def load_results(path) -> dict[str, dict]:
    p = Path(path)
    if p.is_dir():
        p = p / RESULTS
    if not p.is_file():
        from ..task import TaskError

        raise TaskError(str(p), "no filter results here (run `kmosaic tasks filter` first)")
    from .taskset import read_jsonl

    # workers append here and may be killed mid-line: a torn line is skipped (its task is redone)
    return {r["name"]: r for r in read_jsonl(p, torn_tail_ok=True) if isinstance(r, dict) and "name" in r}


def run_filters(set_dir, out_dir, *, device: str = "cpu", gpus: list[int | str] | None = None, budget_s: float = 450.0,
                task_timeout_s: float = 60.0, n_timing: int = 10, timing: bool = True,
                progress=None, only: list[str] | None = None) -> dict:
    """Measure every task of a set not yet in ``out_dir/results.jsonl``; stop at the budget.
    On ``cuda``, one worker per GPU in ``gpus``, or per visible GPU when it is None."""
    import threading

    from ..verify.pool import detect_gpus
    from .taskset import TaskSet

    t0 = time.monotonic()
    ts = TaskSet.open(set_dir)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    done = done_names(out_dir)
    todo = [r for r in ts.records if r["name"] not in done]
    if only is not None:
        wanted = set(only)
        todo = [r for r in todo if r["name"] in wanted]
    if device == "cuda" and not gpus:
        # the visible GPUs as the verifier counts them: nvidia-smi ignores CUDA_VISIBLE_DEVICES, and
        # counting with it once put a lane on a GPU that another benchmark was timing on
        gpus = detect_gpus() or ["0"]
    lanes_spec = [("cuda:0", {"CUDA_VISIBLE_DEVICES": str(g)}) for g in gpus] if device == "cuda" else [(device, {})]
    log = open(out_dir / "worker.log", "a")
    lock = threading.Lock()
    stats = {"measured": 0, "skipped_done": len(done), "remaining": 0,
             "total": len(ts.records) if only is None else len(set(only))}
    queue = list(reversed(todo))
    results_f = open(out_dir / RESULTS, "a")

    def lane_loop(dev: str, extra_env: dict):
        env = {**os.environ, **extra_env}
        lane = None
        while True:
            if time.monotonic() - t0 > budget_s:
                break
            with lock:
                if not queue:
                    break
                rec = queue.pop()
            if lane is None or lane.proc.poll() is not None:
                try:
                    lane = _Lane(dev, env, n_timing, timing, log)
                except RuntimeError as e:
                    with lock:
                        queue.append(rec)  # not measured: the next run takes it
                        stats.setdefault("errors", []).append(str(e))
                    lane = None
                    break
            # a task that hangs near the end must not carry the call far past its budget
            left = budget_s - (time.monotonic() - t0)
            res = lane.ask(rec["name"], str(ts.path(rec)), min(task_timeout_s, max(15.0, left + 20.0)))
            if lane.proc.poll() is not None:
                lane = None
            with lock:
                results_f.write(json.dumps(res, default=str) + "\n")
                results_f.flush()
                stats["measured"] += 1
                if progress:
                    progress(stats["measured"], len(todo), res)
        if lane is not None:
            lane.close()

    threads = [threading.Thread(target=lane_loop, args=spec, daemon=True) for spec in lanes_spec]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    results_f.close()
    log.close()
    stats["remaining"] = len(queue)
    stats["elapsed_s"] = round(time.monotonic() - t0, 1)
    return stats


def _main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Execution filters over a task set (resumable).")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    ap.add_argument("set_dir", nargs="?")
    ap.add_argument("--out", help="results folder (results.jsonl is appended to)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--gpus", default=None, help="comma-separated GPU indices, one worker each (default: every visible GPU)")
    ap.add_argument("--budget-s", type=float, default=450.0)
    ap.add_argument("--timing-runs", type=int, default=10)
    ap.add_argument("--no-timing", action="store_true")
    args = ap.parse_args()
    if args.worker:
        _worker(args.device, args.fd, args.timing_runs, not args.no_timing)
        return
    if not args.set_dir or not args.out:
        ap.error("SET_DIR and --out are required")
    gpus = [int(g) for g in args.gpus.split(",")] if args.gpus else None
    t_last = [time.monotonic()]

    def progress(i, n, res):
        if time.monotonic() - t_last[0] > 10 or i == n:
            t_last[0] = time.monotonic()
            print(f"{i}/{n} measured; last {res['name']}: eager {res.get('eager_ms')} ms, checks {'ok' if res.get('passed_checks') else res.get('reasons')}", flush=True)

    stats = run_filters(args.set_dir, args.out, device=args.device, gpus=gpus, budget_s=args.budget_s,
                        n_timing=args.timing_runs, timing=not args.no_timing, progress=progress)
    print(json.dumps(stats))
    if stats["remaining"]:
        print(f"{stats['remaining']} tasks left: run the same command again to continue", flush=True)


if __name__ == "__main__":
    _main()
