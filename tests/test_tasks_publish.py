"""`kmosaic tasks publish`: a folder that `datasets.load_dataset(DIR)` reads, with a dataset card."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernelmosaic.cli import app
from kernelmosaic.curate.review import record
from kernelmosaic.curate.taskset import TaskSet

ROOT = Path(__file__).resolve().parents[1]

SRC = """import torch
import torch.nn as nn

dtype = torch.float32


class Model(nn.Module):
    \"\"\"{op} ({dt}).\"\"\"

    def forward(self, x):
        return torch.{op}(x)


def get_inputs():
    return [torch.randn(64, 128, dtype=dtype)]


def get_init_inputs():
    return []
"""


@pytest.fixture
def task_set(tmp_path):
    ts = TaskSet.create(tmp_path / "set", {"name": "tiny", "pool": {"n": 10, "seed": 3, "scale": "small",
                                                                   "mix": {"single": 1.0}}})
    for i, op in enumerate(("relu", "tanh", "sigmoid", "exp")):
        ts.add(f"single_{i}_{op}_fp32", SRC.format(op=op, dt="fp32"),
               {"category": "activation", "ops": [op], "dtypes": ["fp32"], "generator": "single", "seed": i,
                "shapes": {"x": [64, 128]}, "out_shape": [64, 128], "flops": 8192, "bytes": 65536,
                "eager_ms": 1.5 + i, "gpu": "NVIDIA H200", "nearest_kb": "L1/19_ReLU", "kb_score": 0.3, "status": "auto"})
    record(ts, "single_0_relu_fp32", "accepted", "fine", who="ana")
    record(ts, "single_1_tanh_fp32", "rejected", "too easy", who="ben")
    record(ts, "single_2_sigmoid_fp32", "edited", "smaller input", who="ana")
    rows = tmp_path / "decontam.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in [
        {"name": "single_0_relu_fp32", "behaviour": {"verdict": "same", "kb": "L1/19_ReLU", "probe": "f(16, 16)", "max_rel_err": 0.0}},
        {"name": "single_2_sigmoid_fp32", "behaviour": {"verdict": "different", "closest": "L1/21_Sigmoid"}},
        {"name": "single_3_exp_fp32", "behaviour": {"verdict": "not probed", "error": "timeout after 30 s"}}]))
    return ts, rows


def test_published_folder_loads_with_datasets(task_set, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    yaml = pytest.importorskip("yaml")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    ts, rows = task_set
    out = tmp_path / "pub"
    r = CliRunner().invoke(app, ["tasks", "publish", str(ts.root), "--out", str(out), "--license", "cc-by-4.0",
                                 "--decontam", str(rows), "--json"])
    assert r.exit_code == 0, r.output
    summ = json.loads(r.output.strip().splitlines()[-1])
    assert summ["rows"] == 3 and summ["left_out"] == 1  # the rejected task stays out by default

    ds = datasets.load_dataset(str(out))
    assert list(ds) == ["train"] and ds["train"].num_rows == 3
    by = {x["name"]: x for x in ds["train"]}
    assert set(by) == {"single_0_relu_fp32", "single_2_sigmoid_fp32", "single_3_exp_fp32"}
    relu = by["single_0_relu_fp32"]
    assert relu["source"] == (ts.root / "tasks" / "single_0_relu_fp32.py").read_text()
    assert relu["status"] == "accepted" and relu["reviewed_by"] == "ana" and relu["review_note"] == "fine"
    assert relu["ops"] == ["relu"] and relu["out_shape"] == [64, 128] and relu["eager_ms"] == 1.5
    assert json.loads(relu["kb_behaviour_json"])["kb"] == "L1/19_ReLU"
    assert by["single_2_sigmoid_fp32"]["edited"] is True and by["single_3_exp_fp32"]["status"] == "auto"
    # the source compiles back into a task
    ns: dict = {}
    exec(compile(relu["source"], "relu", "exec"), ns)  # noqa: S102 - our own test task
    assert {"Model", "get_inputs", "get_init_inputs"} <= set(ns)

    card = (out / "README.md").read_text()
    meta = yaml.safe_load(card.split("---")[1])
    assert meta["license"] == "cc-by-4.0" and meta["size_categories"] == ["n<1K"]
    assert meta["configs"][0]["data_files"] == [{"split": "train", "path": summ["file"]}]
    assert re.fullmatch(r"data/train-[0-9a-f]{12}\.parquet", summ["file"]) and (out / summ["file"]).is_file()
    for needle in ("## How it was generated", "## How it was filtered", "## How it was decontaminated",
                   "## Review status", "## Known limits", "**1 published tasks compute the same function",
                   "`single_0_relu_fp32`", "1 tasks could not be probed", "1 edited tasks", "NVIDIA H200",
                   "| accepted | 1 |", "| auto | 2 |"):
        assert needle in card, needle

    # all statuses on request; the rejected task then carries its note
    out2 = tmp_path / "pub-all"
    r = CliRunner().invoke(app, ["tasks", "publish", str(ts.root), "--out", str(out2), "--status", "accepted,auto,rejected"])
    assert r.exit_code == 0, r.output
    assert "lexical only" in " ".join(r.output.split())  # no behavioural rows in the set: the command says so
    ds2 = datasets.load_dataset(str(out2))["train"]
    assert ds2.num_rows == 4 and "too easy" in ds2["review_note"]
    assert "Decontamination is lexical only" in (out2 / "README.md").read_text()


def test_a_folder_published_again_loads_its_new_rows(task_set, tmp_path, monkeypatch):
    """`datasets` caches a local folder by its card's configs, not by its files: with one file name
    for every publication, a folder removed and published again with other tasks (after a review,
    say) loaded the first publication's rows from the cache."""
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    ts, _ = task_set
    out = tmp_path / "pub"
    counts = []
    for status in ("accepted,auto,pending", "accepted,auto,rejected"):
        shutil.rmtree(out, ignore_errors=True)
        r = CliRunner().invoke(app, ["tasks", "publish", str(ts.root), "--out", str(out), "--status", status])
        assert r.exit_code == 0, r.output
        counts.append(datasets.load_dataset(str(out))["train"].num_rows)
    assert counts == [3, 4]


