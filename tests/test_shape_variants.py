"""Shape variants (kernelmosaic/verify/variants.py): which integers are varied, to what, how the
reference decides which variants are valid, what the verdict lists, and the switch that turns
them off. The cheats they catch (a remainder dropped modulo 128, a row length baked in on a
tuple-sized task) and their honest controls are in tests/adversarial/."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import types

import pytest

from conftest import KERNELBENCH, ROOT
from kernelmosaic.verify.variants import (apply_sites, choose_variant, new_value, output_problem, prime_at_most,
                                          shape_variant_source, size_sites)

ADV = ROOT / "tests" / "adversarial"

TASK = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.features = features

    def forward(self, x, y, z, w):
        batch_size, c = x.shape  # a local of the same name is not the module's batch_size
        return x


batch_size = 16
N = 2048 * 2
features = 64
input_shape = (N,)
dims = (16, 64, 3)
rows, cols = 33, 4096


def get_inputs():
    return [torch.randn(batch_size, *input_shape), torch.randn(*dims, features),
            torch.randint(0, 10, (rows, cols)), torch.rand(8, 3, 224)]


def get_init_inputs():
    return [features]
'''


def run_get_inputs(source: str) -> list:
    mod = types.ModuleType("variant_task")
    exec(compile(source, "variant_task", "exec"), mod.__dict__)
    return mod.get_inputs()


def test_every_kind_of_size_is_a_site():
    sites = {s.label: s.value for s in size_sites(TASK)}
    lits = {k: v for k, v in sites.items() if k.startswith("get_inputs@")}
    named = {k: v for k, v in sites.items() if not k.startswith("get_inputs@")}
    # N reaches get_inputs through input_shape; features is read by get_init_inputs, so it
    # sets the model too and stays; 3 is below the threshold
    assert named == {"batch_size": 16, "N": 4096, "dims[0]": 16, "dims[1]": 64, "rows": 33, "cols": 4096}
    # literals: the sizes 8 and 224, never randint's bounds 0 and 10; 3 is below the threshold
    assert sorted(lits.values()) == [8, 224]


def test_prime_variant_breaks_every_power_of_two():
    src, changed = shape_variant_source(TASK, "prime")
    for label, v in changed.items():
        assert v % 2 == 1 and v == prime_at_most(v), (label, v)
        assert all(v % d for d in (2, 4, 8, 16, 32, 128)), (label, v)
    assert changed["N"] == 2039 and changed["batch_size"] == 7 and changed["rows"] == 13
    x, y, z, w = run_get_inputs(src)
    assert x.shape == (7, 2039) and y.shape == (7, 31, 3, 64) and z.shape == (13, 2039) and w.shape == (3, 3, 109)
    # no buffer grows: every size is at most half the task's (at least 3)
    assert x.numel() < 16 * 4096 and z.numel() < 33 * 4096


def test_grow_changes_the_first_site_only():
    src, changed = shape_variant_source(TASK, "grow")
    assert changed == {"batch_size": 20}
    assert run_get_inputs(src)[0].shape == (20, 4096)
    assert new_value(4096, "grow") == 5120 and new_value(257, "grow") == 321


def test_names_the_model_reads_are_not_varied():
    src = TASK.replace("self.features = features", "self.features = features * cols")
    assert "cols" not in {s.label for s in size_sites(src)}
    # a derived module-level name that the model reads pins what it is made of
    src = TASK.replace("features = 64\n", "features = N // 64\n")
    assert "N" not in {s.label for s in size_sites(src)}


def test_int_expressions_and_bounds():
    src = TASK.replace("batch_size = 16", "batch_size = 1 << 4").replace("rows, cols = 33, 4096",
                                                                          "rows, cols = 10 ** 10 ** 10, 2 ** 12")
    sites = {s.label: s.value for s in size_sites(src)}
    # 10 ** 10 ** 10 is not evaluated (nor a size): the judge must not hang on it
    assert sites["batch_size"] == 16 and sites["cols"] == 4096 and "rows" not in sites


def test_scopes_are_read_as_python_reads_them():
    src = """
import torch
class Model(torch.nn.Module):
    N = 5  # a class attribute: the method below still reads the module's N
    def forward(self, x):
        return x[:N]
    def other(self, x):
        M = x.shape[0]  # a local of the method: not the module's M
        return x[:M]
N = 64
M = 32
K = 16
K *= 2
def get_inputs():
    return [torch.randn(N, M, K)]
