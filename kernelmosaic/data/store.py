"""Crash-safe SQLite store for runs, tasks, episodes, turns and verdicts.

Durability and concurrency choices:

* WAL journal: readers never block the writer and a commit is one append to the
  WAL, so a process killed at any point (SIGKILL included) leaves the file
  consistent, holding exactly the transactions that had committed.
* ``synchronous=NORMAL`` (default; ``synchronous="FULL"`` to opt out): with WAL it
  never corrupts the file. A commit has been written to the WAL (the OS page cache)
  before ``add_turn`` returns, so it survives the process being killed; only an OS
  crash or power loss can roll back the last few commits, which a resumed run simply
  redoes. FULL would add an fsync per commit for protection against that alone.
* One connection per thread (``threading.local``), never shared: sqlite connections
  are not safe to use from two threads at once, and separate connections let
  SQLite's own locking arbitrate between threads exactly as between processes.
* Every write runs in ``BEGIN IMMEDIATE``: it takes the write lock up front, so a
  busy writer waits (``busy_timeout``) instead of failing. A deferred transaction
  that reads and then writes can get SQLITE_BUSY at once, with no waiting, when
  another connection committed in between ("database is locked").
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .._json import number as _real  # a number for a REAL column; None for missing or non-finite
from ..verify.verdict import Verdict
from ..vocab import NOT_A_VERDICT
from .schema import EPISODE_STATUSES, FIXABLE, STAGES, EpisodeRecord, RunRecord, TurnRecord, episode_key, finite

SCHEMA_VERSION = 5
_SCHEMA_TABLE = "km_schema"


# Version 2. Non-finite numbers in a verdict used to be stored as the strings "nan", "inf" and
# "-inf"; they are null now, so every reader sees a number or nothing (four helpers existed
# only to skip those strings): the verdicts stored before are rewritten. Turns now hold a typed
# Verdict, whose dict form has every field, so each turn's digest is recomputed from the turn
# as it now reads: an identical turn re-added by a resumed run still matches.
_NON_FINITE = ("nan", "inf", "-inf", "NaN", "Infinity", "-Infinity")
_NUMERIC_PARTS = {"timing": None, "phases_s": None,
                  "mismatch": ("max_abs_err", "max_rel_err", "rel_norm_err", "expected_at_first_bad", "got_at_first_bad")}


def _null_non_finite(v: dict) -> bool:
    changed = False
    for part, keys in _NUMERIC_PARTS.items():
        d = v.get(part)
        if not isinstance(d, dict):
            continue
        for k in list(d) if keys is None else keys:
            if isinstance(d.get(k), str) and d[k] in _NON_FINITE:
                d[k] = None
                changed = True
    return changed


def _migrate_to_v2(conn: sqlite3.Connection) -> None:
    for episode_id, idx, text in conn.execute("SELECT episode_id, idx, json FROM verdicts").fetchall():
        v = json.loads(text)
        if _null_non_finite(v):
            conn.execute("UPDATE verdicts SET json=? WHERE episode_id=? AND idx=?", (_dumps(v), episode_id, idx))
    for (episode_id,) in conn.execute("SELECT DISTINCT episode_id FROM turns").fetchall():
        for turn in Store._turns(conn, episode_id):
            conn.execute("UPDATE turns SET digest=? WHERE episode_id=? AND idx=?",
                         (_digest(turn), episode_id, turn.idx))


# version -> statements (SQL, or a function of the connection) that bring the schema from
# version-1 to version.
_MIGRATIONS: dict[int, list] = {
    1: [
        f"CREATE TABLE {_SCHEMA_TABLE} (version INTEGER NOT NULL, applied_at REAL NOT NULL)",
        """CREATE TABLE runs (
            run_id TEXT PRIMARY KEY, created_at REAL NOT NULL, model TEXT NOT NULL,
            settings TEXT NOT NULL, task_set TEXT NOT NULL, notes TEXT NOT NULL)""",
        """CREATE TABLE tasks (
            task_key TEXT PRIMARY KEY, sha256 TEXT NOT NULL, source TEXT NOT NULL,
            level INTEGER, metadata TEXT NOT NULL)""",
        # task_key is not a foreign key: the tasks table is a catalog, and an episode
        # of an unregistered (ad-hoc) task must still be recordable.
        f"""CREATE TABLE episodes (
            episode_id TEXT PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            task_key TEXT NOT NULL, sample INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN {EPISODE_STATUSES}),
            best_turn INTEGER, best_code TEXT, best_speedup REAL,
            correct INTEGER NOT NULL DEFAULT 0, n_turns INTEGER NOT NULL DEFAULT 0,
            started_at REAL NOT NULL, finished_at REAL, wall_s REAL, error TEXT,
            meta TEXT NOT NULL,
            UNIQUE (run_id, task_key, sample))""",
        f"""CREATE TABLE turns (
            episode_id TEXT NOT NULL REFERENCES episodes(episode_id),
            idx INTEGER NOT NULL CHECK (idx >= 0),
            stage TEXT NOT NULL CHECK (stage IN {STAGES}),
            messages TEXT NOT NULL, reply TEXT NOT NULL, code TEXT, feedback TEXT NOT NULL,
            guidance_ids TEXT NOT NULL, usage TEXT NOT NULL,
            prompt_tokens INTEGER, completion_tokens INTEGER,
            latency_s REAL, verify_s REAL, created_at REAL NOT NULL, meta TEXT NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (episode_id, idx))""",
        """CREATE TABLE verdicts (
            episode_id TEXT NOT NULL, idx INTEGER NOT NULL,
            status TEXT NOT NULL, correct INTEGER NOT NULL, compiled INTEGER NOT NULL,
            speedup_eager REAL, speedup_compile REAL, candidate_ms REAL,
            backend TEXT, policy TEXT, json TEXT NOT NULL,
            PRIMARY KEY (episode_id, idx),
            FOREIGN KEY (episode_id, idx) REFERENCES turns(episode_id, idx))""",
        "CREATE INDEX episodes_run_status ON episodes(run_id, status)",
        "CREATE INDEX episodes_task ON episodes(task_key, correct)",
        "CREATE INDEX verdicts_status ON verdicts(status)",
        "CREATE INDEX turns_created ON turns(created_at)",
    ],
    2: [_migrate_to_v2],
    # Version 3. A reasoning model's thinking (TurnRecord.reasoning), kept apart from the reply so
    # an export can keep or drop it. Null for every turn recorded before, and a turn's digest
    # leaves the field out when it is null, so no digest changes.
    3: ["ALTER TABLE turns ADD COLUMN reasoning TEXT"],
    # Version 4. A turn judged again under another protocol (``kmosaic bench --protocol
    # kernelbench``: KernelBench's evaluator), beside the verdict the episode ran on, which it
    # never replaces: the agent's feedback, the best turn and the export stay the project's.
    4: ["""CREATE TABLE protocol_verdicts (
            episode_id TEXT NOT NULL, idx INTEGER NOT NULL, protocol TEXT NOT NULL,
            status TEXT NOT NULL, correct INTEGER NOT NULL, speedup_eager REAL, speedup_compile REAL,
            json TEXT NOT NULL, created_at REAL NOT NULL,
            PRIMARY KEY (episode_id, idx, protocol),
            FOREIGN KEY (episode_id, idx) REFERENCES turns(episode_id, idx))"""],
    # Version 5. A protocol verdict that another took the place of (an infra_error judged again,
    # or one a verifier bug made, replaced on purpose): kept, with when and why, never deleted.
    5: ["""CREATE TABLE protocol_verdicts_superseded (
            episode_id TEXT NOT NULL, idx INTEGER NOT NULL, protocol TEXT NOT NULL,
            status TEXT NOT NULL, json TEXT NOT NULL, created_at REAL NOT NULL,
            superseded_at REAL NOT NULL, reason TEXT NOT NULL)"""],
}


class StoreError(Exception):
    """An expected failure at the store's API boundary, with a readable message."""


