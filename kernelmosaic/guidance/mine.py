"""Draft new guidance entries from repair records that the knowledge base does not explain yet.

Input: pairs of a failed turn and the turn that fixed it. Pairs whose errors normalise to the
same signature are one recurring problem; a signature that an existing entry already matches
through a regex or rule trigger is skipped. Each remaining signature becomes a draft entry
(``status: "proposed"``) for a person to review and rewrite; nothing here edits entries.json.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any, Iterable

from .kb import KnowledgeBase

# A line that states an error in nvcc/NVRTC (`file.cu(4): error: ...`), gcc (`k.c:3:5: error:`),
# the linker or the loader. "Error building extension ..." (load_inline's ninja banner, followed
# by the whole nvcc command line) is deliberately not one.
_ERROR_LINE = re.compile(r"\berror\b\s*:|undefined reference|undefined symbol|fatal error|catastrophic error", re.IGNORECASE)
_GENERIC_MESSAGE = re.compile(r"did not compile|failed with exit code|failed to compile", re.IGNORECASE)

# Order matters: paths before quotes (a quoted path is a path), hex before decimal.
_NORMALISERS = (
    # where the compiler found it (`k.c:3:5:`, `x.cu(4):`) is no part of what went wrong
    (re.compile(r"^\s*[\w./@+-]+(?:\(\d+\)|:\d+(?::\d+)?):\s*"), ""),
    (re.compile(r"(?<![\w/])(?:/[\w.@+-]+)+(?:\(\d+\))?"), "<path>"),
    (re.compile(r"(?<=undefined symbol: )\S+"), "<sym>"),
    (re.compile(r"\"[^\"\n]*\""), '"<id>"'),
    (re.compile(r"[‘'`][^’'`\n]*[’'`]"), "'<id>'"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<hex>"),
    (re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"), "<n>"),
)
_PLACEHOLDER_RE = {"<path>": r"\S+", "<sym>": r"\S+", '"<id>"': r'"[^"]*"', "'<id>'": r"[‘'`][^’'`\n]*[’'`]", "<hex>": r"0x[0-9a-fA-F]+", "<n>": r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"}
_PLACEHOLDERS = re.compile("|".join(re.escape(p) for p in _PLACEHOLDER_RE))


def first_error_line(verdict: dict[str, Any]) -> str:
    """The line of the verdict that best states what went wrong, unnormalised."""
    err = verdict.get("error") or {}
    message = str(err.get("message") or "").strip()
    log_line = next((ln.strip() for ln in str(err.get("log") or "").splitlines() if _ERROR_LINE.search(ln)), "")
    # compile failures carry a generic message; the compiler's first error is the information
    if log_line and (not message or _GENERIC_MESSAGE.search(message) or verdict.get("status") == "compile_error"):
        return log_line
    if message:
        # the mismatch message starts with "trial 0 (seed ...): "; the reason is what matters
        return re.sub(r"^(trial \d+ \(seed \d+\)|after timing \(seed \d+\)):\s*", "", message.splitlines()[0])
    reason = str((verdict.get("mismatch") or {}).get("reason") or "")
    if reason:
        return reason.splitlines()[0]
    rules = sorted({str(r.get("rule")) for r in verdict.get("rejections") or [] if isinstance(r, dict)})
    return ("rejected: " + ", ".join(rules)) if rules else str(verdict.get("status") or "unknown")


def normalize(line: str) -> str:
    s = line
    for rx, repl in _NORMALISERS:
        s = rx.sub(repl, s)
    s = re.sub(r"^(?:<path>\s*:?\s*)+", "", s)  # a bare leading file name, as above
    return " ".join(s.split())


def error_signature(verdict: dict[str, Any]) -> str:
    return normalize(first_error_line(verdict))


def signature_regex(signature: str) -> str:
    """A regex that matches any error line normalising to ``signature``."""
    out, pos = [], 0
    for m in _PLACEHOLDERS.finditer(signature):
        out.append(re.escape(signature[pos:m.start()]).replace(r"\ ", r"\s+"))
        out.append(_PLACEHOLDER_RE[m.group(0)])
        pos = m.end()
    out.append(re.escape(signature[pos:]).replace(r"\ ", r"\s+"))
    return "".join(out)


def _hunks(before: str, after: str) -> list[list[str]]:
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm=""))
    hunks: list[list[str]] = []
    for ln in diff[2:]:  # the ---/+++ header names nothing useful
        if ln.startswith("@@"):
            hunks.append([ln])
        elif hunks:
            hunks[-1].append(ln)
    return hunks


def _changed(hunk: list[str]) -> tuple[list[str], list[str]]:
    minus = [ln[1:].strip() for ln in hunk if ln.startswith("-")]
    plus = [ln[1:].strip() for ln in hunk if ln.startswith("+")]
    return minus, plus


def diff_summary(before: str, after: str, width: int = 80) -> str:
    hunks = _hunks(before, after)
    if not hunks:
        return "no code change"
    removed = sum(len(_changed(h)[0]) for h in hunks)
    added = sum(len(_changed(h)[1]) for h in hunks)
    minus, plus = _changed(min(hunks, key=_hunk_size))
    change = f"`{(minus or [''])[0][:width]}` -> `{(plus or [''])[0][:width]}`"
    return f"{len(hunks)} hunk(s), -{removed}/+{added} lines, e.g. {change}"


def _hunk_size(h: list[str]) -> tuple[int, int]:
    minus, plus = _changed(h)
    return (len(minus) + len(plus), sum(map(len, h)))


def _category(verdict: dict[str, Any], text: str) -> str:
    status, backend = verdict.get("status"), verdict.get("backend")
    if backend == "triton":
        return "triton"
    if status == "compile_error":
        return "compile"
    if backend == "cpp" and status in ("runtime_error", "timeout"):
        return "cpu"
    if status == "rejected":
        return "policy"
    if status == "timeout":
        return "sync"
    if status == "runtime_error":
        return "launch" if re.search(r"launch|resources|configuration|shared", text, re.I) else "memory"
    if status == "incorrect":
        return "numerics" if re.search(r"NaN|Inf|relative norm", text) else "correctness"
    return "correctness"


def _slug(signature: str, taken: set[str]) -> str:
    words = [w for w in re.findall(r"[a-z][a-z0-9]*", signature.lower()) if w not in {"n", "id", "path", "hex", "error", "the", "a", "of"}]
    base = "-".join(words[:6]) or "unknown"
    slug, i = base, 2
    while slug in taken:
        slug, i = f"{base}-{i}", i + 1
    taken.add(slug)
    return slug


def propose_entries(pairs: Iterable[dict[str, Any]], kb: KnowledgeBase, min_count: int = 1) -> list[dict[str, Any]]:
    """Draft entries, most frequent signature first, for errors no existing entry covers."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in pairs:
        sig = error_signature(p["before_verdict"])
        groups.setdefault(sig, []).append(p)
    proposals, taken = [], set()
    for sig, group in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        if len(group) < min_count or any(kb.covers(p["before_verdict"]) for p in group):
            continue
        pattern = signature_regex(sig)
        if not all(re.search(pattern, first_error_line(p["before_verdict"]), re.I) for p in group):
            # a trigger that misses its own evidence is useless; fall back to the literal line
            pattern = re.escape(first_error_line(group[0]["before_verdict"]))
        best = min(group, key=lambda p: sum(_hunk_size(h)[0] for h in _hunks(p["before_code"], p["after_code"])) or 10**9)
        hunks = [h for p in group for h in _hunks(p["before_code"], p["after_code"])]
        example = "\n".join(min(hunks, key=_hunk_size)) if hunks else ""
        first = group[0]["before_verdict"]
        proposals.append({
            "id": "proposed." + _slug(sig, taken),
            "title": sig[:80],
            "category": _category(first, first_error_line(first)),
            "triggers": [{"pattern": pattern}],
            "text": f"DRAFT: {sig} ({len(group)} occurrences; fixed by: {diff_summary(best['before_code'], best['after_code'])})",
            "example": example or "(no code change recorded)",
            "evidence": [{"task": p.get("task", ""), "before": first_error_line(p["before_verdict"])} for p in group],
            "status": "proposed",
        })
    return proposals


def write_proposals(proposals: list[dict[str, Any]], path: str | Path) -> Path:
    """Write drafts for review; a person edits them into entries.json by hand."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "note": "Draft guidance entries mined from repair records. Review, rewrite the text, then copy "
                "accepted ones into kernelmosaic/guidance/entries.json (without status/evidence).",
        "proposals": proposals,
    }
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
