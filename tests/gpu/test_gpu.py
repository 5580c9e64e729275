"""GPU verifier tests (run on the H200 through the device tool; see results/).

    KERNELBENCH_DIR=... python -m pytest -m gpu tests/gpu -v

Each verdict is also appended as a JSON line to $KMOSAIC_RESULTS (when set), so the
committed results hold the numbers behind the pass/fail.
"""

import json
import os
import time
from pathlib import Path

import pytest

from conftest import DATA, KERNELBENCH, record_verdict as record
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest
from kernelmosaic.verify.pool import detect_gpus

pytestmark = pytest.mark.gpu

KERNELS = Path(__file__).parent / "kernels"
TIMED = TimingConfig(enabled=True, n=20, warmup=3)
UNTIMED = TimingConfig(enabled=False)


@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    # a short check-phase limit: the hanging kernel waits for it
    v = Verifier(device="cuda", timeouts={"check": 12, "time": 300})
    yield v
    v.close()


def relu():
    return load_task(DATA / "tasks" / "relu.py")


SMALL = [
    ("relu_nvrtc_ok", "nvrtc", "correct"),
    ("relu_cuda_ok", "cuda", "correct"),
    ("relu_triton_ok", "triton", "correct"),
    ("relu_nvrtc_side_stream", "nvrtc", "rejected"),
    ("relu_nvrtc_wrong", "nvrtc", "incorrect"),
    ("relu_nvrtc_illegal", "nvrtc", "runtime_error"),
    ("relu_nvrtc_hang", "nvrtc", "timeout"),
    ("relu_nvrtc_compile_error", "nvrtc", "compile_error"),
]


def _manifest():
    m = KERNELS / "manifest.json"
    return json.loads(m.read_text()) if m.exists() else {"gold": [], "bad": []}


def _kb_task(rel: str):
    return load_task(KERNELBENCH / rel)


def test_everything_in_one_batch(gpu):
    """Small cases, every gold solution (cuda and nvrtc, strict policy, timed) and every bad
    kernel, submitted together: cuda builds run in parallel on the CPU while the GPU lane
    works through the rest."""
    if not (KERNELBENCH / "level1").is_dir():
        pytest.skip("KernelBench problems not available (set KERNELBENCH_DIR)")
    m = _manifest()
    cases = [(c, VerifyRequest(candidate=(DATA / "gpu" / f"{c}.py").read_text(), task=relu(), backend=b, timing=UNTIMED), want) for c, b, want in SMALL]
    for g in m["gold"]:
        for fmt in ("cuda", "nvrtc"):
            cases.append((f"gold {g['task']} {fmt}", VerifyRequest(candidate=(KERNELS / g["dir"] / f"{fmt}.py").read_text(), task=_kb_task(g["file"]), backend=fmt, policy="strict", timing=TIMED), "correct"))
    for b in m["bad"]:
        cases.append((f"bad {b['path']}", VerifyRequest(candidate=(KERNELS / b["path"]).read_text(), task=_kb_task(b["file"]), backend=b["backend"], timing=UNTIMED), b["expect"]))
    t0 = time.monotonic()
    verdicts = gpu.verify_many([r for _, r, _ in cases])
    wall = time.monotonic() - t0
    bad = []
    for (name, _, want), v in zip(cases, verdicts):
        record(name, v)
        if v.status != want:
            bad.append((name, want, v.status, v.error, v.rejections, v.mismatch))
    path = os.environ.get("KMOSAIC_RESULTS")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"case": "batch", "n": len(cases), "wall_s": wall}) + "\n")
    assert len([c for c in cases if c[0].startswith("gold")]) >= 16
    assert not bad, bad


def test_pool_alive_after_everything(gpu):
    v = gpu.verify(VerifyRequest(candidate=(DATA / "gpu" / "relu_nvrtc_ok.py").read_text(), task=relu(), backend="nvrtc", timing=TIMED))
    record("pool alive at the end", v)
    assert v.status == "correct", v.error
    assert v.env["gpu"] and v.timing.speedup_eager is not None
