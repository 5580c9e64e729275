"""Verdict latency: a KernelBench-style harness against our verifier (cuda and nvrtc backends).

The same honest candidates (tests/gpu/kernels/manifest.json: one per task, in the
`cuda` load_inline format and in the `nvrtc` format) go through:

  kb     a KernelBench-style harness: in this process, one after another, each candidate's
         load_inline built from a cold build folder, 5 correctness trials, 100 timed runs
         (CUDA events, L2 flush), as KernelBench's eval does;
  ours   our verifier (isolated worker processes, static and dynamic rules, 5 fresh-seed
         trials with poisoned memory, 100 timed runs with L2 flush, rotating inputs and a
         device-wide sync), with a cold build cache:
           nvrtc, one candidate at a time (latency) and all at once (throughput);
           cuda, all at once (builds run in parallel on the CPU cores).

Eager baselines are timed once per task before the measured runs and reused (the verifier
caches them per task); torch.compile baselines are off in both harnesses, as KernelBench
reads its baselines from stored files. Run on the GPU (the kb part takes about a minute
per candidate):

    python benchmarks/verify_latency.py --part kb   --kernelbench DIR --out results/latency_kb.jsonl
    python benchmarks/verify_latency.py --part ours --kernelbench DIR --out results/latency_ours.jsonl
    python benchmarks/verify_latency.py --report results/latency_kb.jsonl results/latency_ours.jsonl

Throughput (issue 16): 43 nvrtc candidates over the gold kernels' L1/L2 tasks, correct and failing
(each gold kernel twice, a wrong-output and a compile-error variant of each, the manifest's bad
kernels), all submitted at once, with one lane per GPU (exclusive: one candidate on the GPU at a
time) and then with several lanes sharing it (checks at once, each timed loop alone):

    python benchmarks/verify_latency.py --part throughput --kernelbench DIR --lanes 1,4,4:loop --out results/throughput.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "tests" / "gpu" / "kernels"


def load_cases(kb_dir: Path, limit: int | None):
    manifest = json.loads((KERNELS / "manifest.json").read_text())
    cases = []
    for g in manifest["gold"][: limit or None]:
        cases.append({
            "task": g["task"],
            "task_src": (kb_dir / g["file"]).read_text(),
            "task_file": str(kb_dir / g["file"]),
            "cuda": (KERNELS / g["dir"] / "cuda.py").read_text(),
            "nvrtc": (KERNELS / g["dir"] / "nvrtc.py").read_text(),
        })
    return cases


_EMIT = threading.Lock()


def emit(out, rec: dict) -> None:
    line = json.dumps(rec) + "\n"
    with _EMIT:  # the throughput part emits from the threads that wait on its verdicts
        sys.stdout.write(line)
        sys.stdout.flush()
        if out:
            with open(out, "a") as f:
                f.write(line)


# -- (a) KernelBench-style ------------------------------------------------------------------------
def kb_style_one(case: dict, inputs_on: str, n_correct: int = 5, n_perf: int = 100) -> dict:
    import torch

    t0 = time.perf_counter()
    build = tempfile.mkdtemp(prefix="kb-build-")
    os.environ["TORCH_EXTENSIONS_DIR"] = build  # a cold build, as for a new sample
    ref_ns: dict = {}
    exec(compile(case["task_src"], "reference.py", "exec"), ref_ns)
    cand_ns: dict = {}
    t_build = time.perf_counter()
    exec(compile(case["cuda"], "candidate.py", "exec"), cand_ns)
    build_s = time.perf_counter() - t_build
    dev = torch.device("cuda")
    init = ref_ns["get_init_inputs"]()
    torch.manual_seed(42)
    model = ref_ns["Model"](*init).to(dev)
    torch.manual_seed(42)
    new = cand_ns["ModelNew"](*init).to(dev)
    new.load_state_dict(model.state_dict(), strict=False)

    def inputs(seed):
        torch.manual_seed(seed)
        if inputs_on == "device":
            with torch.device(dev):
                xs = ref_ns["get_inputs"]()
        else:
            xs = ref_ns["get_inputs"]()
        return [x.to(dev) if isinstance(x, torch.Tensor) else x for x in xs]

    correct = True
    with torch.no_grad():
        for trial in range(n_correct):
            xs = inputs(1000 + trial)
            ref = model(*xs)
            out = new(*xs)
            torch.cuda.synchronize()
            if not torch.allclose(out, ref, atol=1e-4, rtol=1e-4):
                correct = False
                break
        times = []
        if correct:
            xs = inputs(7)
            l2 = torch.empty(int(torch.cuda.get_device_properties(dev).L2_cache_size // 4 * 2), dtype=torch.int32, device=dev)
            for _ in range(3):
                new(*xs)
            torch.cuda.synchronize()
            for _ in range(n_perf):
                l2.zero_()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                new(*xs)
                e.record()
                torch.cuda.synchronize()
                times.append(s.elapsed_time(e))
    return {"part": "kb", "task": case["task"], "correct": correct, "latency_s": time.perf_counter() - t0,
            "build_s": build_s, "candidate_ms": statistics.median(times) if times else None}


def run_kb(cases, out, inputs_on):
    import torch

    emit(out, {"part": "kb", "event": "start", "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "inputs_on": inputs_on, "n": len(cases)})
    t0 = time.perf_counter()
    for c in cases:
        try:
            emit(out, kb_style_one(c, inputs_on))
        except Exception as e:  # noqa: BLE001 - KernelBench's harness would record a failure too
            emit(out, {"part": "kb", "task": c["task"], "error": f"{type(e).__name__}: {str(e)[:300]}"})
    emit(out, {"part": "kb", "event": "end", "wall_s": time.perf_counter() - t0})


# -- (b) ours ---------------------------------------------------------------------------------------------
def run_ours(cases, out, modes=("nvrtc", "cuda"), diagnostics=False, eager=True):
    from kernelmosaic.task import Task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    timing = TimingConfig(enabled=True, n=100, warmup=3, eager=eager, compile=False, diagnostics=diagnostics)
    tasks = {c["task"]: Task(name=c["task"].replace("/", "_"), source=c["task_src"], path=c["task_file"]) for c in cases}
    cache = tempfile.mkdtemp(prefix="kmosaic-cold-")
    t_start = time.perf_counter()
    v = Verifier(device="cuda", cache_dir=cache)
    emit(out, {"part": "ours", "event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "n": len(cases),
               "cpu_cores": os.cpu_count(), "pool_start_s": time.perf_counter() - t_start})
    t0 = time.perf_counter()
    for name, task in tasks.items() if eager else ():
        b = v.baseline(task, timing)
        emit(out, {"part": "ours", "event": "baseline", "task": name, "eager_ms": b["eager_ms"]})
    emit(out, {"part": "ours", "event": "baselines_done", "wall_s": time.perf_counter() - t0})

    def req(c, fmt):
        return VerifyRequest(candidate=c[fmt], task=tasks[c["task"]], backend=fmt, timing=timing)

    # nvrtc, one at a time: the latency an agent loop sees per turn
    for c in cases:
        t = time.perf_counter()
        verdict = v.verify(req(c, "nvrtc"))
        emit(out, {"part": "ours", "mode": "nvrtc-sequential", "task": c["task"], "status": verdict.status,
                   "latency_s": time.perf_counter() - t, "phases_s": verdict.phases_s, "candidate_ms": verdict.timing.candidate_ms if verdict.timing else None,
                   "speedup_eager": verdict.timing.speedup_eager if verdict.timing else None,
                   **(_diagnosis(verdict) if diagnostics else {})})
    # all at once: throughput, per-verdict completion times
    for fmt in modes:
        t = time.perf_counter()
        done: list = []

        def one(c, fmt=fmt):
            r = v.verify(req(c, fmt))
            done.append((c["task"], r.status, time.perf_counter() - t, r.phases_s))

        with ThreadPoolExecutor(max_workers=len(cases)) as ex:
            list(ex.map(one, cases))
        wall = time.perf_counter() - t
        for task, status, lat, ph in done:
            emit(out, {"part": "ours", "mode": f"{fmt}-batch", "task": task, "status": status, "latency_s": lat, "phases_s": ph})
        emit(out, {"part": "ours", "mode": f"{fmt}-batch", "event": "end", "wall_s": wall, "verdicts_per_hour": len(cases) / wall * 3600})
    v.close()


# -- throughput: a mixed set, one lane against several -----------------------------------------------------------
def _diagnosis(verdict) -> dict:
    """--diagnostics: the timing's parts and the precision check's own oracle time (a precision phase
    of 6.5-7 s once per run, 0.01-0.1 s elsewhere on the same tasks, results/2026-12-07g-h100, is
    told apart: the float64 oracle run itself, or the work around it)."""
    out = {}
    if verdict.timing:
        out["diagnostics"] = verdict.timing.diagnostics
    p = verdict.precision
    if p is not None:
        out["precision"] = {"status": p.status, "oracle_s": p.oracle_s, "terms": p.terms, "reason": p.reason[:160],
                            "signature": p.signature}
    return out


def _wrong(src: str) -> str:
    """The gold kernel with its output changed after the fact: an incorrect candidate that
    compiles, loads and runs its kernel like the honest one."""
    return src + """

