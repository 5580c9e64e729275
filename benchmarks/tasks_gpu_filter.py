"""Execution filters over the whole task pool on one GPU, resumable, in one command.

    python benchmarks/tasks_gpu_filter.py --out $OUT [--resume PREVIOUS/results.jsonl]

It regenerates the pool (deterministic: same code, size and seed give the same files, checked
by the fingerprint it prints), copies the results of earlier calls from --resume, measures
the tasks not yet measured (--lanes-per-gpu worker processes per GPU, one by default: their
checks share the GPU, while each timing loop has it alone, so timing stays serial on each GPU)
until --budget-s, then writes $OUT/results.jsonl (all results so far), $OUT/summary.json
and $OUT/pool_manifest.jsonl. Run it again with --resume pointing at the returned
results.jsonl until it says nothing is left.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.curate import filters  # noqa: E402
from kernelmosaic.curate.generate import generate_pool  # noqa: E402
from kernelmosaic.curate.taskset import MANIFEST, TaskSet  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=5000, help="pool size (before dedup and decontamination)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scale", default="h200", help="h200 (the real pool) | small (a CPU try-out)")
    ap.add_argument("--pool", default=None, help="pool folder (default .kmosaic-pool/<scale>-<n>-<seed>)")
    ap.add_argument("--resume", default=None, help="results.jsonl of earlier calls")
    ap.add_argument("--names", default=None, help="measure only these tasks (one name a line: the dedup/decontam survivors)")
    ap.add_argument("--fingerprint", default=None, help="the pool fingerprint the names were made for (checked)")
    ap.add_argument("--budget-s", type=float, default=420.0, help="stop taking new tasks after this many seconds")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--gpus", default=None, help="GPU indices (default: all)")
    ap.add_argument("--lanes-per-gpu", type=int, default=1,
                    help="judges sharing each GPU (default 1): their checks run at once; each timing loop still has "
                         "the GPU alone (timing stays serial per GPU); an out-of-memory beside the others runs again alone")
    ap.add_argument("--timing-runs", type=int, default=10)
    ap.add_argument("--window", default="1,15", help="eager window in ms for the summary")
    a = ap.parse_args()
    if a.lanes_per_gpu < 1:
        ap.error(f"--lanes-per-gpu must be 1 or more, not {a.lanes_per_gpu}")
    if a.lanes_per_gpu > 1 and a.device != "cuda":
        ap.error("--lanes-per-gpu is for --device cuda; the CPU filter runs one judge")
    for flag, f in (("--names", a.names), ("--resume", a.resume)):
        if f and not Path(f).is_file():
            ap.error(f"{flag} {f}: no such file")
    t0 = time.monotonic()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    pool = Path(a.pool or ROOT / ".kmosaic-pool" / f"{a.scale}-{a.n}-{a.seed}")
    if not (pool / MANIFEST).exists():
        if pool.exists():
            if a.pool:  # a folder the user named: never delete it
                sys.exit(f"error: --pool {pool} exists but holds no {MANIFEST}; give a new folder or an existing pool")
            shutil.rmtree(pool)  # a half-written default pool from a killed run
        generate_pool(pool, a.n, scale=a.scale, seed=a.seed)
    fp = hashlib.sha256((pool / MANIFEST).read_bytes()).hexdigest()[:16]
    ts = TaskSet.open(pool)  # an existing --pool says what it is (its size, seed and scale, not the defaults')
    size, seed, scale = len(ts.records), ts.meta.get("seed", a.seed), ts.meta.get("scale", a.scale)
    print(f"pool {pool} ({size} tasks), fingerprint {fp}", flush=True)
    if a.fingerprint and a.fingerprint != fp:
        sys.exit(f"pool fingerprint {fp} != expected {a.fingerprint}: the generators changed since the names were made")
    names = {r["name"] for r in ts.records}
    only = None
    if a.names:
        only = [ln.strip() for ln in Path(a.names).read_text().splitlines() if ln.strip()]
        missing = [n for n in only if n not in names]
        if missing:
            sys.exit(f"{len(missing)} names are not in the pool, e.g. {missing[0]}")
    if a.resume:
        # added to what --out already holds, never in its place: a result measured is not lost
        # for a --resume file that lacks it
        have = out / filters.RESULTS
        held = [ln for ln in have.read_text().splitlines() if ln.strip()] if have.is_file() else []
        seen = {_name(ln) for ln in held}
        kept = [ln for ln in Path(a.resume).read_text().splitlines()
                if ln.strip() and _name(ln) in names and _name(ln) not in seen]
        have.write_text("".join(ln + "\n" for ln in held + kept))
        print(f"resumed {len(kept)} results from {a.resume}" + (f" beside the {len(held)} in {have}" if held else ""),
              flush=True)
    gpus = [g.strip() for g in a.gpus.split(",")] if a.gpus else None  # None: every visible GPU
    budget = max(10.0, a.budget_s - (time.monotonic() - t0))
    last = [time.monotonic()]

    def progress(i, n, res):
        if time.monotonic() - last[0] > 15 or i == n:
            last[0] = time.monotonic()
            print(f"{i}/{n} measured ({time.monotonic() - t0:.0f} s); {res['name']}: eager {res.get('eager_ms')} ms", flush=True)

    stats = filters.run_filters(pool, out, device=a.device, gpus=gpus, lanes_per_gpu=a.lanes_per_gpu, budget_s=budget,
                                n_timing=a.timing_runs,
                                progress=progress, only=only)
    shutil.copy(pool / MANIFEST, out / "pool_manifest.jsonl")
    lo, hi = (float(x) for x in a.window.split(","))
    summary = {**stats, "pool": str(pool), "fingerprint": fp, "n": size, "seed": seed, "scale": scale,
               "version": ts.meta.get("version", "v1"),
               **filters.summarize(filters.load_results(out), (lo, hi) if a.device == "cuda" else None)}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary), flush=True)
    if stats.get("errors"):
        sys.exit("error: " + "; ".join(sorted(set(stats["errors"]))))
    print("DONE: every task measured" if not stats["remaining"] else
          f"{stats['remaining']} tasks left: rerun with --resume <returned results.jsonl>", flush=True)


def _name(line: str) -> str | None:
    try:
        return json.loads(line).get("name")
    except json.JSONDecodeError:
        return None


if __name__ == "__main__":
    main()
