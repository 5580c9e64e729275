"""Timing across the trust boundary against timing in one process, side by side, on the gold kernels.

For each gold kernel (tests/gpu/kernels, nvrtc format) and its KernelBench task, in one run:

  in-process  a fresh Python process loads the reference and the candidate and times ModelNew the
              way the verifier did before the boundary: CUDA events around each call, a device-wide
              sync before the end event, L2 flushed between calls, two alternating input buffers
              (kernelmosaic.verify.timing.time_in_process);
  boundary    the verifier: the judge's host clock around the round trip to its candidate process,
              less the calibrated empty-call overhead and the long-call excess
              (TimingConfig.long_call_calibration); ``boundary_plain`` is the same verdicts' times
              with the empty-call overhead alone taken off (the verifier before the long calls);
              ``boundary_spin`` (``--spin``) the verdicts again with both sides polling for each
              other's messages instead of sleeping (TimingConfig.spin_wait).

Eager baselines are compared the same way (in-process vs the verifier's reference process).
Nothing else runs on the GPU while either side times. Prints one JSON line per measurement and a
summary: the ratio boundary / in-process per kernel, and its median over kernels of >= 1 ms.

    python benchmarks/boundary_timing.py --kernelbench DIR --out results/<dir>/boundary_timing.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "tests" / "gpu" / "kernels"

_INPROC = r'''
import importlib.util, json, statistics, sys, torch
from kernelmosaic.verify.timing import Flusher, time_in_process
task, cand, n, warmup, which = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); sys.modules[name] = m; spec.loader.exec_module(m); return m
dev = torch.device("cuda")
ref_mod = load(task, "ref")
init = ref_mod.get_init_inputs()
with torch.device(dev):
    torch.manual_seed(1)
    ref = ref_mod.Model(*init)
sets = []
for s in (11, 12):
    with torch.device(dev):
        torch.manual_seed(s)
        sets.append([x.to(dev) if isinstance(x, torch.Tensor) else x for x in ref_mod.get_inputs()])
if which == "candidate":
    mod = load(cand, "cand")
    with torch.device(dev):
        torch.manual_seed(1)
        model = mod.ModelNew(*init)
    theirs = dict(model.named_parameters()); theirs.update(dict(model.named_buffers()))
    with torch.no_grad():
        for k, t in list(ref.named_parameters()) + list(ref.named_buffers()):
            if k in theirs and theirs[k].shape == t.shape:
                theirs[k].copy_(t)
else:
    model = ref
flush = Flusher(dev)
ts = time_in_process(model, sets, n, warmup, flush, dev)
# the same calls by the host clock: flush, sync, then perf_counter around forward and a device sync
import time
hs = []
with torch.no_grad():
    for i in range(n):
        flush(); torch.cuda.synchronize(dev)
        t = time.perf_counter(); model(*sets[i % 2]); torch.cuda.synchronize(dev)
        hs.append((time.perf_counter() - t) * 1e3)
print(json.dumps({"median_ms": statistics.median(ts), "host_median_ms": statistics.median(hs)}))
'''


def inprocess(task_file: str, cand_file: str, n: int, warmup: int, which: str) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_INPROC)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, f.name, task_file, cand_file, str(n), str(warmup), which], capture_output=True,
                       text=True, env=env, timeout=600)
    os.unlink(f.name)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-2000:])
    return json.loads(p.stdout.strip().splitlines()[-1])


def start_mps(root: Path) -> dict:
    """An MPS control daemon of our own (nvidia-cuda-mps-control), its pipes under ``root``."""
    env = {"CUDA_MPS_PIPE_DIRECTORY": str(root / "pipe"), "CUDA_MPS_LOG_DIRECTORY": str(root / "log")}
    for d in env.values():
        Path(d).mkdir(parents=True, exist_ok=True)
        os.chmod(d, 0o777)
    subprocess.run(["nvidia-cuda-mps-control", "-d"], env=dict(os.environ, **env), check=True, timeout=60)
    return env


def stop_mps(env: dict) -> None:
    subprocess.run(["nvidia-cuda-mps-control"], input="quit\n", text=True, env=dict(os.environ, **env), timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--out")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--tasks", default="", help="only these gold tasks, e.g. L1/47,L1/19")
    ap.add_argument("--diagnostics", action="store_true", help="break each timed call down (TimingConfig.diagnostics)")
    ap.add_argument("--mps", action="store_true", help="also time across the boundary under an MPS daemon of our own "
                    "(the candidate's own-uid layer off: an MPS server serves one user)")
    ap.add_argument("--spin", action="store_true", help="also time each kernel with both sides polling for each other's "
                    "messages (TimingConfig.spin_wait)")
    a = ap.parse_args()
    from kernelmosaic.task import Task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    kb = Path(a.kernelbench)
    gold = json.loads((KERNELS / "manifest.json").read_text())["gold"][: a.limit or None]
    if a.tasks:
        gold = [g for g in gold if g["task"] in a.tasks.split(",")]
    rows = []

    def emit(rec):
        print(json.dumps(rec), flush=True)
        rows.append(rec)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(rec) + "\n")

    emit({"event": "start", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "n": a.n, "warmup": a.warmup})
    timing = TimingConfig(enabled=True, n=a.n, warmup=a.warmup, compile=False, use_cache=False, diagnostics=a.diagnostics)

    def boundary(v, g, task, cand_file, variant, timing=timing):
        verdict = v.verify(VerifyRequest(candidate=Path(cand_file).read_text(), task=task, backend="nvrtc", timing=timing))
        t = verdict.timing
        lc = (t.long_call_ms or {}) if t else {}
        return {"variant": variant, "status": verdict.status, "boundary_candidate_ms": t.candidate_ms if t else None,
                "boundary_eager_ms": t.eager_ms if t else None, "overhead_ms": t.overhead_ms if t else None,
                # the same verdict's times with the empty-call overhead alone taken off
                "boundary_candidate_plain_ms": t.candidate_ms + lc.get("candidate", 0.0) if t else None,
                "boundary_eager_plain_ms": t.eager_ms + lc.get("eager", 0.0) if t and t.eager_ms else None,
                "long_call_ms": lc,
                "checked_calls": t.checked_calls if t else None, "diagnostics": t.diagnostics if t else None,
                "layers": verdict.isolation.layers if verdict.isolation else None, "gpu": verdict.env.get("gpu"),
                "error": None if verdict.error is None else {"kind": verdict.error.kind, "message": verdict.error.message[:500],
                                                             "log": verdict.error.log[-1500:]}}

    cases = []
    for g in gold:
        task_file = str(kb / g["file"])
        cand_file = str(KERNELS / g["dir"] / "nvrtc.py")
        cases.append((g, Task(name=g["task"].replace("/", "_"), source=Path(task_file).read_text(), path=task_file), task_file, cand_file))
    with Verifier(device="cuda", cache_dir=tempfile.mkdtemp(prefix="kmosaic-bt-"), spares=1) as v:
        for g, task, task_file, cand_file in cases:
            ip_c = inprocess(task_file, cand_file, a.n, a.warmup, "candidate")
            ip_e = inprocess(task_file, cand_file, a.n, a.warmup, "eager")
            emit({"task": g["task"], "inprocess_candidate_ms": ip_c["median_ms"], "inprocess_candidate_host_ms": ip_c["host_median_ms"],
                  "inprocess_eager_ms": ip_e["median_ms"], "inprocess_eager_host_ms": ip_e["host_median_ms"],
                  **boundary(v, g, task, cand_file, "boundary")})
    if a.spin:
        # the same verdicts with both sides polling for each other's messages (TimingConfig.spin_wait)
        spin = TimingConfig(enabled=True, n=a.n, warmup=a.warmup, compile=False, use_cache=False, diagnostics=a.diagnostics,
                            spin_wait=True)
        with Verifier(device="cuda", cache_dir=tempfile.mkdtemp(prefix="kmosaic-bt-spin-"), spares=1) as v:
            for g, task, task_file, cand_file in cases:
                emit({"task": g["task"], **boundary(v, g, task, cand_file, "boundary_spin", spin)})
    if a.mps:
        root = Path(tempfile.mkdtemp(prefix="kmosaic-mps-"))
        os.chmod(root, 0o755)
        env = start_mps(root)
        os.environ.update(env)
        try:
            cache = Path(tempfile.mkdtemp(prefix="kmosaic-bt-mps-"))
            (cache / "sandbox-refused.json").write_text(json.dumps({"cuda": {"uid": "off: MPS serves one user (benchmark)"}}))
            with Verifier(device="cuda", cache_dir=str(cache), spares=1) as v:
                for g, task, task_file, cand_file in cases:
                    emit({"task": g["task"], **boundary(v, g, task, cand_file, "boundary_mps")})
        finally:
            for k in env:
                os.environ.pop(k, None)
            stop_mps(env)
    summary = {"event": "summary"}
    by_task = {r["task"]: r for r in rows if r.get("variant") == "boundary"}
    for variant, key in (("boundary", ""), ("boundary_plain", "_plain"), ("boundary_spin", ""), ("boundary_mps", "")):
        src = "boundary" if variant == "boundary_plain" else variant
        ok = [r for r in rows if r.get("variant") == src and r.get(f"boundary_candidate{key}_ms")]
        ip = [(r, by_task[r["task"]]) for r in ok if r["task"] in by_task]
        ratios = [r[f"boundary_candidate{key}_ms"] / b["inprocess_candidate_ms"] for r, b in ip if b["inprocess_candidate_ms"] >= 1.0]
        eratios = [r[f"boundary_eager{key}_ms"] / b["inprocess_eager_ms"] for r, b in ip
                   if r.get(f"boundary_eager{key}_ms") and b["inprocess_eager_ms"] >= 1.0]
        summary[variant] = {"kernels": len(ok), "kernels_1ms_or_more": len(ratios),
                            "median_ratio_candidate": statistics.median(ratios) if ratios else None,
                            "median_ratio_eager": statistics.median(eratios) if eratios else None,
                            "ratios_candidate": [round(x, 4) for x in ratios], "ratios_eager": [round(x, 4) for x in eratios]}
    emit(summary)


if __name__ == "__main__":
    main()
