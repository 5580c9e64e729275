"""`cuda` (load_inline) builds, cold and in a repair turn, side by side in one run.

A load_inline build compiles two files: ``main.cpp`` (the declarations and pybind11's binding,
with ``torch/extension.h``: the slowest to compile) and ``cuda.cu`` (the kernels). In an agent's
repair loop the kernels change and the binding rarely does. The builder keeps compiled files by
content (``kernelmosaic/verify/builder.py``, ``ObjectCache``) and compiles only what changed.

This runs the gold kernels' ``cuda`` candidates (tests/gpu/kernels, one per KernelBench task) in
one batch through the verifier, timing off, three rounds on one cache:

  cold    a fresh cache: every file compiled
  repair  the same kernels with their CUDA text changed (a comment): the artifact cache misses,
          ``cuda.cu`` is compiled again and ``main.cpp``'s object is reused
  again   the repair round's exact candidates: the whole library comes from the artifact cache

For each round: the batch's wall time, the median of the verdicts' build phase, and how many
verdicts said they reused a compiled file. Run where the cuda backend builds (a GPU machine)::

    python benchmarks/build_reuse.py --kernelbench DIR --out results/<dir>/build_reuse.jsonl

``--compare-pch`` runs, instead, cold builds without and with the binding's precompiled header
(``builder.PchCache``), side by side, each round on a fresh verifier, every candidate's text
tagged per round so that no library or object is reused (``--pch-rounds``, by default
``no-pch,pch-warm``):

  no-pch      KMOSAIC_BUILD_PCH=0, a fresh cache: every file compiled, main.cpp in full
  pch-first   a fresh cache: one build makes the precompiled header (the judge's claim), the
              others of that first wave compile main.cpp in full
  pch-warm    the header stored (one build makes it first, reported apart as the warm-up where
              no earlier round did), other text: every main.cpp compiled with the stored header;
              the steady state, one header per toolchain and flag set

It prints, per round, the batch's wall time, the medians of the verdicts' total and build phase,
and the per-step medians from the builder's note (main.cpp, cuda.cu, link, precompiled header)::

    python benchmarks/build_reuse.py --kernelbench DIR --compare-pch --out results/<dir>/build_pch.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "tests" / "gpu" / "kernels"


def repaired(src: str) -> str:
    """The candidate with a comment added to its CUDA text: another request, the same binding."""
    for marker in ('cuda_src = r"""', "cuda_src = r'''", 'cuda_source = r"""'):
        if marker in src:
            return src.replace(marker, marker + "\n// repair turn: the kernels were edited\n", 1)
    raise ValueError("no CUDA source string found")


def tagged(src: str, tag: str) -> str:
    """The candidate with its CUDA and C++ texts marked ``tag``: no library or object of another round matches."""
    src = repaired(src).replace("// repair turn: the kernels were edited", f"// round {tag}")
    for marker in ('cpp_src = "', "cpp_src = '", 'cpp_src = r"""', 'cpp_source = "'):
        if marker in src:
            return src.replace(marker, marker + f"/* round {tag} */ ", 1)
    raise ValueError("no C++ source string found")


STEP = re.compile(r"(main\.cpp|cuda\.cu|link|precompiled header) ([0-9.]+)")  # main.cpp includes making the header


def build_steps(verdict) -> dict[str, float]:
    """The builder's per-step seconds, from the judge's note ('build steps (s): main.cpp 8.1, ...')."""
    for n in getattr(verdict, "notes", []):
        if n.startswith("build steps (s): "):
            return {k: float(v) for k, v in STEP.findall(n)}
    return {}


