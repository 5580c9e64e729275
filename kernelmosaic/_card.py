"""Pieces of a Hugging Face dataset card shared by the trajectory export (``data``) and the
task-set release (``task``); here, below both, so neither imports the other."""

from __future__ import annotations

from typing import Any


def md_table(header: list[str], rows) -> str:
    """A Markdown table; ``|`` and newlines inside cells are escaped."""
    def cell(x: Any) -> str:
        return str(x).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` value for ``n`` rows."""
    for lim, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < lim:
            return name
    return "n>1M"
