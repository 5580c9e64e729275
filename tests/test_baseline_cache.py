"""The verifier's baseline cache: listing, clearing, and timing again (`kmosaic baselines`,
`kmosaic verify --refresh-baselines`, `TimingConfig(refresh=True)`). A baseline timed on a busy
machine would otherwise be kept for ever."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kernelmosaic.cli import app
from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, baseline_entries, clear_baselines

ROOT = Path(__file__).resolve().parents[1]
RELU = load_task(ROOT / "tests" / "adversarial" / "tasks" / "relu.py")


def _cache(tmp_path: Path) -> Path:
    entries = {
        "aaaa1111|cpu|Some CPU|n=30|w=3|{}|torch=2.13.0": {"eager_ms": 37.6, "eager_cv": 0.9, "timed_at": "2026-11-30T00:00:00Z"},
        "bbbb2222|cuda|NVIDIA H200|n=100|w=3|{}|torch=2.11.0": {"eager_ms": 3.27, "eager_cv": 0.01, "compile_ms": 2.9},
    }
    (tmp_path / "baselines.json").write_text(json.dumps(entries))
    return tmp_path


def test_list_and_clear(tmp_path):
    cache = _cache(tmp_path)
    rows = baseline_entries(cache)
    assert [(r["task_sha256"], r["device"], r["device_name"], r["n"], r["torch"]) for r in rows] == [
        ("aaaa1111", "cpu", "Some CPU", 30, "2.13.0"), ("bbbb2222", "cuda", "NVIDIA H200", 100, "2.11.0")]
    assert rows[0]["eager_ms"] == 37.6
    assert clear_baselines(cache, "aaaa") == 1
    assert [r["task_sha256"] for r in baseline_entries(cache)] == ["bbbb2222"]
    assert clear_baselines(cache) == 1 and baseline_entries(cache) == []
    assert baseline_entries(tmp_path / "none") == [] and clear_baselines(tmp_path / "none") == 0
    assert not (tmp_path / "none").exists()  # listing makes nothing


def test_cli(tmp_path):
    cache = _cache(tmp_path)
    r = CliRunner().invoke(app, ["baselines", "list", "--json", "--cache-dir", str(cache)])
    assert r.exit_code == 0, r.output
    assert [json.loads(line)["task_sha256"] for line in r.output.splitlines()] == ["aaaa1111", "bbbb2222"]
    r = CliRunner().invoke(app, ["baselines", "clear", "--cache-dir", str(cache)])
    assert r.exit_code == 2 and "--all" in r.output  # nothing removed without saying what
    assert len(baseline_entries(cache)) == 2
    r = CliRunner().invoke(app, ["baselines", "clear", "--task-sha256", "bbbb", "--cache-dir", str(cache)])
    assert r.exit_code == 0 and "removed 1 cached baseline" in r.output
    r = CliRunner().invoke(app, ["baselines", "clear", "--all", "--cache-dir", str(cache)])
    assert r.exit_code == 0 and baseline_entries(cache) == []


def test_refresh_replaces_a_cached_baseline(tmp_path):
    """A cached eager time planted as if from a busy machine is served until a refresh, which
    times it again (in a process that never ran candidate code) and replaces it."""
    timing = TimingConfig(enabled=True, n=5, warmup=1, compile=False)
    with Verifier(device="cpu", workers=1, cache_dir=tmp_path, prewarm=False) as v:
        first = v.baseline(RELU, timing)
        assert not first["cached"] and first["eager_ms"] > 0
        path = tmp_path / "baselines.json"
        data = json.loads(path.read_text())
        (key,) = data
        data[key]["eager_ms"] = 999.0
        path.write_text(json.dumps(data))
        assert v.baseline(RELU, timing)["eager_ms"] == 999.0  # the cache is trusted as it stands
        fresh = v.baseline(RELU, TimingConfig(enabled=True, n=5, warmup=1, compile=False, refresh=True))
        assert not fresh["cached"] and fresh["eager_ms"] < 999.0
        assert json.loads(path.read_text())[key]["eager_ms"] == fresh["eager_ms"]
