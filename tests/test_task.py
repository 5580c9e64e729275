"""Task loading: KernelBench checkouts and malformed files."""

import subprocess
import sys

import pytest

from conftest import DATA
from kernelmosaic.task import TaskError, load_kernelbench, load_task, parse_task, resolve_kernelbench_dir, resolve_task_spec


def test_load_task_file():
    t = load_task(DATA / "tasks" / "relu.py")
    assert t.name == "relu" and t.level is None and not t.needs_weights
    assert len(t.sha256) == 64 and t.key == "relu"


@pytest.mark.parametrize(
    "name,problem",
    [
        ("bad_syntax", "syntax error (line 5"),
        ("no_model", "missing `Model`"),
        ("no_get_inputs", "missing `get_inputs`"),
    ],
)
def test_malformed_task_names_file_and_problem(name, problem):
    with pytest.raises(TaskError) as e:
        load_task(DATA / "tasks" / f"{name}.py")
    assert f"{name}.py" in str(e.value) and problem in str(e.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(TaskError, match="no such file"):
        load_task(tmp_path / "nope.py")
    with pytest.raises(TaskError, match="is a directory"):
        load_task(tmp_path)


def test_model_must_be_a_class():
    with pytest.raises(TaskError, match="must be a class"):
        parse_task("def Model(): pass\ndef get_inputs(): pass\ndef get_init_inputs(): pass\n", "x.py")


def test_kernelbench_levels(kernelbench_dir):
    tasks = load_kernelbench(kernelbench_dir, levels=(1, 2, 3))
    by_level = {lv: [t for t in tasks if t.level == lv] for lv in (1, 2, 3)}
    assert [len(by_level[lv]) for lv in (1, 2, 3)] == [100, 100, 50]
    assert by_level[1][0].problem_id == 1 and by_level[1][-1].problem_id == 100
    assert not any(t.needs_weights for t in tasks)
    l4 = load_kernelbench(kernelbench_dir, levels=(4,))
    assert l4 and all(t.needs_weights for t in l4)


def test_kernelbench_dir_from_env_and_specs(kernelbench_dir, monkeypatch):
    monkeypatch.setenv("KERNELBENCH_DIR", str(kernelbench_dir))
    assert resolve_kernelbench_dir() == kernelbench_dir
    t = resolve_task_spec("L1/19")
    assert t.name == "19_ReLU" and t.level == 1 and t.key == "L1/19_ReLU"
    with pytest.raises(TaskError, match="no KernelBench level 1 problem with id 999"):
        resolve_task_spec("L1/999")


def test_no_kernelbench_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("KERNELBENCH_DIR", raising=False)
    with pytest.raises(TaskError, match="KERNELBENCH_DIR"):
        resolve_kernelbench_dir()
    with pytest.raises(TaskError, match="not a KernelBench directory"):
        resolve_kernelbench_dir(tmp_path)


def test_loading_never_executes_the_task(tmp_path):
    marker = tmp_path / "ran"
    f = tmp_path / "evil.py"
    f.write_text(
        f"open({str(marker)!r}, 'w').write('x')\n"
        "import torch\nclass Model(torch.nn.Module):\n    pass\n"
        "def get_inputs(): return []\ndef get_init_inputs(): return []\n"
    )
    load_task(f)
    assert not marker.exists()
