"""Trimming compiler and runtime logs to what a person (or a model) needs to read."""

from __future__ import annotations

import re

_ERR = re.compile(r"(\berror\b|Error|undefined reference|undeclared|fatal|FAILED|Traceback|Exception)", re.I)
_NOISE = re.compile(r"^(\[\d+/\d+\]|ninja: build stopped|c\+\+ -MMD|/usr/\S*nvcc |Emitting ninja|Building extension|Loading extension|Allowing ninja)")


def trim_log(text: str, max_errors: int = 8, context: int = 2, max_chars: int = 6000) -> str:
    """Keep the first distinct error lines and a little context after each.

    Compiler logs repeat one mistake dozens of times (every instantiation, every
    later line that uses a bad name). The first few distinct messages are what fix
    the code; the rest is noise that crowds a model's context.
    """
    if not text:
        return ""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip() and not _NOISE.match(ln.strip())]
    if len(text) <= max_chars and len(lines) <= 40:
        return "\n".join(lines)
    seen: set[str] = set()
    keep: list[int] = []
    for i, ln in enumerate(lines):
        if not _ERR.search(ln):
            continue
        # the same message at another line number is the same mistake
        sig = re.sub(r"\d+", "#", re.sub(r"^\S+?:\d+(:\d+)?:", "", ln)).strip()
        if sig in seen:
            continue
        seen.add(sig)
        keep.append(i)
        # context (the offending source line, a caret) stops at the next error line
        for j in range(i + 1, min(len(lines), i + 1 + context)):
            if _ERR.search(lines[j]):
                break
            keep.append(j)
        if len(seen) >= max_errors:
            break
    if not keep:
        body = lines[-40:]
    else:
        ordered = sorted(set(keep))
        body, prev = [], -2
        for i in ordered:
            if i != prev + 1 and body:
                body.append("...")
            body.append(lines[i])
            prev = i
    out = "\n".join(body)
    if len(out) > max_chars:
        out = out[:max_chars] + "\n... (trimmed)"
    return out
