"""Build the shipped set from the H200 filter results, on the CPU (about 3 minutes):

    python benchmarks/tasks_ship.py --results tasksets/mosaic-v1-pool/h200_results.jsonl \
        --retimed tasksets/mosaic-v1-pool/h200_retimed.jsonl --notes tasksets/mosaic-v1-pool/MEASUREMENT.md \
        --kernelbench ../shared/kernelbench --out tasksets/mosaic-v1 --n 1200

It regenerates the pool (checking the fingerprint the GPU run used), runs dedup and
decontamination on it if they are not there yet, then selects the set with its report and plots.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.curate import pipeline  # noqa: E402
from kernelmosaic.curate.generate import generate_pool  # noqa: E402
from kernelmosaic.curate.report import build_set  # noqa: E402
from kernelmosaic.curate.stats import set_stats  # noqa: E402
from kernelmosaic.curate.taskset import MANIFEST, TaskSet  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True, help="results.jsonl of the H200 filter run")
    ap.add_argument("--kernelbench", required=True)
    ap.add_argument("--out", default=str(ROOT / "tasksets" / "mosaic-v1"))
    ap.add_argument("--n", type=int, default=1200)
    ap.add_argument("--retimed", default=None, help="results.jsonl of a second pass over some tasks: it replaces the "
                                                    "first pass's results, and only tasks it measured stay eligible")
    ap.add_argument("--notes", default=None, help="a markdown file whose text goes into the report (e.g. how it was measured)")
    ap.add_argument("--pool-meta", default=str(ROOT / "tasksets" / "mosaic-v1-pool" / "pool.json"))
    a = ap.parse_args()
    meta = json.loads(Path(a.pool_meta).read_text())
    pool_dir = ROOT / ".kmosaic-pool" / f"{meta['scale']}-{meta['n']}-{meta['seed']}"
    if not (pool_dir / MANIFEST).exists():
        generate_pool(pool_dir, meta["n"], scale=meta["scale"], seed=meta["seed"])
    fp = hashlib.sha256((pool_dir / MANIFEST).read_bytes()).hexdigest()[:16]
    if fp != meta["fingerprint"]:
        sys.exit(f"pool fingerprint {fp} != {meta['fingerprint']}: the generators changed since the GPU run")
    pool = TaskSet.open(pool_dir)
    if not (pool_dir / pipeline.DEDUP).exists():
        pipeline.run_dedup(pool)
    if not (pool_dir / pipeline.DECONTAM).exists():
        pipeline.run_decontam(pool, a.kernelbench)
    pool.meta.update(meta)
    notes = Path(a.notes).read_text().strip().splitlines() if a.notes else None
    summary = build_set(pool, a.out, a.n, results=a.results, name=Path(a.out).name, retimed=a.retimed, notes=notes)
    print(json.dumps(summary))
    s = set_stats(TaskSet.open(a.out))
    print(json.dumps({k: s[k] for k in ("tasks", "categories", "by_dtype", "by_status", "eager_ms") if k in s}))


if __name__ == "__main__":
    main()
