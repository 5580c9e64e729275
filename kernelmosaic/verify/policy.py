"""Static anti-hacking rules (PROTOCOL.md, "Anti-hacking rules"), checked on the AST.

These run in the orchestrator, which parses candidate code but never executes it.
Rules work on names resolved through the candidate's own imports, so
``import torch as T; T.compile(...)`` is caught and a ``pass`` in a comment is not
mistaken for anything. The dynamic rules (what actually ran) live in the worker.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .csig import kernel_names_in_cuda

# What each backend's candidates must use to build their own kernels.
BACKEND_MECHANISMS = {
    "cuda": "torch.utils.cpp_extension.load_inline(..., cuda_sources=...)",
    "nvrtc": "kernelmosaic.verify.nvrtc.compile(...)",
    "triton": "a @triton.jit kernel",
    "cpp": "torch.utils.cpp_extension.load_inline(..., cpp_sources=...) or kernelmosaic.verify.cc.compile(...)",
}

_FORBIDDEN_MODULES = {
    # threads and processes
    "threading": "threads_or_processes",
    "_thread": "threads_or_processes",
    "multiprocessing": "threads_or_processes",
    "concurrent": "threads_or_processes",
    "subprocess": "threads_or_processes",
    "asyncio": "threads_or_processes",
    "pty": "threads_or_processes",
    # exits and signals
    "signal": "exit_or_signal",
    # introspection of the harness
    "inspect": "introspection",
    "gc": "introspection",
    "traceback": "introspection",
    "ctypes": "introspection",
    "dis": "introspection",
    "importlib": "introspection",
    "builtins": "introspection",
    "kernelmosaic.verify.launches": "introspection",
    "kernelmosaic.verify.harness": "introspection",
    "kernelmosaic.verify.worker": "introspection",
    "kernelmosaic.verify.judge": "introspection",
    "kernelmosaic.verify.procs": "introspection",
    "kernelmosaic.verify.candidate": "introspection",
    "kernelmosaic.verify.channel": "introspection",
    "kernelmosaic.verify.sandbox": "introspection",
    "kernelmosaic.verify.builder": "introspection",
    # I/O
    "socket": "io",
    "urllib": "io",
    "http": "io",
    "requests": "io",
    "shutil": "io",
    "pickle": "io",
    "io": "io",
    "tempfile": "io",
    "glob": "io",
    # compilers that replace the candidate's own kernels
    "torch._dynamo": "torch_compile",
    "torch._inductor": "torch_compile",
    "torch.jit": "torch_compile",
    "torch.compiler": "torch_compile",
    "torch.export": "torch_compile",
}

_FORBIDDEN_CALLS = {
    "torch.compile": "torch_compile",
    "torch.jit.script": "torch_compile",
    "torch.jit.trace": "torch_compile",
    "os._exit": "exit_or_signal",
    "os.abort": "exit_or_signal",
    "os.kill": "exit_or_signal",
    "os.killpg": "exit_or_signal",
    "sys.exit": "exit_or_signal",
    "exit": "exit_or_signal",
    "quit": "exit_or_signal",
    "os.fork": "threads_or_processes",
    "os.forkpty": "threads_or_processes",
    "os.system": "threads_or_processes",
    "os.popen": "threads_or_processes",
    "sys._getframe": "introspection",
    "sys.settrace": "introspection",
    "sys.setprofile": "introspection",
    "globals": "introspection",
    "vars": "introspection",
    "locals": "introspection",
    "__import__": "introspection",
    "eval": "introspection",
    "exec": "introspection",
    "compile": "introspection",
    "open": "io",
    "torch.load": "io",
    "torch.save": "io",
    "numpy.load": "io",
    "numpy.save": "io",
    "numpy.fromfile": "io",
    "os.remove": "io",
    "os.unlink": "io",
    "os.rename": "io",
    "os.replace": "io",
    "os.listdir": "io",
    "os.scandir": "io",
    "os.walk": "io",
    "os.open": "io",
    "os.write": "io",
    "os.read": "io",
    "os.putenv": "io",
    "os.environ.__setitem__": "io",
}
_FORBIDDEN_PREFIXES = {"os.spawn": "threads_or_processes", "os.exec": "threads_or_processes", "os.posix_spawn": "threads_or_processes"}

_FRAME_ATTRS = {
    "f_back", "f_locals", "f_globals", "f_code", "f_builtins", "gi_frame", "cr_frame", "tb_frame",
    "tb_next", "__globals__", "__code__", "__closure__", "__subclasses__", "__builtins__", "__mro__",
    "__bases__", "__reduce__", "__reduce_ex__", "__dict__", "__getattribute__", "__setattr__", "__delattr__",
    "__torch_function__", "__torch_dispatch__", "__class__", "__self__", "__func__", "__wrapped__", "__loader__",
}

# Attributes that lead from the candidate to the harness, the reference or other modules' state.
_FORBIDDEN_ATTRS = {"sys.modules", "sys.meta_path", "sys.path_hooks"}

# Global hooks, modes and registries that would let a candidate watch or replace the
# reference's computation (e.g. a global forward hook that records Model's outputs).
_HOOK_MARKERS = (
    "register_module_forward_hook", "register_module_forward_pre_hook", "register_module_full_backward_hook",
    "register_module_backward_hook", "register_module_buffer_registration_hook",
    "register_module_module_registration_hook", "register_module_parameter_registration_hook",
    "_global_forward_hooks", "_global_forward_pre_hooks", "TorchFunctionMode", "TorchDispatchMode",
    "torch._C", "torch.library", "torch.overrides", "torch.utils._python_dispatch", "torch._ops", "torch._dispatch",
    "torch.fx", "torch._subclasses", "torch.autograd.graph",
)

# The public API of the launchers candidates use; anything else under kernelmosaic (the
# harness, the launch records) is off limits.
_KERNELMOSAIC_API = {
    "kernelmosaic", "kernelmosaic.verify", "kernelmosaic.verify.nvrtc", "kernelmosaic.verify.cc",
    "kernelmosaic.verify.nvrtc.compile", "kernelmosaic.verify.nvrtc.NvrtcCompileError",
    "kernelmosaic.verify.cc.compile", "kernelmosaic.verify.cc.CcCompileError",
}

# Processes, threads and signals started from C / CUDA source strings.
_C_FORBIDDEN = re.compile(r"\b(pthread_create|std::thread|std::async|fork|vfork|system|popen|execl|execlp|execle|execv|execvp|execve|posix_spawn|kill|raise|signal|sigaction)\s*\(")

# Modules whose attributes a candidate may never rebind (timers, the framework, our launchers).
_PROTECTED_ROOTS = ("torch", "time", "triton", "numpy", "kernelmosaic", "cupy", "sys", "os", "builtins")
_MODULE_ROOTS = set(_PROTECTED_ROOTS) | {"math", "functools", "operator", "importlib", "inspect", "gc", "ctypes",
                                          "threading", "subprocess", "signal", "io", "pickle", "socket", "tl", "np",
                                          "cupyx", "scipy", "jax", "numexpr"}

# torch functions that only allocate, view or describe tensors: allowed in forward under `strict`.
STRICT_ALLOWED_TORCH = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
    "tensor", "as_tensor", "as_strided", "is_tensor", "numel", "device", "dtype", "Size", "Tensor",
    "float32", "float16", "bfloat16", "float64", "int32", "int64", "int8", "uint8", "bool", "long", "half",
    "float", "double", "int", "contiguous_format", "channels_last", "preserve_format", "get_default_dtype",
    "is_floating_point", "result_type", "promote_types", "finfo", "iinfo", "broadcast_shapes",
    "cuda", "no_grad", "inference_mode", "Generator", "strided", "utils", "nn", "view_as_real", "view_as_complex",
}
_COMPUTE_NAMESPACES = ("torch.nn.functional", "torch.linalg", "torch.fft", "torch.special", "torch.nn.init")

# Array libraries whose math stands in for the candidate's kernels (`strict`: library_compute).
# numpy and CuPy may be named for what is not math: dtypes and constants, and CuPy's kernel
# launchers and device handles (the candidate's own code); everything else under them is refused,
# and so is handing a tensor's memory to another array library.
_ARRAY_LIBRARIES = ("numpy", "cupy", "cupyx", "cupy_backends", "scipy", "jax", "jaxlib", "tensorflow", "numexpr",
                    "sklearn", "mkl", "dpnp", "numba.np")
_ARRAY_DTYPES = {
    "float16", "float32", "float64", "half", "single", "double", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool_", "intc", "intp", "uintp", "longlong", "dtype", "finfo", "iinfo", "pi", "e", "inf", "nan",
    "newaxis", "ndarray", "generic", "number", "integer", "floating", "complex64", "complex128",
}
_ARRAY_ALLOWED = {f"numpy.{n}" for n in _ARRAY_DTYPES} | {f"cupy.{n}" for n in _ARRAY_DTYPES} | {
    "numpy", "cupy", "cupy.RawKernel", "cupy.RawModule", "cupy.ElementwiseKernel", "cupy.cuda",
}
# under cupy.cuda: streams, devices, events and memory are fine; its library bindings are not
_CUPY_CUDA_LIBRARIES = ("cublas", "cublasLt", "cudnn", "cufft", "cusolver", "cusparse", "curand", "cutensor", "thrust",
                        "nccl", "cub", "jitify")
# a tensor's memory handed to another array library (then its math runs on it)
_ARRAY_BRIDGES = {"numpy", "__array__", "__array_interface__", "__cuda_array_interface__", "__dlpack__", "from_dlpack",
                  "to_dlpack", "asnumpy"}


@dataclass
class StaticReport:
    ok: bool
    invalid: str | None = None  # set when the source is not a usable candidate at all
    rejections: list[dict] = field(default_factory=list)
    kernel_names: list[str] = field(default_factory=list)  # @triton.jit / __global__ names found


def _line(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


class _Checker(ast.NodeVisitor):
    def __init__(self, policy: str):
        self.policy = policy
        self.aliases: dict[str, str] = {}
        self.rejections: list[dict] = []
        self._seen: set[tuple[str, str]] = set()
        self.class_stack: list[str] = []
        self.func_stack: list[str] = []
        self.uses: set[str] = set()  # backend mechanisms seen
        self.triton_kernels: list[str] = []
        self.string_constants: list[str] = []

    # -- helpers ---------------------------------------------------------------
    def reject(self, rule: str, detail: str) -> None:
        key = (rule, detail)
        if key not in self._seen:
            self._seen.add(key)
            self.rejections.append({"rule": rule, "detail": detail})

    def qualname(self, node: ast.AST) -> str | None:
        """Resolve ``T.nn.functional.relu`` to ``torch.nn.functional.relu`` through the imports."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            parts.append(self.aliases.get(node.id, node.id))
            return ".".join(reversed(parts))
        if isinstance(node, ast.Call):
            inner = self.qualname(node.func)
            if inner is not None:
                parts.append(inner + "()")
                return ".".join(reversed(parts))
        return None

    def in_forward_path(self) -> bool:
        return bool(self.class_stack) and self.class_stack[-1] == "ModelNew" and bool(self.func_stack) and self.func_stack[0] != "__init__"

    def _module_rule(self, mod: str) -> str | None:
        for name, rule in _FORBIDDEN_MODULES.items():
            if mod == name or mod.startswith(name + "."):
                return rule
        return None

    # -- imports -------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            rule = self._module_rule(a.name)
            if rule:
                self.reject(rule, f"{_line(node)}: import {a.name}")
            if a.name.split(".")[0] not in ("numpy", "cupy"):  # those two: their uses are checked
                self._array_library(a.name, node)
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                top = a.name.split(".")[0]
                self.aliases[top] = top
            self._check_qualname(a.name, node)
            self._note_mechanism(a.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        rule = self._module_rule(mod)
        if rule:
            self.reject(rule, f"{_line(node)}: from {mod} import ...")
        for a in node.names:
            full = f"{mod}.{a.name}" if mod else a.name
            r = self._module_rule(full) or _FORBIDDEN_CALLS.get(full) or ("introspection" if full in _FORBIDDEN_ATTRS else None)
            if r and not rule:
                self.reject(r, f"{_line(node)}: from {mod} import {a.name}")
            self.aliases[a.asname or a.name] = full
            self._check_qualname(full, node)
            self._array_library(full, node)
            self._note_mechanism(full)

    def _note_mechanism(self, name: str) -> None:
        if name.startswith("kernelmosaic.verify.nvrtc"):
            self.uses.add("nvrtc")
        if name.startswith("kernelmosaic.verify.cc"):
            self.uses.add("cc")

    # -- scopes --------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.class_stack.append(node.name)
        self.generic_visit(node)
        self.class_stack.pop()

    def _visit_func(self, node) -> None:
        for dec in node.decorator_list:
            q = self.qualname(dec.func if isinstance(dec, ast.Call) else dec) or ""
            if q.startswith("triton.jit") or q.startswith("triton.autotune") or q.startswith("triton.heuristics"):
                self.uses.add("triton")
                if node.name not in self.triton_kernels:
                    self.triton_kernels.append(node.name)
            if q.startswith("torch.compile") or q.startswith("torch.jit"):
                self.reject("torch_compile", f"{_line(dec)}: @{q} on {node.name}")
        self.func_stack.append(node.name)
        self.generic_visit(node)
        self.func_stack.pop()

    visit_FunctionDef = _visit_func
    visit_AsyncFunctionDef = _visit_func

    # -- statements ----------------------------------------------------------------------
    def visit_Try(self, node: ast.Try) -> None:
        for h in node.handlers:
            names: list[str] = []
            if h.type is None:
                names = ["<bare except>"]
            else:
                elts = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
                for e in elts:
                    q = self.qualname(e) or ""
                    if q in ("Exception", "BaseException"):
                        names.append(q)
            if names:
                self.reject("broad_except", f"{_line(h)}: except {', '.join(names)} can hide a failing kernel behind a fallback")
        if self.in_forward_path():
            self.reject("try_in_forward", f"{_line(node)}: try/except inside ModelNew.{self.func_stack[0]} (a fallback path around the kernel)")
        self.generic_visit(node)

    visit_TryStar = visit_Try

    def _check_target(self, target: ast.AST, node: ast.AST) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._check_target(t, node)
            return
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            base = target.value if isinstance(target, ast.Subscript) else target
            q = self.qualname(base) or ""
            if q == "os.environ" and isinstance(target, ast.Subscript) and not self.in_forward_path():
                return  # build settings such as TORCH_CUDA_ARCH_LIST, set before load_inline
            if q.split(".")[0] in _PROTECTED_ROOTS and not q.startswith("self"):
                self.reject("patching", f"{_line(node)}: assignment to {q} (candidates may not rebind torch, time, triton or harness attributes)")

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._check_target(t, node)
        # a module bound to a plain name is the same module: follow it like an import alias
        if isinstance(node.value, (ast.Name, ast.Attribute)):
            q = self.qualname(node.value)
            if q and q.split(".")[0] in _MODULE_ROOTS:
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.aliases[t.id] = q
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check_target(node.target, node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._check_target(node.target, node)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for t in node.targets:
            self._check_target(t, node)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        if self.in_forward_path():
            self.reject("hidden_state", f"{_line(node)}: `global` in ModelNew.{self.func_stack[0]} (state kept across calls)")
        self.generic_visit(node)

    def _check_qualname(self, q: str, node: ast.AST) -> None:
        if not q:
            return
        parts = q.split(".")
        # a module reached through another one (torch.sys.modules, os.sys.exit, np.os._exit)
        for i in range(len(parts)):
            tail = ".".join(parts[i:])
            if tail in _FORBIDDEN_ATTRS:
                self.reject("introspection", f"{_line(node)}: access to {q} (it reaches the harness and the reference)")
            rule = _FORBIDDEN_CALLS.get(tail) if i > 0 and "." in tail else None
            if rule is None and i > 0:
                rule = self._module_rule(tail) if tail.split(".")[0] in _MODULE_ROOTS else None
            if rule:
                self.reject(rule, f"{_line(node)}: {q}")
        if any(m in q for m in _HOOK_MARKERS):
            self.reject("hooks", f"{_line(node)}: {q} (global hooks, modes and op registries can watch or replace the reference)")
        if q.startswith("kernelmosaic") and not any(q == a or q.startswith(a + ".") and a.count(".") >= 3 for a in _KERNELMOSAIC_API):
            self.reject("introspection", f"{_line(node)}: {q} (candidates may use only nvrtc.compile and cc.compile from kernelmosaic)")

    def _array_library(self, q: str, node: ast.AST) -> None:
        """`strict`: numpy, CuPy and other array libraries may not do the math (library_compute)."""
        if self.policy != "strict" or not q:
            return
        root = next((lib for lib in _ARRAY_LIBRARIES if q == lib or q.startswith(lib + ".")), None)
        if root is None:
            return
        parts = q.split(".")
        if root in ("numpy", "cupy"):
            if q in _ARRAY_ALLOWED or ".".join(parts[:2]) in _ARRAY_ALLOWED - {"numpy", "cupy", "cupy.cuda"}:
                return
            if q == "cupy.cuda" or (q.startswith("cupy.cuda.") and parts[2] not in _CUPY_CUDA_LIBRARIES):
                return
        self.reject("library_compute", f"{_line(node)}: {q} (strict: the math must be the candidate's own kernels, "
                    "not an array or vendor library's)")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in _FRAME_ATTRS:
            self.reject("introspection", f"{_line(node)}: access to .{node.attr}")
        if self.policy == "strict" and node.attr in _ARRAY_BRIDGES:
            self.reject("library_compute", f"{_line(node)}: .{node.attr} hands a tensor to another array library "
                        "(strict: the math must be the candidate's own kernels)")
        q = self.qualname(node) or ""
        self._check_qualname(q, node)
        if not isinstance(getattr(node, "_km_parent", None), ast.Attribute):
            self._array_library(q, node)  # the whole chain once: np.linalg.norm, not np.linalg too
        for name, rule in _FORBIDDEN_MODULES.items():
            if rule == "torch_compile" and (q == name or q.startswith(name + ".")):
                self.reject(rule, f"{_line(node)}: use of {q}")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in ("__builtins__", "__loader__", "__spec__"):
            self.reject("introspection", f"{_line(node)}: access to {node.id}")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and (node.value in _FRAME_ATTRS or node.value in ("_current_frames", "_getframe")):
            # operator.attrgetter("__globals__")(f) and the like spell the attribute as a string
            self.reject("introspection", f"{_line(node)}: the string {node.value!r} names an introspection attribute")
        if isinstance(node.value, str) and len(node.value) > 20:
            self.string_constants.append(node.value)
            for m in _C_FORBIDDEN.finditer(_strip_c_comments(node.value)):
                rule = "exit_or_signal" if m.group(1) in ("kill", "raise", "signal", "sigaction") else "threads_or_processes"
                self.reject(rule, f"{_line(node)}: {m.group(1)}() in kernel source")

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # An f-string CUDA source still declares its kernels in its literal parts.
        self.string_constants.append("".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        q = self.qualname(node.func) or ""
        rule = _FORBIDDEN_CALLS.get(q)
        if rule is None:
            for prefix, r in _FORBIDDEN_PREFIXES.items():
                if q.startswith(prefix):
                    rule = r
        if rule is None and q.endswith(("write_text", "write_bytes", "read_text", "read_bytes", "unlink", "rmdir")):
            rule = "io"
        if rule is None and q.startswith("torch.compile"):
            rule = "torch_compile"
        if rule:
            self.reject(rule, f"{_line(node)}: call to {q}()")
        if q in ("setattr", "delattr") and node.args:
            tq = self.qualname(node.args[0]) or ""
            if tq.split(".")[0] in _PROTECTED_ROOTS:
                self.reject("patching", f"{_line(node)}: {q}({tq}, ...)")
        if q in ("getattr", "hasattr") and len(node.args) >= 2:
            tq = self.qualname(node.args[0]) or ""
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                # getattr(mod, "name") is mod.name
                self._check_qualname(f"{tq}.{name.value}" if tq else "", node)
                self._array_library(f"{tq}.{name.value}" if tq else "", node)
                if name.value in _ARRAY_BRIDGES and self.policy == "strict":
                    self.reject("library_compute", f"{_line(node)}: getattr(..., {name.value!r}) hands a tensor to another array library")
            elif self.policy == "strict" and any(tq == lib or tq.startswith(lib + ".") for lib in _ARRAY_LIBRARIES):
                self.reject("library_compute", f"{_line(node)}: getattr({tq}, <computed name>) (strict: array library math)")
            elif tq.split(".")[0] in ("os", "sys", "torch", "builtins", "time", "kernelmosaic"):
                self.reject("introspection", f"{_line(node)}: getattr({tq}, <computed name>)")
        if q.endswith("cpp_extension.load_inline") or q.endswith("cpp_extension.load"):
            kws = {k.arg for k in node.keywords}
            if "cuda_sources" in kws or (len(node.args) >= 3):
                self.uses.add("load_inline_cuda")
            if "cpp_sources" in kws or len(node.args) >= 2:
                self.uses.add("load_inline_cpp")
        if q.startswith("kernelmosaic.verify.nvrtc"):
            self.uses.add("nvrtc")
        if q.startswith("kernelmosaic.verify.cc"):
            self.uses.add("cc")
        if self.policy == "strict" and self.in_forward_path():
            self._strict_call(q, node)
        self.generic_visit(node)

    def _strict_call(self, q: str, node: ast.Call) -> None:
        if any(q.startswith(ns + ".") for ns in _COMPUTE_NAMESPACES):
            self.reject("torch_compute", f"{_line(node)}: {q}() computes with torch in forward (strict policy)")
            return
        if q.startswith("torch.") and q.count(".") == 1:
            name = q.split(".", 1)[1]
            if name not in STRICT_ALLOWED_TORCH:
                self.reject("torch_compute", f"{_line(node)}: {q}() computes with torch in forward (strict policy)")


def _strip_c_comments(src: str) -> str:
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def check_candidate(source: str, backend: str, policy: str) -> StaticReport:
    """Parse a candidate and apply the static rules of ``policy`` for ``backend``."""
    try:
        tree = ast.parse(source, filename="candidate.py")
    except SyntaxError as e:
        return StaticReport(ok=False, invalid=f"syntax error in candidate.py line {e.lineno}: {e.msg}")
    has_model_new = any(isinstance(n, ast.ClassDef) and n.name == "ModelNew" for n in ast.walk(tree))
    if not has_model_new:
        return StaticReport(ok=False, invalid="the candidate defines no `class ModelNew(nn.Module)`")
    for parent in ast.walk(tree):  # attribute chains are checked once, at their outermost node
        for child in ast.iter_child_nodes(parent):
            child._km_parent = parent  # type: ignore[attr-defined]
    c = _Checker(policy)
    c.visit(tree)
    names: list[str] = list(c.triton_kernels)
    for s in c.string_constants:
        for n in kernel_names_in_cuda(s):
            if n not in names:
                names.append(n)
    needed = {
        "cuda": {"load_inline_cuda"},
        "nvrtc": {"nvrtc"},
        "triton": {"triton"},
        "cpp": {"load_inline_cpp", "cc"},
    }[backend]
    if not (c.uses & needed):
        c.reject("no_custom_kernel", f"the `{backend}` backend expects kernels built with {BACKEND_MECHANISMS[backend]}; none found")
    return StaticReport(ok=not c.rejections, rejections=c.rejections, kernel_names=names)
