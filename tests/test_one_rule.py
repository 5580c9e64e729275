"""One owner for each rule (issue 17): the best turn, stored numbers, and records made by main.

* The episode, the export and the metrics get the same turns and must name the same best turn.
* A store and an export written by main before this change (tests/data/legacy, made by
  tests/data/legacy/make.py with main at 779244d) still read; the store migrates.
"""

import json
import sqlite3

import pytest

from conftest import DATA

from kernelmosaic.agent import Episode, EpisodeConfig, ScriptedLLM
from kernelmosaic.bench.metrics import compute_metrics
from kernelmosaic.data import SCHEMA_VERSION, Store, TurnRecord
from kernelmosaic.data.best import best_turn

LEGACY = DATA / "legacy"


def verdict(status, ms=None):
    timing = None if ms is None else {"candidate_ms": ms, "eager_ms": 4.0, "speedup_eager": 4.0 / ms, "n": 5}
    return {"status": status, "backend": "cpp", "policy": "strict", "task": "t", "device": "cpu",
            "correct": status == "correct", "compiled": status != "compile_error",
            "error": None if status == "correct" else {"kind": status, "message": "boom", "log": ""}, "timing": timing}


# (status, candidate ms or None) per turn, and the best turn every reader must name
CASES = {
    "untimed_ties_keep_the_earliest": ([("compile_error", None), ("correct", None), ("correct", None)], 1),
    "timed_beats_untimed": ([("correct", None), ("correct", 3.0), ("correct", None)], 1),
    "equal_times_keep_the_earliest": ([("correct", 2.0), ("correct", 2.0), ("incorrect", None)], 0),
    "faster_replaces": ([("correct", 2.0), ("correct", 1.5), ("correct", 1.9)], 1),
    "none_correct": ([("compile_error", None), ("incorrect", None)], None),
}


def turns_for(eid, spec):
    stages = ["implement"] + ["repair"] * (len(spec) - 1)
    return [TurnRecord(episode_id=eid, idx=i, stage=stages[i],
                       messages=[{"role": "system", "content": "s"}, {"role": "user", "content": f"u{i}"}],
                       reply=f"```python\n# {i}\n```", code=f"# {i}\n", verdict=verdict(st, ms), created_at=1.0 + i)
                for i, (st, ms) in enumerate(spec)]


def test_episode_export_and_metrics_name_the_same_best_turn(tmp_path, cpu_verifier):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from kernelmosaic.data.export import export
    from kernelmosaic.task import load_task

    task = load_task(DATA / "tasks" / "relu.py")
    episode = Episode(task, ScriptedLLM([]), cpu_verifier, EpisodeConfig(backend="cpp", max_optimize=9, max_repair=9))
    db = tmp_path / "run.db"
    expected = {}
    with Store(db) as st:
        rid = st.start_run("m", {}, "set", run_id="r")
        for name, (spec, best) in CASES.items():
            st.add_task(name, "0" * 64, task.source, level=1)
            ep, _ = st.begin_episode(rid, name, 0)
            turns = turns_for(ep.episode_id, spec)
            for t in turns:
                st.add_turn(t)
            # the episode's own state, from the same turns
            assert episode.state(turns)["best"] == best, name
            assert best_turn(turns) == best, name
            # a wrong recorded best: every reader derives the best from the turns
            st.finish_episode(ep.episode_id, "done", best_turn=len(turns) - 1, correct=best is not None)
            expected[name] = best
    m = compute_metrics(db, "r")
    assert {r.task: r.best_turn for r in m.tasks} == expected
    res = export(db, "iterative", tmp_path / "out", val_fraction=0.0)
    rows = pq.read_table(res.paths["train"]).to_pylist()
    assert {r["task"]: r["best_turn"] for r in rows} == {k: v for k, v in expected.items() if v is not None}


def test_non_finite_numbers_are_stored_as_null(tmp_path):
    v = verdict("correct", 1.0)
    v["timing"]["speedup_compile"] = float("nan")
    v["timing"]["cv"] = float("inf")
    with Store(tmp_path / "s.db") as st:
        rid = st.start_run("m", {}, "", run_id="r")
        ep, _ = st.begin_episode(rid, "t", 0)
        st.add_turn(TurnRecord(episode_id=ep.episode_id, idx=0, stage="implement", messages=[], reply="",
                               code="x", verdict=v))
        raw = st._conn().execute("SELECT json FROM verdicts").fetchone()[0]
        back = st.turns(ep.episode_id)[0].verdict.to_dict()["timing"]
    assert '"nan"' not in raw and '"inf"' not in raw
    assert back["speedup_compile"] is None and back["cv"] is None and back["candidate_ms"] == 1.0


# -- records made by main -------------------------------------------------------------------------------------
@pytest.fixture
def legacy_db(tmp_path):
    db = tmp_path / "main-v1.db"
    db.write_bytes((LEGACY / "main-v1.db").read_bytes())
    return db


def test_a_store_made_by_main_migrates_and_reads(legacy_db, tmp_path):
    con = sqlite3.connect(legacy_db)
    assert con.execute("SELECT MAX(version) FROM km_schema").fetchone()[0] == 1
    assert con.execute("SELECT COUNT(*) FROM verdicts WHERE json LIKE '%\"nan\"%'").fetchone()[0] > 0
    con.close()
    with Store(legacy_db) as st:
        assert st._conn().execute("SELECT MAX(version) FROM km_schema").fetchone()[0] == SCHEMA_VERSION
        eps = {e.task_key: e for e in st.episodes("legacy")}
        assert set(eps) == {"double", "triple"}
        turns = st.turns(eps["double"].episode_id)
        assert [t.status for t in turns] == ["compile_error", "correct", "correct"]
        assert turns[1].verdict.timing.cv is None and turns[1].verdict.timing.speedup_compile is None
        assert turns[2].verdict.timing.candidate_ms is None  # it was "inf"
        assert best_turn(turns) == 1
        # a turn re-added as it now reads is the same turn (the digests were migrated too)
        st.add_turn(turns[2])
        # nothing recorded is lost
        assert eps["triple"].status == "running" and len(st.turns(eps["triple"].episode_id)) == 1
        assert st.integrity_check() == "ok"
        raw = [r[0] for r in st._conn().execute("SELECT json FROM verdicts")]
    assert not any('"nan"' in r or '"inf"' in r for r in raw)
    m = compute_metrics(legacy_db, "legacy")
    assert {r.task: (r.correct, r.best_turn) for r in m.tasks} == {"double": (True, 1), "triple": (False, 0)}


def test_an_export_made_by_main_still_loads(tmp_path, legacy_db):
    datasets = pytest.importorskip("datasets")
    from kernelmosaic.data.export import export
    from kernelmosaic.train.sft import load_messages

    old = LEGACY / "main-v1-export"
    ds = datasets.load_dataset("parquet", data_files={"train": str(old / "train.parquet")}, split="train")
    assert ds.num_rows == 1 and ds[0]["best_turn"] == 1 and ds[0]["messages"][-1]["role"] == "assistant"
    assert load_messages(old / "train.parquet").num_rows == 1
    # the same store exported now gives the same row
    res = export(legacy_db, "iterative", tmp_path / "new", val_fraction=0.0)
    new = datasets.load_dataset("parquet", data_files={"train": str(res.paths["train"])}, split="train")
    for k in ("task", "best_turn", "n_turns", "status", "speedup_eager", "final_code", "messages"):
        assert new[0][k] == ds[0][k], k
    assert json.loads(json.dumps(new[0]["speedup_compile"])) is None
