"""Execution filters: run each task's reference and keep it only if it is a fair problem.

A task passes when its reference runs, gives finite outputs, changes with the seed, is
neither constant nor near zero (measured the way the verifier compares: an all-zeros or
all-mean answer must *fail* the verifier's tolerances, and at least 1% of the elements must
exceed the absolute tolerance), is deterministic (two runs on the same
inputs agree within those tolerances), and its eager time lies in the window (1-15 ms on the
H200). The eager time is measured with the verifier's own timing loop (L2 flush, two rotating
input buffers, a device-wide sync per call), so it is the baseline a candidate will later be
compared against.

The measuring is the verifier's (``verify/reference.py``): ``run_filters`` sends each task as a
``filter`` job through the verifier's worker pool (``lanes_per_gpu`` judges per GPU, one by
default: their checks share the GPU, while each timing loop has it alone, so no two tasks are
timed on one GPU at once; one judge on the CPU), appends one JSON line per task to
``DIR/results.jsonl``, skips tasks already there, and stops cleanly at a time budget so a long
pool is measured over several calls of the same command. What to keep is decided here.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..task import sha256_text
from ..verify.reference import CHECKS, measure  # noqa: F401  (measure: one task in this process)

if TYPE_CHECKING:
    from ..verify.pool import WorkerPool

RESULTS = "results.jsonl"
WINDOW_H200 = (1.0, 15.0)


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


def run_filters(set_dir, out_dir, *, device: str = "cpu", gpus: list[int | str] | None = None, lanes_per_gpu: int = 1,
                budget_s: float = 450.0, task_timeout_s: float = 60.0, n_timing: int = 10, timing: bool = True,
                progress=None, only: list[str] | None = None, pool: WorkerPool | None = None) -> dict:
    """Measure every task of a set not yet in ``out_dir/results.jsonl``; stop at the budget.
    On ``cuda``, ``lanes_per_gpu`` workers per GPU in ``gpus``, or per visible GPU when it is None;
    one worker on the CPU. ``pool``: a ``WorkerPool`` of the caller's to measure on instead (left
    open; its lanes decide, as the tests' CPU lanes behind one ``GpuGate``)."""
    import threading

    from ..verify.pool import WorkerPool, check_lanes_per_gpu, detect_gpus, lane_gpus
    from ..verify.spec import JobSpec, TimingConfig
    from .taskset import TaskSet

    check_lanes_per_gpu(lanes_per_gpu)
    if pool is None and device != "cuda" and lanes_per_gpu > 1:
        raise ValueError("lanes_per_gpu is for device='cuda': the CPU filter runs one judge")
    t0 = time.monotonic()
    ts = TaskSet.open(set_dir)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    done = done_names(out_dir)
    todo = [r for r in ts.records if r["name"] not in done]
    if only is not None:
        # in the order of ``only``: a run the budget cuts has measured a prefix of the caller's list,
        # so a shuffled list gives a random subset, where the set's order (by generator) would not
        rank = {n: i for i, n in enumerate(dict.fromkeys(only))}
        todo = sorted((r for r in todo if r["name"] in rank), key=lambda r: rank[r["name"]])
    if device == "cuda" and not gpus:
        # the visible GPUs as the verifier counts them: nvidia-smi ignores CUDA_VISIBLE_DEVICES, and
        # counting with it once put a lane on a GPU that another benchmark was timing on
        gpus = detect_gpus()  # none: the pool says so ("no NVIDIA GPU found ... use --device cpu")
    stats = {"measured": 0, "skipped_done": len(done), "remaining": 0,
             "total": len(ts.records) if only is None else len(set(only)),
             "lanes_per_gpu": pool.lanes_per_gpu if pool is not None else lanes_per_gpu}
    (out_dir / RESULTS).touch()  # a run that measures nothing still leaves its (empty) results file
    if not todo:
        stats["elapsed_s"] = round(time.monotonic() - t0, 1)
        return stats
    # lanes_per_gpu judges per GPU (each GPU still times one task at a time: reference.py), one on
    # the CPU; no spare judges and no candidate processes: a filter job runs the reference alone
    own_pool = pool is None
    if own_pool:
        try:
            pool = WorkerPool(device, workers=None if device == "cuda" else 1,
                              gpus=lane_gpus(gpus, lanes_per_gpu) if device == "cuda" else None, prewarm=False, jobs_per_worker=64)
        except RuntimeError as e:
            stats.update(remaining=len(todo), errors=[str(e)], elapsed_s=round(time.monotonic() - t0, 1))
            return stats
    # beside other lanes, a judge's out-of-memory is the verifier's (infra_error): the pool runs it
    # once more with the GPU to itself (GpuGate), where an out-of-memory is the task's again
    retries = 1 if pool.lanes_per_gpu > 1 else 0
    lock = threading.Lock()
    queue = list(reversed(todo))
    results_f = open(out_dir / RESULTS, "a")

    def lane_loop():
        while True:
            if time.monotonic() - t0 > budget_s:
                break
            with lock:
                if not queue:
                    break
                rec = queue.pop()
            src = ts.path(rec).read_text()
            # a task that hangs near the end must not carry the call far past its budget
            left = budget_s - (time.monotonic() - t0)
            limit = min(task_timeout_s, max(15.0, left + 20.0))
            job = JobSpec(kind="filter", device=device, reference=src, seeds=[11, 12],
                          timing=TimingConfig(enabled=timing, n=n_timing, warmup=2))
            out = pool.run(job, {"startup": 300.0, "check": limit}, retries=retries)
            if out.result is not None and out.infra:
                # still the verifier's failure after the retry: no verdict on the task, which stays
                # unmeasured (out of results.jsonl), so a resumed run measures it again
                with lock:
                    stats.setdefault("unmeasured", []).append({"name": rec["name"], **out.infra_summary()})
                continue
            if out.result is not None:
                res = {k: v for k, v in out.result.items() if k != "event"}
            elif out.failure == "timeout":
                res = {"checks": {"runs": False}, "passed_checks": False, "reasons": [f"timeout after {limit:.0f} s"]}
            elif out.phase == "startup":
                with lock:
                    queue.append(rec)  # not measured: the next run takes it
                    stats.setdefault("errors", []).append(f"the filter worker for {device} did not start: {out.message}")
                break
            else:
                res = {"checks": {"runs": False}, "passed_checks": False, "reasons": ["worker crash (process died)"]}
            res["name"] = rec["name"]
            res["sha256"] = sha256_text(src)
            res["lanes_per_gpu"] = stats["lanes_per_gpu"]  # how it was measured: judges sharing its GPU
            if out.alone:  # run with the GPU to itself, and why (GpuGate)
                res["alone"] = out.alone
            if out.attempts:  # the runs that failed for the verifier's reasons first
                res["attempts"] = out.attempts
            with lock:
                results_f.write(json.dumps(res, default=str) + "\n")
                results_f.flush()
                stats["measured"] += 1
                if progress:
                    progress(stats["measured"], len(todo), res)

    threads = [threading.Thread(target=lane_loop, daemon=True) for _ in range(len(pool))]
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        results_f.close()
        if own_pool:
            pool.close()
    stats["remaining"] = len(queue) + len(stats.get("unmeasured", []))
    stats["elapsed_s"] = round(time.monotonic() - t0, 1)
    return stats


def _main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Execution filters over a task set (resumable).")
    ap.add_argument("set_dir", nargs="?")
    ap.add_argument("--out", help="results folder (results.jsonl is appended to)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--gpus", default=None, help="comma-separated GPU indices, one worker each (default: every visible GPU)")
    ap.add_argument("--budget-s", type=float, default=450.0)
    ap.add_argument("--timing-runs", type=int, default=10)
    ap.add_argument("--no-timing", action="store_true")
    args = ap.parse_args()
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
