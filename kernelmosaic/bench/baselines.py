"""Eager and torch.compile baselines for a bench.

Two sources:

* ``measure``: timed on this machine by the verifier's own protocol (the one candidates are
  timed with), cached by the verifier per (task hash, GPU name, torch version, timing
  settings), so a second bench on the same machine pays nothing.
* ``kernelbench``: KernelBench's stored timing JSON (``baseline_times/<hardware>/`` in a
  problem snapshot, ``results/timing/<hardware>/`` in a checkout). Other hardware, other
  torch, other method: speedups against them are comparable with KernelBench's papers, not
  with our own timings.

torch.compile dominates a cold baseline (Inductor and Triton compile for seconds to minutes
per problem, mostly on the CPU). Both compilers keep on-disk caches keyed by content, and the
verifier's reference processes share theirs (``procs.reference_compile_dir``; candidates cannot
write it), so :func:`measure_baselines` can first run the compilations
in several extra worker processes at once (``warm_lanes``) and then time each problem alone
in the verifier's lane, where the compile step is a cache hit. The warm-up's own times are
discarded: processes sharing a GPU disturb each other's timings.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

from ..task import Task, TaskError, resolve_kernelbench_dir
from ..verify import TimingConfig, Verifier

SOURCES = ("measure", "kernelbench", "none")
STORED_HARDWARE = "H100_Modal"
_STORED_FILES = {"eager_ms": "baseline_time_torch.json", "compile_ms": "baseline_time_torch_compile_inductor_default.json"}


def stored_dir(kernelbench_dir: str | os.PathLike | None, hardware: str = STORED_HARDWARE) -> Path:
    """The folder holding KernelBench's stored timings for ``hardware``."""
    root = resolve_kernelbench_dir(kernelbench_dir)
    for cand in (root / "baseline_times" / hardware, root.parent / "results" / "timing" / hardware,
                 root / "results" / "timing" / hardware):
        if (cand / _STORED_FILES["eager_ms"]).is_file():
            return cand
    raise TaskError(str(root), f"no stored KernelBench timings for {hardware} (looked for baseline_times/{hardware}/"
                               f"{_STORED_FILES['eager_ms']} and results/timing/{hardware}/)")


def stored_baselines(kernelbench_dir: str | os.PathLike | None, hardware: str = STORED_HARDWARE) -> dict[str, dict]:
    """{task key (``L1/19_ReLU``): {eager_ms, compile_ms, hardware, source}} from KernelBench's
    stored JSON (the mean over its trials, in ms). A missing compile file leaves compile_ms out."""
    d = stored_dir(kernelbench_dir, hardware)
    out: dict[str, dict] = {}
    for field, fname in _STORED_FILES.items():
        p = d / fname
        if not p.is_file():
            continue
        try:
            data = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise TaskError(str(p), f"unreadable KernelBench timing file: {e}") from None
        for level_key, problems in data.items():
            if not (level_key.startswith("level") and level_key[5:].isdigit() and isinstance(problems, dict)):
                continue
            for fname_py, row in problems.items():
                mean = row.get("mean") if isinstance(row, dict) else None
                if not isinstance(mean, (int, float)):
                    continue
                key = f"L{int(level_key[5:])}/{fname_py.removesuffix('.py')}"
                entry = out.setdefault(key, {"hardware": row.get("hardware") or hardware, "source": str(d)})
                entry[field] = float(mean)
    return out


def _gpu_ids(verifier: Verifier, n: int) -> list[str]:
    """``n`` warm-up lanes spread over the GPUs ``verifier`` times on (not every GPU of the host:
    ``--workers 1`` on a two-GPU machine keeps the warm-up off the second GPU too)."""
    gpus = [lane.env.get("CUDA_VISIBLE_DEVICES") for lane in verifier.pool.lanes]
    gpus = [g for g in gpus if g] or ["0"]
    return [gpus[i % len(gpus)] for i in range(n)]


def warm_verifier(verifier: Verifier, lanes: int) -> Verifier:
    """A verifier of ``lanes`` worker processes for :func:`warm_compile`, sharing ``verifier``'s
    caches (keep one open across several warm-ups: each worker needs seconds to start)."""
    kw = dict(gpus=_gpu_ids(verifier, lanes)) if verifier.device == "cuda" else dict(workers=lanes)
    # references are trusted code, so a worker may take many of them; recycled now and then
    # because Dynamo keeps state for every model it compiled. The GPU's bandwidth and peak are
    # measured first, by the main verifier on an idle GPU: measured by a warm-up lane, they
    # would be lowered by the other lanes' work, and with them the speed-of-light floor.
    return Verifier(device=verifier.device, cache_dir=verifier.cache_dir, timeouts=verifier.timeouts, prewarm=False,
                    jobs_per_worker=8, ceilings=verifier.ceilings(), **kw)


def warm_compile(tasks: list[Task], verifier: Verifier, lanes: int, *, warm: Verifier | None = None,
                 on_done: Callable[[Task, str | None], None] | None = None) -> None:
    """Run each task's eager and torch.compile model once in ``lanes`` extra worker processes at
    once (those of ``warm`` when given), filling the shared Inductor/Triton caches; the times
    are thrown away."""
    if not tasks or lanes < 1:
        return
    w = warm or warm_verifier(verifier, lanes)
    try:
        with ThreadPoolExecutor(max_workers=lanes) as ex:
            once = TimingConfig(n=1, warmup=1, compile=True)
            futs = {ex.submit(w.baseline, t, once, use_cache=False): t for t in tasks}
            for f in as_completed(futs):
                err = None
                try:
                    f.result()
                except TaskError as e:  # the timed pass reports it
                    err = str(e)
                if on_done is not None:
                    on_done(futs[f], err)
    finally:
        if warm is None:
            w.close()


def measure_baselines(tasks: list[Task], verifier: Verifier, timing: TimingConfig, *, warm_lanes: int = 0,
                      on_result: Callable[[Task, dict | None, str | None], None] | None = None,
                      on_warm: Callable[[Task, str | None], None] | None = None) -> dict[str, dict]:
    """{task key: baseline} for every task, measured where the verifier's cache has none.

    Cached tasks are returned at once (``cached: True``). The rest are first compiled in
    ``warm_lanes`` parallel processes (0: no warm-up), then timed one at a time per device
    lane. A task whose reference fails gets no entry; ``on_result`` hears of it with the error.
    """
    out: dict[str, dict] = {}
    todo = []
    for t in tasks:
        hit = verifier.cached_baseline(t, timing)
        if hit is not None:
            out[t.key] = {**hit, "cached": True}
            if on_result is not None:
                on_result(t, out[t.key], None)
        else:
            todo.append(t)
    if not todo:
        return out
    if timing.compile and warm_lanes > 0:
        warm_compile(todo, verifier, warm_lanes, on_done=on_warm)
    lock = threading.Lock()
    # one timing at a time per GPU; CPU lanes share cores, so one at a time there too
    lanes = len(verifier.pool) if verifier.device == "cuda" else 1

    def one(t: Task) -> None:
        try:
            b, err = verifier.baseline(t, timing), None
        except TaskError as e:
            b, err = None, str(e)
        with lock:
            if b is not None:
                out[t.key] = b
            if on_result is not None:
                on_result(t, b, err)

    with ThreadPoolExecutor(max_workers=max(1, lanes)) as ex:
        list(ex.map(one, todo))
    return out
