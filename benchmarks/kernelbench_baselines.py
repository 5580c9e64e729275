"""Eager and torch.compile times of KernelBench problems on this GPU, by the verifier's timing
protocol, next to KernelBench's stored H100 timings. Resumable and chunkable.

    python benchmarks/kernelbench_baselines.py --kernelbench DIR --levels 1,2,3 --out OUTDIR \
        [--problems 1-20] [--warm 3] [--budget-s 500]

* ``OUTDIR/baselines.jsonl`` gets one line per problem as soon as it is timed. A rerun skips
  every problem already there (same task hash), so a run cut short continues where it stopped.
* ``--budget-s``: no new chunk starts once the next one would likely end past this many
  seconds, so one command stays inside a time limit; rerun to continue.
* Problems go in chunks: first the chunk's torch.compile warm-up in ``--warm`` parallel worker
  processes (the Inductor and Triton caches on disk are shared), then each problem is timed
  alone in the verifier's lane, where compiling is a cache hit. Warm-up times are discarded.
* The measured baselines also land in the verifier's cache (``$KMOSAIC_CACHE_DIR``), so a
  later ``kmosaic bench`` on this machine with the same ``--timing-runs`` reuses them.
* ``OUTDIR/baselines.md`` and ``OUTDIR/summary.json`` are rebuilt from the whole jsonl at the
  end of every call (``--report-only`` rebuilds them without timing anything).

A problem counts as compute-bound when its FLOPs per byte (torch's FLOP counter over the
fewest bytes it must move) are at least 28: twice the ridge point of fp32 CUDA-core arithmetic
on an H200 (about 67 TFLOP/s over 4.8 TB/s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.bench.baselines import measure_baselines, stored_baselines, warm_compile, warm_verifier  # noqa: E402
from kernelmosaic.bench.run import parse_levels, parse_problems, select_tasks  # noqa: E402
from kernelmosaic.task import TaskError  # noqa: E402
from kernelmosaic.verify import TimingConfig, Verifier  # noqa: E402

COMPUTE_BOUND_FLOP_PER_BYTE = 28.0
# problems edited upstream after the H100_Modal timings were recorded (../shared/kernelbench/SOURCE.md):
# their stored numbers describe an older version of the problem
EDITED_AFTER_STORED = {"L1/12_Matmul_with_diagonal_matrices_", "L1/97_ScaledDotProductAttention"}


def load_rows(path: Path) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a kill; that problem is simply redone
            rows[r["task"]] = r
    return rows


def _ratio(a, b):
    return a / b if a and b else None


def row_for(t, b: dict | None, err: str | None, stored: dict, compile_timed: bool) -> dict:
    ref = stored.get(t.key, {})
    row = {"task": t.key, "level": t.level, "sha256": t.sha256, "compile_timed": compile_timed, "h100_eager_ms": ref.get("eager_ms"),
           "h100_compile_ms": ref.get("compile_ms"), "stored_edited_since": t.key in EDITED_AFTER_STORED}
    if err is not None:
        row["error"] = err[:500]
        return row
    fpb = (b.get("flops") or 0) / max(b.get("bytes") or 1, 1)
    row.update(eager_ms=b["eager_ms"], eager_cv=b.get("eager_cv"), compile_ms=b.get("compile_ms"),
               compile_cv=b.get("compile_cv"), n=b.get("n"), flops=b.get("flops"), bytes=b.get("bytes"),
               flop_per_byte=fpb, compute_bound=fpb >= COMPUTE_BOUND_FLOP_PER_BYTE,
               gpu=b.get("device_name"), torch=b.get("torch"), timed_at=b.get("timed_at"),
               from_cache=bool(b.get("cached")), notes=b.get("notes") or [],
               ratio_eager=_ratio(b["eager_ms"], ref.get("eager_ms")),
               ratio_compile=_ratio(b.get("compile_ms"), ref.get("compile_ms")))
    return row


def _f(x, d=3):
    return "–" if x is None else f"{x:.{d}f}"


def summarize(rows: dict[str, dict], out: Path, stored_name: str, wanted: list[str]) -> dict:
    ok = [r for r in rows.values() if "error" not in r]
    comparable = [r for r in ok if not r["stored_edited_since"]]

    def stats(rs, key):
        vals = [r[key] for r in rs if r.get(key)]
        return {"n": len(vals), "median_ratio": statistics.median(vals) if vals else None,
                "within_5pct": sum(abs(v - 1) <= 0.05 for v in vals), "within_20pct": sum(abs(v - 1) <= 0.2 for v in vals)}

    levels = sorted({r["level"] for r in rows.values()})
    summary = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "stored": stored_name,
        "problems_wanted": len(wanted), "problems_timed": len(ok), "errors": len(rows) - len(ok),
        "missing": [k for k in wanted if k not in rows],
        "compile_failed": [r["task"] for r in ok if r.get("compile_ms") is None],
        "gpu": sorted({r.get("gpu") for r in ok if r.get("gpu")}), "torch": sorted({r.get("torch") for r in ok if r.get("torch")}),
        "per_level": {f"L{lv}": {"eager": stats([r for r in comparable if r["level"] == lv], "ratio_eager"),
                                  "compile": stats([r for r in comparable if r["level"] == lv], "ratio_compile")}
                      for lv in levels},
        "compute_bound_eager": stats([r for r in comparable if r.get("compute_bound")], "ratio_eager"),
        # a level's eager ratio split by boundness: launch-heavy problems move with the host, not the GPU
        "eager_by_bound": {f"L{lv}": {kind: stats([r for r in comparable if r["level"] == lv
                                                   and bool(r.get("compute_bound")) == (kind == "compute_bound")], "ratio_eager")
                                      for kind in ("compute_bound", "other")} for lv in levels},
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    md = [f"# Eager and torch.compile baselines on this GPU vs KernelBench's stored {stored_name}", "",
          f"Generated {summary['date']} from `baselines.jsonl`. GPU: {', '.join(summary['gpu']) or '?'}; "
          f"torch {', '.join(summary['torch']) or '?'}. Times are medians (ms) by the verifier's protocol; the "
          "stored ones are KernelBench's means. Ratio = ours / stored (below 1: faster here).", "",
          f"Timed {len(ok)} of {len(wanted)} problems; {summary['errors']} failed; {len(summary['missing'])} not yet run; "
          f"torch.compile failed on {len(summary['compile_failed'])}.", "",
          "| level | eager: n | median ratio | within 5% | within 20% | compile: n | median ratio | within 5% | within 20% |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for lv, s in summary["per_level"].items():
        e, c = s["eager"], s["compile"]
        md.append(f"| {lv} | {e['n']} | {_f(e['median_ratio'])} | {e['within_5pct']} | {e['within_20pct']} | {c['n']} | "
                  f"{_f(c['median_ratio'])} | {c['within_5pct']} | {c['within_20pct']} |")
    cb = summary["compute_bound_eager"]
    md += ["", f"Compute-bound problems (>= {COMPUTE_BOUND_FLOP_PER_BYTE:g} FLOP/B), eager: {cb['n']}, median ratio "
           f"{_f(cb['median_ratio'])}, {cb['within_5pct']} within 5%.", "",
           "Eager by level and boundness (n, median ratio): " + "; ".join(
               f"{lv} compute-bound {s['compute_bound']['n']}, {_f(s['compute_bound']['median_ratio'])}, "
               f"other {s['other']['n']}, {_f(s['other']['median_ratio'])}" for lv, s in summary["eager_by_bound"].items())
           + ".", "",
           "Problems marked * were edited upstream after the stored timings were taken; they are left out of the "
           "ratios above.", "",
           "| problem | eager ms | stored eager ms | ratio | compile ms | stored compile ms | ratio | FLOP/B | note |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for k in sorted(rows, key=lambda k: (rows[k]["level"], int(k.split("/")[1].split("_")[0]))):
        r = rows[k]
        name = k + (" *" if r["stored_edited_since"] else "")
        if "error" in r:
            md.append(f"| {name} | | {_f(r['h100_eager_ms'])} | | | {_f(r['h100_compile_ms'])} | | | error: "
                      f"{r['error'][:120].replace('|', '/')} |")
            continue
        note = "torch.compile failed" if r.get("compile_ms") is None else ""
        md.append(f"| {name} | {_f(r['eager_ms'])} | {_f(r['h100_eager_ms'])} | {_f(r['ratio_eager'])} | "
                  f"{_f(r.get('compile_ms'))} | {_f(r['h100_compile_ms'])} | {_f(r['ratio_compile'])} | "
                  f"{_f(r['flop_per_byte'], 1)} | {note} |")
    (out / "baselines.md").write_text("\n".join(md) + "\n")
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--levels", default="1,2,3")
    ap.add_argument("--problems", default=None, help="ids within each level, e.g. 1-20,25")
    ap.add_argument("--out", required=True, help="folder for baselines.jsonl, baselines.md, summary.json")
    ap.add_argument("--stored", default="H100_Modal", help="which stored KernelBench timings to compare with")
    ap.add_argument("--n", type=int, default=30, help="timed calls (30 matches kmosaic bench's default, so it reuses them)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--no-compile", action="store_true", help="eager only")
    ap.add_argument("--warm", type=int, default=3, help="parallel torch.compile warm-up processes (0: none)")
    ap.add_argument("--chunk", type=int, default=12, help="problems per warm-up-then-time chunk")
    ap.add_argument("--budget-s", type=float, default=None, help="start no chunk likely to end after this many seconds")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--report-only", action="store_true")
    a = ap.parse_args()
    t0 = time.monotonic()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / "baselines.jsonl"
    try:
        tasks = select_tasks(a.kernelbench, parse_levels(a.levels), parse_problems(a.problems))
        stored = stored_baselines(a.kernelbench, a.stored)
    except (TaskError, ValueError) as e:
        sys.exit(f"error: {e}")
    rows = load_rows(jsonl)
    timing = TimingConfig(n=a.n, warmup=a.warmup, compile=not a.no_compile)

    def done_before(t) -> bool:
        r = rows.get(t.key) or {}
        return r.get("sha256") == t.sha256 and (r.get("compile_timed") or not timing.compile)

    todo = [t for t in tasks if not done_before(t)]
    print(f"{len(tasks)} problems, {len(tasks) - len(todo)} already in {jsonl}, {len(todo)} to time", flush=True)
    chunk_s: dict[int, float] = {}  # the slowest chunk so far, per level
    if todo and not a.report_only:
        # references are trusted code: one worker may time many of them (recycled now and then)
        with Verifier(device=a.device, workers=1 if a.device == "cpu" else None, jobs_per_worker=16,
                      timeouts={"compile": 900}) as v:
            warm = warm_verifier(v, a.warm) if timing.compile and a.warm > 0 else None
            i = 0
            while i < len(todo):
                level = todo[i].level
                chunk = [t for t in todo[i:i + a.chunk] if t.level == level]
                guess = chunk_s.get(level, 0.0)
                if a.budget_s is not None and time.monotonic() - t0 + guess > a.budget_s:
                    print(f"budget: stopping before {chunk[0].key} ({time.monotonic() - t0:.0f}s used, the last "
                          f"L{level} chunk took {guess:.0f}s); rerun to continue", flush=True)
                    break
                c0 = time.monotonic()
                if timing.compile and a.warm > 0:
                    cold = [t for t in chunk if v.cached_baseline(t, timing) is None]
                    warm_compile(cold, v, a.warm, warm=warm)
                    print(f"warm-up of {len(cold)} problems ({chunk[0].key} ..): {time.monotonic() - c0:.1f}s", flush=True)

                def done(t, b, err):
                    row = row_for(t, b, err, stored, timing.compile)
                    row["wall_s"] = round(time.monotonic() - t0, 1)
                    rows[t.key] = row
                    with open(jsonl, "a") as f:  # one line per problem: a kill loses at most the current one
                        f.write(json.dumps(row) + "\n")
                    msg = (f"ERROR {err[:150]}" if err else
                           f"eager {_f(row['eager_ms'])} ms (H100 {_f(row['h100_eager_ms'])}, x{_f(row['ratio_eager'])})  "
                           f"compile {_f(row.get('compile_ms'))} ms (H100 {_f(row['h100_compile_ms'])}, x{_f(row['ratio_compile'])})")
                    print(f"{t.key:55s} {msg}", flush=True)

                measure_baselines(chunk, v, timing, warm_lanes=0, on_result=done)
                chunk_s[level] = max(chunk_s.get(level, 0.0), time.monotonic() - c0)
                i += len(chunk)
            if warm is not None:
                warm.close()
    s = summarize(rows, out, a.stored, [t.key for t in tasks])
    print(json.dumps({k: s[k] for k in ("problems_wanted", "problems_timed", "errors")} | {"missing": len(s["missing"]),
                      "wall_s": round(time.monotonic() - t0, 1)}), flush=True)


if __name__ == "__main__":
    main()
