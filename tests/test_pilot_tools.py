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
