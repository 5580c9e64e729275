"""Eager (and optionally torch.compile) times of KernelBench problems on this GPU, by the
verifier's timing protocol, next to KernelBench's stored H100 timings.

    python benchmarks/kernelbench_baselines.py --kernelbench DIR --levels 1 --out results/l1_baselines.json

A problem counts as compute-bound when its FLOPs per byte (torch's FLOP counter over the
fewest bytes it must move) exceed the GPU's ridge point for fp32 CUDA-core arithmetic
(about 67 TFLOP/s over 4.8 TB/s, 14 FLOP/B on an H200), with a factor of 2 margin.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.task import TaskError, load_kernelbench  # noqa: E402
from kernelmosaic.verify import TimingConfig, Verifier  # noqa: E402

COMPUTE_BOUND_FLOP_PER_BYTE = 28.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--levels", default="1")
    ap.add_argument("--stored", default=None, help="KernelBench baseline JSON (default: <kernelbench>/baseline_times/H100_Modal/baseline_time_torch.json)")
    ap.add_argument("--compile", action="store_true", help="also time torch.compile")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    kb = Path(a.kernelbench)
    stored_path = Path(a.stored) if a.stored else kb / "baseline_times" / "H100_Modal" / "baseline_time_torch.json"
    stored = json.loads(stored_path.read_text()) if stored_path.exists() else {}
    levels = [int(x) for x in a.levels.split(",")]
    tasks = [t for t in load_kernelbench(kb, levels) if not t.needs_weights][: a.limit]
    rows = []
    t0 = time.time()
    # references are trusted code: one worker may time many of them
    with Verifier(device="cuda", jobs_per_worker=1000, timeouts={"time": 900, "check": 300}) as v:
        for t in tasks:
            try:
                b = v.baseline(t, TimingConfig(n=a.n, warmup=3, compile=a.compile), use_cache=False)
            except TaskError as e:
                rows.append({"task": t.key, "error": str(e)[:300]})
                print(f"{t.key:55s} ERROR {str(e)[:100]}", flush=True)
                continue
            ref = stored.get(f"level{t.level}", {}).get(f"{t.name}.py", {})
            fpb = (b.get("flops") or 0) / max(b.get("bytes") or 1, 1)
            row = {"task": t.key, "eager_ms": b["eager_ms"], "eager_cv": b.get("eager_cv"), "compile_ms": b.get("compile_ms"),
                   "flops": b.get("flops"), "bytes": b.get("bytes"), "flop_per_byte": fpb,
                   "compute_bound": fpb >= COMPUTE_BOUND_FLOP_PER_BYTE, "h100_ms": ref.get("mean"),
                   "ratio_to_h100": (b["eager_ms"] / ref["mean"]) if ref.get("mean") else None}
            rows.append(row)
            with open(a.out + "l", "a") as f:  # incremental, in case the run is cut short
                f.write(json.dumps(row) + "\n")
            print(f"{t.key:55s} {b['eager_ms']:9.3f} ms  H100 {ref.get('mean', float('nan')):8.3f}  ratio {row['ratio_to_h100'] or float('nan'):.3f}  {fpb:8.1f} F/B", flush=True)
    cb = [r for r in rows if r.get("compute_bound") and r.get("ratio_to_h100")]
    within = [r for r in cb if abs(r["ratio_to_h100"] - 1) <= 0.05]
    summary = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "stored": str(stored_path.name) + " (" + stored_path.parent.name + ")",
               "n": len(rows), "wall_s": time.time() - t0, "compute_bound": len(cb), "compute_bound_within_5pct": len(within)}
    Path(a.out).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