def compare_pch(a, gold, tasks, emit) -> None:
    """Cold batches without and with the precompiled header, each on a fresh verifier (the judges
    read KMOSAIC_BUILD_PCH when they start)."""
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    off = TimingConfig(enabled=False)
    srcs = [(KERNELS / g["dir"] / "cuda.py").read_text() for g in gold]
    shared = tempfile.mkdtemp(prefix="kmosaic-builds-pch-")
    med = lambda xs: round(statistics.median(xs), 2) if xs else None  # noqa: E731
    used = lambda r: any("precompiled torch/extension.h" in n for n in getattr(r, "notes", []))  # noqa: E731
    rows = []
    for name in a.pch_rounds.split(","):
        if name not in ("no-pch", "pch-first", "pch-warm"):
            raise SystemExit(f"unknown round {name!r}")
        os.environ["KMOSAIC_BUILD_PCH"] = "0" if name == "no-pch" else "1"
        cache = tempfile.mkdtemp(prefix="kmosaic-builds-nopch-") if name == "no-pch" else shared
        with Verifier(device=a.device, cache_dir=cache) as v:
            if name == "pch-warm" and not any((Path(cache) / "build" / "pch").glob("[0-9a-f]*")):
                # the steady state has the header stored: one build makes it first, timed apart
                t0 = time.perf_counter()
                r = v.verify_many([VerifyRequest(candidate=tagged(srcs[0], f"warm-up-{time.time_ns()}"), task=tasks[0],
                                                 backend="cuda", timing=off)])[0]
                emit({"event": "warm-up", "task": gold[0]["task"], "wall_s": round(time.perf_counter() - t0, 1),
                      "status": getattr(r, "status", "task_error"), "steps": build_steps(r)})
            tag = f"{name}-{time.time_ns()}"
            t0 = time.perf_counter()
            verdicts = v.verify_many([VerifyRequest(candidate=tagged(s, tag), task=t, backend="cuda", timing=off)
                                      for s, t in zip(srcs, tasks)])
            wall = time.perf_counter() - t0
        steps = []
        for g, r in zip(gold, verdicts):
            st = build_steps(r)
            steps.append(st)
            emit({"round": name, "task": g["task"], "status": getattr(r, "status", "task_error"),
                  "total_s": getattr(r, "phases_s", {}).get("total"), "build_s": getattr(r, "phases_s", {}).get("build"),
                  "steps": st, "pch_used": used(r), "reused": any("reused" in n for n in getattr(r, "notes", []))})
        phases = [getattr(r, "phases_s", {}) for r in verdicts]
        row = {"event": "round", "round": name, "wall_s": round(wall, 1),
               "median_total_s": med([p["total"] for p in phases if "total" in p]),
               "median_build_s": med([p["build"] for p in phases if "build" in p]),
               "median_steps_s": {k: med([st[k] for st in steps if k in st])
                                  for k in ("main.cpp", "cuda.cu", "link", "precompiled header")},
               "pch_used": sum(used(r) for r in verdicts),
               "correct": sum(getattr(r, "status", "") == "correct" for r in verdicts)}
        rows.append(row)
        emit(row)
    emit({"event": "summary", "rounds": rows})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--out")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--device", default="cuda", help="cuda (builds, then checks on the GPU) or cpu (where the cuda "
                    "backend can build: needs a CUDA build of torch)")
    ap.add_argument("--compare-pch", action="store_true", help="cold builds without and with the precompiled binding "
                    "header, side by side (see the module's docstring)")
    ap.add_argument("--pch-rounds", default="no-pch,pch-warm", help="with --compare-pch: the rounds, in order, of "
                    "no-pch, pch-first, pch-warm")
    a = ap.parse_args()
    from kernelmosaic.task import Task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    gold = json.loads((KERNELS / "manifest.json").read_text())["gold"][: a.limit or None]
    tasks = [Task(name=g["task"].replace("/", "_"), source=(Path(a.kernelbench) / g["file"]).read_text(),
                  path=str(Path(a.kernelbench) / g["file"])) for g in gold]
    cold = [(KERNELS / g["dir"] / "cuda.py").read_text() for g in gold]
    rounds = {"cold": cold, "repair": [repaired(s) for s in cold]}
    rounds["again"] = rounds["repair"]
    off = TimingConfig(enabled=False)
    rows = []
    out = open(a.out, "a") if a.out else None

    def emit(rec):
        print(json.dumps(rec), flush=True)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()

    emit({"event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "kernels": len(gold),
          "cpu_cores": os.cpu_count(), "mode": "compare-pch" if a.compare_pch else "reuse"})
    if a.compare_pch:
        compare_pch(a, gold, tasks, emit)
        return
    with Verifier(device=a.device, cache_dir=tempfile.mkdtemp(prefix="kmosaic-builds-")) as v:
        for name, srcs in rounds.items():
            t0 = time.perf_counter()
            verdicts = v.verify_many([VerifyRequest(candidate=s, task=t, backend="cuda", timing=off) for s, t in zip(srcs, tasks)])
            wall = time.perf_counter() - t0
            builds = [r.phases_s.get("build", 0.0) for r in verdicts if hasattr(r, "phases_s")]
            for g, r in zip(gold, verdicts):
                emit({"round": name, "task": g["task"], "status": getattr(r, "status", "task_error"),
                      "build_s": getattr(r, "phases_s", {}).get("build"), "compile_s": getattr(r, "phases_s", {}).get("compile"),
                      "reused": any("reused" in n for n in getattr(r, "notes", []))})
            row = {"event": "round", "round": name, "wall_s": round(wall, 1),
                   "median_build_s": round(statistics.median(builds), 2) if builds else None,
                   "correct": sum(getattr(r, "status", "") == "correct" for r in verdicts),
                   "reused": sum(any("reused" in n for n in getattr(r, "notes", [])) for r in verdicts)}
            rows.append(row)
            emit(row)
    emit({"event": "summary", "rounds": rows})


if __name__ == "__main__":
    main()
