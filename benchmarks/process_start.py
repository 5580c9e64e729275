"""What the process starter (kernelmosaic/verify/zygote.py) saves: forked against executed, side by side.

Two measurements, each alternating the two ways within one run (``KMOSAIC_ZYGOTE=1`` / ``0``):

  start     a sandboxed candidate process from its start to its "ready" (what a verdict waits for
            when no warm one is left), with the candidate's own start-up parts
  verdicts  sequential verdicts of the scripted ReLU C candidate (tests/data/cpu/relu_cc_ok.py)
            through a one-lane ``Verifier``, timing off, after one warm-up verdict: wall time per
            verdict (CPU time is not reported: a killed candidate's own children are never
            waited for, so getrusage leaves them out)

    python benchmarks/process_start.py --device cpu --rounds 3 --out results/<dir>/process_start.jsonl

On a GPU (``--device cuda``) the same, with the CUDA context and CUPTI in each start; the ReLU
candidate is then the CUDA one (tests/data/gpu/relu_nvrtc_ok.py).
"""

from __future__ import annotations

import argparse
import subprocess
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def starts(device: str, mode: str, n: int) -> dict:
    os.environ["KMOSAIC_ZYGOTE"] = mode
    from kernelmosaic.verify import procs, zygote

    build = tempfile.mkdtemp(prefix="kmosaic-bench-build-")
    if mode == "1":
        st = zygote.starter(device)
        t = time.perf_counter()
        st.wait_ready()  # the starter's own start, once per judge: reported apart
        starter_s = time.perf_counter() - t
    else:
        starter_s = None
    out = []
    for _ in range(n):
        t = time.perf_counter()
        p = procs.CandidateProcess(device, build)
        ready = p.wait_ready(240)
        out.append({"ready_s": round(time.perf_counter() - t, 3), "parts": ready.get("startup_parts"),
                    "started_by": p.started_by})
        p.close()
    return {"part": "start", "mode": "forked" if mode == "1" else "executed", "device": device,
            "starter_ready_s": None if starter_s is None else round(starter_s, 3),
            "median_ready_s": round(statistics.median(o["ready_s"] for o in out), 3), "starts": out}


def verdicts(device: str, mode: str, n: int) -> dict:
    os.environ["KMOSAIC_ZYGOTE"] = mode
    from kernelmosaic.task import load_task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    data = ROOT / "tests" / "data"
    task = load_task(data / "tasks" / "relu.py")
    src = (data / ("cpu/relu_cc_ok.py" if device == "cpu" else "gpu/relu_nvrtc_ok.py")).read_text()
    backend = "cpp" if device == "cpu" else "nvrtc"
    off = TimingConfig(enabled=False)
    walls = []
    with Verifier(device=device, workers=1, cache_dir=tempfile.mkdtemp(prefix="kmosaic-bench-cache-")) as v:
        first = v.verify(VerifyRequest(candidate=src, task=task, backend=backend, timing=off))
        statuses = []
        for _ in range(n):
            t = time.perf_counter()
            got = v.verify(VerifyRequest(candidate=src, task=task, backend=backend, timing=off))
            walls.append(time.perf_counter() - t)
            statuses.append(got.status)
    return {"part": "verdicts", "mode": "forked" if mode == "1" else "executed", "device": device, "n": n,
            "first_status": first.status, "statuses": sorted(set(statuses)),
            "median_wall_s": round(statistics.median(walls), 3), "mean_wall_s": round(sum(walls) / n, 3),
            "walls_s": [round(w, 3) for w in walls]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both ways, alternating")
    ap.add_argument("--starts", type=int, default=5)
    ap.add_argument("--verdicts", type=int, default=10)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    out = open(args.out, "a") if args.out else None
    for r in range(args.rounds):
        order = ("1", "0") if r % 2 == 0 else ("0", "1")
        for mode in order:
            for fn, n in ((starts, args.starts), (verdicts, args.verdicts)):
                # each measurement in a fresh interpreter: a starter, once started, would serve
                # the next measurement's processes
                line = subprocess.run([sys.executable, __file__, "--one", fn.__name__, mode, args.device, str(n)],
                                      capture_output=True, text=True, timeout=900)
                if line.returncode != 0:
                    print(line.stderr[-3000:], file=sys.stderr)
                    raise SystemExit(line.returncode)
                rec = {"round": r, **json.loads(line.stdout.strip().splitlines()[-1])}
                print(json.dumps({k: v for k, v in rec.items() if k not in ("starts", "walls_s")}), flush=True)
                if out:
                    out.write(json.dumps(rec) + "\n")
                    out.flush()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        sys.path.insert(0, str(ROOT))
        fn, mode, device, n = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
        print(json.dumps({"starts": starts, "verdicts": verdicts}[fn](device, mode, n)))
    else:
        main()
