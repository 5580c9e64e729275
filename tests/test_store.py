"""The trajectory store: round trips, idempotence, crash safety (SIGKILL) and concurrency."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from kernelmosaic.data import (
    SCHEMA_VERSION,
    EpisodeRecord,
    RunRecord,
    Store,
    StoreError,
    TurnRecord,
    episode_key,
    no_code_verdict,
)

ROOT = Path(__file__).resolve().parents[1]


def verdict(status, task="t", speedup=None):
    v = {"status": status, "backend": "cuda", "policy": "strict", "task": task, "device": "cuda:0",
         "correct": status == "correct", "compiled": status not in ("compile_error", "invalid_candidate"),
         "error": None if status == "correct" else {"kind": status, "message": "boom", "log": ""},
         "timing": None}
    if speedup is not None:
        v["timing"] = {"candidate_ms": 1.0, "eager_ms": speedup, "compile_ms": None,
                       "speedup_eager": speedup, "speedup_compile": float("nan"), "cv": 0.01, "n": 20}
    return v


def turn(eid, idx, status="correct", stage=None, code="__global__ void k() {}", **kw):
    return TurnRecord(
        episode_id=eid, idx=idx, stage=stage or ("implement" if idx == 0 else "repair"),
        messages=[{"role": "system", "content": "sys"}, {"role": "user", "content": f"turn {idx}"}],
        reply=f"```cuda\n{code}\n```", code=code, verdict=kw.pop("v", None) or verdict(status),
        feedback=f"feedback {idx}", guidance_ids=["g1", "g2"],
        usage={"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
        latency_s=1.5, verify_s=0.5, **kw)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "run.db") as s:
        yield s


def test_round_trip(store, tmp_path):
    run = store.start_run("qwen-1.5b", {"temperature": 0.7, "max_turns": 4}, "level1", notes="first")
    got = store.get_run(run)
    assert isinstance(got, RunRecord) and got.model == "qwen-1.5b" and got.settings["max_turns"] == 4
    assert got.notes == "first" and store.get_run("nope") is None

    store.add_task("level1/1_matmul", "ab" * 32, "class Model: ...", level=1, metadata={"op": "matmul"})
    assert store.get_task("level1/1_matmul")["metadata"] == {"op": "matmul"}

    ep, turns = store.begin_episode(run, "level1/1_matmul", 0)
    assert isinstance(ep, EpisodeRecord) and ep.status == "running" and turns == []
    assert ep.episode_id == episode_key(run, "level1/1_matmul", 0)
    t0 = turn(ep.episode_id, 0, "compile_error", meta={"seed": 1})
    t1 = turn(ep.episode_id, 1, v=verdict("correct", speedup=2.5))
    t2 = turn(ep.episode_id, 2, code=None, stage="optimize", v=no_code_verdict("level1/1_matmul", "no code block"))
    for t in (t0, t1, t2):
        store.add_turn(t)
    back = store.turns(ep.episode_id)
    assert [t.to_dict() for t in back[:1]] == [t0.to_dict()]
    assert back[1].verdict.timing.speedup_compile is None  # non-finite floats are stored as null
    assert back[2].code is None and back[2].status == "invalid_candidate"

    store.finish_episode(ep.episode_id, "done", best_turn=1, best_code=t1.code, best_speedup=2.5,
                         correct=True, wall_s=12.0)
    ep2, turns2 = store.begin_episode(run, "level1/1_matmul", 0)  # a finished episode comes back as is
    assert ep2.status == "done" and ep2.correct and ep2.n_turns == 3 and ep2.best_speedup == 2.5
    assert len(turns2) == 3 and ep2.finished_at >= ep2.started_at
    assert EpisodeRecord.from_dict(ep2.to_dict()) == ep2
    assert TurnRecord.from_dict(json.loads(json.dumps(t0.to_dict()))) == t0

    # the verdict columns hold the numbers queries need; NaN becomes NULL
    conn = sqlite3.connect(tmp_path / "run.db")
    rows = conn.execute("SELECT idx, status, correct, compiled, speedup_eager, speedup_compile, candidate_ms, "
                        "backend FROM verdicts ORDER BY idx").fetchall()
    assert rows == [(0, "compile_error", 0, 0, None, None, None, "cuda"),
                    (1, "correct", 1, 1, 2.5, None, 1.0, "cuda"),
                    (2, "invalid_candidate", 0, 0, None, None, None, "cuda")]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_pragmas_and_reopen(tmp_path):
    path = tmp_path / "sub" / "run.db"
    with Store(path) as s:
        conn = s._conn()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
        run = s.start_run("m", {}, "set", run_id="r1")
    with Store(path) as s:  # reopening neither migrates again nor loses anything
        assert s.get_run(run).model == "m"
        assert tuple(s._conn().execute("SELECT COUNT(*), MAX(version) FROM km_schema").fetchone()) == (SCHEMA_VERSION, SCHEMA_VERSION)


def test_resume_run_and_idempotence(store):
    run = store.start_run("m", {"a": 1}, "set", run_id="r1")
    assert store.start_run("m", {"a": 2}, "other", run_id="r1") == "r1"
    assert store.get_run("r1").settings == {"a": 1}  # not overwritten
    with pytest.raises(StoreError, match="model"):
        store.start_run("other-model", {}, "set", run_id="r1")

    store.add_task("t", "00", "src")
    store.add_task("t", "00", "src")
    with pytest.raises(StoreError, match="sha256"):
        store.add_task("t", "11", "changed src")

    ep, _ = store.begin_episode(run, "t", 0)
    t0 = turn(ep.episode_id, 0, "incorrect")
    store.add_turn(t0)
    store.add_turn(t0)  # identical: no-op
    again = turn(ep.episode_id, 0, "incorrect")
    again.created_at += 5  # a rebuilt record of the same turn is still the same turn
    store.add_turn(again)
    with pytest.raises(StoreError, match="different content"):
        store.add_turn(turn(ep.episode_id, 0, "correct"))
    assert len(store.turns(ep.episode_id)) == 1 and store.get_episode(ep.episode_id).n_turns == 1

    with pytest.raises(StoreError, match="next turn is 1"):
        store.add_turn(turn(ep.episode_id, 2))
    with pytest.raises(StoreError, match="unknown episode"):
        store.add_turn(turn("nope", 0))
    with pytest.raises(StoreError, match="stage"):
        store.add_turn(turn(ep.episode_id, 1, stage="dream"))
    with pytest.raises(ValueError, match="the verdict has no status"):  # refused as the record is built
        store.add_turn(turn(ep.episode_id, 1, v={"no": "status"}))
    with pytest.raises(StoreError, match="unknown run"):
        store.begin_episode("nope", "t", 0)
    with pytest.raises(StoreError, match="best_turn"):
        store.finish_episode(ep.episode_id, "done", best_turn=3)
    with pytest.raises(StoreError, match="'done' or 'failed'"):
        store.finish_episode(ep.episode_id, "running")

    store.finish_episode(ep.episode_id, "done", correct=False, wall_s=1.0)
    with pytest.raises(StoreError, match="takes no more turns"):
        store.add_turn(turn(ep.episode_id, 1))
    store.add_turn(t0)  # still a no-op after the episode finished


def test_failed_episode_is_pending_and_reopened(store):
    run = store.start_run("m", {}, "set")
    ep, _ = store.begin_episode(run, "t", 0)
    store.add_turn(turn(ep.episode_id, 0, "runtime_error"))
    store.finish_episode(ep.episode_id, "failed", error="LLM API 503")
    assert store.pending(run, ["t"], 1) == [("t", 0)]
    ep2, turns = store.begin_episode(run, "t", 0)
    assert ep2.status == "running" and ep2.error is None and len(turns) == 1
    assert ep2.meta["previous_errors"] == ["LLM API 503"]
    store.add_turn(turn(ep.episode_id, 1))


def test_pending_summary_repair_pairs(store):
    run = store.start_run("m", {}, "set", run_id="r1")
    other = store.start_run("m", {}, "set", run_id="r2")
    plan = {  # (task, sample) -> verdict statuses of its turns
        ("a", 0): ["compile_error", "runtime_error", "correct"],  # two pairs
        ("a", 1): ["compile_error", "compile_error", "incorrect"],  # one pair (1 -> 2)
        ("b", 0): ["rejected", "correct", "correct"],  # rejected is not fixable: none
        ("b", 1): ["incorrect", "runtime_error"],  # worse: none; left running
    }
    for (task, s), statuses in plan.items():
        ep, _ = store.begin_episode(run, task, s)
        for i, st in enumerate(statuses):
            store.add_turn(turn(ep.episode_id, i, st, code=f"// {task}{s} v{i}"))
        if (task, s) != ("b", 1):
            ok = statuses[-1] == "correct"
            store.finish_episode(ep.episode_id, "done", best_turn=len(statuses) - 1 if ok else None,
                                 best_speedup=2.0 if ok else None, correct=ok, wall_s=3.0)
    ep, _ = store.begin_episode(other, "a", 0)
    store.add_turn(turn(ep.episode_id, 0, "compile_error"))
    store.add_turn(turn(ep.episode_id, 1, "correct"))

    assert store.pending(run, ["a", "b", "c"], 2) == [("b", 1), ("c", 0), ("c", 1)]
    assert store.pending(run, ["a"], [1, 5]) == [("a", 5)]
    assert [e.task_key for e in store.episodes(run, status="running")] == ["b"]
    assert len(store.episodes(run)) == 4

    s = store.summary(run)
    assert s["episodes"] == 4 and s["by_status"] == {"running": 1, "done": 3, "failed": 0}
    assert s["correct"] == 2 and s["correct_rate"] == 0.5 and s["mean_turns"] == 3.0
    assert s["turns"] == 11 and s["verdicts"]["correct"] == 3 and s["tokens"]["prompt"] == 1100
    assert s["mean_best_speedup"] == 2.0 and s["episode_wall_s"] == 9.0

    pairs = list(store.repair_pairs(run))
    got = [(p["task"], p["before_verdict"]["status"], p["after_verdict"]["status"], p["before_code"], p["after_code"])
           for p in pairs]
    assert got == [("a", "compile_error", "runtime_error", "// a0 v0", "// a0 v1"),
                   ("a", "runtime_error", "correct", "// a0 v1", "// a0 v2"),
                   ("a", "compile_error", "incorrect", "// a1 v1", "// a1 v2")]
    assert len(list(store.repair_pairs())) == 4  # all runs


def test_not_a_store_corrupt_and_closed(tmp_path):
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE stuff (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a KernelMosaic store"):
        Store(foreign)
    conn = sqlite3.connect(foreign)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # left untouched
    conn.close()

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is no database at all, just text " * 200)
    with pytest.raises(StoreError, match="not a readable SQLite database"):
        Store(junk)

    newer = tmp_path / "newer.db"
    with Store(newer) as s:
        s._conn().execute("INSERT INTO km_schema VALUES (?, 0)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="schema version"):
        Store(newer)

    with pytest.raises(StoreError, match="file path"):
        Store(":memory:")
    s = Store(tmp_path / "closed.db")
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.start_run("m", {}, "set")


# --- crash safety: a writer killed with SIGKILL, then resumed by a second process -------------

WRITER = textwrap.dedent("""
    import sys, time
    from kernelmosaic.data import Store, TurnRecord
    db, sleep = sys.argv[1], float(sys.argv[2])
    TASKS = [f"level1/{i}_task" for i in range(6)]
    N = {t: 3 + i % 3 for i, t in enumerate(TASKS)}  # 3..5 turns per episode

    def make(eid, task, idx):  # deterministic, so a resumed turn is comparable
        status = "correct" if idx == N[task] - 1 else ("compile_error", "incorrect")[idx % 2]
        return TurnRecord(episode_id=eid, idx=idx, stage="implement" if idx == 0 else "repair",
                          messages=[{"role": "user", "content": f"{task} turn {idx}"}],
                          reply=f"reply {task} {idx}", code=f"// {task} v{idx}",
                          verdict={"status": status, "task": task, "backend": "cpp", "policy": "strict", "device": "cpu", "compiled": status != "compile_error"},
                          feedback=f"fb {idx}", usage={"prompt_tokens": 10, "completion_tokens": idx})

    with Store(db) as store:
        run = store.start_run("tiny-model", {"turns": "3-5"}, "level1", run_id="crash-run")
        for task, sample in store.pending(run, TASKS, 1):
            ep, turns = store.begin_episode(run, task, sample)
            if ep.status == "done":
                continue
            for idx in range(len(turns), N[task]):
                time.sleep(sleep)  # stands in for the LLM call and the verifier
                store.add_turn(make(ep.episode_id, task, idx))
                print("TURN", ep.episode_id, idx, flush=True)
            store.finish_episode(ep.episode_id, "done", best_turn=N[task] - 1, best_code="// best",
                                 best_speedup=1.0, correct=True, wall_s=0.1)
            print("DONE", ep.episode_id, flush=True)
    print("FINISHED", flush=True)
