"""The dynamic rules: what the judge concludes from the instrumented call's report.

The report comes from inside the candidate process (which aten ops ran, whether its own compiled
code was called, which kernels the GPU profiler saw). Native code there could falsify it, so these
rules decide policy only (how the work was done), never correctness or time, which the judge
measures itself.
"""

from __future__ import annotations

import re

from . import streams

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


def kernel_base_name(profiler_name: str) -> str:
    """``void ns::relu_kernel<float>(float const*, float*, long)`` -> ``relu_kernel``."""
    s = profiler_name.strip()
    depth, cut = 0, len(s)
    for i, c in enumerate(s):  # the parameter list starts at the first '(' outside template brackets
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            cut = i
            break
    s = s[:cut]
    s = re.sub(r"<.*>$", "", s).strip()  # template arguments of the function itself
    s = s.split()[-1] if s.split() else s  # drop a return type
    return s.split("::")[-1]


def dynamic_rejections(instr: dict, policy: str, kernel_names: list[str], on_gpu: bool) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []

    def total(key: str) -> int:
        v = instr.get(key) or {}
        return sum(int(x) for x in v.values() if isinstance(x, (int, float))) if isinstance(v, dict) else 0

    own = total("launches") + total("ext_calls") + total("triton_runs")
    if own == 0:
        out.append(("no_kernel_launched", "forward never called the candidate's own compiled kernels"))
    kernels = instr.get("kernels")
    if on_gpu and isinstance(kernels, list) and kernel_names and own:
        seen = {kernel_base_name(str(k)) for k in kernels}
        # exact names, never substrings: an ATen kernel's long name contains many short words
        if not seen & set(kernel_names):
            out.append(("no_kernel_launched", f"none of the candidate's kernels ({', '.join(kernel_names)}) ran on the "
                        f"GPU; kernels seen: {', '.join(sorted(str(k) for k in kernels)[:8]) or 'none'}"))
    if on_gpu and isinstance(instr.get("streams"), dict):
        # decided from the profiler's stream and synchronisation records, not from a race (streams.py)
        detail = streams.rejection(instr["streams"])
        if detail:
            out.append(("unsynchronized_output", detail))
    if policy == "strict":
        ops = instr.get("ops") or {}
        bad = sorted(str(op) for op in ops if op not in STRICT_ALLOWED_OPS)
        if bad:
            out.append(("torch_compute", "torch computed in forward (strict policy allows only allocation, views and "
                        "copies): " + ", ".join(f"aten.{b}" for b in bad[:12])))
    return out
