"""How many turns per second the controller can commit to the SQLite store.

The Ray executor's controller is the store's only writer, so this rate bounds a whole
cluster's output. Each turn carries about 25 KB of text (messages, reply, code, verdict,
feedback), as a KernelBench turn does, and is committed in its own transaction, as in a run.

    python benchmarks/store_commit_rate.py [--turns 2000] [--out rate.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernelmosaic.data import Store, TurnRecord  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=2000)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d, Store(os.path.join(d, "run.db")) as st:
        rid = st.start_run("m", {})
        msgs = [{"role": "user", "content": "x" * 6000}, {"role": "assistant", "content": "y" * 4000},
                {"role": "user", "content": "z" * 3000}]
        verdict = {"status": "incorrect", "backend": "cuda", "policy": "strict", "timing": None,
                   "error": {"kind": "mismatch", "message": "m" * 500, "log": "l" * 2000}}
        per_episode = 10
        eps = [st.begin_episode(rid, f"t{i}", 0)[0].episode_id for i in range(max(1, a.turns // per_episode))]
        t0 = time.perf_counter()
        n = 0
        for k in range(per_episode):
            for e in eps:
                st.add_turn(TurnRecord(episode_id=e, idx=k, stage="implement" if k == 0 else "repair", messages=msgs,
                                       reply="r" * 3000, code="c" * 3000, verdict=verdict, feedback="f" * 1500))
                n += 1
        dt = time.perf_counter() - t0
        size = os.path.getsize(os.path.join(d, "run.db"))
    res = {"turns": n, "seconds": round(dt, 3), "turns_per_s": round(n / dt, 1), "db_mb": round(size / 1e6, 1),
           "machine": {"cpus": os.cpu_count(), "python": platform.python_version()}, "date": time.strftime("%Y-%m-%d")}
    print(json.dumps(res))
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