""")


def _child(args, **kw):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_sigkill_then_resume(tmp_path):
    db = tmp_path / "crash.db"
    first = _child([WRITER, str(db), "0.03"])
    committed = []
    try:
        for line in first.stdout:
            if line.startswith("TURN"):
                _, eid, idx = line.split()
                committed.append((eid, int(idx)))
            if len(committed) == 9:  # well into the second or third episode
                break
        assert len(committed) == 9, first.stderr.read()
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL
    # lines it printed between our last read and the kill are commits too
    committed += [(l.split()[1], int(l.split()[2])) for l in first.stdout.read().splitlines() if l.startswith("TURN")]

    second = _child([WRITER, str(db), "0"])
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert out.rstrip().endswith("FINISHED")
    resumed = [(l.split()[1], int(l.split()[2])) for l in out.splitlines() if l.startswith("TURN")]
    assert not set(resumed) & set(committed)  # nothing recorded before the kill was redone

    with Store(db) as store:
        assert store.integrity_check() == "ok"
        eps = store.episodes("crash-run")
        assert len(eps) == 6 and len({e.episode_id for e in eps}) == 6
        assert all(e.status == "done" and e.correct for e in eps)
        for e in eps:
            turns = store.turns(e.episode_id)
            n = 3 + int(e.task_key.split("/")[1].split("_")[0]) % 3
            assert [t.idx for t in turns] == list(range(n)) == list(range(e.n_turns))
            assert all(t.reply == f"reply {e.task_key} {t.idx}" for t in turns)
        recorded = {(e.episode_id, t.idx) for e in eps for t in store.turns(e.episode_id)}
        assert set(committed) <= recorded
        # a turn killed between its commit and its print is in neither list, but is recorded
        assert set(resumed) <= recorded and len(recorded) == sum(3 + i % 3 for i in range(6))
        assert store.pending("crash-run", [e.task_key for e in eps], 1) == []
        conn = store._conn()
        assert conn.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == len(recorded)
        assert conn.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0] == len(recorded)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


# --- concurrency: threads and processes writing one file at once ------------------------------

CONCURRENT = textwrap.dedent("""
    import sys, time
    from kernelmosaic.data import Store, TurnRecord
    db, task, n, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    with Store(db) as store:
        run = store.start_run("m", {}, "set", run_id="shared")
        ep, _ = store.begin_episode(run, task, 0)
        time.sleep(max(0.0, start - time.time()))
        for i in range(n):
            store.add_turn(TurnRecord(ep.episode_id, i, "repair", [{"role": "user", "content": "x" * 500}],
                                      "r" * 2000, "code", {"status": "incorrect", "backend": "cpp", "policy": "strict", "task": "t", "device": "cpu"}))
            store.finish_episode(ep.episode_id, "done") if i == n - 1 else None
    print("OK", flush=True)
