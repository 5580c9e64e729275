"""The scripted bench's own baselines (bench/bench.db, timed on this session's machine) against
baselines/baselines.jsonl (mostly timed by the previous session on another pair of H200s).

    python results/2026-11-30-h200x2-c/compare_bench_baselines.py > results/2026-11-30-h200x2-c/compare_bench_baselines.txt
"""

import json
import sqlite3
import statistics
from pathlib import Path

HERE = Path(__file__).parent
rows = {r["task"]: r for r in map(json.loads, (HERE / "baselines" / "baselines.jsonl").read_text().splitlines())}
db = sqlite3.connect(HERE / "bench" / "bench.db")
ratios = {"eager": [], "compile": []}
for ep, key in db.execute("select episode_id, task_key from episodes order by task_key"):
    (js,) = db.execute("select json from verdicts where episode_id=? order by idx desc limit 1", (ep,)).fetchone()
    v = json.loads(js)
    t, b = v["timing"], rows[key]
    # every verdict reads its baselines from the machine's cache, which the bench filled up front;
    # rows this session's baseline run had timed (19:xx) were already there, the rest the bench timed
    earlier = not b["timed_at"].startswith("2026-11-30T19")
    line = f"{key:42s} file timed {b['timed_at'][:16]}  {'timed by the bench' if earlier else 'reused':18s}"
    for base in ("eager", "compile"):
        r = t[f"{base}_ms"] / b[f"{base}_ms"]
        line += f"  {base} {t[f'{base}_ms']:.4f} / {b[f'{base}_ms']:.4f} = {r:.3f}"
        if earlier:
            ratios[base].append(r)
    print(line)
for base, rs in ratios.items():
    print(f"{base}: {len(rs)} timed by the bench, ratio bench / file: min {min(rs):.3f}, median {statistics.median(rs):.3f}, max {max(rs):.3f}")
