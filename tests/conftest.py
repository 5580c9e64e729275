import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
KERNELBENCH = Path(os.environ.get("KERNELBENCH_DIR") or ROOT.parent / "shared" / "kernelbench")


@contextlib.contextmanager
def _machine_share(alone: bool):
    """With several test processes (the README's ``pytest -n 2``), a test marked ``alone`` measures
    the whole machine's load (programs other than the verifier) and must not count the other test
    process as one: it holds this run's lock exclusively, every other test holds it shared. One
    process: nothing to share."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        yield
        return
    with open(os.path.join(tempfile.gettempdir(), f"kmosaic-tests-{run}.lock"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # around setup too: a module's fixtures (baselines, builds) load the machine as they are made
    with _machine_share(item.get_closest_marker("alone") is not None):
        yield


def count_turns(db) -> int:
    """Turns committed to a store that another process is writing (0 before it exists)."""
    import sqlite3

    try:
        con = sqlite3.connect(db, timeout=30)
        try:
            return con.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def read(rel: str) -> str:
    return (DATA / rel).read_text()


def gpu_verifier(timeouts: dict):
    """A GPU verifier for a test module's fixture, or the test skipped where there is no NVIDIA GPU."""
    from kernelmosaic.verify import Verifier
    from kernelmosaic.verify.pool import detect_gpus

    if not detect_gpus():
        pytest.skip("no NVIDIA GPU")
    return Verifier(device="cuda", timeouts=timeouts)


def record_verdict(name: str, verdict, **extra) -> None:
    """Append a GPU test's verdict to $KMOSAIC_RESULTS as a JSON line (when set), so the committed
    results hold the numbers behind the pass/fail; something that is not a Verdict (an exception
    a batch returned) is recorded as the test's error."""
    import json

    from kernelmosaic.verify import Verdict

    path = os.environ.get("KMOSAIC_RESULTS")
    if not path:
        return
    row = {"case": name, **extra}
    row.update(verdict.to_dict() if isinstance(verdict, Verdict) else
               {"status": None, "error": {"kind": "test", "message": f"{type(verdict).__name__}: {verdict}"}})
    with open(path, "a") as f:
        f.write(json.dumps(row) + "\n")


@pytest.fixture
def open_tmp():
    """A temporary folder every user may enter (pytest's own are the owner's alone): where a root
    judge switches reference processes to their own id, that id must reach the cache."""
    import shutil
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="kmosaic-open-"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("kmosaic-cache")


@pytest.fixture(scope="session")
def cpu_verifier(cache_dir):
    from kernelmosaic.verify import Verifier

    # short run-phase limits: the hang test waits for one of them
    v = Verifier(device="cpu", workers=2, cache_dir=cache_dir, timeouts={"check": 25, "time": 240, "load": 60})
    yield v
    v.close()


@pytest.fixture(scope="session")
def kernelbench_dir():
    if not (KERNELBENCH / "level1").is_dir():
        pytest.skip("KernelBench problems not found (set KERNELBENCH_DIR or place them at ../shared/kernelbench)")
    return KERNELBENCH
