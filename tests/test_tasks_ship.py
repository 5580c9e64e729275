"""benchmarks/tasks_ship.py on a v2 pool, on the CPU: a small v2 pool (generated, deduplicated,
decontaminated), the real CPU execution filter over it (benchmarks/tasks_gpu_filter.py --device
cpu), then the ship command: the set with its balance, its pool record, the same set again from
the record alone, a clear refusal when fewer tasks pass than asked, and `kmosaic tasks publish`."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA, ROOT

from kernelmosaic.curate import pipeline
from kernelmosaic.curate.generate import generate_pool
from kernelmosaic.curate.generate_v2 import balance
from kernelmosaic.curate.taskset import TaskSet

KB = Path(os.environ.get("KERNELBENCH_DIR") or ROOT.parent / "shared" / "kernelbench")
SHIP = ROOT / "benchmarks" / "tasks_ship.py"


def run(*args, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=timeout)


def _kernelbench(tmp: Path) -> Path:
    """The real problems when they are here; otherwise a one-problem stand-in (the screen still runs)."""
    if (KB / "level1").is_dir():
        return KB
    for lv in (1, 2, 3):
        (tmp / f"level{lv}").mkdir(parents=True)
    (tmp / "level1" / "19_ReLU.py").write_text((DATA / "tasks" / "relu.py").read_text())
    return tmp


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """A 40-task v2 pool at --scale small, dedup and the lexical screen, and the CPU filter's results."""
    d = tmp_path_factory.mktemp("ship")
    pool_dir = d / "v2-small-40-11"
    generate_pool(pool_dir, 40, scale="small", seed=11, version="v2")
    pool = TaskSet.open(pool_dir)
    pipeline.run_dedup(pool)
    pipeline.run_decontam(pool, str(_kernelbench(d / "kb")), behaviour=False)
    keep, _ = pipeline.eligible(pool, require=("dedup", "decontam"))
    names = d / "pool.names"
    # reversed: the filter measures in the order of --names (a budget-cut run of a shuffled list is
    # a random subset), not in the set's order
    names.write_text("".join(r["name"] + "\n" for r in reversed(keep)))
    r = run(ROOT / "benchmarks" / "tasks_gpu_filter.py", "--pool", pool_dir, "--names", names, "--device", "cpu",
            "--timing-runs", "2", "--out", d / "filter", timeout=600)
    assert r.returncode == 0 and "DONE: every task measured" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    order = [json.loads(ln)["name"] for ln in (d / "filter" / "results.jsonl").read_text().splitlines()]
    assert order == [r["name"] for r in reversed(keep)]
    summary = json.loads((d / "filter" / "summary.json").read_text())
    # an existing --pool reports itself, not the script's defaults (5000 tasks, seed 2026, h200)
    assert (summary["n"], summary["seed"], summary["scale"], summary["version"]) == (40, 11, "small", "v2")
    return d, pool_dir, names, d / "filter" / "results.jsonl", summary


def test_ship_builds_a_v2_set_with_its_balance_and_pool_record(measured, tmp_path):
    d, pool_dir, names, results, fsum = measured
    passing = fsum["kept"]
    assert passing >= 20, fsum
    n = passing - 3
    out = tmp_path / "sets" / "mosaic-v2"
    r = run(SHIP, "--pool", pool_dir, "--names", names, "--results", results, "--window", "none",
            "--out", out, "--n", n, "--quota", "proportional")
    assert r.returncode == 0, r.stdout + r.stderr
    ts = TaskSet.open(out)
    assert len(ts.records) == n and all((out / rec["file"]).is_file() for rec in ts.records)
    assert {rec["version"] for rec in ts.records} == {"v2"} and all(rec["template"] for rec in ts.records)
    # the balance targets, checked on the shipped tasks: printed, in the report and in summary.json
    b = balance(ts.records)
    summ = json.loads((out / "summary.json").read_text())
    assert summ["selected"] == n and summ["balance_misses"] == b.meets() and f"{n} tasks < 2000" in summ["balance_misses"]
    assert "MISSES issue 18's targets" in r.stderr and f"{n} tasks < 2000" in r.stderr
    report = (out / "report.md").read_text()
    assert "## Balance (issue 18's targets for mosaic-v2)" in report and "**Misses:**" in report
    meta = json.loads((out / "set.json").read_text())
    fp = hashlib.sha256((pool_dir / "manifest.jsonl").read_bytes()).hexdigest()[:16]
    assert meta["pool"]["version"] == "v2" and meta["pool"]["fingerprint"] == fp and meta["pool"]["n"] == 40
    assert meta["selection"]["quota"] == "proportional" and meta["selection"]["window_ms"] is None
    # the pool record next to the set: enough to build the same set again without the pool folder
    rec = tmp_path / "sets" / "mosaic-v2-pool"
    pj = json.loads((rec / "pool.json").read_text())
    assert (pj["version"], pj["scale"], pj["seed"], pj["n"], pj["fingerprint"]) == ("v2", "small", 11, 40, fp)
    assert (rec / "candidates.txt").read_text() == names.read_text()
    assert (rec / "results.jsonl").read_text() == results.read_text()
    for f in ("results_summary.json", "dedup.jsonl", "decontam.jsonl", "README.md"):
        assert (rec / f).is_file(), f
    again = tmp_path / "again"
    r = run(SHIP, "--pool-meta", rec / "pool.json", "--pool", tmp_path / "regen", "--names", rec / "candidates.txt",
            "--results", rec / "results.jsonl", "--window", "none", "--out", again, "--n", n, "--quota", "proportional")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (again / "manifest.jsonl").read_bytes() == (out / "manifest.jsonl").read_bytes()
    assert (again / "drops.jsonl").read_bytes() == (out / "drops.jsonl").read_bytes()
    # a set measured on the CPU (no GPU recorded) publishes
    r = run("-m", "kernelmosaic.cli", "tasks", "publish", out, "--out", tmp_path / "hub")
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(list((tmp_path / "hub" / "data").glob("train-*.parquet"))) == 1
    assert "the CPU" in (tmp_path / "hub" / "README.md").read_text()