"""
    assert [s.label for s in size_sites(src)] == ["M"]


def test_reference_decides_which_sites_are_valid():
    """A site the reference refuses is dropped, and the others are still varied."""
    sites = size_sites(TASK)
    calls = []

    def valid(src):
        x, y, z, w = run_get_inputs(src)
        calls.append(src)
        if w.shape[-1] != 224:  # as a VGG whose classifier needs 224x224 images would
            raise ValueError("mat1 and mat2 shapes cannot be multiplied")
        return x.shape

    chosen, refused = choose_variant(TASK, "prime", valid, sites)
    assert chosen is not None and chosen.case == (7, 2039)
    lit224 = next(s.label for s in sites if s.value == 224)
    assert lit224 not in chosen.changed and len(chosen.changed) == len(sites) - 1
    assert refused[0]["sites"] == {s.label: new_value(s.value, "prime") for s in sites}  # all at once first
    assert refused[-1] == {"sites": {lit224: 109}, "reason": "ValueError: mat1 and mat2 shapes cannot be multiplied"}
    assert len(calls) == 1 + len(sites)  # all at once, then one run per site

    # grow moves on to the next site when the reference refuses the first
    def no_batch(src):
        if run_get_inputs(src)[0].shape[0] != 16:
            raise RuntimeError("batch is fixed")
        return True

    chosen, refused = choose_variant(TASK, "grow", no_batch, sites)
    assert chosen.changed == {"N": 5120} and refused[0]["sites"] == {"batch_size": 20}

    # and when it refuses everything, nothing is applied
    def never(src):
        raise RuntimeError("no")

    chosen, refused = choose_variant(TASK, "prime", never, sites, max_tries=4)
    assert chosen is None and "not tried" in refused[-1]["reason"]


def test_output_problem():
    torch = pytest.importorskip("torch")
    a = [torch.zeros(4, 8)]
    assert output_problem(a, [torch.zeros(3, 7)]) is None
    assert "rank" in output_problem(a, [torch.zeros(21)])
    assert "empty" in output_problem(a, [torch.zeros(0, 7)])
    assert "2 outputs" in output_problem(a, [torch.zeros(3, 7), torch.zeros(1)])
    nan = [torch.full((3, 7), float("nan"))]
    assert "NaN" in output_problem(a, nan, [True], lambda t: bool(torch.isfinite(t).all()))
    assert output_problem(a, nan, [False], lambda t: bool(torch.isfinite(t).all())) is None


def test_apply_sites_keeps_the_source_runnable():
    sites = size_sites(TASK)
    src, changed = apply_sites(TASK, sites, "halve")
    assert changed["N"] == 2048 and changed["cols"] == 2048
    assert [tuple(t.shape) for t in run_get_inputs(src)] == [(8, 2048), (8, 32, 3, 64), (16, 2048), (4, 3, 112)]


@pytest.mark.skipif(not KERNELBENCH.is_dir(), reason="set KERNELBENCH_DIR to a KernelBench checkout")
def test_kernelbench_sizes_set_by_tuples_unpacking_and_literals_are_varied():
    """The problems that set a size by a tuple, a tuple-unpacked name or a literal in
    get_inputs (11 of L1, 47 of L2, 17 of L3 when this was written; with L1/95's
    ``input_shape = (num_classes,)``, 12 of L1) get those sizes varied.
    benchmarks/shape_variant_coverage.py reports the counts and checks them on meta tensors."""
    def labels(rel):
        return {s.label: s.value for s in size_sites((KERNELBENCH / rel).read_text())}

    assert labels("level1/100_HingeLoss.py")["input_shape[0]"] == 32768
    assert "num_classes" in labels("level1/95_CrossEntropyLoss.py")  # input_shape = (num_classes,)
    hw = labels("level2/11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm.py")
    assert hw["height"] == 32 and hw["width"] == 32
    assert sorted(v for k, v in labels("level3/11_VGG16.py").items() if k.startswith("get_inputs@")) == [224, 224]
    counts = {}
    for level in (1, 2, 3):
        n = 0
        for p in (KERNELBENCH / f"level{level}").glob("*.py"):
            src = p.read_text()
            body = ast.parse(src).body

            def other(site):  # a tuple's element, a tuple-unpacked name or a literal in get_inputs
                if site.path[0] == "literal" or "[" in site.label:
                    return True
                stmt = body[site.path[1]]
                return isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Tuple)

            n += any(other(s) for s in size_sites(src))
        counts[level] = n
    assert counts[1] >= 11 and counts[2] >= 47 and counts[3] >= 17, counts


# -- through the verifier ------------------------------------------------------------------------------------------
LINEAR_TASK = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    """y = x @ W^T + b: the 64 in get_inputs is the layer's in_features, which cannot change."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return self.fc(x)


batch_size = 40


def get_inputs():
    return [torch.randn(batch_size, 64)]


def get_init_inputs():
    return [64, 24]
