"""benchmarks/pilot.py's merge of a GPU round into the local copy (issue 20's pilot).

A round cut off by its time limit leaves its last turns in the store's write-ahead log; the
pilot's first absorb copied the store file alone and dropped four turns whose folders it did
update. The copy now goes through SQLite's backup API."""

import importlib.util
import shutil
import sqlite3
import sys

from conftest import ROOT


def _pilot():
    spec = importlib.util.spec_from_file_location("pilot", ROOT / "benchmarks" / "pilot.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("pilot", mod)
    spec.loader.exec_module(mod)
    return mod


def test_a_store_copy_keeps_what_is_still_in_the_write_ahead_log(tmp_path):
    src = tmp_path / "round" / "store.sqlite"
    src.parent.mkdir()
    writer = sqlite3.connect(src)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # as a writer killed before its checkpoint leaves it
    writer.execute("CREATE TABLE turns (id INTEGER PRIMARY KEY)")
    writer.executemany("INSERT INTO turns VALUES (?)", [(i,) for i in range(4)])
    writer.commit()
    assert (tmp_path / "round" / "store.sqlite-wal").stat().st_size > 0
    # the file alone, as the first absorb copied it, holds none of the committed turns
    plain = tmp_path / "plain.sqlite"
    shutil.copy2(src, plain)
    rows = sqlite3.connect(plain).execute("SELECT name FROM sqlite_master").fetchall()
    assert rows == []
    dst = tmp_path / "local" / "store.sqlite"
    dst.parent.mkdir()
    dst.write_bytes(b"the local copy, replaced")
    _pilot()._copy_store(src, dst)
    writer.close()
    assert sqlite3.connect(dst).execute("SELECT count(*) FROM turns").fetchone() == (4,)
    assert not list(dst.parent.glob("*.absorb"))


def test_a_round_takes_repairs_first(tmp_path):
    pilot = _pilot()
    eps = tmp_path / "mosaic" / "episodes"
    for name, first_line in (("a_new", None), ("b_optimize", "episode x, turn 0 (implement): CORRECT"),
                             ("c_repair", "episode y, turn 0 (implement): INCORRECT")):
        d = eps / name
        d.mkdir(parents=True)
        (d / "candidate.py").write_text("x = 1\n")
        if first_line:
            (d / "turn-0.py").write_text("x = 0\n")
            (d / "feedback.md").write_text(first_line + "\n\nmore\n")
    assert [f.name for _, f in pilot._round_order(tmp_path)] == ["c_repair", "b_optimize", "a_new"]


def test_a_batch_is_cut_to_what_fits_before_the_deadline():
    plan = _pilot().plan_batch
    fixed, margin = _pilot().BATCH_FIXED_S, _pilot().MARGIN
    assert plan(30, 10_000, 6.0, 12) == 12  # time for a whole batch
    assert plan(5, 10_000, 6.0, 12) == 5  # the part's last folders
    # round 8's case: 5 left, 50 s left, 5.6 s a verdict: the fixed cost leaves room for none
    assert plan(5, 50, 5.6, 12) == 0
    # 100 s left: (100 / margin - fixed) / 5 folders fit
    assert plan(30, 100, 5.0, 12) == int((100 / margin - fixed) // 5.0)
    assert plan(0, 10_000, 6.0, 12) == 0


def test_a_round_moves_part_by_part_in_batches_and_logs_each(tmp_path, monkeypatch):
    import json
    import subprocess
    from types import SimpleNamespace

    pilot = _pilot()
    for part, n in (("mosaic", 14), ("kernelbench", 3)):
        for i in range(n):
            d = tmp_path / part / "episodes" / f"{part}_{i:02d}"
            d.mkdir(parents=True)
            (d / "candidate.py").write_text("x = 1\n")
    calls = []

    def fake(*args, **kw):  # the step CLI on the GPU machine, as the round calls it
        folders = [x for x in args if "/episodes/" in x]
        calls.append((args[args.index("--store") + 1].split("/")[-2], len(folders), "--lanes-per-gpu" in args))
        return subprocess.CompletedProcess(args, 0, json.dumps([{"verdict": {"status": "correct"}}] * len(folders)), "")

    monkeypatch.setattr(pilot, "_kmosaic", fake)
    pilot.cmd_round(SimpleNamespace(root=str(tmp_path), deadline_s=10_000, batch=12, lanes_per_gpu=2))
    assert calls == [("mosaic", 12, True), ("mosaic", 2, True), ("kernelbench", 3, True)]
    logged = [json.loads(x) for x in (tmp_path / "rounds.jsonl").read_text().splitlines()]
    assert [r["batch"] for r in logged] == [12, 2, 3] and all(r["statuses"] == ["correct"] * r["batch"] for r in logged)
    # no time left: nothing starts
    calls.clear()
    pilot.cmd_round(SimpleNamespace(root=str(tmp_path), deadline_s=10, batch=12, lanes_per_gpu=1))
    assert calls == []


def test_a_broken_round_store_is_one_line_and_leaves_the_local_store(tmp_path):
    import pytest

    src = tmp_path / "round.sqlite"
    src.write_bytes(b"not a database" * 100)
    dst = tmp_path / "store.sqlite"
    dst.write_bytes(b"local")
    with pytest.raises(SystemExit, match="not a readable SQLite store"):
        _pilot()._copy_store(src, dst)
    assert dst.read_bytes() == b"local" and not list(tmp_path.glob("*.absorb"))


def test_closing_the_pilot_says_who_ended_each_episode_and_leaves_a_pending_turn_open(tmp_path, monkeypatch):
    import subprocess
    from types import SimpleNamespace

    pilot = _pilot()
    eps = tmp_path / "mosaic" / "episodes"
    for name, files in (("agent_done", {"FINISH": "", "prompt.md": "p"}), ("pending", {"candidate.py": "x = 1\n", "prompt.md": "p"}),
                        ("open", {"prompt.md": "p"}), ("budget", {"DONE": "budgets spent: optimize turns used up\n"})):
        (eps / name).mkdir(parents=True)
        for f, text in files.items():
            (eps / name / f).write_text(text)
    (tmp_path / "kernelbench" / "episodes").mkdir(parents=True)
    finished = []

    def fake(*args, **kw):  # kmosaic episode finish FOLDER --store STORE
        finished.append(args[2].split("/")[-1])
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(pilot, "_kmosaic", fake)
    pilot.cmd_close(SimpleNamespace(root=str(tmp_path), why="the pilot ended"))
    assert finished == ["agent_done", "open"]  # the pending candidate is not dropped; the budget-spent one is done
    assert (eps / "agent_done" / "DONE").read_text() == "finished by the agent\n"
    assert not (eps / "agent_done" / "prompt.md").exists()  # FINISH answered it
    assert (eps / "open" / "DONE").read_text() == "closed by the operator, not the agent: the pilot ended\n"
    assert (eps / "open" / "prompt.md").read_text() == "p"  # never answered: kept in the record
    assert not (eps / "pending" / "DONE").exists() and (eps / "pending" / "candidate.py").exists()
    assert (eps / "budget" / "DONE").read_text().startswith("budgets spent")
