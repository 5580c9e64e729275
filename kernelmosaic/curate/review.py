"""Human review of a task set: decisions in an append-only ledger, ``review.jsonl``.

Each line is one decision: ``{"name", "decision", "note", "who", "when", "sha256"}`` with
``decision`` one of ``accepted``, ``rejected``, ``edited``, ``skipped``. A task's status is its
latest ``accepted``/``rejected`` decision; without one it keeps the status the pipeline gave it
(``auto``: accepted by the filters alone), so ``auto`` and ``accepted`` (by a person) never mix.
An edit rewrites the task file and is recorded with the new source's hash; the eager time in the
manifest then no longer describes the file, which the review screen shows.

The terminal UI reads its answers with ``input()``, so it works in a terminal and from a pipe
(``printf 'a\\n\\nr\\ntoo easy\\n' | kmosaic tasks review SET``).
"""

from __future__ import annotations

import datetime as _dt
import getpass
import json
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from ..task import TaskError, parse_task, sha256_text
from .taskset import TaskSet, read_jsonl

LEDGER = "review.jsonl"
DECISIONS = ("accepted", "rejected", "edited", "skipped")
HUMAN_STATUS = ("accepted", "rejected")


def ledger(ts: TaskSet) -> list[dict]:
    p = ts.root / LEDGER
    return read_jsonl(p)


def record(ts: TaskSet, name: str, decision: str, note: str = "", who: str | None = None) -> dict:
    """Append one decision (flushed and fsynced: a decision once shown as saved stays saved)."""
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {', '.join(DECISIONS)}")
    rec = ts.by_name().get(name)
    if rec is None:
        raise TaskError(str(ts.root), f"no task named {name}")
    row = {"name": name, "decision": decision, "note": note, "who": who or default_reviewer(),
           "when": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
           "sha256": sha256_text(ts.source(rec))}
    with open(ts.root / LEDGER, "a") as f:
        f.write(json.dumps(row) + "\n")
        f.flush()
        os.fsync(f.fileno())
    return row


def default_reviewer() -> str:
    return os.environ.get("KMOSAIC_REVIEWER") or getpass.getuser()


def statuses(ts: TaskSet) -> dict[str, str]:
    """Every task's status: the latest human decision, else the pipeline's (``auto``/``pending``)."""
    st = {r["name"]: r.get("status", "pending") for r in ts.records}
    for row in ledger(ts):
        if row.get("decision") in HUMAN_STATUS and row.get("name") in st:
            st[row["name"]] = row["decision"]
    return st


def edited(ts: TaskSet) -> set[str]:
    return {r["name"] for r in ledger(ts) if r.get("decision") == "edited"}


# -- the terminal UI ----------------------------------------------------------------------------
def show(console, ts: TaskSet, rec: dict, status: str, index: int, total: int, was_edited: bool) -> None:
    from rich.panel import Panel
    from rich.syntax import Syntax
    from rich.table import Table

    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    eager = rec.get("eager_ms")
    rows = [
        ("task", f"{rec['name']}  ({index}/{total})"), ("status", status + ("  (edited: re-run the filters)" if was_edited else "")),
        ("category", rec.get("category", "-")), ("generator", f"{rec.get('generator', '-')} (seed {rec.get('seed', '-')})"),
        ("ops", " -> ".join(rec.get("ops") or []) or "-"), ("dtypes", ", ".join(rec.get("dtypes") or []) or "-"),
        ("shapes", ", ".join(f"{k}: {tuple(v)}" for k, v in (rec.get("shapes") or {}).items()) or "-"),
        ("eager", f"{eager:.3f} ms on {rec.get('gpu') or 'the GPU'}" if eager else "not measured"),
        ("work", f"{_si(rec.get('measured_flops') or rec.get('flops'))}FLOP, {_si(rec.get('measured_bytes') or rec.get('bytes'))}B"),
        ("nearest KernelBench", f"{rec.get('nearest_kb')} (score {rec.get('kb_score')})" if rec.get("nearest_kb") else "-"),
    ]
    for k, v in rows:
        t.add_row(k, str(v))
    console.print(Panel(t, title="task", expand=False))
    console.print(Syntax(ts.source(rec), "python", line_numbers=True, word_wrap=True))