""")


def test_concurrent_writers(tmp_path):
    db, n = tmp_path / "shared.db", 60
    with Store(db) as store:
        store.start_run("m", {}, "set", run_id="shared")
        start = time.time() + 1.5  # everyone begins writing at the same moment
        procs = [_child([CONCURRENT, str(db), f"proc{i}", str(n), repr(start)]) for i in range(2)]
        errors = []

        def write(task):
            try:
                ep, _ = store.begin_episode("shared", task, 0)
                time.sleep(max(0.0, start - time.time()))
                for i in range(n):
                    store.add_turn(turn(ep.episode_id, i, "incorrect"))
                    store.summary("shared")  # readers interleaved with the writers
                store.finish_episode(ep.episode_id, "done")
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=write, args=(f"thread{i}",)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        outs = [p.communicate(timeout=120) for p in procs]
        assert errors == []
        for p, (out, err) in zip(procs, outs):
            assert p.returncode == 0 and out.strip() == "OK", err
        eps = store.episodes("shared")
        assert sorted(e.task_key for e in eps) == ["proc0", "proc1", "thread0", "thread1"]
        for e in eps:
            assert e.status == "done" and [t.idx for t in store.turns(e.episode_id)] == list(range(n))
        assert store.integrity_check() == "ok"


def test_a_protocol_verdict_is_superseded_only_for_an_infra_error_or_a_reason_and_kept(store):
    """Store.add_protocol_verdict: the first verdict under a protocol stands, except an
    infra_error (the verifier failed: a new verdict takes its place) or one superseded with a
    reason (a verifier bug found since); the earlier row is kept in protocol_verdicts_superseded,
    with the reason."""
    from kernelmosaic.verify.verdict import Verdict

    run = store.start_run("m", {}, "kb")
    ep, _ = store.begin_episode(run, "L1/1", 0)
    store.add_turn(turn(ep.episode_id, 0))
    pv = lambda status: Verdict.from_dict({**verdict(status, task="L1/1"), "protocol": "kernelbench"})  # noqa: E731
    key = (ep.episode_id, 0)

    store.add_protocol_verdict(ep.episode_id, 0, pv("infra_error"))
    store.add_protocol_verdict(ep.episode_id, 0, pv("infra_error"))  # the same again: a no-op
    store.add_protocol_verdict(ep.episode_id, 0, pv("runtime_error"))  # takes the infra_error's place
    assert store.protocol_verdicts(run, "kernelbench")[key].status == "runtime_error"
    with pytest.raises(StoreError, match="give a reason"):
        store.add_protocol_verdict(ep.episode_id, 0, pv("correct"))
    with pytest.raises(StoreError, match="reason"):
        store.add_protocol_verdict(ep.episode_id, 0, pv("correct"), supersede="  ")
    assert store.protocol_verdicts(run, "kernelbench")[key].status == "runtime_error"  # nothing changed
    store.add_protocol_verdict(ep.episode_id, 0, pv("correct"), supersede="a verifier bug, fixed since")
    assert store.protocol_verdicts(run, "kernelbench")[key].status == "correct"
    old = store.superseded_protocol_verdicts(run, "kernelbench")
    assert [(e, i, v.status, why) for e, i, v, why in old] == [
        (ep.episode_id, 0, "infra_error", "an infra_error (the verifier failed), judged again"),
        (ep.episode_id, 0, "runtime_error", "a verifier bug, fixed since")]
    assert store.superseded_protocol_verdicts(run, "other") == []
