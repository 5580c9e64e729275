"""Where a cold ``load_inline`` build's time goes: each compile step and the link, timed.

Runs the gold kernels' ``cuda`` candidates (tests/gpu/kernels/gold/*/cuda.py) through the builder
the judge runs (``builder.build``, which runs torch's build file through ``run_build_file``), with
no sandbox and no GPU: it needs a CUDA build of torch and ``nvcc`` (compiling does not need a
GPU). The candidate file is executed with ``load_inline`` replaced by a recorder (its arguments
become the ``BuildRequest``); nothing it would build is loaded.

Each build is cold (a fresh staging folder, no object cache) and runs in a process of its own.
``--steps`` says how the compile steps of one build run: ``parallel`` (as the builder runs them)
or ``serial`` (one at a time). ``--concurrent N`` runs N builds at once, as the verifier's build
pool does in a batch (one build per build core). ``--pch on`` builds with the binding's
precompiled header (``builder.PchCache``) as the judge runs it: the build that takes the claim
makes a missing header (reported apart as the step ``pch``), ``judge.publish_pch`` stores it,
later builds use it; ``--pch-dir`` keeps the store between runs (a warm one is the steady state).
Steps are timed by the builder itself (``builder.STEPS_FILE``); main.cpp's time with a stored
header includes checking its hash. Prints one JSON line per build and a summary of the per-step
medians, min and max::

    TORCH_CUDA_ARCH_LIST=9.0 python benchmarks/build_steps.py --rounds 1 --limit 5 --pch off --out steps.jsonl
    TORCH_CUDA_ARCH_LIST=9.0 python benchmarks/build_steps.py --rounds 1 --limit 6 --pch on --out steps.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GOLD = ROOT / "tests" / "gpu" / "kernels" / "gold"


def request_of(path: Path):
    """The BuildRequest a candidate file's load_inline call makes (the file is run, its build is not)."""
    import torch.utils.cpp_extension as ce

    from kernelmosaic.verify.builder import BuildRequest

    seen: list[dict] = []
    real = ce.load_inline

    def record(name, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None, extra_cuda_cflags=None,
               extra_ldflags=None, extra_include_paths=None, with_cuda=None, **_):
        as_list = lambda v: [v] if isinstance(v, str) else list(v or [])  # noqa: E731
        seen.append(dict(tool="load_inline", name=name, cpp_sources=as_list(cpp_sources), cuda_sources=as_list(cuda_sources),
                         functions=as_list(functions) if functions is not None else None,
                         extra_cflags=as_list(extra_cflags), extra_cuda_cflags=as_list(extra_cuda_cflags),
                         extra_ldflags=as_list(extra_ldflags), extra_include_paths=as_list(extra_include_paths),
                         with_cuda=with_cuda))
        return None

    ce.load_inline = record
    try:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "candidate"})
    finally:
        ce.load_inline = real
    return BuildRequest(**seen[0])


def one(r: int, name: str, req, pch_root: str | None, toolchain: str) -> dict:
    """One cold build, in a process of its own; with ``pch_root``, as the judge runs it: the build
    that takes the claim (a file made with O_EXCL) may make a missing header, and what it made is
    stored by ``judge.publish_pch`` afterwards."""
    from kernelmosaic.verify import builder
    from kernelmosaic.verify.judge import publish_pch

    staging = tempfile.mkdtemp(prefix="kmosaic-steps-")
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    used = None
    if pch_root:
        claim = Path(pch_root, ".claim")
        try:
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            Path(staging, builder.PCH_CLAIM_FILE).write_text("build_steps")
        except FileExistsError:
            claim = None
        try:
            builder.build(req, staging, toolchain=toolchain, pch_dir=pch_root)
        finally:
            used = publish_pch(Path(staging), Path(pch_root))  # what the judge does after a build
            if claim is not None:
                claim.unlink()
    else:
        builder.build(req, staging)
    total = time.perf_counter() - t0
    # the builder's own clock (builder.STEPS_FILE): main.cpp's includes making the header, where it did
    steps = json.loads(Path(staging, builder.STEPS_FILE).read_text())
    row = {"round": r, "kernel": name, "total_s": round(total, 2), "load_before": round(load, 2)}
    for k, v in steps.items():
        row[{"main.o": "main.cpp", "cuda.cuda.o": "cuda.cu"}.get(k, "link" if k.endswith(".so") else k)] = v
    if "pch" in row:
        row["main.cpp"] = round(row["main.cpp"] - row["pch"], 2)
    if pch_root:
        row["pch_used"] = used
    shutil.rmtree(staging, ignore_errors=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--steps", choices=("parallel", "serial"), default="parallel")
    ap.add_argument("--pch", choices=("on", "off"), default="off")
    ap.add_argument("--concurrent", type=int, default=1, help="builds at once (the verifier runs one per build core)")
    ap.add_argument("--pch-dir", help="with --pch on: the header store to use and keep (a warm one: the steady state)")
    ap.add_argument("--out")
    a = ap.parse_args()
    import torch

    if a.steps == "serial":
        os.cpu_count = lambda: 1  # run_build_file's pool then runs one compile at a time
    kernels = sorted(GOLD.glob("*/cuda.py"))[: a.limit or None]
    reqs = [(k.parent.name, request_of(k)) for k in kernels]
    out = open(a.out, "a") if a.out else None
    pch_root = (a.pch_dir or tempfile.mkdtemp(prefix="kmosaic-pch-")) if a.pch == "on" else None
    if pch_root:
        os.makedirs(pch_root, exist_ok=True)
    toolchain = f"build_steps {torch.__version__} {os.environ.get('TORCH_CUDA_ARCH_LIST', '')}"

    def emit(rec):
        print(json.dumps(rec), flush=True)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()

    emit({"event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu_cores": os.cpu_count(),
          "torch": torch.__version__, "arch": os.environ.get("TORCH_CUDA_ARCH_LIST"), "steps": a.steps, "pch": a.pch,
          "pch_stored_before": bool(pch_root and any(Path(pch_root).iterdir())), "concurrent": a.concurrent,
          "load": os.getloadavg()[0]})
    rows = []
    t_all = time.perf_counter()
    # processes, not threads: builder.build sets torch's build runner for its own build
    with ProcessPoolExecutor(max_workers=a.concurrent, mp_context=multiprocessing.get_context("fork")) as ex:
        futures = [ex.submit(one, r, name, req, pch_root, toolchain) for r in range(a.rounds) for name, req in reqs]
        for f in as_completed(futures):
            rows.append(f.result())
            emit(rows[-1])
    emit({"event": "batch", "wall_s": round(time.perf_counter() - t_all, 1), "builds": len(rows), "concurrent": a.concurrent})
    summary = {}
    for step in ("main.cpp", "cuda.cu", "link", "pch", "total_s"):
        vals = [x[step] for x in rows if step in x]
        if vals:
            summary[step] = {"median": round(statistics.median(vals), 2), "min": min(vals), "max": max(vals), "n": len(vals)}
    emit({"event": "summary", "pch": a.pch, "steps": a.steps, "concurrent": a.concurrent, "per_step": summary})
    if pch_root and not a.pch_dir:
        shutil.rmtree(pch_root, ignore_errors=True)


if __name__ == "__main__":
    main()
