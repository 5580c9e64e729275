"""The gold kernels' correctness checks alone, for a quick false-rejection check on a GPU.

Every gold kernel (tests/gpu/kernels, nvrtc format, on its KernelBench task) is verified under
`strict` with timing off: the trials, the instrumented call, the precision oracle, the shape
variants and the library and stream checks, without the baselines that make a full gold run
long. The WMMA downcast cheat and its control (tests/gpu/adversarial) ride along, to show the
precision check answering both ways in the same run. The manifest's ``found`` cases are honest
kernels a pilot found wrongly judged (issue 20: the verifier bug was fixed, the kernel kept here),
each on its own task (a task set file, so no KernelBench directory is needed for them alone:
``--found-only``). One JSON line per verdict, then a summary.

    python benchmarks/gold_check.py --kernelbench DIR --out results/<dir>/gold_check.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KERNELS = ROOT / "tests" / "gpu" / "kernels"
ADV = ROOT / "tests" / "gpu" / "adversarial"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--out")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--protocol", default="kernelmosaic", help="kernelbench: KernelBench's semantics (protocols.py)")
    ap.add_argument("--timed", action="store_true", help="time each verdict too (slower: the eager baseline is timed)")
    ap.add_argument("--found-only", action="store_true", help="only the manifest's `found` cases (past false rejections)")
    ap.add_argument("--one-at-a-time", action="store_true",
                    help="verify one request at a time and print each verdict as it comes (to see where the time goes)")
    a = ap.parse_args()
    from kernelmosaic.task import Task, load_task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    off = TimingConfig(compile=False) if a.timed else TimingConfig(enabled=False)
    manifest = json.loads((KERNELS / "manifest.json").read_text())
    gold = [] if a.found_only else manifest["gold"]
    cases = []
    # a past false rejection under the project's protocol; KernelBench's compares with the reference alone
    for g in manifest.get("found", []) if a.protocol == "kernelmosaic" else ():
        cases.append((g["task"], "correct", VerifyRequest(candidate=(KERNELS / g["dir"] / f"{g['backend']}.py").read_text(),
                                                          task=load_task((Path(a.kernelbench) if g.get("kernelbench") else ROOT) / g["file"]),
                                                          backend=g["backend"],
                                                          timing=off, protocol=a.protocol)))
    for g in gold:
        path = Path(a.kernelbench) / g["file"]
        task = Task(name=g["task"].replace("/", "_"), source=path.read_text(), path=str(path))
        cases.append((g["task"], "correct", VerifyRequest(candidate=(KERNELS / g["dir"] / "nvrtc.py").read_text(),
                                                          task=task, backend="nvrtc", timing=off, protocol=a.protocol)))
    matmul = load_task(ROOT / "tests" / "adversarial" / "tasks" / "matmul_rand.py")
    # The precision check that catches the WMMA cheat is the project's, not KernelBench's.
    for f, want in (() if a.protocol != "kernelmosaic" or a.found_only else (("downcast_wmma_matmul.py", "incorrect"), ("control_matmul_nvrtc.py", "correct"))):
        cases.append((f, want, VerifyRequest(candidate=(ADV / f).read_text(), task=matmul, backend="nvrtc", timing=off, protocol=a.protocol)))
    rows = []
    with Verifier(device="cuda", timeouts={"check": 180, "time": 300}) as v:
        for rnd in range(1, a.rounds + 1):
            t0 = time.monotonic()
            verdicts = (v.verify(c[2]) for c in cases) if a.one_at_a_time else v.verify_many([c[2] for c in cases])
            for (name, want, req), r in zip(cases, verdicts):
                p = r.precision
                row = {"round": rnd, "case": name, "want": want, "status": r.status, "ok": r.status == want,
                       "error": None if r.error is None else {"kind": r.error.kind, "message": r.error.message[:400]},
                       "rules": r.rules, "precision": None if p is None else {"status": p.status, "ref_err": p.ref_err,
                       "cand_err": p.cand_err, "threshold": p.threshold, "signature": p.signature, "reason": p.reason[:200]},
                       "shape_variants": [{"mode": s.get("mode"), "applied": s.get("applied"), "changed": s.get("changed"),
                                           "passed": s.get("passed")} for s in r.shape_variants],
                       "phases_s": r.phases_s, "candidate_ms": None if r.timing is None else r.timing.candidate_ms}
                rows.append(row)
                print(json.dumps(row), flush=True)
            print(json.dumps({"event": "round", "round": rnd, "wall_s": round(time.monotonic() - t0, 1)}), flush=True)
    summary = {"event": "summary", "verdicts": len(rows), "as_expected": sum(r["ok"] for r in rows),
               "gold_correct": sum(r["ok"] for r in rows if r["want"] == "correct" and r["case"].startswith("L")),
               "gold": sum(1 for r in rows if r["case"].startswith("L"))}
    print(json.dumps(summary), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            for r in rows + [summary]:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
