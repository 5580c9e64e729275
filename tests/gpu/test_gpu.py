"""GPU verifier tests (run on the H200 through the device tool; see results/).

    KERNELBENCH_DIR=... python -m pytest -m gpu tests/gpu -v

Each verdict is also appended as a JSON line to $KMOSAIC_RESULTS (when set), so the
committed results hold the numbers behind the pass/fail.
"""

import json
import os
from pathlib import Path

import pytest

from conftest import DATA, KERNELBENCH
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest
from kernelmosaic.verify.pool import detect_gpus

pytestmark = pytest.mark.gpu

KERNELS = Path(__file__).parent / "kernels"
TIMED = TimingConfig(enabled=True, n=20, warmup=3)
UNTIMED = TimingConfig(enabled=False)


def record(name: str, verdict) -> None:
    path = os.environ.get("KMOSAIC_RESULTS")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"case": name, **verdict.to_dict()}) + "\n")


@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    # a short check-phase limit: the hanging kernel waits for it
    v = Verifier(device="cuda", timeouts={"check": 30, "time": 300})
    yield v
    v.close()


def relu():
    return load_task(DATA / "tasks" / "relu.py")


SMALL = [
    ("relu_nvrtc_ok", "nvrtc", "correct"),
    ("relu_cuda_ok", "cuda", "correct"),
    ("relu_triton_ok", "triton", "correct"),
    ("relu_nvrtc_side_stream", "nvrtc", "correct"),
    ("relu_nvrtc_wrong", "nvrtc", "incorrect"),
    ("relu_nvrtc_illegal", "nvrtc", "runtime_error"),
    ("relu_nvrtc_hang", "nvrtc", "timeout"),
    ("relu_nvrtc_compile_error", "nvrtc", "compile_error"),
]


def test_small_cases_in_one_batch(gpu):
    reqs = [VerifyRequest(candidate=(DATA / "gpu" / f"{c}.py").read_text(), task=relu(), backend=b, timing=UNTIMED) for c, b, _ in SMALL]
    verdicts = gpu.verify_many(reqs)
    bad = []
    for (c, _, want), v in zip(SMALL, verdicts):
        record(c, v)
        if v.status != want:
            bad.append((c, want, v.status, v.error, v.rejections))
    assert not bad, bad


def _manifest():
    m = KERNELS / "manifest.json"
    return json.loads(m.read_text()) if m.exists() else {"gold": [], "bad": []}


def _kb_task(rel: str):
    if not (KERNELBENCH / "level1").is_dir():
        pytest.skip("KernelBench problems not available (set KERNELBENCH_DIR)")
    return load_task(KERNELBENCH / rel)


GOLD = [(g, fmt) for g in _manifest()["gold"] for fmt in ("cuda", "nvrtc")]


@pytest.mark.parametrize("entry,fmt", GOLD, ids=[f"{g['task']}-{f}" for g, f in GOLD])
def test_gold_solution_is_correct_under_strict(gpu, entry, fmt):
    task = _kb_task(entry["file"])
    src = (KERNELS / entry["dir"] / f"{fmt}.py").read_text()
    v = gpu.verify(VerifyRequest(candidate=src, task=task, backend=fmt, policy="strict", timing=TIMED))
    record(f"gold {entry['task']} {fmt}", v)
    assert v.status == "correct", (v.error, v.rejections, v.mismatch)
    assert v.timing["candidate_ms"] > 0 and v.timing["eager_ms"] > 0


BAD = _manifest()["bad"]


@pytest.mark.parametrize("entry", BAD, ids=[b["path"] for b in BAD])
def test_bad_kernel_gets_its_verdict(gpu, entry):
    task = _kb_task(entry["file"])
    v = gpu.verify(VerifyRequest(candidate=(KERNELS / entry["path"]).read_text(), task=task, backend=entry["backend"], timing=UNTIMED))
    record(f"bad {entry['path']}", v)
    assert v.status == entry["expect"], (v.error, v.rejections)


def test_pool_alive_after_everything(gpu):
    v = gpu.verify(VerifyRequest(candidate=(DATA / "gpu" / "relu_nvrtc_ok.py").read_text(), task=relu(), backend="nvrtc", timing=TIMED))
    record("pool alive at the end", v)
    assert v.status == "correct", v.error
    assert v.env["gpu"] and v.timing["speedup_eager"] is not None