class Store:
    def __init__(self, path: str | os.PathLike, busy_timeout_s: float = 60.0, synchronous: str = "NORMAL"):
        if str(path) in ("", ":memory:") or str(path).startswith("file:"):
            raise StoreError("Store needs a file path: every thread and process opens its own connection")
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise StoreError(f"synchronous must be NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = Path(path)
        self._busy_ms = int(busy_timeout_s * 1000)
        self._sync = synchronous.upper()
        self._local = threading.local()
        self._lock = threading.Lock()  # guards _conns only
        self._conns: list[sqlite3.Connection] = []
        self._pid = os.getpid()
        self._closed = False
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a directory, not a KernelMosaic store")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self._guard():
                self._init_schema()
        except BaseException:
            self.close()
            raise

    # -- connections and transactions ------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError(f"{self.path}: store is closed")
        if os.getpid() != self._pid:
            # A connection must not cross fork(); closing the inherited ones in the child
            # could disturb the parent's locks, so they are dropped unclosed (kept alive
            # here so garbage collection does not close them either).
            with self._lock:
                self._orphans, self._conns = self._conns, []
                self._local = threading.local()
                self._pid = os.getpid()
        conn = getattr(self._local, "conn", None)
        if conn is None:
            # autocommit mode: transactions are explicit (BEGIN IMMEDIATE in _write).
            # check_same_thread=False only so close() may close every thread's connection.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=self._busy_ms / 1000)
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA synchronous={self._sync}")
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    @contextmanager
    def _guard(self):
        """Turns sqlite errors into StoreError with the file named; StoreError passes."""
        try:
            yield
        except StoreError:
            raise
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise StoreError(f"{self.path}: database stayed locked for over {self._busy_ms / 1000:g}s "
                                 f"(another writer holds it): {e}") from e
            raise StoreError(f"{self.path}: {e}") from e
        except sqlite3.DatabaseError as e:
            if "not a database" in str(e) or "malformed" in str(e) or "corrupt" in str(e):
                raise StoreError(f"{self.path} is not a readable SQLite database (corrupt, or another "
                                 f"kind of file): {e}") from e
            raise StoreError(f"{self.path}: {e}") from e

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._guard():
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                # also after a failed COMMIT, which leaves the transaction open
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: one consistent snapshot across several queries."""
        with self._guard():
            conn = self._conn()
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

    def _init_schema(self) -> None:
        conn = self._conn()
        # Look before touching: switching a foreign file to WAL would modify it.
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and _SCHEMA_TABLE not in names:
            raise StoreError(f"{self.path} is not a KernelMosaic store (no schema table)")
        for _ in range(50):
            # journal_mode needs a moment with no other connection mid-write; with a
            # busy handler this rarely fails, but two first openers can still collide
            try:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                break
            except sqlite3.OperationalError as e:
                if "locked" not in str(e):
                    raise
                time.sleep(0.05)
        else:
            raise StoreError(f"{self.path}: could not switch to WAL mode (database stayed locked)")
        if mode.lower() != "wal":
            raise StoreError(f"{self.path}: WAL mode is unavailable here (journal_mode={mode})")
        with self._write() as conn:  # re-checked under the write lock: other processes may be migrating too
            has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                                     (_SCHEMA_TABLE,)).fetchone()
            version = 0
            if has_table:
                version = conn.execute(f"SELECT MAX(version) FROM {_SCHEMA_TABLE}").fetchone()[0] or 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}; this KernelMosaic "
                                 f"understands up to {SCHEMA_VERSION} (upgrade the package)")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for stmt in _MIGRATIONS[v]:
                    stmt(conn) if callable(stmt) else conn.execute(stmt)
                conn.execute(f"INSERT INTO {_SCHEMA_TABLE} (version, applied_at) VALUES (?, ?)", (v, time.time()))

    def close(self) -> None:
        """Closes every connection this Store opened, from any thread. Idempotent."""
        with self._lock:
            conns, self._conns = self._conns, []
            self._closed = True
        for c in conns:
            try:
                c.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- runs and tasks ---------------------------------------------------------------------
    def start_run(self, model: str, settings: dict | None = None, task_set: str = "",
                  run_id: str | None = None, notes: str = "") -> str:
        """Creates a run, or resumes an existing ``run_id`` unchanged (nothing overwritten).

        Resuming with a different model raises: it would mix two models' trajectories in one run.
        """
        run_id = run_id or f"run-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
        with self._write() as conn:
            row = conn.execute("SELECT model FROM runs WHERE run_id=?", (run_id,)).fetchone()
            if row is not None:
                if row["model"] != model:
                    raise StoreError(f"run {run_id!r} was started with model {row['model']!r}, "
                                     f"not {model!r}; use a new run_id")
                return run_id
            conn.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)",
                         (run_id, time.time(), model, _dumps(settings or {}), task_set, notes))
        return run_id

    def run_ids(self) -> list[str]:
        """Every run in the store, oldest first."""
        with self._read() as conn:
            return [r[0] for r in conn.execute("SELECT run_id FROM runs ORDER BY created_at, run_id")]

    def get_run(self, run_id: str) -> RunRecord | None:
        with self._guard():
            row = self._conn().execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
        if row is None:
            return None
        return RunRecord(run_id=row["run_id"], created_at=row["created_at"], model=row["model"],
                         settings=json.loads(row["settings"]), task_set=row["task_set"], notes=row["notes"])

    def add_task(self, task_key: str, sha256: str, source: str, level: int | None = None,
                 metadata: dict | None = None) -> None:
        """Registers a task; idempotent. A different source under the same key raises,
        since the episodes already recorded for it were about the old one."""
        with self._write() as conn:
            row = conn.execute("SELECT sha256 FROM tasks WHERE task_key=?", (task_key,)).fetchone()
            if row is not None:
                if row["sha256"] != sha256:
                    raise StoreError(f"task {task_key!r} is recorded with sha256 {row['sha256'][:12]}..., "
                                     f"not {sha256[:12]}...")
                return
            conn.execute("INSERT INTO tasks VALUES (?, ?, ?, ?, ?)",
                         (task_key, sha256, source, level, _dumps(metadata or {})))

    def get_task(self, task_key: str) -> dict | None:
        with self._guard():
            row = self._conn().execute("SELECT * FROM tasks WHERE task_key=?", (task_key,)).fetchone()
        if row is None:
            return None
        return {**dict(row), "metadata": json.loads(row["metadata"])}

    # -- episodes -----------------------------------------------------------------------------
    def begin_episode(self, run_id: str, task_key: str, sample: int,
                      meta: dict | None = None) -> tuple[EpisodeRecord, list[TurnRecord]]:
        """The episode and its recorded turns; the caller continues at ``len(turns)``.

        New: created as running. Running (interrupted): returned with its turns.
        Done: returned as is; the caller skips it. Failed: ``pending`` lists it as not
        done, so it is reopened as running (turns kept, its error moved to
        ``meta["previous_errors"]``) and continued.
        """
        eid = episode_key(run_id, task_key, sample)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM runs WHERE run_id=?", (run_id,)).fetchone() is None:
                raise StoreError(f"unknown run {run_id!r} (call start_run first)")
            row = conn.execute("SELECT * FROM episodes WHERE episode_id=?", (eid,)).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO episodes (episode_id, run_id, task_key, sample, status, started_at, meta) "
                    "VALUES (?, ?, ?, ?, 'running', ?, ?)",
                    (eid, run_id, task_key, int(sample), time.time(), _dumps(meta or {})))
            elif row["status"] == "failed":
                old = json.loads(row["meta"])
                old.setdefault("previous_errors", []).append(row["error"])
                conn.execute("UPDATE episodes SET status='running', error=NULL, finished_at=NULL, meta=? "
                             "WHERE episode_id=?", (_dumps(old), eid))
            row = conn.execute("SELECT * FROM episodes WHERE episode_id=?", (eid,)).fetchone()
            return _episode(row), self._turns(conn, eid)

    def get_episode(self, episode_id: str) -> EpisodeRecord | None:
        with self._guard():
            row = self._conn().execute("SELECT * FROM episodes WHERE episode_id=?", (episode_id,)).fetchone()
        return _episode(row) if row else None

    def finish_episode(self, episode_id: str, status: str, best_turn: int | None = None,
                       best_code: str | None = None, best_speedup: float | None = None,
                       correct: bool = False, wall_s: float | None = None, error: str | None = None) -> None:
        if status not in ("done", "failed"):
            raise StoreError(f"an episode finishes as 'done' or 'failed', not {status!r}")
        with self._write() as conn:
            row = conn.execute("SELECT n_turns FROM episodes WHERE episode_id=?", (episode_id,)).fetchone()
            if row is None:
                raise StoreError(f"unknown episode {episode_id!r}")
            if best_turn is not None and not 0 <= best_turn < row["n_turns"]:
                raise StoreError(f"best_turn {best_turn} is not a recorded turn of {episode_id!r} "
                                 f"({row['n_turns']} turns)")
            conn.execute(
                "UPDATE episodes SET status=?, best_turn=?, best_code=?, best_speedup=?, correct=?, "
                "finished_at=?, wall_s=?, error=? WHERE episode_id=?",
                (status, best_turn, best_code, _real(best_speedup), int(bool(correct)), time.time(),
                 wall_s, error, episode_id))

    def episodes(self, run_id: str, status: str | None = None) -> list[EpisodeRecord]:
        q, args = "SELECT * FROM episodes WHERE run_id=?", [run_id]
        if status is not None:
            q, args = q + " AND status=?", args + [status]
        with self._guard():
            rows = self._conn().execute(q + " ORDER BY task_key, sample", args).fetchall()
        return [_episode(r) for r in rows]

    def pending(self, run_id: str, task_keys: Iterable[str], samples: int | Iterable[int]) -> list[tuple[str, int]]:
        """(task_key, sample) pairs of the grid that are not done: never started,
        interrupted (running) or failed. ``samples`` is a count or the sample ids."""
        samples = range(samples) if isinstance(samples, int) else list(samples)
        with self._guard():
            done = {(r[0], r[1]) for r in self._conn().execute(
                "SELECT task_key, sample FROM episodes WHERE run_id=? AND status='done'", (run_id,))}
        return [(t, s) for t in task_keys for s in samples if (t, s) not in done]

    # -- turns ----------------------------------------------------------------------------------
    def add_turn(self, turn: TurnRecord) -> None:
        """Records a turn and its verdict in one transaction, committed before returning.

        Turns are appended in order (idx must equal the episode's turn count) to a
        running episode. Re-adding a recorded (episode_id, idx) is a no-op when the
        content matches (``created_at`` aside: a retry may rebuild the record) and
        raises StoreError when it differs.
        """
        if turn.stage not in STAGES:
            raise StoreError(f"turn stage must be one of {STAGES}, not {turn.stage!r}")
        if not isinstance(turn.verdict, Verdict):
            raise StoreError("turn.verdict must be a Verdict (no_code_verdict() for a reply without code)")
        d = turn.to_dict()
        digest = _digest(turn)
        v, timing = d["verdict"], d["verdict"].get("timing") or {}
        usage = d["usage"] or {}
        with self._write() as conn:
            ep = conn.execute("SELECT status, n_turns FROM episodes WHERE episode_id=?",
                              (turn.episode_id,)).fetchone()
            if ep is None:
                raise StoreError(f"unknown episode {turn.episode_id!r} (call begin_episode first)")
            old = conn.execute("SELECT digest FROM turns WHERE episode_id=? AND idx=?",
                               (turn.episode_id, turn.idx)).fetchone()
            if old is not None:
                if old["digest"] != digest:
                    raise StoreError(f"turn {turn.idx} of {turn.episode_id!r} is already recorded "
                                     "with different content")
                return
            if ep["status"] != "running":
                raise StoreError(f"episode {turn.episode_id!r} is {ep['status']}; it takes no more turns")
            if turn.idx != ep["n_turns"]:
                raise StoreError(f"turn idx {turn.idx} for {turn.episode_id!r}: the next turn is "
                                 f"{ep['n_turns']} (turns are appended in order, without gaps)")
            conn.execute(  # columns named: a column added by a migration comes last in the table
                "INSERT INTO turns (episode_id, idx, stage, messages, reply, code, feedback, guidance_ids, usage, "
                "prompt_tokens, completion_tokens, latency_s, verify_s, created_at, meta, digest, reasoning) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (turn.episode_id, turn.idx, turn.stage, _dumps(d["messages"]), turn.reply, turn.code,
                 turn.feedback, _dumps(d["guidance_ids"]), _dumps(usage), _int(usage.get("prompt_tokens")),
                 _int(usage.get("completion_tokens")), _real(turn.latency_s), _real(turn.verify_s),
                 turn.created_at, _dumps(d["meta"]), digest, turn.reasoning))
            conn.execute(
                "INSERT INTO verdicts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (turn.episode_id, turn.idx, v["status"], int(v["status"] == "correct"), int(bool(v.get("compiled"))),
                 _real(timing.get("speedup_eager")), _real(timing.get("speedup_compile")),
                 _real(timing.get("candidate_ms")), v.get("backend"), v.get("policy"), _dumps(v)))
            conn.execute("UPDATE episodes SET n_turns=n_turns+1 WHERE episode_id=?", (turn.episode_id,))

    def add_protocol_verdict(self, episode_id: str, idx: int, verdict: Verdict, supersede: str | None = None) -> None:
        """Records a recorded turn's verdict under another protocol (``verdict.protocol``), in one
        transaction. Idempotent like :meth:`add_turn`: the same verdict again is a no-op. Another
        verdict for the same turn and protocol raises StoreError (the first one recorded stands:
        a second timing of the same code differs, and a report must not change under a reader),
        with two exceptions, where the earlier row moves to ``protocol_verdicts_superseded`` with
        the time and the reason: an ``infra_error`` (the verifier failed; no verdict on the code),
        which a new verdict replaces, and any verdict when ``supersede`` gives the reason (a
        verifier bug found since that made it, say)."""
        if not isinstance(verdict, Verdict):
            raise StoreError("verdict must be a Verdict")
        if supersede is not None and not (isinstance(supersede, str) and supersede.strip()):
            raise StoreError("supersede must be the reason, a non-empty string")
        v = verdict.to_dict()
        text, timing = _dumps(v), v.get("timing") or {}
        key = (episode_id, idx, verdict.protocol)
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM turns WHERE episode_id=? AND idx=?", (episode_id, idx)).fetchone() is None:
                raise StoreError(f"no turn {idx} of episode {episode_id!r}")
            old = conn.execute("SELECT status, json FROM protocol_verdicts WHERE episode_id=? AND idx=? AND protocol=?",
                               key).fetchone()
            if old is not None:
                if old["json"] == text:
                    return
                if old["status"] not in NOT_A_VERDICT and supersede is None:
                    raise StoreError(f"turn {idx} of {episode_id!r} already has a {verdict.protocol} verdict "
                                     f"({old['status']}); give a reason to supersede it")
                why = supersede or "an infra_error (the verifier failed), judged again"
                conn.execute("INSERT INTO protocol_verdicts_superseded SELECT episode_id, idx, protocol, status, json, "
                             "created_at, ?, ? FROM protocol_verdicts WHERE episode_id=? AND idx=? AND protocol=?",
                             (time.time(), why, *key))
                conn.execute("DELETE FROM protocol_verdicts WHERE episode_id=? AND idx=? AND protocol=?", key)
            conn.execute("INSERT INTO protocol_verdicts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (episode_id, idx, verdict.protocol, verdict.status, int(verdict.correct),
                          _real(timing.get("speedup_eager")), _real(timing.get("speedup_compile")), text, time.time()))

    def superseded_protocol_verdicts(self, run_id: str, protocol: str) -> list[tuple[str, int, Verdict, str]]:
        """The run's protocol verdicts that others took the place of: (episode id, turn index,
        verdict, reason), oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT s.episode_id, s.idx, s.json, s.reason FROM protocol_verdicts_superseded s "
                "JOIN episodes e USING (episode_id) WHERE e.run_id=? AND s.protocol=? ORDER BY s.superseded_at",
                (run_id, protocol)).fetchall()
        return [(r["episode_id"], r["idx"], Verdict.from_dict(json.loads(r["json"])), r["reason"]) for r in rows]

    def protocol_verdicts(self, run_id: str, protocol: str, final: bool = False) -> dict[tuple[str, int], Verdict]:
        """Every verdict of the run's turns under ``protocol``, by (episode id, turn index). With
        ``final``, only those that stand: an infra_error is none (a new verdict for its turn takes
        its place, :meth:`add_protocol_verdict`), so a rerun judges its turn again."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT p.episode_id, p.idx, p.status, p.json FROM protocol_verdicts p JOIN episodes e USING (episode_id) "
                "WHERE e.run_id=? AND p.protocol=?", (run_id, protocol)).fetchall()
        return {(r["episode_id"], r["idx"]): Verdict.from_dict(json.loads(r["json"])) for r in rows
                if not (final and r["status"] in NOT_A_VERDICT)}

    def turns(self, episode_id: str) -> list[TurnRecord]:
        with self._guard():
            return self._turns(self._conn(), episode_id)

    @staticmethod
    def _turns(conn: sqlite3.Connection, episode_id: str) -> list[TurnRecord]:
        rows = conn.execute(
            "SELECT t.*, v.json AS verdict FROM turns t JOIN verdicts v USING (episode_id, idx) "
            "WHERE t.episode_id=? ORDER BY t.idx", (episode_id,)).fetchall()
        return [TurnRecord(
            episode_id=r["episode_id"], idx=r["idx"], stage=r["stage"], messages=json.loads(r["messages"]),
            reply=r["reply"], code=r["code"], verdict=json.loads(r["verdict"]), feedback=r["feedback"],
            guidance_ids=json.loads(r["guidance_ids"]), usage=json.loads(r["usage"]),
            latency_s=r["latency_s"], verify_s=r["verify_s"], created_at=r["created_at"],
            meta=json.loads(r["meta"]),
            # absent while an older store migrates through version 2, which reads turns too
            reasoning=r["reasoning"] if "reasoning" in r.keys() else None) for r in rows]

    # -- analysis -------------------------------------------------------------------------------
    def summary(self, run_id: str) -> dict[str, Any]:
        with self._read() as conn:
            ep = conn.execute(
                "SELECT COUNT(*) n, SUM(correct) correct, AVG(CASE WHEN status!='running' THEN n_turns END) "
                "mean_turns, AVG(CASE WHEN correct THEN best_speedup END) mean_best_speedup, "
                "SUM(wall_s) wall_s FROM episodes WHERE run_id=?", (run_id,)).fetchone()
            by_status = dict(conn.execute(
                "SELECT status, COUNT(*) FROM episodes WHERE run_id=? GROUP BY status", (run_id,)).fetchall())
            verdicts = dict(conn.execute(
                "SELECT v.status, COUNT(*) FROM verdicts v JOIN episodes e USING (episode_id) "
                "WHERE e.run_id=? GROUP BY v.status", (run_id,)).fetchall())
            tok = conn.execute(
                "SELECT COUNT(*) n, SUM(t.prompt_tokens) p, SUM(t.completion_tokens) c, SUM(t.latency_s) l, "
                "SUM(t.verify_s) vs FROM turns t JOIN episodes e USING (episode_id) WHERE e.run_id=?",
                (run_id,)).fetchone()
        n, correct = ep["n"], ep["correct"] or 0
        return {
            "run_id": run_id, "episodes": n,
            "by_status": {s: by_status.get(s, 0) for s in EPISODE_STATUSES},
            "correct": correct, "correct_rate": correct / n if n else None,
            "mean_turns": ep["mean_turns"], "mean_best_speedup": ep["mean_best_speedup"],
            "turns": tok["n"], "verdicts": verdicts,
            "tokens": {"prompt": tok["p"] or 0, "completion": tok["c"] or 0},
            "llm_s": tok["l"] or 0.0, "verify_s": tok["vs"] or 0.0, "episode_wall_s": ep["wall_s"] or 0.0,
        }

    def repair_pairs(self, run_id: str | None = None) -> Iterator[dict[str, Any]]:
        """Consecutive turns (i, i+1) of one episode where turn i failed fixably and turn
        i+1 improved: became correct, or got from compile_error to a later failure."""
        q = (f"""SELECT e.task_key, e.episode_id, a.idx, ta.code AS before_code, a.json AS before_verdict,
                        tb.code AS after_code, b.json AS after_verdict
                 FROM verdicts a
                 JOIN verdicts b ON b.episode_id=a.episode_id AND b.idx=a.idx+1
                 JOIN turns ta ON ta.episode_id=a.episode_id AND ta.idx=a.idx
                 JOIN turns tb ON tb.episode_id=b.episode_id AND tb.idx=b.idx
                 JOIN episodes e ON e.episode_id=a.episode_id
                 WHERE a.status IN {FIXABLE}
                   AND (b.status='correct'
                        OR (a.status='compile_error' AND b.status IN ('runtime_error', 'incorrect', 'timeout')))""")
        args: list[Any] = []
        if run_id is not None:
            q, args = q + " AND e.run_id=?", [run_id]
        # fetched whole: a generator holding a cursor would pin a read snapshot (and block
        # WAL checkpoints) for as long as the consumer takes
        with self._guard():
            rows = self._conn().execute(q + " ORDER BY e.run_id, e.task_key, e.sample, a.idx", args).fetchall()
        for r in rows:
            yield {"task": r["task_key"], "episode_id": r["episode_id"], "before_idx": r["idx"],
                   "before_verdict": json.loads(r["before_verdict"]), "before_code": r["before_code"],
                   "after_verdict": json.loads(r["after_verdict"]), "after_code": r["after_code"]}

    def integrity_check(self) -> str:
        """"ok", or SQLite's description of the damage."""
        with self._guard():
            return "\n".join(r[0] for r in self._conn().execute("PRAGMA integrity_check"))


