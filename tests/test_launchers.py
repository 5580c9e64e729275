"""The run-time launchers' argument checks and the raw-C fast path."""

import pytest
import torch

from kernelmosaic.verify import cc
from kernelmosaic.verify.csig import coerce_args, find_params, kernel_names_in_cuda, parse_signature
from kernelmosaic.verify.logs import trim_log


def test_find_params_skips_calls_and_comments():
    src = """
    // void scale(int nope)
    __global__ void scale(const float* __restrict__ x, float *y, float a, long n) {}
    void host() { scale<<<1, 1>>>(x, y, 2.f, n); }
    """
    ps = find_params(src, "scale")
    assert [p.ctype for p in ps] == ["const float*", "float*", "float", "long"]
    assert [p.name for p in ps] == ["x", "y", "a", "n"]


def test_kernel_names():
    src = '__global__ void a(int* x) {}\nextern "C" __global__ void __launch_bounds__(128) b(float* y) {}'
    assert kernel_names_in_cuda(src) == ["a", "b"]


def test_coerce_args_checks_dtype_range_and_device():
    ps = parse_signature("const float*, int*, int, double")
    x = torch.zeros(4)
    i = torch.zeros(4, dtype=torch.int32)
    out = coerce_args("k", ps, (x, i, 3, 1.5), "cpu")
    assert [t for t, _ in out] == ["p", "p", "i32", "f64"]
    with pytest.raises(TypeError, match="got a int32 tensor, expected float32"):
        coerce_args("k", ps, (i, i, 3, 1.5), "cpu")
    with pytest.raises(OverflowError, match="use a 64-bit type"):
        coerce_args("k", ps, (x, i, 2**31, 1.5), "cpu")
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        coerce_args("k", ps, (x, i, 3), "cpu")
    with pytest.raises(TypeError, match="expected a cuda tensor"):
        coerce_args("k", ps, (x, i, 3, 1.0), "cuda")


def test_cc_compile_call_and_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KMOSAIC_BUILD_DIR", str(tmp_path))
    src = "void axpy(float a, const float* x, float* y, long n) { for (long i = 0; i < n; ++i) y[i] += a * x[i]; }"
    lib = cc.compile(src)
    x, y = torch.arange(5, dtype=torch.float32), torch.ones(5)
    lib.axpy(2.0, x, y, 5)
    assert torch.equal(y, 1 + 2 * torch.arange(5, dtype=torch.float32))
    assert len(list((tmp_path / "cc").glob("*.so"))) == 1
    cc.compile(src)  # same content: no second build
    assert len(list((tmp_path / "cc").glob("*.so"))) == 1


def test_cc_compile_error_has_the_log(tmp_path, monkeypatch):
    monkeypatch.setenv("KMOSAIC_BUILD_DIR", str(tmp_path))
    with pytest.raises(cc.CcCompileError) as e:
        cc.compile("void f(float* y) { y[0] = undefined_name; }")
    assert "undefined_name" in e.value.log and "kernel.c:1" in e.value.log


def test_trim_log_keeps_first_distinct_errors():
    log = "\n".join([f"kernel.cu({i}): error: identifier \"foo\" is undefined" for i in range(10, 200)] + ["kernel.cu(300): error: expected a \";\""] + ["noise"] * 500)
    t = trim_log(log)
    assert 'identifier "foo" is undefined' in t and 'expected a ";"' in t
    assert t.count("is undefined") == 1 and len(t) < 2000
