"""Library compute under `strict` (issue 15, item 5), checked piece by piece on the CPU.

The cheats themselves go through the real verifier in tests/test_adversarial.py
(`blas_dlsym_c`, `numpy_compute`, and `c_into_python` now refused at its build under strict);
tests/gpu/ has the GPU ones. Here: the ELF reader against `nm`, which symbols refuse a build,
the loaded-library check on a real process, the exact-name kernel table on cuobjdump's real
output format, and the static screen's numpy/CuPy rules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernelmosaic.verify import libs
from kernelmosaic.verify.policy import check_candidate


def _so(tmp_path: Path, name: str, src: str) -> Path:
    c = tmp_path / f"{name}.c"
    c.write_text(src)
    out = tmp_path / f"lib{name}.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(out), str(c)], check=True, capture_output=True)
    return out


HONEST = "void relu(const float* x, float* y, long n) { for (long i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0; }\n"
CASES = {
    "fortran_blas": ("extern void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,"
                     " const float*, const int*, const float*, const int*, const float*, float*, const int*);\n"
                     "void mm(float* a, float* b, float* c, int n) { float o = 1, z = 0;"
                     " sgemm_(\"N\", \"N\", &n, &n, &n, &o, a, &n, b, &n, &z, c, &n); }\n", "sgemm_"),
    "cblas": ("extern void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float,"
              " float*, int);\nvoid mm(float* a, float* b, float* c, int n) {"
              " cblas_sgemm(101, 111, 111, n, n, n, 1, a, n, b, n, 0, c, n); }\n", "cblas_sgemm"),
    "lapack_ilp64": ("extern void scipy_sgesv_64_(long*, long*, float*, long*, long*, float*, long*, long*);\n"
                     "void solve(float* a, float* b, long n) { long one = 1, info = 0, piv[64];"
                     " scipy_sgesv_64_(&n, &one, a, &n, piv, b, &n, &info); }\n", "scipy_sgesv_64_"),
    "cublas": ("typedef void* H; extern int cublasCreate_v2(H*); extern int cublasSgemm_v2(H, int, int, int, int, int,"
               " const float*, const float*, int, const float*, int, const float*, float*, int);\n"
               "void mm(float* a, float* b, float* c, int n) { H h; float o = 1, z = 0; cublasCreate_v2(&h);"
               " cublasSgemm_v2(h, 0, 0, n, n, n, &o, a, n, b, n, &z, c, n); }\n", "cublasSgemm_v2"),
    "cudnn": ("extern int cudnnCreate(void**);\nvoid f(void) { void* h; cudnnCreate(&h); }\n", "cudnnCreate"),
    "mkl": ("extern void mkl_set_num_threads(int);\nvoid f(void) { mkl_set_num_threads(1); }\n", "mkl_set_num_threads"),
    "dlsym": ("#define _GNU_SOURCE\n#include <dlfcn.h>\nvoid* f(void) { return dlsym(RTLD_DEFAULT, \"sgemm_\"); }\n", "dlsym"),
    "dl_iterate_phdr": ("#define _GNU_SOURCE\n#include <link.h>\nstatic int cb(struct dl_phdr_info* i, size_t s, void* d)"
                        " { (void)i; (void)s; (void)d; return 0; }\nint f(void) { return dl_iterate_phdr(cb, 0); }\n",
                        "dl_iterate_phdr"),
}


def test_elf_reader_matches_nm(tmp_path):
    """The undefined dynamic symbols read from the ELF file are exactly what `nm -D -u` lists."""
    if shutil.which("nm") is None:
        pytest.skip("no nm")
    for name, (src, _) in CASES.items():
        so = _so(tmp_path, name, src)
        mine = {s.split("@")[0] for s in libs.undefined_symbols(so)}
        out = subprocess.run(["nm", "-D", "--undefined-only", str(so)], capture_output=True, text=True, check=True).stdout
        theirs = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
        assert mine == theirs, (name, mine ^ theirs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_vendor_or_loader_symbols_refuse_a_build(tmp_path, name):
    src, symbol = CASES[name]
    detail = libs.build_rejection(_so(tmp_path, name, src))
    assert detail is not None and symbol in detail, detail


def test_an_honest_build_is_not_refused(tmp_path):
    # libm and OpenMP are fine: they are not compute libraries that stand in for a kernel
    src = HONEST + "#include <math.h>\nfloat g(float x) { return expf(x) + sqrtf(x); }\n"
    assert libs.build_rejection(_so(tmp_path, "honest", src)) is None


def test_torch_internal_blas_wrappers_are_library_compute():
    # at::native::cpublas::gemm calls MKL/OpenBLAS without the dispatcher (no aten op to watch)
    mangled = "_ZN2at6native7cpublas4gemmEi"  # at::native::cpublas::gemm(int)
    assert libs.vendor_symbols([mangled, "expf", "_ZN2at6TensorD2Ev"]) == [libs._demangle(mangled)]


def test_a_library_loaded_after_the_candidates_code_is_seen_in_its_maps(tmp_path):
    """A real process maps a BLAS library at run time; the judge's reading of /proc/<pid>/maps
    before and after sees exactly that library appear."""
    import numpy

    blas = sorted(Path(numpy.__file__).parent.parent.joinpath("numpy.libs").glob("libscipy_openblas*.so"))
    if not blas:
        pytest.skip("this numpy carries no OpenBLAS of its own")
    go = tmp_path / "go"
    script = (f"import ctypes, os, sys, time\nsys.stdout.write('ready\\n'); sys.stdout.flush()\n"
              f"while not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
              f"ctypes.CDLL({str(blas[0])!r})\nsys.stdout.write('loaded\\n'); sys.stdout.flush()\ntime.sleep(30)\n")
    p = subprocess.Popen([sys.executable, "-S", "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        before = libs.mapped_files(p.pid)
        assert before and not libs.vendor_libraries(before)
        go.write_text("")
        assert p.stdout.readline().strip() == "loaded"
        after = libs.mapped_files(p.pid)
        detail = libs.loaded_rejection(before, after)
        assert detail is not None and blas[0].name in detail, detail
        assert libs.loaded_rejection(after, after) is None
    finally:
        p.kill()
        p.wait()


# Real lines of `cuobjdump -symbols libcublas.so.13` (nvidia-cublas 13.10.0.20), cut to three
# functions, and what the table must hold for them.
CUOBJDUMP_OUT = """
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit
compressed

