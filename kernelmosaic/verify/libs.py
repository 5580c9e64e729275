"""Library compute under `strict`: vendor and array libraries doing the work in the candidate's place.

`strict` wants all compute in ``forward`` in the candidate's own kernels. Torch's ops are watched
(the dispatch mode, `torch_compute`), but a candidate can reach the same libraries around torch:
cuBLAS or cuDNN called from its own extension, MKL's ``sgemm_`` found with ``dlsym``, numpy or
CuPy math. Three checks, each on evidence the candidate cannot rewrite, except where noted:

1. **Linked symbols** (CPU and GPU builds). The judge built the candidate's library itself
   (``builder.py``), so its dynamic symbol table is what the loader will bind. An undefined
   symbol from a BLAS/LAPACK, MKL, OpenBLAS, BLIS, oneDNN, cuBLAS(Lt), cuDNN, cuFFT, cuSPARSE or
   cuSOLVER interface, from torch's own BLAS wrappers (``at::native::cpublas::``,
   ``at::cuda::blas::``), or from the dynamic loader (``dlopen``, ``dlsym``, ...: a library
   reached at run time by name) refuses the build. Code that resolves symbols by hand (raw
   system calls, walking the loader's lists) is not covered: that is check 2's and 3's job.
2. **Loaded libraries** (CPU and GPU). The judge reads ``/proc/<pid>/maps`` of the candidate
   process when it is ready (before any candidate code is loaded) and after the instrumented
   call: a vendor math library mapped in between was loaded on the candidate's behalf. Libraries
   the process had mapped before (torch's own MKL, numpy's OpenBLAS, torch's cuBLAS and cuDNN)
   cannot be told apart this way; checks 1 and 3 cover those.
3. **Kernel names** (GPU). The profiler's kernel names from the instrumented call are matched
   exactly (whole strings, never substrings) against the kernels that cuBLAS, cuBLASLt and
   cuDNN contain, read with ``cuobjdump -symbols`` from the very library files mapped in the
   candidate process and in the judge, demangled as the profiler demangles them. The table is
   cached per machine, per library file. The kernel names come from the candidate process's
   profiler (see docs/verification.md, "Known limits"); the library files are the judge's reading.

numpy and CuPy math are refused by the static screen (``policy.py``); their cuBLAS work is also
caught by check 3, and a BLAS library numpy loads late by check 2.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

# -- 1. linked symbols --------------------------------------------------------------------------------------
_BLAS_ROUTINES = (
    "gemm", "gemv", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm", "trmv", "trsv", "tbmv", "tbsv",
    "tpmv", "tpsv", "ger", "geru", "gerc", "symv", "hemv", "sbmv", "hbmv", "spmv", "hpmv", "syr", "her", "syr2", "her2",
    "spr", "hpr", "spr2", "hpr2", "gbmv", "axpy", "axpby", "dot", "dotu", "dotc", "scal", "copy", "swap", "nrm2", "asum",
    "rot", "rotg", "rotm", "rotmg", "gemm3m", "gemmt", "gemm_batch", "gemm_batch_strided", "omatcopy", "imatcopy",
)
# C entry points of Fortran BLAS without the underscore (MKL and OpenBLAS export both)
_BLAS_C_NAMES = frozenset(p + r for p in "sdcz" for r in _BLAS_ROUTINES) | frozenset(
    f"i{p}am{m}" for p in "sdcz" for m in ("ax", "in")) | {"sdsdot", "dsdot", "scasum", "dzasum", "scnrm2", "dznrm2",
                                                          "csscal", "zdscal", "csrot", "zdrot", "lsame", "xerbla"}
# Fortran-mangled BLAS/LAPACK names: s/d/c/z (or i) then a routine, then one underscore
# (sgemm_, dpotrf_, isamax_, zheevd_); C code defines no such undefined name of its own
_FORTRAN_NAME = re.compile(r"^(?:[sdczSDCZ][A-Za-z0-9]{2,8}|[iI][sdczSDCZ][A-Za-z]{3,5}|lsame|xerbla)_$")
_VENDOR_PREFIXES = ("cblas_", "LAPACKE_", "LAPACK_", "mkl_", "MKL_", "openblas_", "goto_", "bli_", "blis_", "dnnl_",
                    "mkldnn_", "cublas", "cudnn", "cufft", "cusparse", "cusolver", "cutensor", "nvblas")
_ILP64 = re.compile(r"^(?:scipy_)?(.+?)_?64_$")
_DEMANGLED_PREFIXES = ("at::native::cpublas::", "at::cuda::blas::", "dnnl::", "mkldnn::", "ideep::",
                       "at::native::mkldnn", "at::native::onednn")
# the dynamic loader: a library or symbol reached by name at run time is invisible to the table above
_LOADER = frozenset({"dlopen", "dlmopen", "dlsym", "dlvsym", "dl_iterate_phdr", "__libc_dlopen_mode", "__libc_dlsym",
                     "__libc_dlvsym", "_dl_sym", "_dl_vsym", "_dl_open", "_dl_find_object", "_r_debug", "_dl_debug_state"})


def undefined_symbols(path: str | os.PathLike) -> list[str]:
    """The undefined symbols of an ELF shared object's dynamic symbol table (what the loader
    binds from other libraries). Read directly: no tool, no dependency."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:  # ELF64 only (x86-64, aarch64)
        raise ValueError(f"{path}: not a 64-bit ELF file")
    end = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(end + "Q", data, 0x28)
    shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3A)
    sections = [struct.unpack_from(end + "IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for sh_name, sh_type, _flags, _addr, off, size, link, _info, _align, entsize in sections:
        if sh_type != 11:  # SHT_DYNSYM
            continue
        str_off, str_size = sections[link][4], sections[link][5]
        strtab = data[str_off:str_off + str_size]
        entsize = entsize or 24
        for k in range(1, size // entsize):
            st_name, _info, _other, st_shndx = struct.unpack_from(end + "IBBH", data, off + k * entsize)
            if st_shndx != 0 or not st_name:  # SHN_UNDEF only
                continue
            stop = strtab.find(b"\0", st_name)
            out.append(strtab[st_name:stop].decode("utf-8", "replace"))
    return out


def _demangle(name: str) -> str:
    if not name.startswith("_Z"):
        return name
    try:
        import torch

        return torch._C._demangle(name)
    except Exception:  # noqa: BLE001 - a name that does not demangle is matched as it is
        return name


def _demangle_many(names: list[str]) -> list[str]:
    """Demangled as the profiler demangles (``__cxa_demangle``). ``c++filt`` is the same demangler
    (libiberty's) in one process: identical on all 15,764 kernel names of cuBLASLt 13.10, in 0.3 s
    against 6 s name by name through torch. Falls back to torch."""
    tool = shutil.which("c++filt")
    if tool and names:
        try:
            r = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, timeout=300)
            out = r.stdout.split("\n")[:len(names)]
            if r.returncode == 0 and len(out) == len(names):
                return out
        except (OSError, subprocess.TimeoutExpired):
            pass
    return [_demangle(n) for n in names]


def vendor_symbols(names: list[str]) -> list[str]:
    """The names among ``names`` that reach a vendor math library or the dynamic loader."""
    bad = []
    for raw in names:
        n = raw.split("@")[0]  # versioned names: dlsym@GLIBC_2.34
        d = _demangle(n)
        # OpenBLAS's 64-bit-integer builds and numpy's copy of it: scipy_sgemm_64_, cblas_sgemm64_
        m = _ILP64.match(n)
        if m:
            n = m.group(1) + "_"
        if (n in _LOADER or n in _BLAS_C_NAMES or n.lower() in _BLAS_C_NAMES or _FORTRAN_NAME.match(n)
                or n.startswith(_VENDOR_PREFIXES) or d.startswith(_DEMANGLED_PREFIXES)):
            bad.append(d if d != n else n)
    return sorted(set(bad))


def build_rejection(path: str | os.PathLike) -> str | None:
    """The detail of a `library_compute` refusal of a built library, or None."""
    try:
        bad = vendor_symbols(undefined_symbols(path))
    except (OSError, ValueError, struct.error, IndexError):
        return None  # not a shared object the loader would take either: loading it fails on its own
    if not bad:
        return None
    loader = [b for b in bad if b in _LOADER]
    what = "the dynamic loader (a library reached by name at run time)" if loader and len(loader) == len(bad) else \
        "vendor math libraries" + (" and the dynamic loader" if loader else "")
    return (f"the built library calls {what}, which strict refuses (all compute in the candidate's own kernels): "
            + ", ".join(bad[:12]) + (f" and {len(bad) - 12} more" if len(bad) > 12 else ""))


# -- 2. loaded libraries --------------------------------------------------------------------------------------
_VENDOR_LIB = re.compile(r"^lib(?:cublas|cublasLt|cudnn[A-Za-z0-9_]*|cufft|cusparse|cusolver|cutensor|nvblas|mkl_[A-Za-z0-9_]+|"
                         r"openblas[A-Za-z0-9_.-]*|scipy_openblas[A-Za-z0-9_-]*|blas|cblas|lapack|lapacke|blis|flexiblas|"
                         r"satlas|tatlas|armpl[A-Za-z0-9_]*|dnnl|mkldnn|iomp5)(?:[.-]|$)")
_GPU_VENDOR_LIB = re.compile(r"^lib(?:cublas|cublasLt|cudnn[A-Za-z0-9_]*)\.so")


def _pid_depth(pid: int | str) -> int:
    """How many PID namespaces deep ``pid`` is, as /proc sees it (0 where it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return len(line.split()) - 1
    except OSError:
        pass
    return 0


def process_pid(proc) -> int | None:
    """The candidate's pid as this process sees it: the sandbox launcher's child when it made a
    PID namespace (the launcher forks once, and the child is the first process of a namespace one
    deeper), else the launcher itself (it exec'd the candidate, or was forked to be it)."""
    p = getattr(getattr(proc, "proc", None), "pid", None)
    if p is None:
        return None
    try:
        kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        launcher = b"kernelmosaic.verify.sandbox" in Path(f"/proc/{p}/cmdline").read_bytes()
    except OSError:
        return None
    depth = _pid_depth(p)
    for k in kids:
        if _pid_depth(k) > depth:
            return int(k)
    if not launcher:  # the candidate itself (whose own children, such as ptxas, are not it)
        return p
    return int(kids[0]) if kids else None


def mapped_files(pid: int | None) -> set[str] | None:
    """The files mapped in process ``pid``, or None when its maps cannot be read."""
    if pid is None:
        return None
    try:
        text = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return None
    out = set()
    for line in text.splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5].startswith("/"):
            out.add(parts[5].removesuffix(" (deleted)"))
    return out


def vendor_libraries(paths) -> list[str]:
    return sorted(p for p in paths or () if _VENDOR_LIB.match(os.path.basename(p)))


def loaded_rejection(before: set[str] | None, after: set[str] | None) -> str | None:
    if before is None or after is None:
        return None
    new = vendor_libraries(after - before)
    if not new:
        return None
    return ("the candidate process loaded vendor math libraries after its code was loaded, which strict refuses: "
            + ", ".join(os.path.basename(p) for p in new[:8]))


# -- 3. GPU kernel names --------------------------------------------------------------------------------------
_TABLES: dict[str, dict[str, str]] = {}  # per judge process: library key -> {kernel name: library}


def cuobjdump() -> str | None:
    found = shutil.which("cuobjdump")
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and os.access(os.path.join(home, "bin", "cuobjdump"), os.X_OK):
            return os.path.join(home, "bin", "cuobjdump")
    try:  # Triton's wheel carries one
        import triton

        p = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
        if os.access(p, os.X_OK):
            return p
    except ImportError:
        pass
    return None


def trusted_library(path: str, untrusted_dirs: tuple[str, ...] = ()) -> bool:
    """A vendor library file the judge may read with cuobjdump: owned by root or by the judge's
    user, and outside folders the candidate can write (it could map a file of its own making)."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return False
    if st.st_uid not in (0, os.getuid()) or not os.path.isfile(real):
        return False
    tmp = os.path.realpath(tempfile.gettempdir())
    return not any(real == d or real.startswith(d.rstrip("/") + "/") for d in (tmp, *map(os.path.realpath, untrusted_dirs)))


def _library_key(path: str) -> str:
    st = os.stat(path)
    return hashlib.sha256(f"{os.path.realpath(path)}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}".encode()).hexdigest()[:32]


def kernel_table(path: str, cache_dir: str | os.PathLike | None, tool: str) -> dict[str, str]:
    """{kernel name: library} for one library file: every entry function of its device code,
    mangled and demangled, read by ``cuobjdump -symbols``. Cached in memory and on disk."""
    key = _library_key(path)
    if key in _TABLES:
        return _TABLES[key]
    lib = os.path.basename(path)
    cached = Path(cache_dir) / "vendor-kernels" / f"{key}.json" if cache_dir else None
    if cached is not None:
        try:
            names = json.loads(cached.read_text())["names"]
            _TABLES[key] = dict.fromkeys(names, lib)
            return _TABLES[key]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    r = subprocess.run([tool, "-symbols", path], capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    # a host-only library (libcudnn.so.9 is a loader for its engine libraries) is an empty table:
    # cuobjdump says so and exits 255
    if r.returncode != 0 and "does not contain device code" not in r.stdout + r.stderr:
        raise RuntimeError(f"cuobjdump -symbols {lib} failed: {(r.stderr or r.stdout).strip()[:300]}")
    mangled = sorted({line.split()[-1] for line in r.stdout.splitlines() if "STO_ENTRY" in line and line.split()})
    names = sorted(set(mangled) | set(_demangle_many(mangled)))
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps({"library": os.path.realpath(path), "names": names}))
            os.replace(tmp, cached)
        except OSError:
            pass
    _TABLES[key] = dict.fromkeys(names, lib)
    return _TABLES[key]


def kernel_rejection(kernels: list[str] | None, libraries: list[str], cache_dir, notes: list[str]) -> str | None:
    """The detail of a `library_compute` rejection when a profiled kernel is, by its exact name, a
    kernel of one of ``libraries`` (GPU vendor libraries). What could not be checked goes to ``notes``."""
    if not kernels:
        return None
    libs = sorted({p for p in libraries if _GPU_VENDOR_LIB.match(os.path.basename(p))})
    if not libs:
        return None
    tool = cuobjdump()
    if tool is None:
        notes.append("library kernels were not looked for on the GPU: no cuobjdump on this machine")
        return None
    hits = []
    for path in libs:
        try:
            table = kernel_table(path, cache_dir, tool)
        except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
            notes.append(f"the kernels of {os.path.basename(path)} could not be listed: {e}")
            continue
        hits += [(k, table[k]) for k in kernels if k in table]  # exact names only, never substrings
    if not hits:
        return None
    seen = sorted(set(hits))
    return ("kernels of vendor libraries ran in forward, which strict refuses (all compute in the candidate's own "
            "kernels): " + "; ".join(f"{k[:160]} ({lib})" for k, lib in seen[:6])
            + (f" and {len(seen) - 6} more" if len(seen) > 6 else ""))


def after_call(before: set[str] | None, proc, kernels, cache_dir, on_gpu: bool, notes: list[str]) -> list[tuple[str, str]]:
    """Checks 2 and 3 after the instrumented call, as the judge runs them under `strict`."""
    out = []
    after = mapped_files(process_pid(proc))
    if before is None or after is None:
        notes.append("the candidate process's loaded libraries could not be read; only its linked symbols were checked")
    detail = loaded_rejection(before, after)
    if detail:
        out.append(("library_compute", detail))
    if on_gpu:
        root = str(getattr(proc, "root", "") or "")
        libs = [p for p in (after or set()) | judge_libraries() if trusted_library(p, (root,) if root else ())]
        detail = kernel_rejection(kernels, libs, cache_dir, notes)
        if detail:
            out.append(("library_compute", detail))
    return out


def judge_libraries() -> set[str]:
    """The files mapped in the judge itself (torch's cuBLAS and cuDNN, once CUDA is initialised)."""
    return mapped_files(os.getpid()) or set()


def warm(cache_dir) -> list[tuple[str, int, float]]:
    """List the kernels of the GPU vendor libraries torch maps once cuBLAS and cuDNN have run, into
    the cache, so that the first strict GPU verdict on a machine does not pay for it inside its
    check phase. Returns (library, kernels, seconds) per library."""
    import time

    import torch

    torch.cuda.init()
    a = torch.randn(64, 64, device="cuda")
    (a @ a).sum().item()
    torch.nn.functional.conv2d(torch.randn(1, 4, 16, 16, device="cuda"), torch.randn(8, 4, 3, 3, device="cuda")).sum().item()
    tool = cuobjdump()
    if tool is None:
        raise RuntimeError("no cuobjdump on this machine: library kernels cannot be listed")
    out = []
    for path in sorted(judge_libraries()):
        if _GPU_VENDOR_LIB.match(os.path.basename(path)) and trusted_library(path):
            t0 = time.perf_counter()
            out.append((path, len(kernel_table(path, cache_dir, tool)), round(time.perf_counter() - t0, 2)))
    return out


if __name__ == "__main__":
    # python -m kernelmosaic.verify.libs LIB...: what check 1 sees in a built library
    # python -m kernelmosaic.verify.libs --warm CACHE/build: list the GPU vendor kernels ahead of time
    if sys.argv[1:2] == ["--warm"]:
        for path, n, secs in warm(sys.argv[2]):
            print(f"{os.path.basename(path)}: {n} kernel names in {secs} s ({path})")
    else:
        for p in sys.argv[1:]:
            print(p, build_rejection(p) or "no vendor or loader symbols")
