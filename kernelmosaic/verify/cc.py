"""The raw-C fast path for CPU candidates: plain C compiled by the system compiler.

``torch.utils.cpp_extension.load_inline`` compiles against the torch headers, which
takes about 50 s per build on a 2-core machine; ``gcc`` on a plain C file takes a
tenth of a second. A candidate of the ``cpp`` backend may use either.

    from kernelmosaic.verify import cc

    lib = cc.compile(r'''
    void relu(const float* x, float* y, long n) {
        for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
    }
    ''')

    class ModelNew(torch.nn.Module):
        def forward(self, x):
            x = x.contiguous()
            y = torch.empty_like(x)
            lib.relu(x, y, x.numel())
            return y

Arguments are checked against the C parameter list read from the source: tensors
go to pointer parameters (CPU tensors of the pointee's dtype), numbers to scalars.
Builds are cached by content (source, flags, compiler version) under the build
directory, so the same source is compiled once.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import launches
from .csig import Param, SignatureError, find_params, make_coercer, parse_signature

__all__ = ["compile", "CcCompileError", "Library"]

_CTYPES = {
    "p": ctypes.c_void_p, "i8": ctypes.c_int8, "u8": ctypes.c_uint8, "i16": ctypes.c_int16, "u16": ctypes.c_uint16,
    "i32": ctypes.c_int32, "u32": ctypes.c_uint32, "i64": ctypes.c_int64, "u64": ctypes.c_uint64,
    "f32": ctypes.c_float, "f64": ctypes.c_double, "b8": ctypes.c_bool,
}


class CcCompileError(RuntimeError):
    """The C compiler rejected the source. ``log`` holds its output."""

    def __init__(self, message: str, log: str):
        super().__init__(message + "\n" + log)
        self.log = log


def build_dir() -> Path:
    root = os.environ.get("KMOSAIC_BUILD_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "kernelmosaic", "build")
    d = Path(root) / "cc"
    d.mkdir(parents=True, exist_ok=True)
    return d


_compiler_ids: dict[str, str] = {}


def _compiler_id(cc: str) -> str:
    if cc not in _compiler_ids:
        try:
            _compiler_ids[cc] = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            _compiler_ids[cc] = cc
    return _compiler_ids[cc]


class Library:
    """A compiled shared library; attribute access gives checked, callable functions."""

    def __init__(self, path: Path, source: str, signatures: dict[str, str] | None):
        self._path = path
        self._source = source
        self._lib = ctypes.CDLL(str(path))
        self._signatures = signatures or {}
        self._funcs: dict[str, _Function] = {}

    def __getattr__(self, name: str) -> "_Function":
        if name.startswith("_"):
            raise AttributeError(name)
        fn = self._funcs.get(name)
        if fn is None:
            try:
                cfn = getattr(self._lib, name)
            except AttributeError:
                raise AttributeError(f"the compiled library has no exported function `{name}` (is it `static`?)") from None
            try:
                params = parse_signature(self._signatures[name]) if name in self._signatures else find_params(self._source, name)
            except SignatureError as e:
                raise TypeError(f"cannot read the parameters of `{name}`: {e}; pass signatures={{'{name}': '...'}}") from None
            fn = self._funcs[name] = _Function(name, cfn, params)
        return fn


class _Function:
    def __init__(self, name: str, cfn, params: list[Param]):
        self.name = name
        self.params = params
        self._cfn = cfn
        self._cfn.restype = None
        self._tags: list[str] | None = None
        self._coerce = make_coercer(name, params, "cpu")

    def __call__(self, *args):
        conv = self._coerce(args)
        tags = [t for t, _ in conv]
        if tags != self._tags:
            self._cfn.argtypes = [_CTYPES[t] for t in tags]
            self._tags = tags
        launches.record("cc", self.name)
        self._cfn(*[v for _, v in conv])


# In a candidate process this is set to a function that asks the judge's sandboxed builder for the
# library (source, language, flags, openmp) -> a loadable path: a candidate never runs a compiler.
_builder = None


def compile(
    source: str,
    *,
    flags: tuple[str, ...] = ("-O3", "-march=native"),
    openmp: bool = False,
    language: str = "c",
    signatures: dict[str, str] | None = None,
) -> Library:
    """Compile ``source`` into a shared library (cached by content) and load it.

    ``language`` is ``"c"`` (gcc, C11) or ``"c++"`` (g++, C++17; export functions with
    ``extern "C"``). ``openmp=True`` adds ``-fopenmp``. ``signatures`` overrides the
    parameter lists read from the source, e.g. ``{"relu": "const float*, float*, long"}``.
    """
    if language not in ("c", "c++"):
        raise ValueError("language must be 'c' or 'c++'")
    if _builder is not None:
        path = _builder(source, language, tuple(flags), openmp)
        try:
            return Library(Path(path), source, signatures)
        except OSError as e:
            raise CcCompileError("the compiled library could not be loaded", str(e).replace(str(path), "kernel.so")) from None
    cc = os.environ.get("CC", "gcc") if language == "c" else os.environ.get("CXX", "g++")
    std = "-std=c11" if language == "c" else "-std=c++17"
    all_flags = [std, *flags, "-shared", "-fPIC"] + (["-fopenmp"] if openmp else [])
    libs = ["-lm"]  # libm (and libmvec, which -ffast-math vector math calls into)
    key = hashlib.sha256("\0".join([source, language, _compiler_id(cc), *all_flags, *libs]).encode()).hexdigest()[:24]
    out = build_dir() / f"{key}.so"
    if not out.exists():
        with tempfile.TemporaryDirectory(dir=build_dir()) as tmp:
            src = Path(tmp) / ("kernel.c" if language == "c" else "kernel.cpp")
            src.write_text(source)
            tmp_so = Path(tmp) / "lib.so"
            try:
                proc = subprocess.run([cc, *all_flags, str(src), "-o", str(tmp_so), *libs], capture_output=True, text=True, timeout=300, cwd=tmp)
            except FileNotFoundError:
                raise CcCompileError(f"compiler `{cc}` not found", "") from None
            log = (proc.stdout + proc.stderr).replace(str(src), src.name)
            if proc.returncode != 0:
                raise CcCompileError(f"{cc} failed with exit code {proc.returncode}", log)
            # atomic publish: concurrent builders of the same source race harmlessly
            shutil.move(str(tmp_so), str(out) + f".{os.getpid()}")
            os.replace(str(out) + f".{os.getpid()}", out)
    try:
        return Library(out, source, signatures)
    except OSError as e:  # e.g. an undefined symbol: the build is unusable, so it is a build error
        raise CcCompileError("the compiled library could not be loaded", str(e).replace(str(out), "kernel.so")) from None