def test_ship_refuses_more_tasks_than_pass(measured, tmp_path):
    d, pool_dir, names, results, fsum = measured
    out = tmp_path / "mosaic-v2"
    r = run(SHIP, "--pool", pool_dir, "--names", names, "--results", results, "--window", "none",
            "--out", out, "--n", fsum["kept"] + 1)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith("error: ") and f"only {fsum['kept']} of 40 tasks pass every step" in lines[0]
    assert f"fewer than the {fsum['kept'] + 1} asked" in lines[0]
    assert not out.exists() and not (tmp_path / "mosaic-v2-pool").exists()  # nothing written
    # `--n all` ships every task that passes; a run that did not measure every candidate is refused
    r = run(SHIP, "--pool", pool_dir, "--names", names, "--results", results, "--window", "none", "--out", out, "--n", "all")
    assert r.returncode == 0, r.stderr
    assert len(TaskSet.open(out).records) == fsum["kept"]
    part = tmp_path / "partial"
    part.mkdir()
    (part / "results.jsonl").write_text("".join(results.read_text().splitlines(keepends=True)[:5]))
    r = run(SHIP, "--pool", pool_dir, "--names", names, "--results", part / "results.jsonl", "--window", "none",
            "--out", tmp_path / "p", "--n", 3)
    assert r.returncode == 1 and "have no result" in r.stderr and "--allow-unmeasured" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "p").exists()


def test_filter_resume_adds_to_what_out_holds_and_bad_files_are_one_line(measured, tmp_path):
    """--resume adds the given results to those already in --out rather than replacing them (a
    result measured is never dropped, nor measured again), and a missing --names or --resume file
    is a one-line usage error, not a traceback."""
    d, pool_dir, names, results, _ = measured
    rows = results.read_text().splitlines(keepends=True)
    out = tmp_path / "filter"
    out.mkdir()
    (out / "results.jsonl").write_text("".join(rows[:10]))
    part = tmp_path / "returned.jsonl"
    part.write_text("".join(rows[5:]))
    f = ROOT / "benchmarks" / "tasks_gpu_filter.py"
    r = run(f, "--pool", pool_dir, "--names", names, "--device", "cpu", "--timing-runs", "2", "--out", out,
            "--resume", part, timeout=600)
    assert r.returncode == 0 and "DONE: every task measured" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"resumed {len(rows) - 10} results from {part} beside the 10" in r.stdout
    assert sorted((out / "results.jsonl").read_text().splitlines(keepends=True)) == sorted(rows)  # none measured again
    for flag in ("--names", "--resume"):
        args = ["--names", names, "--resume", part]
        args[args.index(flag) + 1] = tmp_path / "nope.txt"
        r = run(f, "--pool", pool_dir, "--device", "cpu", "--out", tmp_path / "o", *args)
        assert r.returncode == 2 and f"{flag} {tmp_path / 'nope.txt'}: no such file" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_proportional_quotas_keep_the_mix(measured):
    from kernelmosaic.curate.select import proportional_quotas, select

    _, pool_dir, _, _, _ = measured
    recs = TaskSet.open(pool_dir).records
    assert proportional_quotas({"a": 5, "b": 3, "c": 1}, 4) == {"a": 2, "b": 1, "c": 1}
    assert proportional_quotas({"a": 5}, 9) == {"a": 5}
    picked = select(recs, 20, quota="proportional")
    assert len(picked) == 20 and len({r["name"] for r in picked}) == 20
    whole, half, sqrt = balance(recs), balance(picked), balance(select(recs, 20))
    # within the rounding of 20 picks over many small (category, dtype) groups
    assert abs(half.fusion_pct - whole.fusion_pct) <= 10 and abs(half.fp32_pct - whole.fp32_pct) <= 10
    assert sqrt.fusion_pct < half.fusion_pct  # the square-root split shrinks the one big category, fusion
    with pytest.raises(ValueError, match="quota"):
        select(recs, 5, quota="cube")