def _si(x) -> str:
    if not x:
        return "- "
    for unit, div in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.2f} {unit}"
    return f"{x:.0f} "


def edit_source(path: Path, editor: str | None = None) -> bool:
    """Open the task in $EDITOR on a copy; keep the change only if it still parses as a task."""
    editor = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    old = path.read_text()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(old)
        tmp = f.name
    try:
        subprocess.run(shlex.split(editor) + [tmp], check=False)
        new = Path(tmp).read_text()
    finally:
        os.unlink(tmp)
    if new == old:
        return False
    parse_task(new, str(path))  # raises TaskError: the file is left as it was
    path.write_text(new)
    return True


def review(ts: TaskSet, console, *, who: str | None = None, only: str = "undecided", names: list[str] | None = None,
           limit: int | None = None, ask=input) -> dict:
    """Walk the tasks one by one. ``only``: undecided (no human decision yet) | all | a status."""
    st = statuses(ts)
    human = {r["name"] for r in ledger(ts) if r.get("decision") in HUMAN_STATUS}
    recs = ts.records
    if names:
        by = ts.by_name()
        unknown = [n for n in names if n not in by]
        if unknown:
            raise TaskError(str(ts.root), f"no task named {unknown[0]}")
        recs = [by[n] for n in names]
    elif only == "undecided":
        recs = [r for r in recs if r["name"] not in human]
    elif only != "all":
        recs = [r for r in recs if st[r["name"]] == only]
    if limit is not None:
        recs = recs[:limit]
    counts = {d: 0 for d in DECISIONS}
    who = who or default_reviewer()
    was_edited = edited(ts)
    console.print(f"Reviewing {len(recs)} task(s) of {ts.name} as [bold]{who}[/]. "
                  "Decisions are saved as you go, to " + str(ts.root / LEDGER))
    i = 0
    while i < len(recs):
        rec = recs[i]
        show(console, ts, rec, st[rec["name"]], i + 1, len(recs), rec["name"] in was_edited)
        try:
            a = ask("[a]ccept  [r]eject  [e]dit  [s]kip  [q]uit > ").strip().lower()
        except EOFError:
            break
        if a in ("q", "quit"):
            break
        if a in ("a", "accept", "r", "reject", "s", "skip"):
            decision = {"a": "accepted", "r": "rejected", "s": "skipped"}[a[0]]
            try:
                note = ask("note (why; Enter for none) > ").strip() if decision != "rejected" else ""
                while decision == "rejected" and not note:
                    note = ask("why reject? (a note is required) > ").strip()
            except EOFError:
                console.print("[yellow]no note given: the decision was not saved[/]")
                break
            record(ts, rec["name"], decision, note, who)
            counts[decision] += 1
            if decision in HUMAN_STATUS:
                st[rec["name"]] = decision
            console.print(f"[green]saved:[/] {rec['name']} {decision}" + (f" ({note})" if note else ""))
            i += 1
        elif a in ("e", "edit"):
            try:
                changed = edit_source(ts.path(rec))
            except TaskError as e:
                console.print(f"[red]edit not kept:[/] {e.problem}")
                continue
            if changed:
                try:
                    note = ask("what did you change? > ").strip()
                except EOFError:
                    note = ""
                record(ts, rec["name"], "edited", note, who)
                counts["edited"] += 1
                was_edited.add(rec["name"])
                console.print("[green]edit saved[/]; accept or reject the edited task")
            else:
                console.print("no change")
        else:
            console.print("[yellow]answer a, r, e, s or q[/]")
    console.print("decisions this session: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v) if any(counts.values())
                  else "no decisions this session")
    return counts
