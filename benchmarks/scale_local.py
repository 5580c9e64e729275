"""Scaling of the local executor from 1 to 2 (or more) GPUs on the same verification jobs.

The jobs: the honest nvrtc kernels of tests/gpu/kernels (10 KernelBench L1/L2 problems),
each repeated ``--repeat`` times, verified under the strict policy and timed (eager
baseline, no torch.compile). For each lane count in ``--lanes`` the script starts a
``LocalExecutor`` over that many GPUs, warms it up (one unmeasured job per lane), then
verifies all jobs in one ``verify_many`` and records the wall time. Eager baselines are
timed once beforehand and cached, so every configuration does the same work per job.

    KERNELBENCH_DIR=$PWD/.kb python benchmarks/scale_local.py --out $OUT/scale

``--device cpu`` is a dry run of the same code with CPU lanes and the raw-C ``cpp``
candidates of tests/data (no GPU, no KernelBench needed). Results are written to
``OUT/scale_local.json`` after each configuration; a rerun skips the ones already there
(the baselines stay in ``--cache-dir``, so a rerun times the same work).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.scale import LocalExecutor  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.verify import TimingConfig, VerifyRequest  # noqa: E402
from kernelmosaic.verify.pool import detect_gpus  # noqa: E402

KERNELS = ROOT / "tests" / "gpu" / "kernels"
DATA = ROOT / "tests" / "data"
TIMING = TimingConfig(enabled=True, n=30, warmup=3, compile=False)


def gpu_jobs(kb_dir: str | None) -> list[tuple]:
    if not kb_dir or not (Path(kb_dir) / "level1").is_dir():
        sys.exit("error: KernelBench problems not found: pass --kernelbench DIR or set KERNELBENCH_DIR")
    manifest = json.loads((KERNELS / "manifest.json").read_text())
    return [(load_task(Path(kb_dir) / g["file"]), (KERNELS / g["dir"] / "nvrtc.py").read_text(), "nvrtc")
            for g in manifest["gold"]]


def cpu_jobs() -> list[tuple]:
    return [(load_task(DATA / "tasks" / f"{name}.py"), (DATA / "cpu" / f"{name}_cc_ok.py").read_text(), "cpp")
            for name in ("relu", "scale_add")]


def requests(cases: list[tuple], repeat: int) -> list[VerifyRequest]:
    return [VerifyRequest(candidate=code, task=task, backend=backend, policy="strict", timing=TIMING)
            for _ in range(repeat) for task, code, backend in cases]


def executor(device: str, lanes: int, cache_dir: Path) -> LocalExecutor:
    if device == "cuda":
        gpus = detect_gpus()
        if len(gpus) < lanes:
            sys.exit(f"error: {lanes} GPUs asked for, {len(gpus)} found")
        return LocalExecutor(device="cuda", gpus=gpus[:lanes], cache_dir=cache_dir)
    return LocalExecutor(device="cpu", workers=lanes, cache_dir=cache_dir)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="Folder for scale_local.json.")
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--lanes", default="1,2", help="Lane (GPU) counts to measure, in order.")
    ap.add_argument("--repeat", type=int, default=3, help="Times each kernel is verified per configuration.")
    ap.add_argument("--force", action="store_true", help="Measure again configurations already in the output.")
    ap.add_argument("--cache-dir", default=str(Path(tempfile.gettempdir()) / "kmosaic-scale-cache"),
                    help="Verifier cache (eager baselines, ceilings, builds); kept out of --out.")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "scale_local.json"
    cache_dir = Path(a.cache_dir)
    lanes_list = [int(x) for x in a.lanes.split(",") if x.strip()]
    cases = gpu_jobs(a.kernelbench) if a.device == "cuda" else cpu_jobs()
    reqs = requests(cases, a.repeat)
    report = json.loads(path.read_text()) if path.exists() and not a.force else {}
    report.update({
        "what": "local executor: the same verification jobs on 1..N lanes (one lane per GPU)",
        "device": a.device, "jobs": len(reqs), "repeat": a.repeat,
        "tasks": [t.key for t, _, _ in cases], "backend": cases[0][2], "policy": "strict",
        "timing": {"n": TIMING.n, "warmup": TIMING.warmup, "compile": TIMING.compile, "eager": "cached, timed once beforehand"},
        "host": {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.node()},
    })
    report.setdefault("runs", {})
    t_start = time.monotonic()

    # eager baselines once (cache hits on a rerun), so every configuration does the same work per job
    if any(str(n) not in report["runs"] for n in lanes_list):
        t0 = time.monotonic()
        with executor(a.device, max(lanes_list), cache_dir) as ex:
            with ThreadPoolExecutor(max_workers=len(ex.verifier.pool)) as tp:
                list(tp.map(lambda c: ex.verifier.baseline(c[0], TIMING), cases))
        report["baselines_s"] = round(time.monotonic() - t0, 2)
        print(f"baselines timed in {report['baselines_s']} s", flush=True)

    for n in lanes_list:
        if str(n) in report["runs"]:
            print(f"{n} lane(s): already measured, skipped", flush=True)
            continue
        t0 = time.monotonic()
        with executor(a.device, n, cache_dir) as ex:
            warm = ex.verify_many(requests(cases[:1], n))  # one job per lane: workers up, CUDA contexts made
            startup_s = time.monotonic() - t0
            t1 = time.monotonic()
            verdicts = ex.verify_many(reqs)
            wall = time.monotonic() - t1
            env = next((v.env for v in verdicts if not isinstance(v, Exception)), {})
        statuses: dict[str, int] = {}
        for v in verdicts:
            st = "task_error" if isinstance(v, Exception) else v.status
            statuses[st] = statuses.get(st, 0) + 1
        totals = [v.phases_s.get("total") for v in verdicts if not isinstance(v, Exception) and v.phases_s.get("total")]
        report["runs"][str(n)] = {
            "lanes": n, "wall_s": round(wall, 3), "jobs_per_s": round(len(reqs) / wall, 4),
            "startup_and_warmup_s": round(startup_s, 2), "warmup_statuses": [getattr(v, "status", "task_error") for v in warm],
            "statuses": statuses, "verdict_s_median": round(statistics.median(totals), 3) if totals else None,
            "env": env,
        }
        print(f"{n} lane(s): {len(reqs)} jobs in {wall:.1f} s = {len(reqs) / wall:.3f} jobs/s  {statuses}", flush=True)
        _scaling(report)
        path.write_text(json.dumps(report, indent=1))
    _scaling(report)
    report["script_wall_s"] = round(time.monotonic() - t_start, 1)
    path.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: report[k] for k in ("runs", "scaling") if k in report}, indent=1))


def _scaling(report: dict) -> None:
    runs = report["runs"]
    if "1" not in runs:
        return
    base = runs["1"]["jobs_per_s"]
    report["scaling"] = {n: {"speedup": round(r["jobs_per_s"] / base, 3), "efficiency": round(r["jobs_per_s"] / base / int(n), 3)}
                         for n, r in runs.items() if n != "1"}


if __name__ == "__main__":
    main()
