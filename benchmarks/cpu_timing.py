"""CPU timing across the trust boundary against timing in one process, side by side (issue 15, item 7).

On the CPU the judge flushes the cache (a 2x last-level-cache write) just before each timed round
trip, and its torch ops run on OpenMP threads. If those threads spin after the flush, they hold the
cores that the candidate (or reference) process needs for the call being timed, and every CPU time
reads high: the "flush stall". The verifier's CPU lanes therefore run with
``OMP_WAIT_POLICY=PASSIVE`` (``verify/pool.py::worker_env``). This script shows what that buys, in
one run, for the eager reference of each task:

  in-process     a fresh process times the reference the way the verifier did before the boundary
                 (``kernelmosaic.verify.timing.time_in_process``: the same flush, one process);
  boundary       the verifier's baseline job (judge + reference process), as shipped (PASSIVE);
  boundary-spin  the same job with the workers' OpenMP threads left to spin (``OMP_WAIT_POLICY=ACTIVE``).

Variants alternate per task (in-process, boundary, boundary-spin, in-process, ...) for ``--rounds``
rounds, so that drift on a shared machine hits all three alike. Prints one JSON line per
measurement and a summary of medians and ratios to in-process.

    python benchmarks/cpu_timing.py --rounds 3 --out results/<dir>/cpu_timing.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tests" / "adversarial" / "tasks"

_INPROC = r'''
import importlib.util, json, statistics, sys, torch
from kernelmosaic.verify.timing import Flusher, time_in_process
path, n, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spec = importlib.util.spec_from_file_location("ref", path)
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(1)
model = m.Model(*m.get_init_inputs())
sets = []
for s in (11, 12):
    torch.manual_seed(s)
    sets.append(m.get_inputs())
dev = torch.device("cpu")
ts = time_in_process(model, sets, n, warmup, Flusher(dev), dev)
print(json.dumps({"ms": statistics.median(ts), "times": ts}))
'''

_BOUNDARY = r'''
import json, sys
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier
path, n, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with Verifier(device="cpu", workers=1, spares=0, cache_dir=sys.argv[4]) as v:
    b = v.baseline(load_task(path), TimingConfig(n=n, warmup=warmup, compile=False), use_cache=False)
print(json.dumps({"ms": b["eager_ms"], "spread": b.get("eager_spread"), "steady": b.get("steady")}))
'''


def run(code: str, args: list[str], env: dict, timeout: float) -> dict:
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout)[-800:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", default="relu.py,softmax.py,matmul.py,conv2d.py,relu_large.py")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--cache-dir", default="/tmp/kmosaic-cpu-timing")
    a = ap.parse_args()
    base = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), CUDA_VISIBLE_DEVICES="")
    base.pop("OMP_WAIT_POLICY", None)
    variants = {
        # the process's own OpenMP threads (libgomp's default): the in-process protocol as it was
        "in-process": (_INPROC, base),
        "boundary": (_BOUNDARY, base),  # the verifier sets PASSIVE for its CPU lanes itself
        "boundary-spin": (_BOUNDARY, dict(base, OMP_WAIT_POLICY="ACTIVE")),
    }
    out = open(a.out, "w") if a.out else None

    def emit(row: dict) -> None:
        print(json.dumps(row), flush=True)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()

    emit({"event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(),
          "load": os.getloadavg(), "n": a.n, "warmup": a.warmup, "rounds": a.rounds})
    got: dict[tuple[str, str], list[float]] = {}
    for name in a.tasks.split(","):
        path = TASKS / name
        for r in range(a.rounds):
            for var, (code, env) in variants.items():
                res = run(code, [str(path), str(a.n), str(a.warmup), a.cache_dir], env, timeout=600)
                res.pop("times", None)
                emit({"task": name, "variant": var, "round": r, **res})
                if "ms" in res:
                    got.setdefault((name, var), []).append(res["ms"])
    print("\ntask             in-process  boundary  boundary-spin   boundary/in  spin/in")
    summary = []
    for name in a.tasks.split(","):
        med = {v: statistics.median(got[(name, v)]) if got.get((name, v)) else None for v in variants}
        ip = med["in-process"]
        row = {"task": name, **{f"{v}_ms": med[v] for v in variants},
               "boundary_ratio": med["boundary"] / ip if ip and med["boundary"] else None,
               "spin_ratio": med["boundary-spin"] / ip if ip and med["boundary-spin"] else None}
        summary.append(row)
        f = lambda x: f"{x:10.3f}" if x is not None else "         -"  # noqa: E731
        print(f"{name:16s} {f(med['in-process'])} {f(med['boundary'])} {f(med['boundary-spin'])}    {f(row['boundary_ratio'])} {f(row['spin_ratio'])}")
    emit({"event": "summary", "rows": summary})


if __name__ == "__main__":
    main()
