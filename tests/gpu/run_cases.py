"""Run the issue-15 GPU cases through whichever kernelmosaic is first on PYTHONPATH, and print
each verdict: to show that the cheats passed before the checks existed, run it against an older
tree (the candidates and tasks are read from this file's tree).

    PYTHONPATH=/path/to/old/tree python tests/gpu/run_cases.py            # e.g. a worktree of 93b685d
    PYTHONPATH=. python tests/gpu/run_cases.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import kernelmosaic
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

HERE = Path(__file__).resolve().parent
CASES = [("side_stream_fast.py", "relu.py", "nvrtc"), ("control_side_stream_nvrtc.py", "relu.py", "nvrtc"),
         ("cupy_matmul.py", "matmul.py", "nvrtc"), ("cublas_extension.py", "matmul.py", "cuda"),
         ("cudnn_extension.py", "conv2d.py", "cuda")]


def main() -> None:
    print("kernelmosaic from", kernelmosaic.__file__, flush=True)
    v = Verifier(device="cuda", timeouts={"check": 180, "time": 300})
    tree = Path(kernelmosaic.__file__).resolve().parent.parent
    if (tree / "kernelmosaic" / "verify" / "libs.py").exists():
        import os
        import subprocess

        # a tree with the library checks: list the vendor kernels first, outside any verdict's check phase
        subprocess.run([sys.executable, "-m", "kernelmosaic.verify.libs", "--warm", str(v.build_dir)],
                       env=dict(os.environ, PYTHONPATH=str(tree)), timeout=900)
    reqs, names = [], []
    for f, task, backend in CASES:
        for policy in ("strict", "kernelbench"):
            reqs.append(VerifyRequest(candidate=(HERE / "adversarial" / f).read_text(),
                                      task=load_task(HERE.parent / "adversarial" / "tasks" / task), backend=backend,
                                      policy=policy, timing=TimingConfig(enabled=False)))
            names.append((f, policy))
    try:
        for (f, policy), r in zip(names, v.verify_many(reqs)):
            print(json.dumps({"case": f, "policy": policy, "status": r.status, "rules": r.rules,
                              "error": r.error and r.error.message[:300], "notes": r.notes,
                              "rejections": [x.detail[:300] for x in r.rejections]}), flush=True)
    finally:
        v.close()


if __name__ == "__main__":
    sys.exit(main())
