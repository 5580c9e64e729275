"""The GPU half of the adversarial suite, plus a false-rejection check on the gold kernels.

    KERNELBENCH_DIR=... KMOSAIC_RESULTS=results/<dir>/gpu_adversarial.jsonl \
        python -m pytest -m gpu tests/gpu/test_gpu_adversarial.py -v

1. Every candidate in tests/gpu/adversarial/ (backend `nvrtc`; tasks from
   tests/adversarial/tasks/) goes through ONE shared `Verifier(device="cuda")`, one
   verify_many batch per policy (`strict`, `kernelbench`), and each verdict is checked
   against the manifest exactly as tests/test_adversarial.py does on the CPU. Expectations
   are what the verifier *should* answer; a failing entry is a hole (or a broken candidate:
   look at the verdict's error first), never a reason to relax the manifest.
2. Every gold kernel of tests/gpu/kernels/manifest.json (`cuda` and `nvrtc` formats, strict
   policy, timed) is verified three times in three separate verify_many batches; all must
   come out `correct` every time (no false rejections, no flaky ones).

Each verdict is appended as a JSON line to $KMOSAIC_RESULTS when it is set.
KMOSAIC_ADV_ONLY=name,name restricts part 1 to those entries.
"""

from __future__ import annotations

import ast
import json
import os
import time
from pathlib import Path

import pytest

from conftest import KERNELBENCH, record_verdict as record
from adversarial_checks import check, describe, expectation, meets, runnable, warm_library_kernels
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verdict, Verifier, VerifyRequest
from kernelmosaic.verify.pool import detect_gpus

pytestmark = pytest.mark.gpu

HERE = Path(__file__).resolve().parent
GPU_ADV = HERE / "adversarial"
CPU_ADV = HERE.parent / "adversarial"  # the tasks live there (manifest paths are relative to it)
KERNELS = HERE / "kernels"
MANIFEST = json.loads((GPU_ADV / "manifest.json").read_text())
IDS = [m["file"].removesuffix(".py") for m in MANIFEST]

GOLD_TIMING = TimingConfig(enabled=True, n=10)
GOLD_ROUNDS = int(os.environ.get("KMOSAIC_GOLD_ROUNDS", "3"))  # fewer only to save device time



@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    v = Verifier(device="cuda", timeouts={"check": 30, "time": 300})
    warm_library_kernels(v)
    yield v
    v.close()



# -- 1. adversarial candidates ------------------------------------------------------------------


@pytest.fixture(scope="module")
def verdicts(gpu):
    """Verdicts per policy, computed once per policy in one verify_many batch."""
    done: dict[str, dict[str, object]] = {}

    def get(policy: str) -> dict[str, object]:
        if policy not in done:
            run, out = runnable(MANIFEST, policy, GPU_ADV, CPU_ADV)
            t0 = time.monotonic()
            results = gpu.verify_many([r for _, r in run])
            wall = time.monotonic() - t0
            for (entry, _), v in zip(run, results):
                out[entry["file"]] = v
                exp = expectation(entry, policy)
                record(f"adversarial {entry['file']} [{policy}]", v, expected=exp,
                       meets=meets(exp, v))
            path = os.environ.get("KMOSAIC_RESULTS")
            if path:
                with open(path, "a") as f:
                    f.write(json.dumps({"case": f"adversarial batch [{policy}]", "n": len(run), "wall_s": wall}) + "\n")
            done[policy] = out
        return done[policy]

    return get


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_gpu_adversarial_strict(verdicts, entry):
    check(entry, verdicts("strict").get(entry["file"]), "strict")


@pytest.mark.parametrize("entry", MANIFEST, ids=IDS)
def test_gpu_adversarial_kernelbench(verdicts, entry):
    check(entry, verdicts("kernelbench").get(entry["file"]), "kernelbench")


def test_gpu_manifest_is_complete():
    """Every candidate file is listed once, has a docstring, targets nvrtc (or `cuda`, for a
    cheat that needs its own extension, such as cuBLAS called from it), and its task exists.
    (Needs no GPU, but is marked gpu with the rest of this module.)"""
    files = {p.name for p in GPU_ADV.glob("*.py")}
    listed = [m["file"] for m in MANIFEST]
    assert len(listed) == len(set(listed))
    assert files == set(listed), files ^ set(listed)
    cheats = [f for f in listed if not f.startswith("control_")]
    assert len(cheats) >= 20
    assert len([f for f in listed if f.startswith("control_")]) >= 2
    for m in MANIFEST:
        assert ast.get_docstring(ast.parse((GPU_ADV / m["file"]).read_text())), f"{m['file']} has no docstring"
        assert m["backend"] in ("nvrtc", "cuda")
        for key in ("expect_status", "expect_rule", "expect_error_kind", "note"):
            assert key in m["kernelbench_policy"], (m["file"], key)
        load_task(CPU_ADV / m["task"])


# -- 2. gold kernels: no false rejections ---------------------------------------------------------


def _gold_cases() -> list[tuple[str, VerifyRequest]]:
    m = json.loads((KERNELS / "manifest.json").read_text())
    cases = []
    for g in m["gold"]:
        task = load_task(KERNELBENCH / g["file"])
        for fmt in ("cuda", "nvrtc"):
            src = (KERNELS / g["dir"] / f"{fmt}.py").read_text()
            cases.append((f"gold {g['task']} {fmt}", VerifyRequest(candidate=src, task=task, backend=fmt, policy="strict", timing=GOLD_TIMING)))
    return cases


def test_gold_kernels_never_falsely_rejected(gpu):
    """Every gold kernel, both formats, strict policy, timed: `correct` in each of three
    separate verify_many batches (the second and third reuse the build cache)."""
    if not (KERNELBENCH / "level1").is_dir():
        pytest.skip("KernelBench problems not available (set KERNELBENCH_DIR)")
    cases = _gold_cases()
    assert len(cases) >= 16
    bad = []
    for rnd in range(1, GOLD_ROUNDS + 1):
        t0 = time.monotonic()
        results = gpu.verify_many([r for _, r in cases])
        wall = time.monotonic() - t0
        for (name, _), v in zip(cases, results):
            record(f"{name} (round {rnd})", v, round=rnd)
            if not (isinstance(v, Verdict) and v.status == "correct" and v.correct):
                bad.append((rnd, name, describe(v)))
        path = os.environ.get("KMOSAIC_RESULTS")
        if path:
            with open(path, "a") as f:
                f.write(json.dumps({"case": f"gold batch round {rnd}", "n": len(cases), "wall_s": wall}) + "\n")
    assert not bad, "\n".join(f"round {r}: {n}: {d}" for r, n, d in bad)