_km_forward = ModelNew.forward


def _km_wrong(self, *args):
    return _km_forward(self, *args) * 1.5 + 0.25


ModelNew.forward = _km_wrong
"""


def _broken(src: str) -> str:
    """The gold kernel with a type name that does not exist before its first kernel: nvrtc refuses it."""
    assert "__global__" in src
    return src.replace("__global__", "__global__ km_no_such_type", 1)


def throughput_cases(kb_dir: Path, limit: int | None, only: set[str] | None = None) -> list[dict]:
    """At least 40 nvrtc candidates over the gold kernels' L1/L2 tasks: each gold kernel twice
    (an agent resubmits), a wrong-output and a compile-error variant of each, and the bad kernels
    of the manifest (but the hang, which would only measure its timeout). ``only``: those tasks'
    cases alone (a diagnosis of one task, not the benchmark's set)."""
    manifest = json.loads((KERNELS / "manifest.json").read_text())
    out = []
    for g in manifest["gold"][: limit or None]:
        src = (KERNELS / g["dir"] / "nvrtc.py").read_text()
        task = {"task": g["task"], "task_src": (kb_dir / g["file"]).read_text(), "task_file": str(kb_dir / g["file"])}
        out += [{**task, "kind": "gold", "src": src, "want": ("correct",)},
                {**task, "kind": "gold_again", "src": src, "want": ("correct",)},
                {**task, "kind": "wrong_output", "src": _wrong(src), "want": ("incorrect", "rejected")},
                {**task, "kind": "compile_error", "src": _broken(src), "want": ("compile_error",)}]
    for b in manifest["bad"]:
        if b["backend"] == "nvrtc" and b["expect"] != "timeout":
            out.append({"task": b["task"], "task_src": (kb_dir / b["file"]).read_text(), "task_file": str(kb_dir / b["file"]),
                        "kind": "bad:" + Path(b["path"]).stem, "src": (KERNELS / b["path"]).read_text(), "want": (b["expect"],)})
    if only:
        missing = only - {c["task"] for c in out}
        if missing:
            raise SystemExit(f"--tasks: no throughput case is on {', '.join(sorted(missing))}")
        out = [c for c in out if c["task"] in only]
    return out


def run_throughput(cases: list[dict], out, lanes: list[str], eager: bool = True, diagnostics: bool = False) -> None:
    """Each lane setting in ``lanes`` verifies the whole set in one batch (verify_many): verdicts per
    GPU-hour, the completion times' spread, and, for the honest kernels, their times against the
    first setting's (one lane: exclusive). A setting is a lane count, ``N:loop`` for N lanes whose
    timing loops hold the GPU for the whole loop (KMOSAIC_QUIET_SCOPE=loop; the default where lanes
    share a GPU is each timed call), or ``N:mps`` for N lanes through an MPS control daemon that
    the benchmark starts and stops (its pipe folder in KMOSAIC_MPS_PIPE)."""
    from kernelmosaic.task import Task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    timing = TimingConfig(enabled=True, n=100, warmup=3, eager=eager, compile=False, diagnostics=diagnostics)
    tasks = {c["task"]: Task(name=c["task"].replace("/", "_"), source=c["task_src"], path=c["task_file"]) for c in cases}
    cache = tempfile.mkdtemp(prefix="kmosaic-tp-")  # one cache: the baselines are timed once, ahead
    emit(out, {"part": "throughput", "event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "candidates": len(cases), "tasks": len(tasks), "kinds": sorted({c["kind"] for c in cases}), "lanes": lanes,
               "cpu_cores": os.cpu_count()})
    honest: dict[str, dict[str, float]] = {}
    for setting in lanes:
        n_lanes, _, how = setting.partition(":")
        n_lanes = int(n_lanes)
        saved = dict(os.environ)
        mps = None
        if how == "loop":
            os.environ["KMOSAIC_QUIET_SCOPE"] = "loop"
        elif how == "mps":
            mps = start_mps()
            emit(out, {"part": "throughput", "lanes": setting, "event": "mps", **mps})
        elif how:
            raise SystemExit(f"unknown lane setting {setting!r}: N, N:loop or N:mps")
        try:
            v = Verifier(device="cuda", cache_dir=cache, lanes_per_gpu=n_lanes)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        try:
            if eager:
                t0 = time.perf_counter()
                for task in tasks.values():
                    v.baseline(task, timing)
                emit(out, {"part": "throughput", "lanes": setting, "event": "baselines_ready", "wall_s": time.perf_counter() - t0})
            reqs = [VerifyRequest(candidate=c["src"], task=tasks[c["task"]], backend="nvrtc", timing=timing) for c in cases]
            t0 = time.perf_counter()
            done_at: list[float] = []
            honest[setting] = {}

            def one(c, req):
                r = v.verify(req)
                done_at.append(time.perf_counter() - t0)
                # each verdict as it comes: a run cut by its time limit still shows how far it got
                status = r.status
                ms = r.timing.candidate_ms if r.timing else None
                if c["kind"] in ("gold", "gold_again") and status == "correct" and ms:
                    honest[setting][f"{c['task']}:{c['kind']}"] = ms
                emit(out, {"part": "throughput", "lanes": setting, "task": c["task"], "kind": c["kind"], "status": status,
                           "as_expected": status in c["want"], "candidate_ms": ms, "done_at_s": round(done_at[-1], 2),
                           "phases_s": r.phases_s,
                           # why, where it is not what the case expects (an infra_error's cause, say)
                           "error": None if status in c["want"] or r.error is None else
                           {"kind": r.error.kind, "message": r.error.message[:600]},
                           "attempts": r.attempts,
                           "notes": [n for n in r.notes if "GPU to itself" in n or "quiet lock" in n],
                           **(_diagnosis(r) if diagnostics else {})})
                return r

            # all submitted at once, as a batch of episodes' turns arrives: the lanes take them in turn
            with ThreadPoolExecutor(max_workers=len(reqs)) as ex:
                verdicts = list(ex.map(one, cases, reqs))
            wall = time.perf_counter() - t0
        finally:
            v.close()
            if mps is not None:
                stop_mps(mps)
        ok = sum(r.status in c["want"] for c, r in zip(cases, verdicts))
        own = sorted(getattr(r, "phases_s", {}).get("total", 0.0) for r in verdicts)
        summary = {"part": "throughput", "lanes": setting, "event": "end", "verdicts": len(verdicts), "as_expected": ok,
                   "wall_s": round(wall, 2), "verdicts_per_gpu_hour": round(len(verdicts) / wall * 3600),
                   "verdict_wall_s": {"p50": round(statistics.median(own), 2), "p90": round(own[int(0.9 * (len(own) - 1))], 2),
                                      "max": round(own[-1], 2)}}
        d = sorted(done_at)
        summary["completed_by_s"] = {"p50": round(statistics.median(d), 2), "p90": round(d[int(0.9 * (len(d) - 1))], 2)}
        base = honest.get(lanes[0], {})
        common = sorted(set(base) & set(honest[setting]))
        if setting != lanes[0] and common:
            ratios = [honest[setting][k] / base[k] for k in common]
            summary["timing_vs_first"] = {"kernels": len(common), "median_ratio": round(statistics.median(ratios), 4),
                                          "median_abs_diff": round(statistics.median(abs(x - 1) for x in ratios), 4),
                                          "max_abs_diff": round(max(abs(x - 1) for x in ratios), 4)}
        emit(out, summary)


def start_mps() -> dict:
    """An MPS control daemon of this user for the lanes about to start (their processes inherit
    CUDA_MPS_PIPE_DIRECTORY from the environment the pool copies)."""
    import subprocess

    pipe = os.environ.get("KMOSAIC_MPS_PIPE") or tempfile.mkdtemp(prefix="kmosaic-mps-")
    logs = tempfile.mkdtemp(prefix="kmosaic-mps-log-")
    env = {**os.environ, "CUDA_MPS_PIPE_DIRECTORY": pipe, "CUDA_MPS_LOG_DIRECTORY": logs}
    p = subprocess.run(["nvidia-cuda-mps-control", "-d"], env=env, capture_output=True, text=True, timeout=30)
    os.environ.update(CUDA_MPS_PIPE_DIRECTORY=pipe, CUDA_MPS_LOG_DIRECTORY=logs)
    return {"pipe": pipe, "logs": logs, "rc": p.returncode, "output": (p.stdout + p.stderr)[-500:]}


def stop_mps(mps: dict) -> None:
    import subprocess

    env = {**os.environ, "CUDA_MPS_PIPE_DIRECTORY": mps["pipe"], "CUDA_MPS_LOG_DIRECTORY": mps["logs"]}
    subprocess.run(["nvidia-cuda-mps-control"], input="quit\n", env=env, capture_output=True, text=True, timeout=60)
    for name in ("control.log", "server.log"):
        try:
            tail = Path(mps["logs"], name).read_text()[-1500:]
        except OSError:
            continue
        print(f"--- MPS {name} (tail)\n{tail}", flush=True)


# -- report ------------------------------------------------------------------------------------------------------
def report(paths):
    recs = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines() if line.strip()]
    ends = [r for r in recs if r.get("part") == "throughput" and r.get("event") == "end"]
    if ends:
        print("| lanes | verdicts | as expected | wall s | verdicts / GPU-hour | verdict p50 / p90 s | honest kernels' times vs the first (median, median abs, max abs) |")
        print("|---|---|---|---|---|---|---|")
        for e in ends:
            t = e.get("timing_vs_first")
            tv = f"{t['median_ratio']:.4f}, {t['median_abs_diff']:.4f}, {t['max_abs_diff']:.4f} ({t['kernels']} kernels)" if t else "(reference)"
            w = e["verdict_wall_s"]
            print(f"| {e['lanes']} | {e['verdicts']} | {e['as_expected']} | {e['wall_s']} | {e['verdicts_per_gpu_hour']} | "
                  f"{w['p50']} / {w['p90']} | {tv} |")
        alone = [r for r in recs if r.get("part") == "throughput" and any("GPU to itself" in n for n in r.get("notes") or [])]
        if alone:
            print(f"\n{len(alone)} verdicts ran with the GPU to themselves: " + ", ".join(sorted({f"{r['lanes']}:{r['task']}" for r in alone})))
        print()
    rows = []
    kb = [r for r in recs if r.get("part") == "kb" and "latency_s" in r]
    if kb:
        lat = [r["latency_s"] for r in kb]
        rows.append(("KernelBench-style (load_inline, in-process, sequential)", len(kb), sum(r["correct"] for r in kb), statistics.median(lat), 3600 / statistics.mean(lat)))
    for mode in ("nvrtc-sequential", "nvrtc-batch", "cuda-batch"):
        rs = [r for r in recs if r.get("mode") == mode and "latency_s" in r]
        if not rs:
            continue
        end = [r for r in recs if r.get("mode") == mode and r.get("event") == "end"]
        vph = end[0]["verdicts_per_hour"] if end else 3600 / statistics.mean(r["latency_s"] for r in rs)
        rows.append((f"ours: {mode}", len(rs), sum(r["status"] == "correct" for r in rs), statistics.median(r["latency_s"] for r in rs), vph))
    print("| harness | verdicts | correct | median latency (s) | verdicts / hour |")
    print("|---|---|---|---|---|")
    for name, n, ok, med, vph in rows:
        print(f"| {name} | {n} | {ok} | {med:.2f} | {vph:.0f} |")
    if kb and any(r[0] == "ours: nvrtc-sequential" for r in rows):
        kb_med = rows[0][3]
        nv = next(r for r in rows if r[0] == "ours: nvrtc-sequential")[3]
        print(f"\nmedian latency advantage of nvrtc over the KernelBench-style harness: {kb_med / nv:.1f}x")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=("kb", "ours", "throughput"))
    ap.add_argument("--lanes", default="1,4", help="throughput part: lane settings to compare, the first as the reference "
                    "(1 = exclusive: one candidate on the GPU at a time); N, N:loop (timing loops hold the GPU whole) or "
                    "N:mps (through an MPS daemon)")
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--out")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--tasks", default="", help="throughput part: only these tasks' cases (comma-separated, e.g. L1/19), "
                    "to diagnose one task; the benchmark's number is over the whole set")
    ap.add_argument("--kb-inputs", choices=("device", "cpu"), default="device",
                    help="where the KernelBench-style harness makes inputs (KernelBench itself: cpu, then copies)")
    ap.add_argument("--report", nargs="*")
    ap.add_argument("--batch-modes", default="nvrtc,cuda", help="backends to run all at once in the ours part")
    ap.add_argument("--diagnostics", action="store_true", help="record where each verdict's setup and timed calls "
                    "spent their time (TimingConfig.diagnostics; ours: the sequential verdicts; throughput: every verdict)")
    ap.add_argument("--no-eager", action="store_true", help="verdicts time no eager baseline, and none is timed "
                    "ahead (with them, each verdict reads its task's cached one: a lookup, not a timing)")
    a = ap.parse_args()
    if a.report:
        report(a.report)
        return
    if a.part == "throughput":
        only = {t.strip() for t in a.tasks.split(",") if t.strip()} or None
        run_throughput(throughput_cases(Path(a.kernelbench), a.limit, only), a.out, [x.strip() for x in a.lanes.split(",")], eager=not a.no_eager,
                       diagnostics=a.diagnostics)
        return
    cases = load_cases(Path(a.kernelbench), a.limit)
    if a.part == "kb":
        run_kb(cases, a.out, a.kb_inputs)
    else:
        run_ours(cases, a.out, tuple(m for m in a.batch_modes.split(",") if m), a.diagnostics, eager=not a.no_eager)


if __name__ == "__main__":
    main()
