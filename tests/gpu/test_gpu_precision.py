"""The precision check on the GPU (kernelmosaic/verify/precision.py): fp32 matmuls computed with
fp16 operands (WMMA tensor cores) or TF32 (cuBLAS) pass the tolerance check and must come out
`incorrect` with error kind `precision`; the honest fp32 control must pass the check.

    KERNELBENCH_DIR=... python -m pytest -m gpu tests/gpu/test_gpu_precision.py -v

The suite's manifest entries (tests/gpu/adversarial/downcast_wmma_matmul.py and
control_matmul_nvrtc.py) run in test_gpu_adversarial.py too; here the same cheat also runs with
the check off (it must then pass: the check is what catches it) and on KernelBench L1/1, the
4096^3 GEMM where an fp16 WMMA kernel first passed the tolerance check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import KERNELBENCH, gpu_verifier
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, VerifyRequest

pytestmark = pytest.mark.gpu

HERE = Path(__file__).resolve().parent
TASKS = HERE.parent / "adversarial" / "tasks"
OFF = TimingConfig(enabled=False)

# TF32 through cuBLAS: torch.matmul after set_float32_matmul_precision("high") in the candidate's
# own process (the judge's reference keeps full fp32), around a kernel that runs (kernelbench)
TF32_CHEAT = '''
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void copy(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        torch.set_float32_matmul_precision("high")

    def forward(self, A, B):
        C = torch.matmul(A, B)
        out = torch.empty_like(C)
        mod.copy(grid=((C.numel() + 255) // 256,), block=(256,), args=(C, out, C.numel()))
        return out
'''


@pytest.fixture(scope="module")
def gpu():
    v = gpu_verifier({"check": 120, "time": 300})
    yield v
    v.close()


def test_wmma_and_tf32_matmuls_are_caught(gpu):
    task = load_task(TASKS / "matmul_rand.py")
    wmma = (HERE / "adversarial" / "downcast_wmma_matmul.py").read_text()
    honest = (HERE / "adversarial" / "control_matmul_nvrtc.py").read_text()
    reqs = [VerifyRequest(candidate=wmma, task=task, backend="nvrtc", timing=OFF),
            VerifyRequest(candidate=wmma, task=task, backend="nvrtc", timing=OFF, precision=False),
            VerifyRequest(candidate=TF32_CHEAT, task=task, backend="nvrtc", timing=OFF, policy="kernelbench", precision=True),
            VerifyRequest(candidate=TF32_CHEAT, task=task, backend="nvrtc", timing=OFF, policy="kernelbench"),
            VerifyRequest(candidate=honest, task=task, backend="nvrtc", timing=OFF)]
    wm, wm_off, tf, tf_off, ok = gpu.verify_many(reqs)
    for name, v in (("wmma", wm), ("tf32", tf)):
        assert v.status == "incorrect" and v.error.kind == "precision", (name, v.status, v.error, v.precision)
        assert v.precision.status == "failed" and v.precision.cand_err > v.precision.ref_err, (name, v.precision)
    # the tolerance check alone lets both through: without the precision check they are correct
    for name, v in (("wmma", wm_off), ("tf32", tf_off)):
        assert v.status == "correct" and v.precision is None, (name, v.status, v.error, v.mismatch)
    assert ok.status == "correct" and ok.precision.status == "passed", (ok.status, ok.error, ok.precision)


def test_wmma_on_kernelbench_l1_1(gpu):
    """The case that opened the issue: fp16 WMMA on KernelBench L1/1 (4096^3, torch.rand)."""
    if not (KERNELBENCH / "level1").is_dir():
        pytest.skip("KernelBench problems not available (set KERNELBENCH_DIR)")
    task = load_task(KERNELBENCH / "level1" / "1_Square_matrix_multiplication_.py")
    wmma = (HERE / "adversarial" / "downcast_wmma_matmul.py").read_text()
    on, off = gpu.verify_many([VerifyRequest(candidate=wmma, task=task, backend="nvrtc", timing=OFF, trials=2),
                               VerifyRequest(candidate=wmma, task=task, backend="nvrtc", timing=OFF, trials=2, precision=False)])
    assert on.status == "incorrect" and on.error.kind == "precision", (on.status, on.error, on.precision)
    assert off.status == "correct", (off.status, off.error, off.mismatch)
