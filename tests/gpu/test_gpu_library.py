"""Library compute on the GPU (issue 15, item 5): vendor kernels found by exact name.

    python -m pytest -m gpu tests/gpu/test_gpu_library.py -v

1. In this process: the kernels torch's matmul (cuBLAS/cuBLASLt) and convolution (cuDNN) launch
   are, by their exact profiler names, in the table read from the library files this process
   maps; an honest NVRTC kernel's name is not.
2. Through the verifier, under `strict`: a candidate whose matrix product or convolution is a
   torch op the static screen cannot see (`A @ B`, a convolution function kept on `self`) is
   refused with `library_compute` from the kernel names (besides `torch_compute` from the aten
   ops); under `kernelbench` it is `correct`.

The cheats that reach cuBLAS and cuDNN around torch (CuPy, the candidate's own extension) and
the side-stream cases are in tests/gpu/adversarial/ (manifest), run by test_gpu_adversarial.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adversarial_checks import warm_library_kernels
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest, libs
from kernelmosaic.verify.pool import detect_gpus

pytestmark = pytest.mark.gpu

TASKS = Path(__file__).resolve().parent.parent / "adversarial" / "tasks"


def _profiled_kernels(fn) -> list[str]:
    import torch
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    return sorted({e.name for e in p.events() if str(getattr(e, "device_type", "")).endswith("CUDA")})


def _table_check(kernels: list[str], tmp_path) -> tuple[str | None, list[str]]:
    notes: list[str] = []
    mapped = [p for p in libs.judge_libraries() if libs.trusted_library(p)]
    return libs.kernel_rejection(kernels, mapped, tmp_path, notes), notes


@pytest.fixture(scope="module")
def cuda():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    import torch

    torch.cuda.init()
    return torch


def test_cublas_kernels_are_found_by_exact_name(cuda, tmp_path):
    torch = cuda
    a = torch.randn(512, 512, device="cuda")
    kernels = _profiled_kernels(lambda: a @ a)
    detail, notes = _table_check(kernels, tmp_path)
    assert detail is not None and "libcublas" in detail, (kernels, notes)


def test_cudnn_kernels_are_found_by_exact_name(cuda, tmp_path):
    torch = cuda
    x = torch.randn(8, 16, 64, 64, device="cuda")
    w = torch.randn(32, 16, 3, 3, device="cuda")
    kernels = _profiled_kernels(lambda: torch.nn.functional.conv2d(x, w))
    detail, notes = _table_check(kernels, tmp_path)
    assert detail is not None and "libcudnn" in detail, (kernels, notes)


def test_an_honest_kernel_is_not_a_vendor_kernel(cuda, tmp_path):
    torch = cuda
    from kernelmosaic.verify import nvrtc

    mod = nvrtc.compile(r"""
    __global__ void gemm_kernel(const float* x, float* y, long n) {
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        if (i < n) y[i] = x[i] * 2.f;
    }
    """)
    x = torch.randn(4096, device="cuda")
    y = torch.empty_like(x)
    kernels = _profiled_kernels(lambda: mod.gemm_kernel(grid=(16,), block=(256,), args=(x, y, x.numel())))
    assert any("gemm_kernel" in k for k in kernels), kernels
    detail, notes = _table_check(kernels, tmp_path)
    assert detail is None, (detail, notes)


MATMUL_OPERATOR = r'''
import torch, torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void copy(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
""")


class ModelNew(nn.Module):
    def forward(self, A, B):
        P = A @ B  # an operator: the static screen sees no torch call
        C = torch.empty_like(P)
        mod.copy(grid=((P.numel() + 255) // 256,), block=(256,), args=(P, C, P.numel()))
        return C
'''

CONV_ON_SELF = r'''
import torch, torch.nn as nn
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
        self.weight = nn.Parameter(torch.zeros(16, 4, 3, 3))
        self.op = nn.Conv2d(4, 16, 3, bias=False)  # called through self: no torch call in forward's source

    def forward(self, x):
        self.op.weight = self.weight
        P = self.op(x)
        C = torch.empty_like(P)
        mod.copy(grid=((P.numel() + 255) // 256,), block=(256,), args=(P, C, P.numel()))
        return C
'''


@pytest.fixture(scope="module")
def gpu():
    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    # the first strict verdict on a machine lists the vendor libraries' kernels (seconds per library)
    v = Verifier(device="cuda", timeouts={"check": 180, "time": 300})
    warm_library_kernels(v)
    yield v
    v.close()


@pytest.mark.parametrize("source,task", [(MATMUL_OPERATOR, "matmul.py"), (CONV_ON_SELF, "conv2d.py")],
                         ids=["matmul_operator", "conv_on_self"])
def test_vendor_kernels_refuse_strict_and_pass_kernelbench(gpu, source, task):
    t = load_task(TASKS / task)
    reqs = [VerifyRequest(candidate=source, task=t, backend="nvrtc", policy=p, timing=TimingConfig(enabled=False))
            for p in ("strict", "kernelbench")]
    strict, kb = gpu.verify_many(reqs)
    assert strict.status == "rejected" and "library_compute" in strict.rules, (strict.status, strict.rules, strict.error, strict.notes)
    assert kb.status == "correct", (kb.status, kb.rules, kb.error)
