"""A reference alone, measured for curation: the checks that decide whether a task is a fair problem.

A ``filter`` job (``JobSpec.kind``) runs :func:`measure` in a judge process of the verifier's
worker pool, which no candidate code ever reaches: the reference runs, gives finite outputs,
changes with the seed, is neither constant nor near zero (measured the way the verifier compares:
an all-zeros or all-mean answer must *fail* the verifier's tolerances, and at least 1% of the
elements must exceed the absolute tolerance), is deterministic (two runs on the same inputs agree
within those tolerances), and its eager time, measured with the verifier's own timing loop (L2
flush, two rotating input sets, a device-wide sync per call), is the baseline a candidate will
later be compared against. Which tasks to keep (the checks, the time window) is curation's rule
(``curate/filters.py``).

Several lanes may share a GPU (``run_filters(lanes_per_gpu=N)``): the checks' GPU work holds the
GPU's lock shared and the timing loop holds it exclusive (``quiet.py``), so the lanes check at once
and each eager time is taken with the GPU to itself. There an out-of-memory may be another lane's
doing: it is the verifier's ``infra_error``, which the pool runs again alone, not a dropped task.
"""

from __future__ import annotations

import contextlib
import tempfile
import time

CHECKS = ("runs", "finite", "deterministic", "changes_with_seed", "not_near_zero", "not_constant")


def measure(source: str, device: str = "cpu", *, seeds=(11, 12), model_seed: int = 7, n_timing: int = 10,
            warmup: int = 2, timing: bool = True, skip_timing_above_ms: float = 100.0,
            gpu_share: float | None = None) -> dict:
    """Run the checks on one reference. Never raises for a broken task. ``gpu_share``: the job's
    (``JobSpec.gpu_share``: the pool sets it for a job that runs alone on a GPU its lanes share).
    Where the GPU is shared with other lanes (``Judge.shared_gpu``), an out-of-memory gives
    ``status: infra_error`` with ``error: {kind: out_of_memory, message}`` (``pool.oom_infra``)."""
    import torch

    import statistics

    from .compare import clone as _clone
    from .compare import compare, default_tolerances
    from .compare import flatten as _flatten
    from .compare import same as _same
    from .judge import Judge, TaskProblem
    from .spec import JobSpec, TimingConfig
    from .timing import Flusher as _Flusher
    from .timing import cv, time_in_process

    res: dict = {"checks": {}, "reasons": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kmosaic-filter-") as wd:
        # the judge's reference helpers only: no candidate is involved in curating a task
        job = Judge(JobSpec(device=device, reference=source, timing=TimingConfig(n=n_timing, warmup=warmup),
                            gpu_share=gpu_share), workdir=wd)

        @contextlib.contextmanager
        def gpu_work():
            # GPU work that is not timed: beside other lanes' checks, never during one's timed
            # loop; finished on the GPU before the lock is let go, so none of it runs into that loop
            with job.quiet.busy():
                yield
                job.sync()

        try:
            mod = job.load_reference(source)  # CPU work: done while other lanes use the GPU
            init = job.init_inputs(mod)
            with gpu_work():
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
                with job.quiet.exclusive():  # the timed loop has the GPU alone: no other lane's checks run in it
                    flush = _Flusher(job.device)
                    times = time_in_process(ref, sets, n_timing, warmup, flush, job.device)
                    del flush
                res["eager_ms"] = statistics.median(times)
                res["eager_cv"] = cv(times)  # the verifier's definition (stdev / mean), not a second one
                res["timing_n"] = n_timing
                if job.quiet.unquiet:  # the lock not had within quiet.WAIT_S: timed anyway, said so
                    res["timed_unquiet"] = True
            elif timing:
                res["eager_ms"] = None
                res["reasons"].append(f"too slow to time: one call took {second_ms:.1f} ms")
        except BaseException as e:  # noqa: BLE001 - a broken task (TaskProblem), or e.g. out of memory
            lost = _shared_oom(job, e)
            if lost is not None:
                # not the task's: the pool runs the job again with the GPU to itself
                res["status"] = "infra_error"
                res["error"] = {"kind": "out_of_memory", "message": lost}
            res["checks"]["runs"] = False
            if isinstance(e, TaskProblem):
                res["reasons"].append(str(e).split("\n")[0][:400])
            else:
                res["reasons"].append(f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}")
        res["reasons"] += [f"failed: {k}" for k in CHECKS if res["checks"].get(k) is False and k != "runs"]
        res["passed_checks"] = all(res["checks"].get(k) for k in CHECKS)
        res["device"] = device
        if job.is_cuda:
            res["gpu"] = torch.cuda.get_device_name(job.device)
        res["check_s"] = round(time.perf_counter() - t0, 3)
        job.close()  # its lock descriptors: a judge process runs many of these jobs
    return res


def _shared_oom(job, e: BaseException) -> str | None:
    """The verifier's message for an out-of-memory where other lanes share the GPU: ``e``, or what
    it was raised from (a task's failure wraps the error it caught), ran out of memory. None where
    the GPU is this job's alone (an out-of-memory then drops the task, as with one lane)."""
    from .infra import is_oom
    from .procs import JobFailed

    if not job.shared_gpu:
        return None
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, JobFailed) and e.error.get("kind") == "out_of_memory":
            return e.error["message"]  # the judge's own helpers' (Judge.shared_oom)
        if is_oom(e):
            return job.shared_oom("the filter's checks", f"{type(e).__name__}: {str(e)[:300]}", "").error["message"]
        e = e.__cause__ or e.__context__
    return None