def test_a_shipped_sets_own_behavioural_rows_reach_the_card(task_set, tmp_path):
    """A set that `tasks_ship.py` built carries each task's behavioural row in its manifest
    (`kb_behaviour`); without a decontam file those are the card's evidence, not 'lexical only'."""
    ts, _ = task_set
    recs = [{**r, "kb_behaviour": {"verdict": "different", "closest": "L1/19_ReLU", "closest_rel_err": 0.5}} for r in ts.records]
    ts.rewrite(recs)
    r = CliRunner().invoke(app, ["tasks", "publish", str(ts.root), "--out", str(tmp_path / "pub")])
    assert r.exit_code == 0 and "lexical only" not in " ".join(r.output.split()), r.output
    card = (tmp_path / "pub" / "README.md").read_text()
    assert "The behavioural check ran each task" in card and "different: 3" in card, card


def test_publish_errors_are_clear(task_set, tmp_path):
    ts, _ = task_set
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("")
    for args, msg in ((["--out", str(busy)], "is not empty"), (["--out", str(tmp_path / "o"), "--status", "good"], "statuses are"),
                      (["--out", str(tmp_path / "o2"), "--decontam", str(tmp_path / "nope.jsonl")], "no such file")):
        r = CliRunner().invoke(app, ["tasks", "publish", str(ts.root)] + args)
        assert r.exit_code == 2 and msg in " ".join(r.output.split()) and "Traceback" not in r.output, r.output
    r = CliRunner().invoke(app, ["tasks", "publish", str(tmp_path / "none"), "--out", str(tmp_path / "o3")])
    assert r.exit_code == 2 and "not a task set" in r.output


def test_licence_file_is_the_apache_text_pyproject_names():
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License") and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text()