_SQLITE_MAGIC = b"SQLite format 3\x00"


def require_store(path: str | os.PathLike) -> Path:
    """``path`` as an existing store to read; StoreError saying what it is otherwise.

    Readers (export, report, metrics) call this before :class:`Store`, which would create a
    database in a missing or empty file: a reader must never turn a typo or a 0-byte file
    into an empty store."""
    p = Path(path)
    if p.is_dir():
        raise StoreError(f"{p}: is a directory, not a store")
    if not p.exists():
        raise StoreError(f"{p}: no such store")
    try:
        with open(p, "rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except OSError as e:
        raise StoreError(f"{p}: cannot read it ({e.strerror})") from None
    if not head:
        raise StoreError(f"{p}: an empty file (0 bytes), not a store")
    if head != _SQLITE_MAGIC:
        raise StoreError(f"{p}: not a store (not a SQLite file)")
    return p


def _digest(turn: TurnRecord) -> str:
    """What add_turn compares to tell a repeated turn from a different one (created_at aside)."""
    d = turn.to_dict()
    return hashlib.sha256(_dumps({k: v for k, v in d.items() if k != "created_at"}).encode()).hexdigest()


def _dumps(o: Any) -> str:
    try:
        return json.dumps(finite(o), allow_nan=False, sort_keys=True, separators=(",", ":"), default=_json_default)
    except (TypeError, ValueError) as e:
        raise StoreError(f"not JSON-serializable: {e}") from e


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):  # numpy scalars, which metrics may carry
        return finite(o.item())
    raise TypeError(f"{type(o).__name__} is not JSON-serializable")




def _int(x: Any) -> int | None:
    return int(x) if isinstance(x, int) and not isinstance(x, bool) else None


def _episode(row: sqlite3.Row) -> EpisodeRecord:
    return EpisodeRecord(
        episode_id=row["episode_id"], run_id=row["run_id"], task_key=row["task_key"], sample=row["sample"],
        status=row["status"], best_turn=row["best_turn"], best_code=row["best_code"],
        best_speedup=row["best_speedup"], correct=bool(row["correct"]), n_turns=row["n_turns"],
        started_at=row["started_at"], finished_at=row["finished_at"], wall_s=row["wall_s"],
        error=row["error"], meta=json.loads(row["meta"]))
