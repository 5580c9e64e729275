"""A task set on disk: ``tasks/<name>.py`` plus ``manifest.jsonl`` (one record per task, in
order) and ``set.json`` (what the set is). Review decisions live in ``review.jsonl`` next to
them (see :mod:`kernelmosaic.curate.review`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..task import TaskError, load_task

MANIFEST = "manifest.jsonl"
SET_META = "set.json"



def read_jsonl(path: Path, *, torn_tail_ok: bool = False) -> list[dict]:
    """The JSON objects of a .jsonl file, one a line ([] when there is no file). A bad line is
    a TaskError naming the file and line; with ``torn_tail_ok`` (files appended to by workers
    that may be killed mid-write) a bad line is skipped instead, since a rerun redoes it."""
    p = Path(path)
    if not p.is_file():
        return []
    rows = []
    for n, line in enumerate(p.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            if torn_tail_ok:
                continue
            raise TaskError(f"{p}:{n}", f"not JSON: {e.msg}") from None
    return rows

class TaskSet:
    def __init__(self, root: Path, records: list[dict], meta: dict):
        self.root = root
        self.records = records
        self.meta = meta

    @classmethod
    def create(cls, root, meta: dict | None = None) -> "TaskSet":
        root = Path(root)
        if (root / MANIFEST).exists():
            raise TaskError(str(root), "already holds a task set (manifest.jsonl); pick a new folder")
        (root / "tasks").mkdir(parents=True, exist_ok=True)
        (root / MANIFEST).write_text("")
        (root / SET_META).write_text(json.dumps(meta or {}, indent=1) + "\n")
        return cls(root, [], meta or {})

    @classmethod
    def open(cls, root) -> "TaskSet":
        root = Path(root)
        m = root / MANIFEST
        if not m.is_file():
            raise TaskError(str(root), "not a task set (no manifest.jsonl)")
        records = read_jsonl(m)
        for n, rec in enumerate(records, 1):
            if not isinstance(rec, dict) or "name" not in rec or "file" not in rec:
                raise TaskError(f"{m}:{n}", "a manifest record needs `name` and `file`")
        meta = {}
        if (root / SET_META).is_file():
            try:
                meta = json.loads((root / SET_META).read_text())
            except json.JSONDecodeError as e:
                raise TaskError(str(root / SET_META), f"not JSON: {e.msg}") from None
        return cls(root, records, meta)

    @property
    def name(self) -> str:
        return self.meta.get("name") or self.root.name

    def add(self, name: str, source: str, meta: dict) -> dict:
        rel = f"tasks/{name}.py"
        (self.root / rel).write_text(source)
        rec = {"name": name, "file": rel, **meta}
        with open(self.root / MANIFEST, "a") as f:
            f.write(json.dumps(rec) + "\n")
        self.records.append(rec)
        return rec

    def source(self, rec: dict) -> str:
        return (self.root / rec["file"]).read_text()

    def path(self, rec: dict) -> Path:
        return self.root / rec["file"]

    def by_name(self) -> dict[str, dict]:
        return {r["name"]: r for r in self.records}

    def rewrite(self, records: list[dict]) -> None:
        """Replace the manifest (new fields, same tasks); written atomically."""
        tmp = self.root / (MANIFEST + ".tmp")
        tmp.write_text("".join(json.dumps(r) + "\n" for r in records))
        tmp.replace(self.root / MANIFEST)
        self.records = records

    def save_meta(self) -> None:
        (self.root / SET_META).write_text(json.dumps(self.meta, indent=1) + "\n")

    def load(self, rec: dict):
        t = load_task(self.path(rec), origin=self.name)
        return type(t)(**{**t.__dict__, "name": rec["name"], "metadata": rec})


def is_task_set(path) -> bool:
    return (Path(path) / MANIFEST).is_file()


GENERATION_DEFAULT = ("accepted", "auto")


def tasks_for_generation(spec: str):
    """``SET`` or ``SET:STATUS[,STATUS]`` -> (tasks, a line saying what was taken), or None when
    ``spec`` is not a task set. By default a set gives its accepted tasks: those a reviewer
    accepted and those the filters accepted (``auto``); rejected and pending ones stay out."""
    from .review import statuses

    path, _, want = spec.partition(":") if not is_task_set(spec) else (spec, "", "")
    if not is_task_set(path):
        return None
    wanted = tuple(s.strip() for s in want.split(",") if s.strip()) or GENERATION_DEFAULT
    known = {"accepted", "auto", "rejected", "pending"}
    bad = [s for s in wanted if s not in known]
    if bad:
        raise TaskError(spec, f"unknown status {bad[0]!r} (one of {', '.join(sorted(known))})")
    ts = TaskSet.open(path)
    st = statuses(ts)
    picked = [r for r in ts.records if st[r["name"]] in wanted]
    if not picked:
        raise TaskError(spec, f"no tasks with status {' or '.join(wanted)} in this set")
    counts = {s: sum(1 for r in picked if st[r["name"]] == s) for s in wanted}
    left = len(ts.records) - len(picked)
    note = (f"task set {ts.name}: taking {len(picked)} tasks with status " + ", ".join(f"{s} ({n})" for s, n in counts.items())
            + (f"; leaving out {left} others" if left else "")
            + (" (add :accepted to take only reviewer-accepted tasks)" if wanted == GENERATION_DEFAULT else ""))
    return [ts.load(r) for r in picked], note
