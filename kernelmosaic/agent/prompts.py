"""Prompts: system, task (implement), repair and optimize."""

from __future__ import annotations

from .._json import number
from ..task import Task
from ..verify.spec import PRECISION_MULTIPLE, TOLERANCES_FP32, TOLERANCES_HALF
from ..verify.verdict import Target, Timing

SYSTEM = """You are an expert GPU kernel engineer. You replace PyTorch reference models with custom \
kernels that are exactly as correct and as fast as possible.

Rules for every reply:
- Reply with ONE complete Python file in a single ```python code block. It defines \
`class ModelNew(nn.Module)` with the same constructor arguments and forward signature as the \
reference `Model`, and everything it needs (imports, kernel sources).
- Put the computation in your own kernels. Do not call the reference model.
- Keep parameters under the same attribute names and shapes as the reference (the harness copies \
the reference's values into them).
- Do not use torch.compile, threads, subprocesses, file I/O, try/except fallbacks or introspection; \
the verifier rejects them.
- Think briefly about indexing, bounds and numerics before writing; correctness first, then speed."""

_FORMATS = {
    "nvrtc": '''Backend `nvrtc`: write CUDA C++ device code only; it is compiled at run time by NVRTC. No host \
headers are available (no <cmath>, <cstdio>; use fmaxf, expf, __expf, INFINITY is not defined: use \
__int_as_float(0x7f800000)). Parameter types are read from the __global__ declaration and checked: \
pointers take CUDA tensors of the matching dtype (float* takes float32), `int` refuses values above \
2^31-1 (use `long` for sizes). Example:
```python
import torch
import torch.nn as nn
from kernelmosaic.verify import nvrtc

mod = nvrtc.compile(r"""
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
""")

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mod.relu(grid=((n + 255) // 256,), block=(256,), args=(x, y, n))
        return y
```
`mod.<kernel>(grid, block, args, shared_mem=0)` launches on the current stream; \
`mod.<kernel>.set_max_dynamic_shared_memory(nbytes)` allows more than 48 KiB.''',
    "cuda": '''Backend `cuda`: build the kernel with torch.utils.cpp_extension.load_inline (cuda_sources + a \
cpp_sources declaration + functions=[...]). Launch on at::cuda::getCurrentCUDAStream() (include \
<ATen/cuda/CUDAContext.h>). Example:
```python
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.f);
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""
ext = load_inline(name="relu_ext", cpp_sources="torch::Tensor relu(torch::Tensor x);", cuda_sources=cuda_src, functions=["relu"])

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu(x.contiguous())
```''',
    "triton": '''Backend `triton`: write @triton.jit kernels and launch them from forward. Example:
```python
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
```''',
    "cpp": '''Backend `cpp` (CPU): write plain C11 compiled by gcc and called through \
kernelmosaic.verify.cc (parameter types are read from the C declaration and checked: float* takes a \
float32 CPU tensor, use `long` for sizes). Example:
```python
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void relu(const float* x, float* y, long n) {
    for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
""", flags=("-O3", "-march=native"), openmp=False)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        lib.relu(x, y, x.numel())
        return y
```''',
}

_POLICY = {
    "strict": "Policy `strict`: inside forward, torch may only allocate (torch.empty/empty_like/zeros), view, "
              "reshape or make tensors contiguous. Every arithmetic operation must run in your kernels; the "
              "verifier records the torch ops forward dispatches and rejects any computation. No library may "
              "compute for you either: no cuBLAS, cuDNN, MKL or other BLAS from your extension, no dlopen/dlsym, "
              "no numpy or CuPy math. On the GPU, launch on torch's current stream (or make it wait for yours).",
    "kernelbench": "Policy `kernelbench`: your own kernel must run in forward; other torch ops are allowed.",
}


def _tol(t: dict) -> str:
    return f"atol {t['atol']:g} and rtol {t['rtol']:g} elementwise, relative norm error {t['rel_norm']:g}"


