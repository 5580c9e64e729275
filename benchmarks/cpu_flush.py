"""The CPU cache flush between timed calls: written (the verifier before) against read, side by side.

For each flush mode, in one process and alternating so that both see the same machine: flush, then
time one op (the work: relu of a 16 MiB tensor, and a softmax), and flush, then time an empty op (a
1 KiB copy, what the empty call that calibrates the overhead does). What the verifier reports is
the op's time less the empty op's, so a flush that slows the op more than the empty op inflates
every CPU time. Prints one JSON line per mode and op: medians in ms, and the op's time with no
flush before it, cache warm, as a lower bound.

    python benchmarks/cpu_flush.py --n 60 --out results/<dir>/cpu_flush.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--out")
    a = ap.parse_args()
    import torch

    from kernelmosaic.verify.timing import Flusher

    dev = torch.device("cpu")
    flush = {m: Flusher(dev, mode=m) for m in ("write", "read")}
    x = torch.randn(4 << 20)
    s = torch.randn(256, 4096)
    small_src, small_dst = torch.randn(256), torch.empty(256)
    ops = {"relu_16MiB": lambda: torch.relu(x), "softmax_4MiB": lambda: torch.softmax(s, dim=-1)}
    empty = lambda: small_dst.copy_(small_src)  # noqa: E731

    def timed(f) -> float:
        t = time.perf_counter()
        f()
        return (time.perf_counter() - t) * 1e3

    rows = []
    for name, op in ops.items():
        got = {m: {"op": [], "empty": [], "flush": []} for m in flush}
        warm = []
        for i in range(a.n):
            for m, fl in flush.items():
                t = time.perf_counter()
                fl()
                got[m]["flush"].append((time.perf_counter() - t) * 1e3)
                got[m]["op"].append(timed(op))
                fl()
                got[m]["empty"].append(timed(empty))
            op()
            warm.append(timed(op))
        for m, g in got.items():
            med = {k: statistics.median(v) for k, v in g.items()}
            rows.append({"op": name, "flush": m, "op_ms": round(med["op"], 4), "empty_ms": round(med["empty"], 4),
                         "reported_ms": round(med["op"] - med["empty"], 4), "flush_ms": round(med["flush"], 3),
                         "warm_op_ms": round(statistics.median(warm), 4), "n": a.n,
                         "threads": torch.get_num_threads(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})
            print(json.dumps(rows[-1]), flush=True)
    if a.out:
        with open(a.out, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
