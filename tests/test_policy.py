"""Static rules on the AST: cheats are named, honest code passes."""

import pytest

from kernelmosaic.verify.policy import check_candidate

HONEST = '''
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

# a comment that says pass, exec, open(...), torch.compile and try: except: is not code
lib = cc.compile("void f(float* y, long n) { for (long i = 0; i < n; ++i) y[i] = 0; }")

class ModelNew(nn.Module):
    """Docstrings may say exit() too."""
    def __init__(self, dim=4):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim))

    def forward(self, x):
        y = torch.empty_like(x).contiguous().view(-1)
        lib.f(y, y.numel())
        return y.view_as(x)
'''


def rules(src, backend="cpp", policy="strict"):
    r = check_candidate(src, backend, policy)
    return {x["rule"] for x in r.rejections}


def test_honest_code_passes():
    r = check_candidate(HONEST, "cpp", "strict")
    assert r.ok and not r.rejections, r.rejections


BODY = '''
import torch
from kernelmosaic.verify import cc
lib = cc.compile("void f(void) {}")
class ModelNew(torch.nn.Module):
    def forward(self, x):
        lib.f()
        {stmt}
        return x
'''

CHEATS = [
    ("import threading", "threads_or_processes"),
    ("import subprocess as sp", "threads_or_processes"),
    ("from concurrent.futures import ThreadPoolExecutor", "threads_or_processes"),
    ("import os; os._exit(0)", "exit_or_signal"),
    ("import sys; sys.exit(1)", "exit_or_signal"),
    ("exit()", "exit_or_signal"),
    ("import signal", "exit_or_signal"),
    ("y = torch.compile(lambda t: t)(x)", "torch_compile"),
    ("import torch._dynamo", "torch_compile"),
    ("f = torch.jit.script", "torch_compile"),
    ("import torch as T; T.cuda.Event.elapsed_time = lambda a, b: 0.001", "patching"),
    ("import time; time.perf_counter = lambda: 0.0", "patching"),
    ("setattr(torch, 'allclose', lambda *a, **k: True)", "patching"),
    ("import inspect", "introspection"),
    ("import gc", "introspection"),
    ("import sys; f = sys._getframe(1)", "introspection"),
    ("z = x.grad_fn.__class__.__mro__", "introspection"),
    ("import ctypes", "introspection"),
    ("import kernelmosaic.verify.launches as L", "introspection"),
    ("data = open('/tmp/answer.pt', 'rb').read()", "io"),
    ("y = torch.load('/tmp/answer.pt')", "io"),
    ("import socket", "io"),
    ("global CACHE", "hidden_state"),
]


@pytest.mark.parametrize("stmt,rule", CHEATS, ids=[c[1] + ":" + c[0][:30] for c in CHEATS])
def test_cheat_is_named(stmt, rule):
    assert rule in rules(BODY.replace("{stmt}", stmt))


def test_broad_except_and_try_in_forward():
    src = '''
import torch
from kernelmosaic.verify import cc
lib = cc.compile("void f(void) {}")
try:
    import missing_thing
except Exception:
    missing_thing = None
class ModelNew(torch.nn.Module):
    def forward(self, x):
        try:
            lib.f()
        except RuntimeError:
            return torch.relu(x)
        return x
'''
    got = rules(src, policy="kernelbench")
    assert {"broad_except", "try_in_forward"} <= got


def test_strict_flags_torch_compute_but_kernelbench_allows_it():
    src = BODY.replace("{stmt}", "x = torch.nn.functional.gelu(x)")
    assert "torch_compute" in rules(src, policy="strict")
    assert "torch_compute" not in rules(src, policy="kernelbench")


def test_alias_resolution():
    src = BODY.replace("{stmt}", "import torch.nn.functional as Fn; x = Fn.relu(x)")
    assert "torch_compute" in rules(src)


def test_backend_mechanism_required():
    src = "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x.clone()\n"
    for backend in ("cuda", "nvrtc", "triton", "cpp"):
        assert "no_custom_kernel" in rules(src, backend=backend)


def test_env_settings_before_build_are_allowed():
    src = HONEST.replace("lib = cc", "import os\nos.environ['TORCH_CUDA_ARCH_LIST'] = '9.0'\nlib = cc")
    assert not rules(src)


def test_kernel_names_are_found():
    src = '''
import torch
from kernelmosaic.verify import nvrtc
mod = nvrtc.compile(r"""
extern "C" __global__ void __launch_bounds__(256) fused_gelu(const float* x, float* y, long n) {}
template <int B> __global__ void other(float* y) {}
""")
class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        mod.fused_gelu(grid=(1,), block=(256,), args=(x, y, x.numel()))
        return y
'''
    r = check_candidate(src, "nvrtc", "strict")
    assert r.ok, r.rejections
    assert "fused_gelu" in r.kernel_names and "other" in r.kernel_names


def test_invalid_candidates():
    assert check_candidate("class ModelNew(:\n", "cpp", "strict").invalid.startswith("syntax error")
    assert "no `class ModelNew" in check_candidate("x = 1\n", "cpp", "strict").invalid
