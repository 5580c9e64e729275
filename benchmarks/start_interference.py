"""Which part of a worker process's start disturbs a kernel timed on the same GPU?

The verifier starts candidate and reference processes ahead of its jobs. Their GPU work is kept
off a GPU while the judge times on it (kernelmosaic/verify/quiet.py), and the judge waits for it:
on the H200 such waits took 2.7-8.1 s of a verdict (results/2026-12-02d-h200). This measures, in
one run, a ~2 ms fp32 matmul timed with CUDA events in this process while other processes do
each part of a start, with the same parts in the same order as candidate.main:

  alone      nothing else runs
  context    ``torch.cuda.init()``, a first kernel and a sync: the CUDA context is made
  kernels    a few small kernels and a dispatch-mode copy (the warm-up)
  profiler   CUPTI's first start: a profiled kernel, then its events read

Each child imports torch first (CPU only, not measured), then does one part per signal. Prints
one JSON line per phase (median, p90 and max of the matmul's times in it, and how long the
children's part took) and a summary.

    python benchmarks/start_interference.py --procs 4 --out results/<dir>/start_interference.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = r"""
import sys, time
import torch
print("imported", flush=True)
def step(name, fn):
    sys.stdin.readline()
    t = time.perf_counter(); fn(); print(name, round(time.perf_counter() - t, 4), flush=True)
def context():
    torch.cuda.init(); torch.zeros(1, device="cuda").add_(1); torch.cuda.synchronize()
def kernels():
    from torch.utils._python_dispatch import TorchDispatchMode
    class W(TorchDispatchMode):
        def __torch_dispatch__(self, f, t, a=(), kw=None): return f(*a, **(kw or {}))
    x = torch.ones(8, device="cuda")
    with W(): torch.empty_like(x).copy_(x)
    torch.cuda.synchronize()
def profiler():
    from torch.profiler import ProfilerActivity, profile
    x = torch.ones(8, device="cuda")
    with profile(activities=[ProfilerActivity.CUDA]) as p: (x + 1).sum().item()
    p.events(); torch.cuda.synchronize()
for name, fn in (("context", context), ("kernels", kernels), ("profiler", profiler)):
    step(name, fn)
sys.stdin.readline()
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=4, help="processes starting at once")
    ap.add_argument("--quiet-s", type=float, default=2.0, help="seconds timed alone before each part")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--out")
    a = ap.parse_args()
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    x = torch.randn(a.size, a.size, device="cuda")
    y = torch.randn(a.size, a.size, device="cuda")
    for _ in range(5):
        x @ y
    torch.cuda.synchronize()

    def one() -> float:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        x @ y
        e.record()
        e.synchronize()
        return s.elapsed_time(e)

    def emit(rec: dict) -> None:
        print(json.dumps(rec), flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(rec) + "\n")

    def stats(ts: list[float]) -> dict:
        ts = sorted(ts)
        return {"calls": len(ts), "median_ms": round(statistics.median(ts), 4),
                "p90_ms": round(ts[int(0.9 * (len(ts) - 1))], 4), "max_ms": round(ts[-1], 4)}

    kids = [subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for _ in range(a.procs)]
    for k in kids:
        assert k.stdout.readline().strip() == "imported"
    emit({"event": "start", "gpu": torch.cuda.get_device_name(), "procs": a.procs, "size": a.size,
          "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})
    result = {}
    for part in ("context", "kernels", "profiler"):
        alone, t0 = [], time.perf_counter()
        while time.perf_counter() - t0 < a.quiet_s:
            alone.append(one())
        emit({"phase": f"alone before {part}", **stats(alone)})
        for k in kids:
            k.stdin.write("go\n")
            k.stdin.flush()
        during, took, left = [], [], list(kids)
        t0 = time.perf_counter()
        # time until every child has said it is done (their replies are read between calls)
        import selectors

        sel = selectors.DefaultSelector()
        for k in left:
            sel.register(k.stdout, selectors.EVENT_READ)
        while len(took) < len(kids):
            during.append(one())
            for key, _ in sel.select(timeout=0):
                line = key.fileobj.readline().split()
                took.append(float(line[1]))
                sel.unregister(key.fileobj)
        rec = {"phase": part, "wall_s": round(time.perf_counter() - t0, 3), "child_s": sorted(took), **stats(during)}
        rec["median_over_alone"] = round(rec["median_ms"] / stats(alone)["median_ms"], 4)
        emit(rec)
        result[part] = rec["median_over_alone"]
    for k in kids:
        k.stdin.write("go\n")
        k.stdin.flush()
        k.wait(timeout=30)
    emit({"event": "summary", "median_over_alone": result})


if __name__ == "__main__":
    main()
