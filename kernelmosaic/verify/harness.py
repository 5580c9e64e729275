"""What a worker does with one job: load, check and time a candidate against a reference.

Runs only inside a worker process (``kernelmosaic.verify.worker``): it executes
untrusted candidate code. It imports torch and nothing heavier. Every failure is
turned into verdict fields; exceptions that escape mean a harness bug.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import importlib.util
import inspect
import math
import os
import statistics
import sys
import time
import traceback
import types
from pathlib import Path

import torch

from . import launches
from .logs import trim_log
from .machine import cpu_name

# torch ops that only allocate, view, copy or describe tensors: all that `strict` allows in forward.
STRICT_ALLOWED_OPS = {
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like", "zero_", "fill_",
    "full", "full_like", "ones", "ones_like", "new_zeros", "new_ones", "new_full", "scalar_tensor", "lift_fresh",
    "lift_fresh_copy", "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "permute", "transpose", "t",
    "expand", "expand_as", "unsqueeze", "squeeze", "flatten", "unflatten", "alias", "detach", "slice", "select",
    "split", "split_with_sizes", "chunk", "narrow", "unbind", "clone", "copy_", "contiguous", "resize_", "set_",
    "view_as_real", "view_as_complex", "movedim", "unfold", "sym_size", "sym_stride", "sym_numel",
    "sym_storage_offset", "is_contiguous", "dim", "size", "stride", "numel", "_local_scalar_dense", "is_same_size",
    "record_stream", "_to_copy", "to", "_has_compatible_shallow_copy_type", "is_pinned", "_pin_memory",
}


def _snapshot() -> list[tuple[object, str, object]]:
    """Functions the verdict depends on, as they are before any candidate code runs.

    Comparison and timing run in the candidate's process, so a candidate that rebinds
    ``time.perf_counter``, ``torch.linalg.vector_norm`` or ``Tensor.sum`` (static rules
    catch the plain forms) would fake its verdict; these references are checked around
    every candidate call.
    """
    refs: list[tuple[object, str, object]] = []

    def add(owner, names):
        for n in names:
            if hasattr(owner, n):
                # the raw attribute: getattr on a classmethod makes a new bound object each time
                refs.append((owner, n, inspect.getattr_static(owner, n)))

    add(time, ["perf_counter", "perf_counter_ns", "time", "monotonic"])
    add(torch, ["allclose", "equal", "isnan", "isinf", "where", "zeros_like", "sign", "full", "empty"])
    add(torch.linalg, ["vector_norm"])
    add(torch.Tensor, ["abs", "max", "sum", "float", "double", "flatten", "nonzero", "clone", "copy_", "all", "any",
                       "item", "__eq__", "__ne__", "__sub__", "__le__", "__add__", "__mul__", "__and__", "__or__",
                       "__invert__", "untyped_storage", "data_ptr", "to", "nan_to_num", "numel", "element_size",
                       "__getitem__", "clamp_min", "fill_", "is_floating_point", "__torch_function__"])
    add(torch.cuda, ["synchronize", "Event", "current_stream"])
    add(torch.cuda.Event, ["record", "elapsed_time", "synchronize"])
    add(torch.nn.Module, ["__call__", "_call_impl", "to"])
    add(launches, ["record", "snapshot", "since"])
    add(sys.modules[__name__], ["compare", "_same", "_flatten", "_clone", "integrity_violations", "_check_integrity",
                                "default_tolerances", "_shape_variant_source", "Job"])
    return refs


_ORIGINAL: list = []  # taken before any candidate code runs (and again after torch.compile baselines)


def take_snapshot() -> None:
    """Record the functions as they are now. torch rebinds a few lazily (importing dynamo
    wraps torch.manual_seed, for one), so this runs after the worker's warm-up."""
    _ORIGINAL[:] = _snapshot()
_HOOK_DICTS = ("_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks",
               "_global_backward_pre_hooks", "_global_forward_hooks_always_called",
               "_global_module_registration_hooks", "_global_parameter_registration_hooks",
               "_global_buffer_registration_hooks")


def integrity_violations(modes_allowed: int = 0) -> list[tuple[str, str]]:
    """(rule, detail) for every harness function rebound and every global hook or mode installed."""
    bad = []
    for owner, name, orig in _ORIGINAL:
        if inspect.getattr_static(owner, name, None) is not orig:
            bad.append(("patching", f"{getattr(owner, '__name__', type(owner).__name__)}.{name} was replaced at run time"))
    from torch.nn.modules import module as nn_module

    for d in _HOOK_DICTS:
        if getattr(nn_module, d, None):
            bad.append(("hooks", f"a global module hook is installed ({d})"))
    for fn, what in (("_len_torch_function_stack", "a TorchFunctionMode"), ("_len_torch_dispatch_stack", "a TorchDispatchMode")):
        f = getattr(torch._C, fn, None)
        if f is not None and f() > modes_allowed:
            bad.append(("hooks", f"{what} is active outside the harness"))
    return bad


class JobFailed(Exception):
    """Stops the job with a verdict status; carries the verdict fields."""

    def __init__(self, status: str, kind: str, message: str, log: str = "", **extra):
        super().__init__(message)
        self.status = status
        self.error = {"kind": kind, "message": message, "log": log}
        self.extra = extra


class TaskProblem(Exception):
    """The reference itself is broken: the task is flagged, not the candidate."""


def _emit_phase(emit, name: str) -> None:
    if emit:
        emit({"event": "phase", "phase": name})


def _exc_text(e: BaseException, limit: int = 12) -> str:
    tb = traceback.format_exception(type(e), e, e.__traceback__, limit=-limit)
    return "".join(tb)


def _is_build_error(e: BaseException) -> bool:
    name = type(e).__name__
    if name in ("CcCompileError", "NvrtcCompileError", "CompilationError", "CompileException"):
        return True
    msg = str(e)
    if isinstance(e, (OSError, ImportError)) and "undefined symbol" in msg:
        return True
    return isinstance(e, (RuntimeError, OSError, ImportError)) and (
        "Error building extension" in msg or "error: " in msg and ("nvcc" in msg or "ninja" in msg or ".cu" in msg or ".cpp" in msg)
    )


