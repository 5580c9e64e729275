"""Tasks: KernelBench-format problems as plain records.

A task is the Python source of a reference ``Model`` plus ``get_inputs()`` and
``get_init_inputs()``. This module only *reads* task sources (it parses them with
``ast`` and never executes them): running a reference happens inside a verifier
worker, so a task whose ``get_inputs`` raises is reported by the worker and
turned into a :class:`TaskError` by the verifier.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

__all__ = [
    "Task",
    "TaskError",
    "load_task",
    "parse_task",
    "resolve_kernelbench_dir",
    "load_kernelbench",
    "resolve_task_spec",
]

KERNELBENCH_ENV = "KERNELBENCH_DIR"
REQUIRED_NAMES = ("Model", "get_inputs", "get_init_inputs")


class TaskError(ValueError):
    """A task file that cannot be used. The message names the file and the problem."""

    def __init__(self, where: str, problem: str):
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


def sha256_text(text: str) -> str:
    """The hex sha256 of a source text: a task's identity in stores, manifests and filter rows."""
    return hashlib.sha256(text.encode()).hexdigest()


def sha256_fd(fd: int) -> str:
    """The hex sha256 of an open file's whole content, read by offset (the descriptor's own
    position is left alone): a library the candidate process holds open, checked before it loads."""
    h = hashlib.sha256()
    off = 0
    while True:
        chunk = os.pread(fd, 1 << 20, off)
        if not chunk:
            return h.hexdigest()
        h.update(chunk)
        off += len(chunk)


def sha256_file(path: str | os.PathLike) -> str:
    """The hex sha256 of a file's content: built libraries in the verifier's cache, copied stores."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return sha256_fd(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Task:
    """One KernelBench-format problem."""

    name: str
    source: str
    path: str | None = None
    level: int | None = None
    problem_id: int | None = None
    origin: str = "file"  # "file" | "kernelbench" | a task-set name
    needs_weights: bool = False
    metadata: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def sha256(self) -> str:
        return sha256_text(self.source)

    @property
    def key(self) -> str:
        """A stable id: ``L1/19_ReLU`` for KernelBench, the file stem otherwise."""
        if self.level is not None:
            return f"L{self.level}/{self.name}"
        return self.name


def parse_task(source: str, where: str) -> None:
    """Check a task source statically. Raises :class:`TaskError` with a precise message."""
    try:
        tree = ast.parse(source, filename=where)
    except SyntaxError as e:
        line = f" (line {e.lineno}" + (f", column {e.offset})" if e.offset else ")") if e.lineno else ""
        raise TaskError(where, f"syntax error{line}: {e.msg}") from None
    defined: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            defined[node.name] = "class"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined[node.name] = "function"
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    defined[t.id] = "assignment"
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                defined[(a.asname or a.name).split(".")[0]] = "import"
    missing = [n for n in REQUIRED_NAMES if n not in defined]
    if missing:
        raise TaskError(
            where,
            "not a KernelBench-format task: missing "
            + ", ".join(f"`{m}`" for m in missing)
            + " (a task defines class Model(nn.Module), get_inputs() and get_init_inputs())",
        )
    if defined["Model"] not in ("class", "assignment", "import"):
        raise TaskError(where, "`Model` must be a class (an nn.Module subclass)")
    for fn in ("get_inputs", "get_init_inputs"):
        if defined[fn] == "class":
            raise TaskError(where, f"`{fn}` must be a function, not a class")


_KB_NAME = re.compile(r"^(\d+)_(.+)\.py$")


def load_task(path: str | os.PathLike, *, level: int | None = None, origin: str = "file") -> Task:
    """Load and statically check one task file."""
    p = Path(path)
    where = str(p)
    if not p.exists():
        raise TaskError(where, "no such file")
    if p.is_dir():
        raise TaskError(where, "is a directory, expected a .py task file")
    try:
        source = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise TaskError(where, "not UTF-8 text") from None
    parse_task(source, where)
    m = _KB_NAME.match(p.name)
    problem_id = int(m.group(1)) if m else None
    if level is None:
        lm = re.match(r"^level(\d)$", p.parent.name)
        level = int(lm.group(1)) if lm else None
    if level is not None and origin == "file":
        origin = "kernelbench"
    needs_weights = level == 4 or "from_pretrained" in source
    return Task(
        name=p.stem,
        source=source,
        path=str(p.resolve()),
        level=level,
        problem_id=problem_id,
        origin=origin,
        needs_weights=needs_weights,
    )


def resolve_kernelbench_dir(path: str | os.PathLike | None = None) -> Path:
    """Find the folder that holds ``level1/ level2/ …``.

    Accepts that folder itself or a KernelBench checkout (``<repo>/KernelBench/level1``),
    from the argument or ``$KERNELBENCH_DIR``.
    """
    raw = path if path is not None else os.environ.get(KERNELBENCH_ENV)
    if not raw:
        raise TaskError(
            "KernelBench", f"no KernelBench directory given: pass --kernelbench DIR or set ${KERNELBENCH_ENV}"
        )
    root = Path(raw).expanduser()
    for cand in (root, root / "KernelBench"):
        if (cand / "level1").is_dir():
            return cand
    raise TaskError(str(root), "not a KernelBench directory (no level1/ inside it or in KernelBench/)")


def load_kernelbench(path: str | os.PathLike | None = None, levels: Iterable[int] = (1, 2, 3)) -> list[Task]:
    """All problems of the given levels, sorted by level and problem id.

    Level 4 problems load Hugging Face models by name; they are listed with
    ``needs_weights=True`` so callers can skip them on machines without weights.
    """
    root = resolve_kernelbench_dir(path)
    tasks: list[Task] = []
    for level in levels:
        d = root / f"level{level}"
        if not d.is_dir():
            raise TaskError(str(d), f"KernelBench level {level} not found")
        files = sorted(d.glob("*.py"), key=lambda f: (int(_KB_NAME.match(f.name).group(1)) if _KB_NAME.match(f.name) else 10**9, f.name))
        for f in files:
            tasks.append(load_task(f, level=level, origin="kernelbench"))
    return tasks


_SPEC = re.compile(r"^(?:kb:|kernelbench:)?[Ll](?:evel)?(\d)[/:](\d+)$")


def resolve_task_spec(spec: str, kernelbench_dir: str | None = None) -> Task:
    """A task from a path, or from ``L1/19`` / ``kb:level2:5`` (KernelBench by level and id)."""
    m = _SPEC.match(spec.strip())
    if m and not Path(spec).exists():
        level, pid = int(m.group(1)), int(m.group(2))
        root = resolve_kernelbench_dir(kernelbench_dir)
        hits = sorted((root / f"level{level}").glob(f"{pid}_*.py"))
        if not hits:
            raise TaskError(spec, f"no KernelBench level {level} problem with id {pid} in {root}")
        return load_task(hits[0], level=level, origin="kernelbench")
    return load_task(spec)
