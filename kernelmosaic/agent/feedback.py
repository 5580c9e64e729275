"""Verdict -> the feedback an engineer would want to read, pointing into the candidate."""

from __future__ import annotations

import ast
import re

from .._json import number
from ..verify.logs import trim_log
from ..verify.verdict import Failure, Timing, Verdict
from ..vocab import Status

# compiler locations: nvcc/NVRTC "file.cu(12): error", gcc "file.c:12:5: error"
_LOC = re.compile(r"(?P<file>[\w./-]*\.(?:cu|cuh|c|cc|cpp|h))(?:\((?P<l1>\d+)\)|:(?P<l2>\d+):(?:\d+:)?)")


def _literals(code: str) -> list[tuple[int, str]]:
    """(first line, text) of every multi-line string literal: where kernel sources live."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and "\n" in n.value]


def map_lines(log: str, code: str | None) -> str:
    """Annotate compiler locations with the matching candidate.py line.

    A kernel source is a string literal; compilers count lines inside it (load_inline
    prepends a few #include lines). The compiler usually echoes the offending source
    line, so the literal line whose text matches that echo gives an exact mapping.
    """
    if not code:
        return log
    lits = _literals(code)
    if not lits:
        return log
    lines = log.splitlines()
    out = []
    for i, ln in enumerate(lines):
        m = _LOC.search(ln)
        if m:
            n = int(m.group("l1") or m.group("l2"))
            echo = lines[i + 1].strip() if i + 1 < len(lines) else ""
            hit = None
            for start, text in lits:
                src = text.split("\n")
                for off in range(0, 6):  # prepended include lines
                    j = n - 1 - off
                    if 0 <= j < len(src) and echo and src[j].strip() == echo:
                        hit = start + j
                        break
                if hit:
                    break
            if hit is None and len(lits) == 1 or (hit is None and sum("__global__" in t or "{" in t for _, t in lits) == 1):
                start, text = next(((s, t) for s, t in lits if "__global__" in t or "{" in t), lits[0])
                if 0 < n <= text.count("\n") + 1:
                    hit = start + n - 1
            if hit:
                ln = f"{ln}   [candidate.py line {hit}]"
        out.append(ln)
    return "\n".join(out)


def render_feedback(verdict: Verdict | dict, code: str | None = None) -> str:
    """Plain text: what happened, the evidence, nothing a model cannot act on."""
    v = verdict if isinstance(verdict, Verdict) else Verdict.from_dict({"backend": "", "policy": "", "task": "", "device": "", **verdict})
    st = v.status
    err = v.error or Failure("", "")
    parts: list[str] = []
    if st == Status.CORRECT:
        parts.append("Verdict: CORRECT on all trials.")
        if v.timing is not None and number(v.timing.candidate_ms) is not None:
            parts.append(_timing_line(v.timing))
        return "\n".join(parts)
    head = {
        Status.COMPILE_ERROR: "Verdict: COMPILE ERROR. The kernel did not build.",
        Status.RUNTIME_ERROR: "Verdict: RUNTIME ERROR.",
        Status.TIMEOUT: "Verdict: TIMEOUT. The candidate did not finish and was killed.",
        Status.INCORRECT: "Verdict: INCORRECT. The output does not match the reference.",
        Status.REJECTED: "Verdict: REJECTED by the verifier's rules (the result does not count even if it is right).",
        Status.INVALID_CANDIDATE: "Verdict: NO USABLE CANDIDATE.",
        # never shown to a model (the episode verifies the code again), but recorded with the turn
        Status.INFRA_ERROR: "Verdict: NONE. The verifier failed on its own (not the candidate's fault); the code is verified again.",
    }.get(st, f"Verdict: {st}.")
    parts.append(head)
    if st == Status.COMPILE_ERROR:
        log = trim_log(err.log or err.message or "", max_errors=5)
        parts.append("Compiler output (first distinct errors):\n" + map_lines(log, code))
    elif st in (Status.RUNTIME_ERROR, Status.TIMEOUT):
        parts.append((err.message or "").strip())
        log = (err.log or "").strip()
        if log:
            tail = "\n".join(log.splitlines()[-25:])
            parts.append("Log (last lines):\n" + tail)
    elif st == Status.INCORRECT:
        m = v.mismatch
        parts.append((err.message or "").strip() or (m.reason if m else ""))
        stats = []
        if m is not None:
            for k, label in (("max_abs_err", "max abs error"), ("max_rel_err", "max rel error"),
                             ("rel_norm_err", "relative norm error")):
                x = getattr(m, k)
                if x is not None:
                    stats.append(f"{label} {x:.3g}" if isinstance(x, (int, float)) else f"{label} {x}")
            if m.first_bad_index is not None:
                stats.append(f"first bad index {tuple(m.first_bad_index)}: expected {m.expected_at_first_bad}, "
                             f"got {m.got_at_first_bad}")
            if m.trial is not None:
                stats.append(f"trial {m.trial}")
        if stats:
            parts.append("; ".join(stats))
        if v.tolerances:
            parts.append("Tolerances: " + ", ".join(f"{k}={x:g}" for k, x in v.tolerances.items() if isinstance(x, (int, float))))
    elif st == Status.REJECTED:
        for r in v.rejections:
            parts.append(f"- rule `{r.rule}`: {r.detail}")
        if not v.rejections and err.message:
            parts.append(err.message)
    elif st in (Status.INVALID_CANDIDATE, Status.INFRA_ERROR):
        parts.append((err.message or "").strip())
    return "\n".join(p for p in parts if p)


def _timing_line(t: Timing) -> str:
    bits = [f"your kernel {t.candidate_ms:.4f} ms"]
    if number(t.eager_ms) is not None:
        bits.append(f"PyTorch eager {t.eager_ms:.4f} ms (speedup {t.speedup_eager or 0:.2f}x)")
    if number(t.compile_ms) is not None:
        bits.append(f"torch.compile {t.compile_ms:.4f} ms (speedup {t.speedup_compile or 0:.2f}x)")
    if number(t.floor_ms) is not None:
        bits.append(f"speed-of-light floor {t.floor_ms:.4f} ms")
    return "Timing (median): " + "; ".join(bits) + "."