symbols:
STT_FUNC         STB_LOCAL  STO_ENTRY      _Z11scal_kernelIffLi1ELb0ELi6ELi5ELi5ELi3EEv21cublasTransposeParamsIT0_EPKT_PS3_PKS1_
STT_FUNC         STB_GLOBAL STO_ENTRY      ampere_sgemm_128x64_nn
STT_OBJECT       STB_LOCAL  STV_DEFAULT    _ZN4cuda3std3__45__cpo4swapE
"""


@pytest.fixture()
def fake_cuobjdump(tmp_path, monkeypatch):
    tool = tmp_path / "bin" / "cuobjdump"
    tool.parent.mkdir()
    (tmp_path / "out.txt").write_text(CUOBJDUMP_OUT)
    tool.write_text(f"#!/bin/sh\necho called >> {tmp_path / 'calls'}\ncat {tmp_path / 'out.txt'}\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tool.parent}{os.pathsep}{os.environ['PATH']}")
    lib = tmp_path / "libcublas.so.13"
    lib.write_bytes(b"\x7fELF not really")
    libs._TABLES.clear()
    yield lib, tmp_path / "calls"
    libs._TABLES.clear()


def test_vendor_kernels_match_by_exact_name_only(fake_cuobjdump, tmp_path):
    lib, _ = fake_cuobjdump
    demangled = libs._demangle("_Z11scal_kernelIffLi1ELb0ELi6ELi5ELi5ELi3EEv21cublasTransposeParamsIT0_EPKT_PS3_PKS1_")
    assert demangled.startswith("void scal_kernel<float, float, 1, false")  # as the profiler names it
    notes: list[str] = []
    hit = libs.kernel_rejection([demangled], [str(lib)], tmp_path / "cache", notes)
    assert hit is not None and "libcublas.so.13" in hit and not notes
    assert libs.kernel_rejection(["ampere_sgemm_128x64_nn"], [str(lib)], tmp_path / "cache", notes)
    # never substrings: a kernel whose name contains a vendor name, or is contained in one
    for honest in ("scal_kernel", "void scal_kernel<float>(float*, long)", "ampere_sgemm_128x64_nn_mine",
                   "sgemm", "cuda::std::__4::__cpo::swap"):
        assert libs.kernel_rejection([honest], [str(lib)], tmp_path / "cache", notes) is None, honest


def test_the_kernel_table_is_read_once_per_library(fake_cuobjdump, tmp_path):
    lib, calls = fake_cuobjdump
    libs.kernel_rejection(["x"], [str(lib)], tmp_path / "cache", [])
    libs._TABLES.clear()  # a new judge process: the disk cache answers
    libs.kernel_rejection(["x"], [str(lib)], tmp_path / "cache", [])
    assert calls.read_text().count("called") == 1
    os.utime(lib, ns=(time.time_ns(), time.time_ns() + 10**9))  # the library changed: read again
    libs.kernel_rejection(["x"], [str(lib)], tmp_path / "cache", [])
    assert calls.read_text().count("called") == 2


def test_a_library_without_device_code_is_an_empty_table(fake_cuobjdump, tmp_path):
    # what cuobjdump (CUDA 13) prints, with exit code 255, for a host-only library such as libcudnn.so.9
    lib, calls = fake_cuobjdump
    tool = Path(libs.cuobjdump())
    tool.write_text(f"#!/bin/sh\necho called >> {calls}\n"
                    f"echo \"cuobjdump info    : File '$2' does not contain device code\"\nexit 255\n")
    notes: list[str] = []
    assert libs.kernel_rejection(["ampere_sgemm_128x64_nn"], [str(lib)], tmp_path / "cache", notes) is None
    assert not notes
    libs._TABLES.clear()
    libs.kernel_rejection(["x"], [str(lib)], tmp_path / "cache", notes)
    assert calls.read_text().count("called") == 1  # remembered, not asked again


def test_the_candidate_is_found_behind_its_sandbox_launcher(tmp_path):
    # the launcher forks once for a PID namespace: the candidate is its child; a process that is
    # not the launcher is the candidate itself
    class P:
        def __init__(self, pid):
            self.proc = type("Popen", (), {"pid": pid})()

    me = os.getpid()
    assert libs.process_pid(P(me)) == me
    launcher = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', "
                                 "'import time; time.sleep(30)'])", "kernelmosaic.verify.sandbox"])
    try:
        children = Path(f"/proc/{launcher.pid}/task/{launcher.pid}/children")
        for _ in range(400):  # as in the judge, look once the launcher is running and has forked
            if children.read_text().split():
                break
            time.sleep(0.05)
        kid = libs.process_pid(P(launcher.pid))
        assert kid and kid != launcher.pid
        assert Path(f"/proc/{kid}/status").read_text().count(f"PPid:\t{launcher.pid}") == 1
    finally:
        for line in Path(f"/proc/{launcher.pid}/task/{launcher.pid}/children").read_text().split():
            os.kill(int(line), 9)
        launcher.kill()
        launcher.wait()


def test_only_gpu_vendor_libraries_are_read(fake_cuobjdump, tmp_path):
    lib, calls = fake_cuobjdump
    other = tmp_path / "libcufft.so.12"
    other.write_bytes(b"")
    assert libs.kernel_rejection(["ampere_sgemm_128x64_nn"], [str(other)], tmp_path / "cache", []) is None
    assert not calls.exists()


def test_a_library_file_the_candidate_could_have_made_is_not_read(tmp_path):
    own = tmp_path / "cand" / "libcublas.so.13"
    own.parent.mkdir()
    own.write_bytes(b"")
    assert not libs.trusted_library(str(own), (str(tmp_path / "cand"),))


# -- the static screen: numpy and CuPy math ------------------------------------------------------------------
BASE = '''
import torch, torch.nn as nn
from kernelmosaic.verify import cc
lib = cc.compile("void f(float* x, long n) {}")
%s
class ModelNew(nn.Module):
    def forward(self, x):
        %s
        return x
'''
REFUSED = {
    "numpy call": ("import numpy as np", "y = np.matmul(x, x)"),
    "numpy through an alias": ("import numpy\nxp = numpy", "y = xp.linalg.norm(x)"),
    "from numpy import": ("from numpy import einsum", "y = einsum('ij->i', x)"),
    "numpy by getattr": ("import numpy as np", "y = getattr(np, 'dot')(x, x)"),
    "tensor to numpy": ("", "y = x.numpy()"),
    "dlpack": ("", "y = torch.utils.dlpack.to_dlpack(x)"),
    "cupy math": ("import cupy as cp", "y = cp.asarray(x) @ cp.asarray(x)"),
    "cupy's cublas": ("import cupy as cp", "h = cp.cuda.cublas.create()"),
    "cupyx": ("import cupyx.scipy.linalg as L", "pass"),
    "scipy": ("from scipy.linalg import blas", "pass"),
}
ALLOWED = {
    "numpy dtypes": ("import numpy as np", "t = np.float32"),
    "cupy kernels and streams": ("import cupy as cp\nk = cp.RawKernel('extern \"C\" __global__ void f(){}', 'f')",
                                 "s = cp.cuda.Stream.null"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_array_library_math_is_refused_under_strict_only(case):
    src = BASE % REFUSED[case]
    strict = check_candidate(src, "cpp", "strict")
    assert "library_compute" in {r["rule"] for r in strict.rejections}, strict.rejections
    kb = check_candidate(src, "cpp", "kernelbench")
    assert "library_compute" not in {r["rule"] for r in kb.rejections}, kb.rejections


@pytest.mark.parametrize("case", sorted(ALLOWED))
def test_array_library_names_that_are_not_math_are_allowed(case):
    r = check_candidate(BASE % ALLOWED[case], "cpp", "strict")
    assert r.ok, r.rejections


def test_a_vendor_library_loaded_by_the_candidate_is_refused_under_strict(tmp_path):
    """Through the real verifier: the candidate's import loads a library named like OpenBLAS
    (`torch.ops.load_library`, which the static screen allows). The judge sees it appear in the
    candidate process's maps between its start and the instrumented call; kernelbench allows it."""
    from kernelmosaic.task import load_task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    lib = tmp_path / "blas" / "libopenblas.so.0"
    lib.parent.mkdir()
    (tmp_path / "blas.c").write_text("float openblas_dummy(float x) { return x; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(tmp_path / "blas.c")], check=True)
    os.chmod(tmp_path, 0o755)
    os.chmod(lib.parent, 0o755)
    adv = Path(__file__).resolve().parent / "adversarial"
    src = (adv / "control_relu_cc.py").read_text().replace(
        "import torch\n", f"import torch\ntorch.ops.load_library({str(lib)!r})\n", 1)
    assert str(lib) in src
    v = Verifier(device="cpu", workers=1, cache_dir=tmp_path / "cache")
    try:
        reqs = [VerifyRequest(candidate=src, task=load_task(adv / "tasks" / "relu.py"), backend="cpp", policy=p,
                              timing=TimingConfig(enabled=False)) for p in ("strict", "kernelbench")]
        strict, kb = v.verify_many(reqs)
    finally:
        v.close()
    assert strict.status == "rejected" and "library_compute" in strict.rules, (strict.status, strict.error, strict.notes)
    assert any("libopenblas.so.0" in r.detail for r in strict.rejections), strict.rejections
    assert kb.status == "correct", (kb.status, kb.error)