def rules_prompt(policy: str, shape_variants: bool = True, target: Target | None = None, timed: bool = True) -> str:
    """What the verifier checks, stated for the model: the tolerances, the precision bound under
    strict, the shape variants, and the machine it is timed on."""
    lines = ["How the verifier judges your file:",
             "- It builds Model and ModelNew from get_init_inputs(), runs both on fresh random inputs from "
             "get_inputs() over several trials, and compares the outputs: float32 within "
             f"{_tol(TOLERANCES_FP32)}; float16 and bfloat16 within {_tol(TOLERANCES_HALF)}."]
    if policy == "strict":
        lines.append("- Precision: your output's error against a float64 run of the reference must stay within "
                     f"{PRECISION_MULTIPLE:g}x the reference's own error in its dtype (or a small floor near zero). "
                     "Compute in the task's precision: no float16, bfloat16 or plain TF32 inside a float32 task "
                     "(a split that keeps float32 accuracy, such as 3xTF32, is judged by its error like any other).")
    if shape_variants:
        lines.append("- It also runs ModelNew on other sizes, made by changing the task's size constants (larger ones, "
                     "and odd or prime ones such as 61 or 2039). Handle any size: no hard-coded sizes, no assumption "
                     "that a size divides by a block or warp size; guard every tail.")
    if timed:
        lines.append("- It then times your forward against PyTorch eager and torch.compile, on fresh inputs each call, "
                     "checking the outputs of the timed calls too; a time implausibly below the machine's speed of "
                     "light for memory (the fewest bytes moved over its bandwidth) is rejected.")
    if target is not None:
        facts = [target.name]
        if target.sms:
            facts.append(f"{target.sms} SMs")
        if target.bandwidth_gbs:
            facts.append(f"{target.bandwidth_gbs:,.0f} GB/s measured copy bandwidth")
        if target.peak_tflops:
            facts.append(f"{target.peak_tflops:,.0f} TFLOP/s measured bf16 matrix peak")
        lines.append("- Target GPU: " + ", ".join(facts) + ".")
    return "\n".join(lines)


def task_prompt(task: Task, backend: str, policy: str, *, shape_variants: bool = True, target: Target | None = None,
                timed: bool = True) -> str:
    return (
        f"Write a faster replacement for this PyTorch reference ({task.key}).\n\n"
        f"```python\n{task.source.rstrip()}\n```\n\n"
        f"{_FORMATS[backend]}\n\n{_POLICY[policy]}\n\n"
        f"{rules_prompt(policy, shape_variants, target, timed)}\n\nReply with the complete file."
    )


def repair_prompt(feedback: str, guidance: str) -> str:
    parts = ["Your last candidate did not pass.", feedback]
    if guidance:
        parts.append(guidance)
    parts.append("Fix the problem and reply with the complete corrected file in one ```python block.")
    return "\n\n".join(parts)


def optimize_prompt(feedback: str, guidance: str, best_code: str | None, best_timing: "Timing | None",
                    last_failed: bool) -> str:
    parts = []
    if last_failed:
        parts.append("That optimization attempt failed, so the best kernel so far is unchanged.")
        parts.append(feedback)
    else:
        parts.append(feedback)
    t = best_timing
    if t is not None and number(t.candidate_ms) is not None:
        line = f"Best correct kernel so far: {t.candidate_ms:.4f} ms"
        if number(t.eager_ms) is not None:
            line += f" vs eager {t.eager_ms:.4f} ms ({t.speedup_eager or 0:.2f}x)"
        if number(t.compile_ms) is not None:
            line += f", torch.compile {t.compile_ms:.4f} ms ({t.speedup_compile or 0:.2f}x)"
        parts.append(line + ".")
    if best_code:
        parts.append(f"The best kernel so far:\n```python\n{best_code.rstrip()}\n```")
    if guidance:
        parts.append(guidance)
    parts.append("Make it faster while keeping it exactly as correct. Reply with the complete new file in one "
                 "```python block.")
    return "\n\n".join(p for p in parts if p)
