"""Parameter lists of C / CUDA C++ functions, read from their source text.

Both run-time launchers (``cc`` for host C, ``nvrtc`` for CUDA device code) turn
Python arguments into C arguments. Reading the declared parameter types from the
source means candidates call kernels like Python functions, and a float tensor
passed to an ``int*`` parameter is a clear TypeError instead of silent garbage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# C scalar spellings -> (kind, bits); kind is "i" signed, "u" unsigned, "f" float, "b" bool
_SCALARS = {
    "char": ("i", 8), "signed char": ("i", 8), "unsigned char": ("u", 8), "int8_t": ("i", 8), "uint8_t": ("u", 8),
    "short": ("i", 16), "unsigned short": ("u", 16), "int16_t": ("i", 16), "uint16_t": ("u", 16),
    "int": ("i", 32), "signed": ("i", 32), "signed int": ("i", 32), "unsigned": ("u", 32), "unsigned int": ("u", 32),
    "int32_t": ("i", 32), "uint32_t": ("u", 32),
    "long": ("i", 64), "long int": ("i", 64), "unsigned long": ("u", 64), "long long": ("i", 64),
    "long long int": ("i", 64), "unsigned long long": ("u", 64), "int64_t": ("i", 64), "uint64_t": ("u", 64),
    "size_t": ("u", 64), "ssize_t": ("i", 64), "ptrdiff_t": ("i", 64), "intptr_t": ("i", 64), "uintptr_t": ("u", 64),
    "float": ("f", 32), "double": ("f", 64), "bool": ("b", 8), "_Bool": ("b", 8),
}

# pointer element spellings -> torch dtype names they accept
_POINTEES = {
    "float": ("float32",), "double": ("float64",), "__half": ("float16",), "half": ("float16",),
    "__nv_bfloat16": ("bfloat16",), "nv_bfloat16": ("bfloat16",), "__nv_bfloat162": ("bfloat16",),
    "__half2": ("float16",), "float2": ("float32",), "float4": ("float32",), "double2": ("float64",),
    "int": ("int32",), "int32_t": ("int32",), "unsigned": ("int32", "uint32"), "unsigned int": ("int32", "uint32"),
    "uint32_t": ("int32", "uint32"), "int4": ("int32",), "int2": ("int32",),
    "long": ("int64",), "long long": ("int64",), "int64_t": ("int64",), "long int": ("int64",),
    "unsigned long": ("int64", "uint64"), "unsigned long long": ("int64", "uint64"), "uint64_t": ("int64", "uint64"),
    "size_t": ("int64", "uint64"),
    "short": ("int16",), "int16_t": ("int16",), "char": ("int8", "uint8", "bool"), "signed char": ("int8",),
    "int8_t": ("int8",), "unsigned char": ("uint8", "bool"), "uint8_t": ("uint8", "bool"), "bool": ("bool",),
}

_QUALIFIERS = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "__grid_constant__"}


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str  # normalized spelling, e.g. "const float*"
    pointer: bool
    base: str  # element / scalar spelling without qualifiers, e.g. "float"

    @property
    def accepts_dtypes(self) -> tuple[str, ...] | None:
        """torch dtype names a pointer may point to (None: any, e.g. void*)."""
        return _POINTEES.get(self.base)

    @property
    def scalar(self) -> tuple[str, int] | None:
        return _SCALARS.get(self.base)


class SignatureError(ValueError):
    pass


def _strip_comments(src: str) -> str:
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    # attributes between the return type and the name hide the declaration's shape
    return re.sub(r"__launch_bounds__\s*\([^)]*\)", " ", src)


def parse_param(text: str) -> Param:
    t = text.strip()
    if not t or t == "void":
        raise SignatureError("empty parameter")
    t = re.sub(r"\[\s*\]", "*", t)  # int a[] -> int* a
    pointer = "*" in t or "&" in t
    words = re.findall(r"[A-Za-z_]\w*", t.replace("*", " ").replace("&", " "))
    words = [w for w in words if w not in _QUALIFIERS]
    if len(words) >= 2:
        name, type_words = words[-1], words[:-1]
    else:
        name, type_words = "", words
    base = " ".join(type_words)
    if base.startswith("std::"):
        base = base[5:]
    return Param(name=name, ctype=("const " if "const" in t.split() else "") + base + ("*" if pointer else ""), pointer=pointer, base=base)


def find_params(source: str, func: str) -> list[Param]:
    """Parameters of the first definition or declaration of ``func`` in ``source``."""
    src = _strip_comments(source)
    m = None
    for cand in re.finditer(r"\b" + re.escape(func) + r"\s*\(", src):
        before = src[: cand.start()].rstrip()
        # a definition or declaration has a return type (or __global__) right before the name;
        # a call has an operator, a comma, `return` or an opening bracket there
        if re.search(r"(=|return|,|\(|\.|->|<<<)\s*$", before):
            continue
        if re.search(r"[\w>*&]\s*$", before):
            m = cand
            break
    if not m:
        raise SignatureError(f"no declaration of `{func}` found in the source")
    depth, i = 1, m.end()
    while i < len(src) and depth:
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    inner = src[m.end(): i - 1].strip()
    if not inner or inner == "void":
        return []
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [parse_param(p) for p in parts]


def kernel_names_in_cuda(text: str) -> list[str]:
    """Names of ``__global__`` functions declared in CUDA C++ text (a tokenizer, not Python rules)."""
    names = []
    for m in re.finditer(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:static\s+)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(", text):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


def parse_signature(sig: str) -> list[Param]:
    """An explicit signature such as ``"const float*, float*, int"``."""
    return [parse_param(p) for p in sig.split(",") if p.strip()]


def make_coercer(func: str, params: list[Param], device_type: str):
    """A fast checker-converter for one kernel: ``args -> [(tag, value), ...]``.

    Launch overhead matters (a small kernel runs in microseconds), so every per-parameter
    decision is made once here; error messages are built only when an argument is wrong.
    """
    import torch

    want_cuda = device_type == "cuda"
    sig = ", ".join(p.ctype + (" " + p.name if p.name else "") for p in params)

    def label(i: int) -> str:
        p = params[i]
        return f"{func}() argument {i} `{p.ctype}{(' ' + p.name) if p.name else ''}`"

    steps = []
    for i, p in enumerate(params):
        if p.pointer:
            acc = p.accepts_dtypes
            dtypes = None if acc is None else {getattr(torch, d) for d in acc if hasattr(torch, d)}
            steps.append(("p", dtypes, acc))
        else:
            sc = p.scalar
            if sc is None:
                raise TypeError(f"{label(i)}: parameter type `{p.ctype}` is not supported by the launcher (use a pointer or a plain C scalar)")
            kind, bits = sc
            rng = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if kind == "i" else (0, (1 << bits) - 1)) if kind in "iu" else None
            steps.append((f"{kind}{bits}", rng, None))
    n = len(params)
    Tensor = torch.Tensor

    def coerce(args) -> list[tuple[str, int | float | bool]]:
        if len(args) != n:
            raise TypeError(f"{func}({sig}) takes {n} arguments, got {len(args)}")
        out = []
        for i, a in enumerate(args):
            tag, extra, acc = steps[i]
            if tag == "p":
                if isinstance(a, Tensor):
                    if a.is_cuda != want_cuda:
                        raise TypeError(f"{label(i)}: the tensor is on {a.device}, expected a {device_type} tensor")
                    if extra is not None and a.dtype not in extra:
                        raise TypeError(f"{label(i)}: got a {str(a.dtype).replace('torch.', '')} tensor, expected {' or '.join(acc)}")
                    out.append(("p", a.data_ptr()))
                elif a is None:
                    out.append(("p", 0))
                elif isinstance(a, int) and not isinstance(a, bool):
                    out.append(("p", a))
                else:
                    raise TypeError(f"{label(i)}: expected a tensor, got {type(a).__name__}")
                continue
            if not isinstance(a, (int, float, bool)) and hasattr(a, "item") and callable(a.item):
                a = a.item()
            k = tag[0]
            if k in "iu":
                if isinstance(a, float) or not isinstance(a, (int, bool)):
                    raise TypeError(f"{label(i)}: expected an integer, got {type(a).__name__}")
                lo, hi = extra
                if not lo <= a <= hi:
                    raise OverflowError(f"{label(i)}: {a} does not fit in {params[i].ctype} (use a 64-bit type for sizes above 2^31)")
                out.append((tag, int(a)))
            elif k == "f":
                if not isinstance(a, (int, float)):
                    raise TypeError(f"{label(i)}: expected a number, got {type(a).__name__}")
                out.append((tag, float(a)))
            else:
                out.append(("b8", bool(a)))
        return out

    return coerce


def coerce_args(func: str, params: list[Param], args: tuple, device_type: str) -> list[tuple[str, int | float | bool]]:
    """Check Python arguments against C parameters; returns ``(tag, value)`` pairs.

    Tags: ``p`` (an address), ``i8``..``i64``, ``u8``..``u64``, ``f32``, ``f64``, ``b8``.
    Tensors go to pointer parameters (on ``device_type``, with a matching dtype);
    Python numbers, numpy scalars and 0-d tensors go to scalar parameters.
    """
    return make_coercer(func, params, device_type)(args)