def _exec_module(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # triton and dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def _flatten(out) -> list:
    if isinstance(out, (list, tuple)):
        flat = []
        for o in out:
            flat.extend(_flatten(o))
        return flat
    return [out]


def _clone(x):
    if isinstance(x, torch.Tensor):
        return x.clone()
    if isinstance(x, (list, tuple)):
        return type(x)(_clone(v) for v in x)
    return x


def _same(a, b) -> bool:
    """Bitwise-equal inputs (NaN equals NaN)."""
    if isinstance(a, torch.Tensor):
        if not isinstance(b, torch.Tensor) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            return bool(torch.equal(torch.isnan(a), torch.isnan(b)) and torch.equal(torch.nan_to_num(a, nan=0.0), torch.nan_to_num(b, nan=0.0)))
        return bool(torch.equal(a, b))
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return True


def _same_layout(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        (x.shape == y.shape and x.dtype == y.dtype) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else type(x) is type(y)
        for x, y in zip(a, b))


def default_tolerances(dtype: torch.dtype) -> dict[str, float]:
    # KernelBench's current defaults, plus the relative-norm bound of PROTOCOL.md
    if dtype in (torch.float16, torch.bfloat16):
        return {"atol": 1e-2, "rtol": 1e-2, "rel_norm": 2e-2}
    return {"atol": 1e-4, "rtol": 1e-4, "rel_norm": 1e-3}


def compare(ref, out, tol: dict[str, float], trial: int) -> dict | None:
    """None when ``out`` matches ``ref``; otherwise mismatch statistics."""
    refs, outs = _flatten(ref), _flatten(out)
    if len(refs) != len(outs):
        return {"reason": f"the reference returns {len(refs)} outputs, the candidate {len(outs)}", "trial": trial}
    for k, (r, o) in enumerate(zip(refs, outs)):
        where = f"output {k}: " if len(refs) > 1 else ""
        if not isinstance(r, torch.Tensor):
            if r != o:
                return {"reason": f"{where}expected {r!r}, got {o!r}", "trial": trial}
            continue
        if not isinstance(o, torch.Tensor):
            return {"reason": f"{where}expected a tensor, got {type(o).__name__}", "trial": trial}
        if o.shape != r.shape:
            return {"reason": f"{where}shape {tuple(o.shape)} != expected {tuple(r.shape)}", "trial": trial}
        if o.dtype != r.dtype:
            return {"reason": f"{where}dtype {o.dtype} != expected {r.dtype}", "trial": trial}
        if o.device != r.device:
            return {"reason": f"{where}device {o.device} != expected {r.device}", "trial": trial}
        if r.numel() == 0:
            continue
        if not r.is_floating_point() and not r.is_complex():
            bad = o != r
            if bool(bad.any()):
                idx = _unravel(int(bad.flatten().nonzero()[0]), r.shape)
                return {"reason": f"{where}integer outputs differ", "first_bad_index": idx, "trial": trial,
                        "max_abs_err": float((o.double() - r.double()).abs().max())}
            continue
        rf, of = r.float(), o.float()
        r_nan, o_nan = torch.isnan(rf), torch.isnan(of)
        r_inf, o_inf = torch.isinf(rf), torch.isinf(of)
        special_bad = (r_nan != o_nan) | (r_inf != o_inf) | (r_inf & o_inf & (torch.sign(rf) != torch.sign(of)))
        finite = ~(r_nan | r_inf) & ~(o_nan | o_inf)
        diff = torch.where(finite, (of - rf).abs(), torch.zeros_like(rf))
        close = diff <= tol["atol"] + tol["rtol"] * rf.abs()
        bad = special_bad | (finite & ~close)
        rf0 = torch.where(finite, rf, torch.zeros_like(rf))
        of0 = torch.where(finite, of, torch.zeros_like(of))
        ref_norm = float(torch.linalg.vector_norm(rf0.double() if rf0.numel() < 50_000_000 else rf0))
        err_norm = float(torch.linalg.vector_norm((of0 - rf0).double() if rf0.numel() < 50_000_000 else of0 - rf0))
        rel_norm = err_norm / max(ref_norm, 1e-12)
        n_bad = int(bad.sum())
        if n_bad or rel_norm > tol["rel_norm"]:
            max_abs = float(diff.max())
            rel = diff / rf.abs().clamp_min(1e-12)
            max_rel = float(torch.where(finite, rel, torch.zeros_like(rel)).max())
            first = _unravel(int(bad.flatten().nonzero()[0]), r.shape) if n_bad else None
            reasons = []
            if n_bad:
                reasons.append(f"{n_bad} of {r.numel()} elements outside atol={tol['atol']:g}, rtol={tol['rtol']:g}")
            if int(special_bad.sum()):
                n_nan = int((o_nan & ~r_nan).sum())
                reasons.append(f"{int(special_bad.sum())} NaN/Inf mismatches" + (f" ({n_nan} NaN where the reference is finite: unwritten output?)" if n_nan else ""))
            if rel_norm > tol["rel_norm"]:
                reasons.append(f"relative norm error {rel_norm:.3g} > {tol['rel_norm']:g}")
            return {
                "reason": where + "; ".join(reasons),
                "max_abs_err": _finite(max_abs),
                "max_rel_err": _finite(max_rel),
                "rel_norm_err": _finite(rel_norm),
                "first_bad_index": first,
                "trial": trial,
                "expected_at_first_bad": float(r.flatten()[_ravel(first, r.shape)]) if first is not None else None,
                "got_at_first_bad": float(o.flatten()[_ravel(first, r.shape)]) if first is not None else None,
            }
    return None


def _finite(v: float):
    return v if math.isfinite(v) else str(v)


def _unravel(flat: int, shape) -> list[int]:
    idx = []
    for s in reversed(list(shape)):
        idx.append(flat % s)
        flat //= s
    return list(reversed(idx))


def _ravel(idx, shape) -> int:
    flat = 0
    for i, s in zip(idx, shape):
        flat = flat * s + i
    return flat


class _OpRecorder:
    """Records the aten ops dispatched during a call (a TorchDispatchMode)."""

    def __init__(self):
        from torch.utils._python_dispatch import TorchDispatchMode

        recorder = self
        self.ops: collections.Counter[str] = collections.Counter()

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
                name = func.overloadpacket.__name__
                if name in ("_to_copy", "to"):
                    src = args[0] if args else None
                    dt = (kwargs or {}).get("dtype")
                    if isinstance(src, torch.Tensor) and dt is not None and dt != src.dtype:
                        name = f"_to_copy(dtype {str(src.dtype).replace('torch.', '')}->{str(dt).replace('torch.', '')})"
                recorder.ops[name] += 1
                return func(*args, **(kwargs or {}))

        self.mode = Mode()


class Job:
    """One candidate against one reference, in this process."""

    def __init__(self, req: dict, emit=None):
        if not _ORIGINAL:
            take_snapshot()
        self.req = req
        self.emit = emit
        self.device = torch.device(req["device"])
        self.is_cuda = self.device.type == "cuda"
        self.backend = req["backend"]
        self.policy = req["policy"]
        self.phases: dict[str, float] = {}
        self.notes: list[str] = []
        self.rejections: list[dict] = []
        self.compiled = False
        self.workdir = Path(req["workdir"])
        self.ext_module_names: set[str] = set()
        self.triton_runs = collections.Counter()

    # -- environment -------------------------------------------------------------------------
    def env_info(self) -> dict:
        info = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": None, "driver": None,
                "python": sys.version.split()[0]}
        if self.is_cuda:
            info["gpu"] = torch.cuda.get_device_name(self.device)
            cap = torch.cuda.get_device_capability(self.device)
            info["arch"] = f"{cap[0]}.{cap[1]}"
            info["driver"] = _driver_version()
        else:
            info["cpu"] = cpu_name()
        return info

    def build_key(self) -> str:
        arch = os.environ.get("TORCH_CUDA_ARCH_LIST", "")
        h = hashlib.sha256()
        for part in (self.req["candidate"], self.backend, torch.__version__, str(torch.version.cuda), arch, sys.version):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()[:32]

    def _prepare_env(self) -> None:
        build_root = Path(self.req["build_dir"])
        key = self.build_key()
        ext_dir = build_root / "torch_extensions" / key
        ext_dir.mkdir(parents=True, exist_ok=True)
        os.environ["TORCH_EXTENSIONS_DIR"] = str(ext_dir)
        os.environ["KMOSAIC_BUILD_DIR"] = str(build_root)
        os.environ.setdefault("CUPY_CACHE_DIR", str(build_root / "cupy"))
        os.environ.setdefault("TRITON_CACHE_DIR", str(build_root / "triton"))
        self._hook_load_inline()

    def _hook_load_inline(self) -> None:
        """Remember the modules that load_inline builds, to see later whether forward calls into them."""
        from torch.utils import cpp_extension

        job = self
        if getattr(cpp_extension.load_inline, "_kmosaic", False):
            return
        orig_inline, orig_load = cpp_extension.load_inline, cpp_extension.load

        def load_inline(*a, **kw):
            mod = orig_inline(*a, **kw)
            job.ext_module_names.add(getattr(mod, "__name__", ""))
            return mod

        def load(*a, **kw):
            mod = orig_load(*a, **kw)
            job.ext_module_names.add(getattr(mod, "__name__", ""))
            return mod

        load_inline._kmosaic = True
        cpp_extension.load_inline = load_inline
        cpp_extension.load = load

    def sync(self) -> None:
        if self.is_cuda:
            torch.cuda.synchronize(self.device)

    # -- loading --------------------------------------------------------------------------------
    def load_reference(self):
        path = self.workdir / "reference.py"
        path.write_text(self.req["reference"])
        try:
            mod = _exec_module(path, f"kmosaic_reference_{os.getpid()}")
        except BaseException as e:  # noqa: BLE001 - a broken task must not take the worker down
            raise TaskProblem(f"the reference failed to import: {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        for name in ("Model", "get_inputs", "get_init_inputs"):
            if not hasattr(mod, name):
                raise TaskProblem(f"the reference defines no `{name}`")
        try:
            init = mod.get_init_inputs()
        except BaseException as e:  # noqa: BLE001
            raise TaskProblem(f"get_init_inputs() raised {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        if not isinstance(init, (list, tuple)):
            raise TaskProblem(f"get_init_inputs() must return a list, got {type(init).__name__}")
        return mod, list(init)

    def load_candidate(self) -> types.ModuleType:
        path = self.workdir / "candidate.py"
        path.write_text(self.req["candidate"])
        t0 = time.perf_counter()
        try:
            mod = _exec_module(path, f"kmosaic_candidate_{os.getpid()}")
        except SystemExit as e:
            raise JobFailed("runtime_error", "exit", f"the candidate called exit({e.code}) while loading") from None
        except BaseException as e:  # noqa: BLE001
            if _is_build_error(e):
                log = getattr(e, "log", None) or str(e)
                raise JobFailed("compile_error", "compile", f"{type(e).__name__}: the kernel source did not compile", trim_log(log)) from None
            raise JobFailed("runtime_error", "import", f"the candidate raised {type(e).__name__} while loading: {e}", _exc_text(e)) from None
        finally:
            self.phases["compile"] = round(time.perf_counter() - t0, 4)
        if not isinstance(getattr(mod, "ModelNew", None), type):
            raise JobFailed("invalid_candidate", "no_model_new", "the candidate defines no class ModelNew")
        self.compiled = True
        _check_integrity(self, "after loading the candidate")
        self._wrap_triton_kernels(mod)
        return mod

    def _wrap_triton_kernels(self, mod) -> None:
        """Count launches of the candidate's @triton.jit kernels (JIT or interpreter)."""
        for name, obj in list(vars(mod).items()):
            inner, depth = obj, 0
            while depth < 5 and type(inner).__name__ in ("Autotuner", "Heuristics"):
                inner, depth = getattr(inner, "fn", None), depth + 1
            if type(inner).__name__ not in ("JITFunction", "InterpretedFunction") or not hasattr(inner, "run"):
                continue
            kname = getattr(getattr(inner, "fn", None), "__name__", name)
            orig = inner.run
            counter = self.triton_runs

            def run(*a, _orig=orig, _k=kname, **kw):
                counter[_k] += 1
                return _orig(*a, **kw)

            try:
                inner.run = run
            except AttributeError:
                pass

    def build_models(self, ref_mod, cand_mod, init):
        t0 = time.perf_counter()
        seed = self.req["seeds"][0]
        try:
            with torch.device(self.device):
                torch.manual_seed(seed)
                ref = ref_mod.Model(*_clone(init))
        except BaseException as e:  # noqa: BLE001
            raise TaskProblem(f"Model(*get_init_inputs()) raised {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        ref = ref.to(self.device)
        try:
            with torch.device(self.device):
                torch.manual_seed(seed)
                cand = cand_mod.ModelNew(*_clone(init))
            cand = cand.to(self.device)
        except SystemExit as e:
            raise JobFailed("runtime_error", "exit", f"ModelNew.__init__ called exit({e.code})") from None
        except BaseException as e:  # noqa: BLE001
            if _is_build_error(e):
                raise JobFailed("compile_error", "compile", f"{type(e).__name__}: the kernel source did not compile", trim_log(getattr(e, "log", None) or str(e))) from None
            raise JobFailed("runtime_error", "init", f"ModelNew(*get_init_inputs()) raised {type(e).__name__}: {e}", _exc_text(e)) from None
        copied = self._copy_parameters(ref, cand)
        if copied:
            self.notes.append(f"copied {copied} parameter/buffer tensors from Model into ModelNew by name and shape")
        self.sync()
        self.phases["load"] = round(time.perf_counter() - t0, 4)
        return ref, cand

    @staticmethod
    def _copy_parameters(ref, cand) -> int:
        if not isinstance(ref, torch.nn.Module) or not isinstance(cand, torch.nn.Module):
            return 0
        theirs = dict(cand.named_parameters())
        theirs.update(dict(cand.named_buffers()))
        n = 0
        with torch.no_grad():
            for name, t in list(ref.named_parameters()) + list(ref.named_buffers()):
                c = theirs.get(name)
                if c is not None and c.shape == t.shape and c.dtype == t.dtype:
                    c.copy_(t)
                    n += 1
        return n

    def make_inputs(self, ref_mod, seed: int):
        try:
            with torch.device(self.device):
                torch.manual_seed(seed)
                inputs = ref_mod.get_inputs()
        except BaseException as e:  # noqa: BLE001
            raise TaskProblem(f"get_inputs() raised {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        if not isinstance(inputs, (list, tuple)):
            raise TaskProblem(f"get_inputs() must return a list, got {type(inputs).__name__}")
        # inputs made outside the device context (e.g. torch.tensor(np_array)) still go to the device
        return [x.to(self.device) if isinstance(x, torch.Tensor) and x.device != self.device else x for x in inputs]

    # -- memory poisoning -------------------------------------------------------------------------
    def poison(self, like) -> None:
        """Fill freed allocator blocks of the outputs' sizes with NaN bits, then free them.

        A candidate that returns memory it never wrote then returns NaN, not a stale
        copy of the reference's result.
        """
        blocks = []
        # several blocks per size: allocators keep more than one free block of a size (glibc's
        # large bins are best-fit, not LIFO), and each of them must hold poison, not old data
        copies = 2 if self.is_cuda else 4
        for t in _flatten(like):
            if isinstance(t, torch.Tensor) and t.numel():
                nbytes = t.numel() * t.element_size()
                for _ in range(copies):
                    blocks.append(torch.full((nbytes,), 0xFF, dtype=torch.uint8, device=self.device))
        if self.is_cuda:
            blocks.append(torch.full((64 << 20,), 0xFF, dtype=torch.uint8, device=self.device))
        del blocks
        self.sync()

    # -- calls --------------------------------------------------------------------------------------
    def call_candidate(self, cand, args, what: str):
        try:
            with torch.no_grad():
                out = cand(*args)
            self.sync()
        except SystemExit as e:
            raise JobFailed("runtime_error", "exit", f"the candidate called exit({e.code}) during {what}") from None
        except BaseException as e:  # noqa: BLE001
            if _is_build_error(e):
                raise JobFailed("compile_error", "compile", f"{type(e).__name__}: the kernel source did not compile", trim_log(getattr(e, "log", None) or str(e))) from None
            fatal = self.is_cuda and _cuda_context_broken()
            raise JobFailed("runtime_error", "cuda" if "CUDA" in str(e) or "cuda" in type(e).__name__.lower() else "exception",
                            f"{type(e).__name__} during {what}: {str(e).strip()[:2000]}", _exc_text(e), fatal=fatal) from None
        _check_integrity(self, f"after {what}")
        return out

    def _reference_case(self, ref_mod, ref, seed: int):
        inputs = self.make_inputs(ref_mod, seed)
        try:
            with torch.no_grad():
                ref_out = ref(*_clone(inputs))
            self.sync()
        except BaseException as e:  # noqa: BLE001
            raise TaskProblem(f"the reference forward raised {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        return inputs, ref_out

    def check(self, ref_mod, ref, cand):
        t0 = time.perf_counter()
        seeds = self.req["seeds"]
        cases = {0: self._reference_case(ref_mod, ref, seeds[0])}
        if len(seeds) >= 2:
            # a task whose output ignores its inputs lets any constant pass: flag it before
            # judging the candidate
            cases[1] = self._reference_case(ref_mod, ref, seeds[1])
            if _same(cases[0][1], cases[1][1]):
                raise TaskProblem("the reference output does not change with the inputs (a degenerate task: any constant passes)")
        first = next((t for t in _flatten(cases[0][1]) if isinstance(t, torch.Tensor)), None)
        tol = default_tolerances(first.dtype if first is not None else torch.float32)
        tol.update({k: v for k, v in (self.req.get("tolerances") or {}).items() if v is not None})
        self.tolerances = tol
        bufs = None
        for trial, seed in enumerate(seeds):
            inputs, ref_out = cases.pop(trial) if trial in cases else self._reference_case(ref_mod, ref, seed)
            # every trial's inputs go into the same buffers: the same addresses with new values,
            # so an output cache keyed on data_ptr serves stale answers and fails
            if bufs is not None and _same_layout(bufs, inputs):
                for d, s_ in zip(bufs, inputs):
                    if isinstance(d, torch.Tensor):
                        d.copy_(s_)
                cand_in = bufs
            else:
                cand_in = bufs = _clone(inputs)
            self.poison(ref_out)
            out = self.call_candidate(cand, cand_in, f"trial {trial}")
            self._check_output_types(out)
            if not _same(cand_in, inputs):
                self.rejections.append({"rule": "writes_inputs", "detail": f"trial {trial}: the candidate modified its input tensors"})
                raise JobFailed("rejected", "rule", "the candidate wrote into its inputs")
            self._check_not_input(out, ref_out, inputs, cand_in, trial)
            mm = compare(ref_out, out, tol, trial)
            if mm is not None:
                mm["seed"] = seed
                raise JobFailed("incorrect", "mismatch", f"trial {trial} (seed {seed}): {mm['reason']}", mismatch=mm)
            del inputs, out, ref_out
        self.dynamic_rules(ref_mod, cand, seeds[0])
        _check_integrity(self, "after the instrumented call")
        self.stream_check(ref_mod, ref, cand, seeds[0] ^ 0x2545F491, tol)
        if self.req.get("shape_variants", True):
            self.shape_variant(ref_mod, ref, cand, seeds[-1] ^ 0x9E3779B9, tol)
        self.phases["check"] = round(time.perf_counter() - t0, 4)
        return tol

    def stream_check(self, ref_mod, ref, cand, seed: int, tol: dict) -> None:
        """The output must be complete on the caller's stream when forward returns.

        Work left on a side stream is invisible to code that reads the result on the
        current stream (and to event-based timers): copy the output on the current stream
        right after the call, before any device-wide sync, and compare that copy.
        """
        if not self.is_cuda:
            return
        try:
            inputs = self.make_inputs(ref_mod, seed)
            with torch.no_grad():
                ref_out = ref(*_clone(inputs))
            self.sync()
            self.poison(ref_out)
            with torch.no_grad():
                out = cand(*inputs)
                seen = [t.clone() if isinstance(t, torch.Tensor) else t for t in _flatten(out)]
            torch.cuda.current_stream(self.device).synchronize()
            self.sync()
        except JobFailed:
            raise
        except BaseException as e:  # noqa: BLE001 - the trials already judged this call path
            self.notes.append(f"stream check skipped: {type(e).__name__}: {str(e)[:200]}")
            self.sync()
            return
        mm = compare(list(_flatten(ref_out)), seen, tol, -1)
        if mm is not None and compare(ref_out, out, tol, -1) is None:
            self.rejections.append({"rule": "unsynchronized_output", "detail": "the output is incomplete on the caller's stream when forward returns (work left on a side stream): " + mm["reason"]})
            raise JobFailed("rejected", "rule", "the candidate left its work on a side stream")

    def _check_not_input(self, out, ref_out, inputs, cand_in, trial: int) -> None:
        """An output that is one of the inputs (the same memory, or the same bits) while the
        reference's output is not: a no-op that passes only because the op is nearly identity."""
        ins = [t for t in _flatten(inputs) if isinstance(t, torch.Tensor)]
        cins = [t for t in _flatten(cand_in) if isinstance(t, torch.Tensor)]
        for o, r in zip(_flatten(out), _flatten(ref_out)):
            if not isinstance(o, torch.Tensor) or not isinstance(r, torch.Tensor) or o.numel() == 0:
                continue
            for i, ci in zip(ins, cins):
                if i.shape != o.shape or i.dtype != o.dtype or torch.equal(r, i):
                    continue
                aliased = o.untyped_storage().data_ptr() == ci.untyped_storage().data_ptr()
                how = "is a view of" if aliased else "equals" if torch.equal(o, i) else None
                if how is None and o.is_floating_point() and bool(torch.isfinite(o).all()):
                    # a nudged copy (one ulp off the input) also passes a nearly-identity op;
                    # an honest kernel moves as far from the input as the reference does
                    d_ref = float((r.float() - i.float()).abs().nan_to_num(0).max())
                    d_out = float((o.float() - i.float()).abs().nan_to_num(0).max())
                    if d_ref > 0 and d_out < 0.1 * d_ref:
                        how = f"stays within {d_out:.3g} of"
                if how:
                    self.rejections.append({"rule": "returns_input", "detail": f"trial {trial}: the output {how} an input, while the reference's output differs from it (a no-op passing on a nearly-identity op, or output memory never written)"})
                    raise JobFailed("rejected", "rule", "the candidate returned its input")

    def shape_variant(self, ref_mod, ref, cand, seed: int, tol: dict) -> None:
        """Run once more with the task's module-level shape constants halved.

        A kernel with sizes baked in (n = 64 * 1000 in C) passes every trial at the task's
        own shapes. Constants that get_init_inputs or Model use are left alone, since the
        models were built with them; a task whose reference rejects the new shapes is
        skipped (it does not allow them).
        """
        # growing first: a baked-in size then leaves poisoned elements (a clear mismatch)
        # instead of overrunning the smaller buffers of the halved shapes
        for mode in ("grow", "halve"):
            self._one_shape_variant(ref, cand, seed, tol, mode)

    def _one_shape_variant(self, ref, cand, seed: int, tol: dict, mode: str) -> None:
        variant = _shape_variant_source(self.req["reference"], mode)
        if variant is None:
            return
        src, changed = variant
        path = self.workdir / f"reference_{mode}.py"
        path.write_text(src)
        try:
            vmod = _exec_module(path, f"kmosaic_reference_{mode}_{os.getpid()}")
            inputs, ref_out = self._reference_case(vmod, ref, seed)
        except BaseException:  # noqa: BLE001 - the task does not allow other shapes
            return
        what = "shape variant (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")"
        self.poison(ref_out)
        try:
            out = self.call_candidate(cand, _clone(inputs), what)
        except JobFailed as f:
            if f.status == "runtime_error" and not f.extra.get("fatal"):
                raise JobFailed("incorrect", "shape_variant", f"{what}: {f.error['message']} — the kernel does not handle other valid shapes (hard-coded sizes?)", f.error.get("log", "")) from None
            raise
        mm = compare(ref_out, out, tol, len(self.req["seeds"]))
        if mm is not None:
            mm["seed"] = seed
            mm["shape_variant"] = changed
            raise JobFailed("incorrect", "shape_variant", f"{what}: {mm['reason']} — the kernel does not handle other valid shapes (hard-coded sizes?)", mismatch=mm)
        self.notes.append(f"also correct on a {what}")

    def _check_output_types(self, out) -> None:
        for t in _flatten(out):
            # exact types: isinstance(t, Parameter) holds for any subclass that sets _is_param
            if isinstance(t, torch.Tensor) and type(t) not in (torch.Tensor, torch.nn.Parameter):
                self.rejections.append({"rule": "tensor_subclass", "detail": f"the output is a {type(t).__name__}, not a plain torch.Tensor"})
                raise JobFailed("rejected", "rule", "the candidate returned a tensor subclass")

    # -- dynamic rules --------------------------------------------------------------------------------
    def dynamic_rules(self, ref_mod, cand, seed: int) -> None:
        inputs = self.make_inputs(ref_mod, seed)
        rec = _OpRecorder() if self.policy == "strict" else None
        c_calls: collections.Counter[str] = collections.Counter()
        ext_names = {n for n in self.ext_module_names if n}

        def prof(frame, event, arg):
            if event == "c_call" and getattr(arg, "__module__", None) in ext_names:
                c_calls[getattr(arg, "__name__", "?")] += 1

        before_l = launches.snapshot()
        before_t = collections.Counter(self.triton_runs)
        kernels_seen: list[str] | None = None
        profiler = None
        if self.is_cuda:
            from torch.profiler import ProfilerActivity, profile

            profiler = profile(activities=[ProfilerActivity.CUDA])
        try:
            with contextlib.ExitStack() as st:
                if profiler is not None:
                    st.enter_context(profiler)
                if rec is not None:
                    st.enter_context(rec.mode)
                sys.setprofile(prof)
                try:
                    with torch.no_grad():
                        cand(*inputs)
                finally:
                    sys.setprofile(None)
                self.sync()
        except JobFailed:
            raise
        except BaseException as e:  # noqa: BLE001
            raise JobFailed("runtime_error", "exception", f"{type(e).__name__} during the instrumented call: {e}", _exc_text(e)) from None
        if profiler is not None:
            kernels_seen = sorted({evt.name for evt in profiler.events() if _is_device_event(evt)})
        launched = launches.since(before_l)
        t_now = collections.Counter(self.triton_runs)
        t_now.subtract(before_t)
        own_calls = sum(launched.values()) + sum(c_calls.values()) + sum((+t_now).values())
        if own_calls == 0:
            self.rejections.append({"rule": "no_kernel_launched", "detail": "forward never called the candidate's own compiled kernels"})
        names = self.req.get("kernel_names") or []
        if kernels_seen is not None and names and own_calls:
            if not any(n in k for n in names for k in kernels_seen):
                self.rejections.append({"rule": "no_kernel_launched", "detail": f"none of the candidate's kernels ({', '.join(names)}) ran on the GPU; kernels seen: {', '.join(kernels_seen[:8]) or 'none'}"})
        if rec is not None:
            bad = sorted(op for op in rec.ops if op not in STRICT_ALLOWED_OPS)
            if bad:
                self.rejections.append({"rule": "torch_compute", "detail": "torch computed in forward (strict policy allows only allocation, views and copies): " + ", ".join(f"aten.{b}" for b in bad[:12])})
        if self.rejections:
            raise JobFailed("rejected", "rule", "; ".join(r["rule"] for r in self.rejections))

    # -- timing ----------------------------------------------------------------------------------------
    def time_all(self, ref_mod, ref, cand) -> dict:
        t0 = time.perf_counter()
        cfg = self.req["timing"]
        n, warmup = int(cfg.get("n", 30)), int(cfg.get("warmup", 3))
        sets = [self.make_inputs(ref_mod, s) for s in self.req["timing_seeds"]]
        flush = _Flusher(self.device)
        def reference_answer(args):
            with torch.no_grad():
                return ref(*_clone(args))

        cand_ms = self._time(cand, sets, n, warmup, flush, "candidate", check=reference_answer)
        _check_integrity(self, "after timing")
        result = {"candidate_ms": statistics.median(cand_ms), "eager_ms": None, "compile_ms": None,
                  "speedup_eager": None, "speedup_compile": None, "cv": _cv(cand_ms), "n": n}
        cached = self.req.get("baselines") or {}
        if "eager_ms" in cached:
            result["eager_ms"] = cached["eager_ms"]
            result["eager_cv"] = cached.get("eager_cv")
        elif cfg.get("eager", True):
            e = self._time(ref, sets, n, warmup, flush, "eager", reference=True)
            result["eager_ms"], result["eager_cv"] = statistics.median(e), _cv(e)
        if "compile_ms" in cached:
            result["compile_ms"] = cached["compile_ms"]
            result["compile_cv"] = cached.get("compile_cv")
        elif cfg.get("compile", True):
            try:
                compiled = torch.compile(ref)
                c = self._time(compiled, sets, n, warmup, flush, "torch.compile", reference=True)
                result["compile_ms"], result["compile_cv"] = statistics.median(c), _cv(c)
            except TaskProblem:
                raise
            except Exception as e:  # noqa: BLE001 - some references do not compile; the verdict says so
                result["compile_ms"] = None
                self.notes.append(f"torch.compile baseline failed: {type(e).__name__}: {str(e)[:300]}")
        # torch.compile imports inductor, which may rebind torch functions; only reference code
        # ran since the last check, so the current state is the trusted one
        take_snapshot()
        for base in ("eager", "compile"):
            b = result.get(f"{base}_ms")
            result[f"speedup_{base}"] = (b / result["candidate_ms"]) if b and result["candidate_ms"] > 0 else None
        floor = self.speed_of_light(ref, sets[0])
        if floor is not None:
            result["floor_ms"] = floor
            if result["candidate_ms"] < SOL_MARGIN * floor:
                self.rejections.append({"rule": "below_speed_of_light", "detail": f"median {result['candidate_ms']:.4f} ms is below the floor of {floor:.4f} ms (bytes over measured bandwidth, FLOPs over measured peak)"})
        self.phases["time"] = round(time.perf_counter() - t0, 4)
        return result

    def _time(self, fn, sets, n, warmup, flush, what, reference=False, check=None) -> list[float]:
        """Median-ready times of ``fn`` over ``n`` calls.

        Two input buffers alternate, and their contents are rewritten from the input sets
        between calls (outside the timed interval): the same address comes back with other
        values, so a cache keyed on data_ptr returns stale results, and ``check`` (the
        reference's answer for the last inputs) catches that after the loop.
        """
        bufs = [_clone(sets[0]), _clone(sets[-1])]

        def refill(i: int):
            dst, src = bufs[i % 2], sets[(i // 2) % len(sets)]
            for d, s_ in zip(dst, src):
                if isinstance(d, torch.Tensor):
                    d.copy_(s_)
            return dst, src

        def call(args):
            with torch.no_grad():
                return fn(*args)

        try:
            for i in range(max(warmup, len(sets))):
                call(refill(i)[0])
            self.sync()
            times = []
            out = src = None
            for i in range(n):
                args, src = refill(i)
                flush()
                if self.is_cuda:
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    out = call(args)
                    # a device-wide sync before the end event puts side-stream work inside the interval
                    torch.cuda.synchronize(self.device)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                else:
                    t = time.perf_counter()
                    out = call(args)
                    times.append((time.perf_counter() - t) * 1e3)
        except JobFailed:
            raise
        except BaseException as e:  # noqa: BLE001
            if reference:
                raise TaskProblem(f"timing the reference ({what}) raised {type(e).__name__}: {e}") from None
            raise JobFailed("runtime_error", "exception", f"{type(e).__name__} while timing the candidate: {e}", _exc_text(e), fatal=self.is_cuda and _cuda_context_broken()) from None
        if check is not None and out is not None:
            ref_out = check(src)
            mm = compare(ref_out, out, self.tolerances, -1)
            if mm is not None:
                raise JobFailed("incorrect", "timing_check", f"the output of the last timed call is wrong: {mm['reason']} (stale results served while being timed?)", mismatch=mm)
        return times

    @staticmethod
    def work(ref, inputs) -> dict:
        """FLOPs (matmul/conv/attention, as torch counts them) and the fewest bytes moved:
        every input and parameter read once, every output written once."""
        try:
            from torch.utils.flop_counter import FlopCounterMode

            with FlopCounterMode(display=False) as fc, torch.no_grad():
                out = ref(*inputs)
            flops = int(fc.get_total_flops())
        except Exception:  # noqa: BLE001 - the counter is a safety net, not a requirement
            return {}
        tensors = [t for t in _flatten(inputs) + _flatten(out) if isinstance(t, torch.Tensor)]
        if isinstance(ref, torch.nn.Module):
            tensors += list(ref.parameters()) + list(ref.buffers())
        return {"flops": flops, "bytes": int(sum(t.numel() * t.element_size() for t in tensors))}

    def speed_of_light(self, ref, inputs) -> float | None:
        ceil = self.req.get("ceilings")
        if not ceil:  # measured on GPUs; on the CPU only when the caller supplies them
            return None
        w = self.work(ref, inputs)
        if not w:
            return None
        return max(w["bytes"] / (ceil["bandwidth_gbs"] * 1e9), w["flops"] / (ceil["peak_tflops"] * 1e12)) * 1e3

    def run_baseline(self) -> dict:
        """Eager (and torch.compile) times of the reference alone, by the candidates' protocol."""
        result: dict = {"status": None}
        try:
            ref_mod, init = self.load_reference()
            with torch.device(self.device):
                torch.manual_seed(self.req["seeds"][0])
                ref = ref_mod.Model(*_clone(init))
            ref = ref.to(self.device)
            cfg = self.req["timing"]
            n, warmup = int(cfg.get("n", 30)), int(cfg.get("warmup", 3))
            sets = [self.make_inputs(ref_mod, s) for s in self.req["timing_seeds"]]
            flush = _Flusher(self.device)
            e = self._time(ref, sets, n, warmup, flush, "eager", reference=True)
            result.update(eager_ms=statistics.median(e), eager_cv=_cv(e), n=n, compile_ms=None, compile_cv=None)
            result.update(self.work(ref, sets[0]))
            if cfg.get("compile", True):
                try:
                    c = self._time(torch.compile(ref), sets, n, warmup, flush, "torch.compile", reference=True)
                    result.update(compile_ms=statistics.median(c), compile_cv=_cv(c))
                except TaskProblem as t:
                    self.notes.append(f"torch.compile baseline failed: {str(t)[:300]}")
            result["status"] = "ok"
        except TaskProblem as t:
            result["status"] = "task_error"
            result["error"] = {"kind": "task", "message": str(t).split("\n")[0], "log": str(t)}
        except BaseException as e:  # noqa: BLE001 - e.g. out of memory on a huge reference
            result["status"] = "task_error"
            result["error"] = {"kind": "baseline", "message": f"{type(e).__name__}: {str(e)[:500]}", "log": _exc_text(e)}
        result.update(notes=self.notes, env=self.env_info())
        return result

    # -- the whole job -----------------------------------------------------------------------------
    def run(self) -> dict:
        self.tolerances = {}
        result = {"status": None}
        try:
            self._prepare_env()
            ref_mod, init = self.load_reference()
            _emit_phase(self.emit, "compile")
            cand_mod = self.load_candidate()
            _emit_phase(self.emit, "load")
            ref, cand = self.build_models(ref_mod, cand_mod, init)
            _emit_phase(self.emit, "check")
            self.check(ref_mod, ref, cand)
            status = "correct"
            if self.req["timing"].get("enabled", True):
                _emit_phase(self.emit, "time")
                result["timing"] = self.time_all(ref_mod, ref, cand)
                if self.rejections:
                    raise JobFailed("rejected", "rule", "; ".join(r["rule"] for r in self.rejections))
                # call counting: a candidate must still be right after many calls
                post_seed = self.req["timing_seeds"][-1] ^ 0x5F3759DF
                inputs = self.make_inputs(ref_mod, post_seed)
                with torch.no_grad():
                    ref_out = ref(*_clone(inputs))
                self.poison(ref_out)
                out = self.call_candidate(cand, _clone(inputs), "the post-timing check")
                mm = compare(ref_out, out, self.tolerances, len(self.req["seeds"]))
                if mm is not None:
                    mm["seed"] = post_seed
                    raise JobFailed("incorrect", "mismatch", f"after timing (seed {post_seed}): {mm['reason']} — the output changed after repeated calls", mismatch=mm)
            result["status"] = status
        except JobFailed as f:
            result["status"] = f.status
            result["error"] = f.error
            if "mismatch" in f.extra:
                result["mismatch"] = f.extra["mismatch"]
            if f.extra.get("fatal"):
                result["fatal"] = True
        except TaskProblem as t:
            result["status"] = "task_error"
            result["error"] = {"kind": "task", "message": str(t).split("\n")[0], "log": str(t)}
        except BaseException as e:  # noqa: BLE001 - a harness bug still yields a verdict
            result["status"] = "runtime_error"
            result["error"] = {"kind": "harness", "message": f"internal error: {type(e).__name__}: {e}", "log": _exc_text(e)}
            result["fatal"] = True
        result.update(
            compiled=self.compiled,
            rejections=self.rejections,
            tolerances=self.tolerances,
            phases_s=self.phases,
            notes=self.notes,
            env=self.env_info(),
            build_key=self.build_key(),
        )
        return result


def _shape_variant_source(source: str, mode: str = "halve") -> tuple[str, dict] | None:
    """The reference source with its input-only int constants changed, or None.

    ``halve``: every such constant (>= 4) halved. ``grow``: the first one grown by a quarter
    (kept a multiple of 4 if it was one): a kernel with a baked-in size then leaves the
    extra elements unwritten, which the poison shows.
    """
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    consts: dict[str, ast.Assign] = {}
    protected: set[str] = set()
    input_names: set[str] = set()
    def int_value(e):
        # literal ints and their + - * // combinations (N = 2048 * 2), nothing else
        if isinstance(e, ast.Constant) and type(e.value) is int:
            return e.value
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = int_value(e.left), int_value(e.right)
            if a is None or b is None or (isinstance(e.op, ast.FloorDiv) and b == 0):
                return None
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.FloorDiv: a // b if b else 0}[type(e.op)]
        return None

    values: dict[str, int] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and int_value(node.value) is not None):
            consts[node.targets[0].id] = node
            values[node.targets[0].id] = int_value(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if node.name == "get_inputs":
                input_names |= names
            else:
                protected |= names
        elif isinstance(node, ast.Assign):  # derived constants (dim2 = dim * 2) pin their inputs
            protected |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    changed = {}
    for name, node in consts.items():
        v = values[name]
        if name in input_names and name not in protected and v >= 4:
            if mode == "halve":
                new = v // 2
            else:
                new = v + max(1, v // 4)
                if v % 4 == 0:
                    new = (new + 3) // 4 * 4
            node.value = ast.Constant(new)
            changed[name] = new
            if mode == "grow":
                break
    if not changed:
        return None
    return ast.unparse(tree), changed


def _check_integrity(job: "Job", when: str) -> None:
    bad = integrity_violations()
    if bad:
        for rule, detail in bad:
            job.rejections.append({"rule": rule, "detail": f"{detail} ({when})"})
        raise JobFailed("rejected", "rule", f"the candidate tampered with the harness ({when})")


def _is_device_event(evt) -> bool:
    dt = getattr(evt, "device_type", None)
    return dt is not None and str(dt).endswith("CUDA")


def _cuda_context_broken() -> bool:
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return False
    except Exception:  # noqa: BLE001
        return True


def _cv(xs: list[float]) -> float | None:
    if len(xs) < 2:
        return None
    m = statistics.mean(xs)
    return statistics.stdev(xs) / m if m > 0 else None


class _Flusher:
    """Evicts the last-level cache between timed calls by writing 2x its size."""

    def __init__(self, device: torch.device):
        self.device = device
        if device.type == "cuda":
            l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20) or (50 << 20)
            size = 2 * l2
        else:
            # /sys reports the whole socket's L3 (hundreds of MB on servers); a core's share
            # is far smaller, and filling GBs per call would dominate the run
            size = 2 * min(_llc_bytes(), 32 << 20)
        self.buf = torch.empty(size // 4, dtype=torch.int32, device=device)
        self.i = 0

    def __call__(self) -> None:
        self.i += 1
        self.buf.fill_(self.i)


def _llc_bytes() -> int:
    best = 0
    for idx in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            s = (idx / "size").read_text().strip()
            v = int(s[:-1]) * (1024 if s.endswith("K") else 1 << 20 if s.endswith("M") else 1) if s[-1] in "KM" else int(s)
            best = max(best, v)
        except (OSError, ValueError):
            continue
    return best or (32 << 20)


_driver: list = []


def _driver_version() -> str | None:
    if not _driver:
        v = None
        try:
            txt = Path("/proc/driver/nvidia/version").read_text()
            import re

            m = re.search(r"Kernel Module\s+(?:for \S+\s+)?([\d.]+)", txt)
            v = m.group(1) if m else None
        except OSError:
            pass
        if v is None:
            try:
                import subprocess

                v = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip().splitlines()[0]
            except Exception:  # noqa: BLE001
                v = None
        _driver.append(v)
    return _driver[0]


def warm_up(device: torch.device) -> None:
    """Pay one-time lazy initialisation (dispatch modes, the profiler) before the worker is ready."""
    x = torch.ones(8, device=device)
    rec = _OpRecorder()
    with rec.mode:
        torch.empty_like(x).copy_(x)
    from torch.utils import cpp_extension  # noqa: F401  (imported by every load_inline candidate)
    if device.type == "cuda":
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as p:
            (x + 1).sum().item()
        p.events()
        try:  # the nvrtc backend's compiler: import it now, off the verdict's clock
            import cupy  # noqa: F401
        except ImportError:
            pass


# The floor divides bytes by torch's copy_ bandwidth, which is not the HBM peak: on the H200 eager
# ReLU ran at 0.98x the floor (results/2026-11-30-h200-b). A tuned kernel can beat eager by a few
# percent more, so only a median under 0.8x the floor is implausible enough to reject.
SOL_MARGIN = 0.8


def measure_ceilings(device: torch.device) -> dict | None:
    """Copy bandwidth and matrix peak of this GPU, for the speed-of-light floor."""
    if device.type != "cuda":
        return None
    n = 1 << 28  # 1 GiB of fp32
    a = torch.empty(n, dtype=torch.float32, device=device)
    b = torch.empty_like(a)
    for _ in range(3):
        b.copy_(a)
    torch.cuda.synchronize(device)
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        b.copy_(a)
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    bw = 2 * a.numel() * 4 / (min(ts) / 1e3) / 1e9
    del a, b
    m = 8192
    x = torch.randn(m, m, dtype=torch.bfloat16, device=device)
    y = torch.randn(m, m, dtype=torch.bfloat16, device=device)
    for _ in range(3):
        x @ y
    torch.cuda.synchronize(device)
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        x @ y
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    peak = 2 * m**3 / (min(ts) / 1e3) / 1e12
    del x, y
    torch.cuda.empty_cache()
    return {"bandwidth_gbs": round(bw, 1), "peak_tflops": round(peak, 1)}
