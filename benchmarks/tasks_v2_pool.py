"""Generate the full-size mosaic-v2 pool, dedup and decontaminate it, and print its balance (CPU only):

    KERNELBENCH_DIR=../shared/kernelbench python benchmarks/tasks_v2_pool.py --out .kmosaic-pool/v2-h200-2600-2026 \
        --n 2600 --seed 2026 --jobs 2

Only generation and the two curation steps that need no GPU run here: dedup and decontamination
(the lexical screen, then the behavioural check, which runs every task shrunk to tiny shapes on
the CPU). The execution filter with the 1-15 ms window needs an H200 (`kmosaic tasks filter POOL
--device cuda` or `benchmarks/tasks_gpu_filter.py`), and the shipped set is selected after it;
so the pool is written outside `tasksets/` and is not committed.

The balance (fusion %, fp32 %, distinct templates) is printed for the pool as generated and for
the tasks that survive dedup and decontamination, with how many each step dropped, and checked
against issue 18's targets (>= 2,000 tasks, fusion >= 35%, fp32 >= 50%, >= 400 templates).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.curate import pipeline  # noqa: E402
from kernelmosaic.curate.generate import generate_pool  # noqa: E402
from kernelmosaic.curate.generate_v2 import balance  # noqa: E402
from kernelmosaic.curate.taskset import MANIFEST, TaskSet  # noqa: E402
from kernelmosaic.task import TaskError  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / ".kmosaic-pool" / "v2-h200-2600-2026"))
    ap.add_argument("--n", type=int, default=2600, help="tasks to generate (dedup and decontamination drop some)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scale", default="h200", choices=("h200", "small"))
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"),
                    help="KernelBench directory (default $KERNELBENCH_DIR); without it decontamination is skipped")
    ap.add_argument("--lexical-only", action="store_true", help="skip the behavioural check")
    ap.add_argument("--jobs", type=int, default=1, help="behavioural probe workers")
    ap.add_argument("--json", default=None, help="also write the summary here")
    ap.add_argument("--names-out", default=None, help="write the kept tasks' names here, one a line: the GPU filter's "
                                                      "--names (benchmarks/tasks_gpu_filter.py)")
    a = ap.parse_args()

    t0 = time.perf_counter()
    out = Path(a.out)
    if not (out / MANIFEST).exists():
        generate_pool(out, a.n, scale=a.scale, seed=a.seed, version="v2")
    pool = TaskSet.open(out)
    if pool.meta.get("version") != "v2":
        sys.exit(f"{out} holds a pool that is not v2")
    t_gen = time.perf_counter() - t0
    dd = {r["name"]: r for r in pipeline.run_dedup(pool)}
    t_dedup = time.perf_counter() - t0 - t_gen
    dc: dict[str, dict] = {}
    if a.kernelbench:
        try:
            dc = {r["name"]: r for r in pipeline.run_decontam(pool, a.kernelbench, behaviour=not a.lexical_only,
                                                               jobs=a.jobs)}
        except TaskError as e:
            sys.exit(f"error: {e.where}: {e.problem}")
    t_dc = time.perf_counter() - t0 - t_gen - t_dedup
    recs = pool.records
    after_dedup = [r for r in recs if not dd[r["name"]]["dropped"]]
    kept = [r for r in after_dedup if not dc.get(r["name"], {}).get("dropped")]
    b = balance(kept)
    summary = {
        "pool": str(out), "n": len(recs), "seed": a.seed, "scale": a.scale,
        "generated": balance(recs).to_dict(),
        "dropped_dedup": dict(Counter(r.get("kind") for r in dd.values() if r["dropped"])),
        "decontam": "not run (no KernelBench directory)" if not a.kernelbench else
        ("lexical" if a.lexical_only else "lexical + behaviour"),
        "dropped_decontam": dict(Counter(r.get("drop_reason") for r in dc.values() if r["dropped"] and dd[r["name"]]["dropped"] is False)),
        "behaviour_near": sum(1 for r in dc.values() if (r.get("behaviour") or {}).get("verdict") == "near"),
        "behaviour_not_probed": sum(1 for r in dc.values() if (r.get("behaviour") or {}).get("verdict") == "not probed"),
        "kept": b.to_dict(),
        "misses": b.meets(),
        "seconds": {"generate": round(t_gen, 1), "dedup": round(t_dedup, 1), "decontam": round(t_dc, 1)},
    }
    drops = [(n, r["behaviour"]["kb"]) for n, r in dc.items() if r.get("drop_reason") == "behaviour"]
    if drops:
        summary["behaviour_drops"] = drops[:50]
    print(json.dumps(summary, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(summary, indent=1) + "\n")
    if a.names_out:
        Path(a.names_out).write_text("".join(r["name"] + "\n" for r in kept))
    print(f"\nv2 pool {out}: {b.tasks} tasks kept of {len(recs)}; fusion {b.fusion_pct}%, fp32 {b.fp32_pct}%, "
          f"{b.templates} distinct templates" + ("" if not summary["misses"] else f"; MISSES: {'; '.join(summary['misses'])}"))


if __name__ == "__main__":
    main()
