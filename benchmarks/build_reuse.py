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
"""

from __future__ import annotations

import argparse
import json
import os
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--out")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--device", default="cuda", help="cuda (builds, then checks on the GPU) or cpu (where the cuda "
                    "backend can build: needs a CUDA build of torch)")
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
          "cpu_cores": os.cpu_count()})
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
