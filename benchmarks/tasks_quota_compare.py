"""What the two quota rules of `tasks_ship.py --quota` make of a pool, before any GPU filter (CPU):

    KERNELBENCH_DIR=../shared/kernelbench python benchmarks/tasks_v2_pool.py --out .kmosaic-pool/v2-h200-5000-2026 \
        --n 5000 --seed 2026 --jobs 2 --names-out .kmosaic-pool/v2-h200-5000-2026.names
    python benchmarks/tasks_quota_compare.py --pool .kmosaic-pool/v2-h200-5000-2026 \
        --names .kmosaic-pool/v2-h200-5000-2026.names --n 2000

It runs the shipping selection (`curate.select.select`, k-center within each group) over the
tasks that survived dedup and decontamination, once per rule, and prints each selection's balance
against issue 18's targets. The GPU filter drops tasks outside the eager window before the real
selection, so the shipped shares differ; this isolates what the rule itself does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.curate.generate_v2 import balance  # noqa: E402
from kernelmosaic.curate.select import QUOTAS, select  # noqa: E402
from kernelmosaic.curate.taskset import TaskSet  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", required=True, help="a pool folder (benchmarks/tasks_v2_pool.py --out)")
    ap.add_argument("--names", required=True, help="the survivors of dedup and decontamination (--names-out)")
    ap.add_argument("--n", type=int, default=2000)
    a = ap.parse_args()
    try:
        recs = TaskSet.open(Path(a.pool)).records
        keep = {ln.strip() for ln in Path(a.names).read_text().splitlines() if ln.strip()}
    except (OSError, ValueError) as e:
        sys.exit(f"error: {e}")
    recs = [r for r in recs if r["name"] in keep]
    if len(recs) < a.n:
        sys.exit(f"error: {len(recs)} survivors in {a.pool}, fewer than --n {a.n}")
    rows = {"survivors": balance(recs)}
    for quota in QUOTAS:
        rows[f"--quota {quota}"] = balance(select(recs, a.n, quota=quota))
    print(f"{'':20} {'tasks':>6} {'fusion %':>9} {'fp32 %':>7} {'templates':>9}  misses")
    for name, b in rows.items():
        print(f"{name:20} {b.tasks:6d} {b.fusion_pct:9.1f} {b.fp32_pct:7.1f} {b.templates:9d}  {'; '.join(b.meets()) or '-'}")
    print(json.dumps({k: vars(b) for k, b in rows.items()}))


if __name__ == "__main__":
    main()
