"""Calibrate the precision check (kernelmosaic/verify/precision.py) on honest kernels and cheats.

    # in-process arithmetic only (no verifier): honest sums vs fp16/bf16/TF32 operands
    python benchmarks/precision_calibration.py --emulate
    # the CPU honest set (adversarial controls, the C twins of the elementwise gold kernels on
    # KernelBench tasks) and the CPU cheats, through the real verifier
    python benchmarks/precision_calibration.py --device cpu --runs 3 --out results/<dir>/precision_cpu.jsonl
    # the GPU honest set (every gold kernel, cuda and nvrtc; the elementwise nvrtc gold kernels;
    # the GPU adversarial controls) and the GPU cheats, on the H200
    KERNELBENCH_DIR=... python benchmarks/precision_calibration.py --device cuda --runs 3 --out results/<dir>/precision_gpu.jsonl

Each verdict's ``precision`` record is printed (reference error, candidate error, their ratio,
the bound, the candidate's error over the bound, the signature ratios) and written as a JSON line
with ``--out``. The summary gives, over the honest set, the largest error/bound and
candidate/reference ratios and the smallest signature ratio (what MULTIPLE, FLOOR_ULPS and
SIGNATURE must clear with margin), and over the cheats the same, which must be past them. The
cheats run with ``precision=True`` under ``kernelbench`` where a strict rule would stop them
before the check (``downcast_half_torch``: a torch cast).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "gpu" / "kernels"))

ADV = ROOT / "tests" / "adversarial"
GPU_ADV = ROOT / "tests" / "gpu" / "adversarial"
KERNELS = ROOT / "tests" / "gpu" / "kernels"

# cheats whose numbers reach the precision check (the others fail the tolerance check first)
CPU_CHEATS = ["downcast_fp16_matmul_c.py", "downcast_half_torch.py"]
GPU_CHEATS = ["downcast_wmma_matmul.py", "downcast_half_torch.py"]


def emulate() -> None:
    """The arithmetic behind the floor and the signature, in this process: honest fp32 sums
    (the library's, and one sequential sum per element) against operands rounded to fp16, TF32
    and bf16, on torch.rand and torch.randn operands, over inner dimensions K."""
    import torch

    from kernelmosaic.verify import precision as P

    class MatMul(torch.nn.Module):
        def forward(self, A, B):
            return A @ B

    def seq(A, B):
        acc = torch.zeros(A.shape[0], B.shape[1])
        for k in range(A.shape[1]):
            acc = torch.addcmul(acc, A[:, k:k + 1], B[k:k + 1, :])
        return acc

    eps = torch.finfo(torch.float32).eps
    print(f"{'dist':6} {'K':>6} {'case':12} {'status':7} {'err':>9} {'err/eps':>8} {'/sqrtK':>7} {'ref':>9} {'bound':>9} {'sig tf32':>9} {'sig bf16':>9}")
    g = torch.Generator().manual_seed(0)
    for dist in ("rand", "randn"):
        for K in (256, 1024, 4096, 16384):
            f = torch.rand if dist == "rand" else torch.randn
            A, B = f(32, K, generator=g), f(K, 32, generator=g)
            m = MatMul()
            with torch.no_grad():
                ref = m(A, B)
            cases = {"library": ref.clone(), "sequential": seq(A, B), "fp16_ops": A.half().float() @ B.half().float(),
                     "bf16_ops": A.bfloat16().float() @ B.bfloat16().float(), "fp16_output": ref.half().float()}
            for name, c in cases.items():
                r = P.check(m, [A, B], ref, c, torch.device("cpu"))
                print(f"{dist:6} {K:6d} {name:12} {r.status:7} {r.cand_err:9.2e} {r.cand_err / eps:8.1f} "
                      f"{r.cand_err / eps / math.sqrt(K):7.3f} {r.ref_err:9.2e} {r.threshold:9.2e} "
                      f"{r.signature.get('tf32', float('nan')):9.3g} {r.signature.get('bf16', float('nan')):9.3g}")


def small(source: str) -> str:
    from test_bench_gold import small as s

    return s(source)


def cases(device: str) -> list[tuple[str, str, object]]:
    """(name, "honest" | "cheat", VerifyRequest)."""
    from conftest import KERNELBENCH
    from kernelmosaic.task import Task, load_task
    from kernelmosaic.verify import TimingConfig, VerifyRequest

    off = TimingConfig(enabled=False)
    out = []
    if device == "cpu":
        for p in sorted(ADV.glob("control_*.py")):
            entry = next(e for e in json.loads((ADV / "manifest.json").read_text()) if e["file"] == p.name)
            out.append((f"control {p.stem}", "honest", VerifyRequest(candidate=p.read_text(), task=load_task(ADV / entry["task"]),
                                                                     backend=entry["backend"], timing=off)))
        if (KERNELBENCH / "level1").is_dir():
            import elementwise as EW

            for op in EW.OPS:
                ref = small((KERNELBENCH / op.file).read_text())
                level, name = op.file.split("/")
                task = Task(name=name.removesuffix(".py"), source=ref, level=int(level[5:]), origin="kernelbench")
                out.append((f"gold-twin {op.key}", "honest", VerifyRequest(candidate=EW.source(op, "cpp"), task=task, backend="cpp",
                                                                           timing=off)))
        cheats, where = CPU_CHEATS, ADV
    else:
        m = json.loads((KERNELS / "manifest.json").read_text())
        for g in m["gold"]:
            task = load_task(KERNELBENCH / g["file"])
            for fmt in ("cuda", "nvrtc"):
                src = (KERNELS / g["dir"] / f"{fmt}.py").read_text()
                out.append((f"gold {g['task']} {fmt}", "honest", VerifyRequest(candidate=src, task=task, backend=fmt, timing=off)))
        import elementwise as EW

        for op in EW.OPS:
            out.append((f"gold-ew {op.key}", "honest", VerifyRequest(candidate=EW.source(op, "nvrtc"), task=load_task(KERNELBENCH / op.file),
                                                                     backend="nvrtc", timing=off)))
        for p in sorted(GPU_ADV.glob("control_*.py")):
            entry = next(e for e in json.loads((GPU_ADV / "manifest.json").read_text()) if e["file"] == p.name)
            out.append((f"control {p.stem}", "honest", VerifyRequest(candidate=p.read_text(), task=load_task(ADV / entry["task"]),
                                                                     backend="nvrtc", timing=off)))
        cheats, where = GPU_CHEATS, GPU_ADV
    manifest = json.loads((where / "manifest.json").read_text())
    for f in cheats:
        entry = next(e for e in manifest if e["file"] == f)
        out.append((f"cheat {f.removesuffix('.py')}", "cheat", VerifyRequest(candidate=(where / f).read_text(), task=load_task(ADV / entry["task"]),
                                                                            backend=entry["backend"], policy="kernelbench", precision=True,
                                                                            timing=off)))
    return out


def row(name: str, kind: str, v) -> dict:
    from kernelmosaic.verify import Verdict

    if not isinstance(v, Verdict):
        return {"case": name, "kind": kind, "status": None, "error": f"{type(v).__name__}: {v}"}
    p = v.precision
    d = {"case": name, "kind": kind, "status": v.status, "error_kind": v.error.kind if v.error else None,
         "precision": None if p is None else {k: getattr(p, k) for k in p.__dataclass_fields__}}
    if p is not None and p.cand_err is not None:
        d["ratio_ref"] = p.cand_err / p.ref_err if p.ref_err else math.inf
        d["over_bound"] = p.cand_err / p.threshold if p.threshold else math.inf
        d["min_signature"] = min(p.signature.values()) if p.signature else None
    return d


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=("cpu", "cuda"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--emulate", action="store_true")
    ap.add_argument("--only", default="", help="regex on case names")
    a = ap.parse_args()
    if a.emulate:
        emulate()
    if not a.device:
        return
    from kernelmosaic.verify import Verifier

    cs = [c for c in cases(a.device) if re.search(a.only, c[0])]
    rows = []
    with Verifier(device=a.device, workers=2 if a.device == "cpu" else None, jobs_per_worker=len(cs)) as v:
        for run in range(1, a.runs + 1):
            t0 = time.monotonic()
            verdicts = v.verify_many([r for _, _, r in cs])
            for (name, kind, _), vd in zip(cs, verdicts):
                r = {**row(name, kind, vd), "run": run}
                rows.append(r)
                p = r.get("precision") or {}
                print(f"run {run} {name:45} {kind:6} {str(r['status']):10} {str(r.get('error_kind')):10} "
                      f"prec={p.get('status')} ref={p.get('ref_err') or 0:.2e} cand={p.get('cand_err') or 0:.2e} "
                      f"x_ref={r.get('ratio_ref', float('nan')):.3g} /bound={r.get('over_bound', float('nan')):.3g} "
                      f"sig={p.get('signature')} R={p.get('terms')} {p.get('reason', '')[:90] if p.get('status') == 'skipped' else ''}",
                      flush=True)
            print(f"run {run}: {len(cs)} verdicts in {time.monotonic() - t0:.0f} s", flush=True)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        with open(a.out, "a") as f:
            for r in rows:
                f.write(json.dumps(r, default=str) + "\n")
    for kind in ("honest", "cheat"):
        rs = [r for r in rows if r["kind"] == kind and (r.get("precision") or {}).get("cand_err") is not None]
        if not rs:
            continue
        wrong = [r["case"] for r in rs if (r["status"] == "correct") != (kind == "honest")]
        fin = [r["ratio_ref"] for r in rs if math.isfinite(r["ratio_ref"])]
        sig = [r["min_signature"] for r in rs if r.get("min_signature") is not None]
        print(f"{kind}: {len(rs)} checked; max error/bound {max(r['over_bound'] for r in rs):.3g}, "
              f"min {min(r['over_bound'] for r in rs):.3g}; cand/ref ratio max {max(fin) if fin else float('nan'):.3g}; "
              f"signature min {min(sig) if sig else float('nan'):.3g}; verdicts against expectation: {wrong or 'none'}")
    skipped = sorted({(r["case"], r["precision"]["reason"]) for r in rows if (r.get("precision") or {}).get("status") == "skipped"})
    for c, why in skipped:
        print(f"skipped: {c}: {why}")


if __name__ == "__main__":
    main()
