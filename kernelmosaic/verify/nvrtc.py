"""The NVRTC fast path: CUDA C++ device code compiled at run time, launched on torch tensors.

``load_inline`` spends about a minute per build compiling host code against the torch
headers. A kernel needs none of that: NVRTC compiles device code alone in tens of
milliseconds. Candidates of the ``nvrtc`` backend write only device code:

    import torch
    from kernelmosaic.verify import nvrtc

    mod = nvrtc.compile(r'''
    extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        if (i < n) y[i] = fmaxf(x[i], 0.f);
    }
    ''')

    class ModelNew(torch.nn.Module):
        def forward(self, x):
            x = x.contiguous()
            y = torch.empty_like(x)
            n = x.numel()
            mod.relu(grid=((n + 255) // 256,), block=(256,), args=(x, y, n))
            return y

Kernels launch on torch's current CUDA stream. Arguments are checked against the
``__global__`` parameter list read from the source (tensor dtype and device, integer
ranges). The compiler is CuPy's NVRTC binding (``cupy.RawModule``); its on-disk cache
is content-addressed by source, options, architecture and NVRTC version.
"""

from __future__ import annotations

import functools
import importlib.util
import os

from . import launches
from .csig import Param, SignatureError, find_params, kernel_names_in_cuda, make_coercer, parse_signature

__all__ = ["compile", "Module", "Kernel", "NvrtcCompileError"]


class NvrtcCompileError(RuntimeError):
    """NVRTC rejected the source. ``log`` holds the compiler's messages."""

    def __init__(self, message: str, log: str):
        super().__init__(message + "\n" + log)
        self.log = log


def _cupy():
    try:
        import cupy  # noqa: F401  (the GPU extra installs it)
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("the nvrtc backend needs CuPy: pip install 'kernelmosaic[gpu]' (cupy-cuda13x)") from e
    return cupy


_streams: dict[int, object] = {}


def _stream_for_torch():
    import torch

    ptr = torch.cuda.current_stream().cuda_stream
    s = _streams.get(ptr)
    if s is None:
        cupy = _cupy()
        import warnings

        with warnings.catch_warnings():
            # CuPy 14 prefers Stream.from_external(); ExternalStream(ptr) still works and
            # takes a raw pointer, which is what torch gives
            warnings.simplefilter("ignore", DeprecationWarning)
            s = _streams[ptr] = cupy.cuda.ExternalStream(ptr)
    return s


class Kernel:
    def __init__(self, name: str, function, params: list[Param]):
        import numpy as np

        self.name = name
        self.params = params
        self._fn = function
        self._coerce = make_coercer(name, params, "cuda")
        self._np = {
            "p": np.uint64, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16, "i32": np.int32,
            "u32": np.uint32, "i64": np.int64, "u64": np.uint64, "f32": np.float32, "f64": np.float64, "b8": np.bool_,
        }

    def __call__(self, grid, block, args, shared_mem: int = 0):
        grid = (grid,) if isinstance(grid, int) else tuple(grid)
        block = (block,) if isinstance(block, int) else tuple(block)
        if not grid or not block or min(grid) < 1 or min(block) < 1:
            raise ValueError(f"{self.name}: grid {grid} and block {block} must be positive")
        np_types = self._np
        cargs = tuple([np_types[t](v) for t, v in self._coerce(args)])
        launches.record("nvrtc", self.name)
        self._fn(grid, block, cargs, shared_mem=shared_mem, stream=_stream_for_torch())

    def set_max_dynamic_shared_memory(self, nbytes: int) -> None:
        """Allow more than 48 KiB of dynamic shared memory per block (up to 227 KiB on Hopper)."""
        self._fn.max_dynamic_shared_size_bytes = int(nbytes)


class Module:
    def __init__(self, source: str, options: tuple[str, ...], name_expressions: list[str], signatures: dict[str, str]):
        cupy = _cupy()
        self._source = source
        self._signatures = signatures
        self._names = name_expressions
        cache = os.environ.get("KMOSAIC_BUILD_DIR")
        if cache and not os.environ.get("CUPY_CACHE_DIR"):
            os.environ["CUPY_CACHE_DIR"] = os.path.join(cache, "cupy")
        try:
            self._mod = cupy.RawModule(code=source, options=tuple(options), name_expressions=name_expressions or None)
            self._mod.compile()
        except cupy.cuda.compiler.CompileException as e:
            log = e.get_message() if hasattr(e, "get_message") else str(e)
            raise NvrtcCompileError("NVRTC failed to compile the kernel source", log) from None
        self._kernels: dict[str, Kernel] = {}

    def kernel(self, name: str) -> Kernel:
        k = self._kernels.get(name)
        if k is None:
            if name not in self._names:
                raise AttributeError(f"no __global__ function `{name}` in the source (found: {', '.join(self._names) or 'none'})")
            try:
                params = parse_signature(self._signatures[name]) if name in self._signatures else find_params(self._source, name)
            except SignatureError as e:
                raise TypeError(f"cannot read the parameters of `{name}`: {e}; pass signatures={{'{name}': '...'}}") from None
            k = self._kernels[name] = Kernel(name, self._mod.get_function(name), params)
        return k

    def __getattr__(self, name: str) -> Kernel:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)


def compile(
    source: str,
    *,
    options: tuple[str, ...] = ("-std=c++17",),
    kernels: list[str] | None = None,
    signatures: dict[str, str] | None = None,
) -> Module:
    """Compile CUDA C++ device code for the current GPU.

    ``kernels`` names the ``__global__`` functions to expose (default: every one declared
    in the source). Names need no ``extern "C"``: they are resolved through NVRTC's
    lowered names. ``signatures`` overrides parameter lists read from the source.
    """
    names = kernels or kernel_names_in_cuda(source)
    if not names:
        raise NvrtcCompileError("no __global__ function found in the source", "")
    return Module(source, tuple(options) + _toolkit_includes(), list(names), dict(signatures or {}))


@functools.lru_cache(maxsize=1)
def _toolkit_includes() -> tuple[str, ...]:
    """An include folder that has the toolkit's ``crt/`` headers, searched after CuPy's own.

    The pip CUDA headers CuPy compiles against (nvidia/cu13/include) ship ``mma.h`` without the
    ``crt/mma.h`` it includes: on the H200 every honest WMMA (tensor-core) kernel was a
    compile_error. A toolkit's include folder (CUDA_HOME, /usr/local/cuda) or Triton's copy of
    the headers has it."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    # found, not imported: importing Triton takes a second in the candidate process
    spec = importlib.util.find_spec("triton")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        roots.append(os.path.join(loc, "backends", "nvidia"))
    for root in roots:
        inc = os.path.join(root, "include") if root else None
        if inc and os.path.isfile(os.path.join(inc, "crt", "mma.h")):
            return ("-I" + inc,)
    return ()