'''

LINEAR_CC = '''"""An honest linear layer in C."""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
void linear(const float* x, const float* w, const float* b, float* y, long rows, long k, long n) {
    for (long r = 0; r < rows; ++r)
        for (long j = 0; j < n; ++j) {
            float s = b[j];
            for (long i = 0; i < k; ++i) s += x[r * k + i] * w[j * k + i];
            y[r * n + j] = s;
        }
}
""")


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty(x.shape[0], self.fc.out_features)
        lib.linear(x, self.fc.weight.contiguous(), self.fc.bias.contiguous(), y, x.shape[0], x.shape[1],
                   self.fc.out_features)
        return y
'''


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    from kernelmosaic.task import Task, load_task
    from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest

    off = TimingConfig(enabled=False)
    cheat = (ADV / "drop_remainder_128.py").read_text()
    relu = load_task(ADV / "tasks" / "relu.py")
    reqs = {
        "cheat": VerifyRequest(candidate=cheat, task=relu, backend="cpp", trials=2, timing=off),
        "cheat_off": VerifyRequest(candidate=cheat, task=relu, backend="cpp", trials=2, timing=off, shape_variants=False),
        "linear": VerifyRequest(candidate=LINEAR_CC, task=Task(name="linear", source=LINEAR_TASK), backend="cpp",
                                trials=2, timing=off),
    }
    with Verifier(device="cpu", workers=2, cache_dir=tmp_path_factory.mktemp("kmosaic-shapes"), spares=0) as v:
        return dict(zip(reqs, v.verify_many(list(reqs.values()))))


def test_verdict_lists_the_variants(verdicts):
    v = verdicts["cheat"]
    assert v.status == "incorrect" and v.error.kind == "shape_variant", (v.status, v.error)
    grow, prime = v.shape_variants
    assert grow == {"mode": "grow", "applied": True, "changed": {"batch_size": 80}, "refused": [], "passed": True}
    assert prime["mode"] == "prime" and prime["applied"] and prime["passed"] is False
    assert prime["changed"] == {"batch_size": 31, "dim": 499}
    assert v.mismatch.shape_variant == {"batch_size": 31, "dim": 499}
    # the record survives the JSON round trip the store and the export use
    from kernelmosaic.verify import Verdict

    assert Verdict.from_dict(json.loads(v.to_json())).shape_variants == v.shape_variants


def test_switch_turns_the_variants_off(verdicts):
    v = verdicts["cheat_off"]
    assert v.status == "correct" and v.shape_variants == []
    assert any("shape variants off" in n for n in v.notes), v.notes


def test_reference_refusal_is_not_the_candidates_fault(verdicts):
    v = verdicts["linear"]
    assert v.status == "correct", (v.status, v.error, v.mismatch)
    grow, prime = v.shape_variants
    assert grow["changed"] == {"batch_size": 52} and grow["passed"]  # 40 + 10, kept a multiple of 4
    assert prime["changed"] == {"batch_size": 19} and prime["passed"]
    # the 64 (in_features) was tried with the batch, refused by the reference, and left out
    assert any(len(r["sites"]) == 1 and "get_inputs@" in next(iter(r["sites"])) for r in prime["refused"]), prime


def test_cli_no_shape_variants(tmp_path):
    args = [sys.executable, "-m", "kernelmosaic.cli", "verify", str(ADV / "drop_remainder_128.py"), "--task",
            str(ADV / "tasks" / "relu.py"), "--device", "cpu", "--backend", "cpp", "--json", "--no-timing", "--trials", "2"]
    env = dict(os.environ, KMOSAIC_CACHE_DIR=str(tmp_path))
    r = subprocess.run(args + ["--no-shape-variants"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    v = json.loads(r.stdout)
    assert v["status"] == "correct" and v["shape_variants"] == [] and any("shape variants off" in n for n in v["notes"])


def test_bench_switch_reaches_the_request():
    """`kmosaic bench --no-shape-variants` -> BenchConfig -> EpisodeConfig -> each VerifyRequest."""
    from kernelmosaic.agent.episode import Episode
    from kernelmosaic.bench.run import BenchConfig
    from kernelmosaic.task import Task

    for on in (True, False):
        cfg = BenchConfig(mode="single", shape_variants=on).episode_config()
        ep = Episode(Task(name="linear", source=LINEAR_TASK), llm=None, verifier=None, config=cfg, guidance=[])
        assert ep.request("class ModelNew: pass").shape_variants is on


def test_passthrough_exceptions_are_not_refusals():
    """The judge's own verdicts raised while the reference runs on a variant (a candidate charged
    with an out-of-memory) propagate; anything else is the reference refusing the shape."""
    from kernelmosaic.verify.variants import choose_variant

    src = "import torch\nN = 4096\ndef get_inputs():\n    return [torch.randn(N)]\n"

    class Charged(Exception):
        pass

    def charged(_src):
        raise Charged("over its budget")

    with pytest.raises(Charged):
        choose_variant(src, "prime", charged, passthrough=(Charged,))
    chosen, refused = choose_variant(src, "prime", charged)
    assert chosen is None and refused and "Charged" in refused[0]["reason"]
