"""mosaic-v2 generation on the CPU: the balance on a small pool, docstrings that agree with the
code, the template key, v1 untouched, the execution filters and KernelBench decontamination."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from kernelmosaic.curate.dedup import dedup
from kernelmosaic.curate.filters import measure
from kernelmosaic.curate.generate import generate_pool, make_task
from kernelmosaic.curate.generate_v2 import balance, make_task_v2, template_key
from kernelmosaic.curate.taskset import TaskSet
from kernelmosaic.task import parse_task

ROOT = Path(__file__).resolve().parents[1]
N_SMALL = 400


def _kernelbench() -> Path | None:
    for p in (os.environ.get("KERNELBENCH_DIR"), ROOT.parent / "shared" / "kernelbench"):
        if p and (Path(p) / "level1").is_dir():
            return Path(p)
    return None


@pytest.fixture(scope="module")
def v2(tmp_path_factory):
    d = tmp_path_factory.mktemp("v2") / "pool"
    generate_pool(d, N_SMALL, scale="small", seed=18, version="v2")
    return TaskSet.open(d)


# -- the balance ---------------------------------------------------------------------------------------
def test_small_v2_pool_meets_the_balance_after_dedup(v2):
    recs = v2.records
    assert len(recs) == N_SMALL and all(r["version"] == "v2" and r["template"] for r in recs)
    rows = dedup([(r, v2.source(r)) for r in recs])
    kept_names = {row["name"] for row in rows if not row["dropped"]}
    kept = [r for r in recs if r["name"] in kept_names]
    # small scale draws from two or three sizes per dimension, so a few blocks repeat exactly
    assert len(kept) >= 0.88 * N_SMALL, len(kept)
    b = balance(kept)
    assert b.fusion_pct >= 35.0, b
    assert b.fp32_pct >= 50.0, b
    # 400 templates is the bar for the >= 2,000-task pool; a few hundred tasks must already be
    # mostly distinct structures, or the full pool could not get there
    assert b.templates >= 0.5 * len(kept), b
    assert {"single", "fusion", "block"} <= set(b.by_generator)
    assert {"chain", "residual", "gate"} <= set(b.by_wiring), b.by_wiring
    for r in recs:
        parse_task(v2.source(r), r["name"])


def test_template_key_is_structure_not_shape_or_dtype(v2):
    by_template: dict[str, set] = {}
    for r in v2.records:
        by_template.setdefault(r["template"], set()).add((r["wiring"], tuple(r["ops"])))
    # one template never covers two op structures (up to conv stride/dilation, which only change shapes)
    norm = lambda ops: tuple(re.sub(r"^(conv\dd)_(strided|dilated)$", r"\1", o) for o in ops)  # noqa: E731
    for t, structs in by_template.items():
        assert len({(w, norm(o)) for w, o in structs}) == 1, (t, structs)
    # the same structure at another shape and dtype is the same template; another wiring is not
    a = template_key(["linear", "gelu", "layer_norm"], "chain")
    assert a == template_key(["linear", "gelu", "layer_norm"], "chain")
    assert a != template_key(["linear", "gelu", "layer_norm"], "residual")
    assert a != template_key(["linear", "relu", "layer_norm"], "chain")
    assert template_key(["conv2d_strided", "relu"], "chain") == template_key(["conv2d", "relu"], "chain")
    assert template_key(["conv2d_depthwise", "relu"], "chain") != template_key(["conv2d", "relu"], "chain")
    # same seed, another dtype: the same structure, so the same template
    for s in range(40):
        m32, m16 = make_task_v2("fusion", s, "fp32", "small"), make_task_v2("fusion", s, "fp16", "small")
        if m32 and m16 and m32[1]["ops"] == m16[1]["ops"]:
            assert m32[1]["template"] == m16[1]["template"]


# -- docstrings agree with the code ---------------------------------------------------------------------
# What each op name in a docstring promises the source contains, written independently of the
# generators' code templates: a docstring that names an op its code does not run fails here.
MARKERS = {
    "abs": r"torch\.abs\(", "atan": r"torch\.atan\(", "celu": r"F\.celu\(", "clamp": r"torch\.clamp\(",
    "cos": r"torch\.cos\(", "cube": r"x \* x \* x", "elu": r"F\.elu\(", "erf": r"torch\.erf\(",
    "exp_neg_sq": r"torch\.exp\(-x \* x\)", "frac_sin": r"torch\.sin\([\d.]+ \* x\) \* x",
    "gelu": r"F\.gelu\((?!.*approximate)", "gelu_tanh": r"F\.gelu\(.*approximate='tanh'\)",
    "hardshrink": r"F\.hardshrink\(", "hardsigmoid": r"F\.hardsigmoid\(", "hardswish": r"F\.hardswish\(",
    "hardtanh": r"F\.hardtanh\(", "leaky_relu": r"F\.leaky_relu\(", "log1p_abs": r"torch\.log1p\(x\.abs\(\)\)",
    "logsigmoid": r"F\.logsigmoid\(", "mish": r"F\.mish\(", "reciprocal_soft": r"1\.0 / \(1\.0 \+ x\.abs\(\)\)",
    "relu": r"torch\.relu\(", "relu6": r"F\.relu6\(", "rsqrt_sq": r"torch\.rsqrt\(x \* x \+ 1\.0\)",
    "scale": r"x = x \* [\d.]+$", "selu": r"F\.selu\(", "shift": r"x = x \+ [\d.]+$", "sigmoid": r"torch\.sigmoid\(",
    "sign_sqrt": r"torch\.sign\(x\) \* torch\.sqrt\(x\.abs\(\)\)", "silu": r"F\.silu\(", "sin": r"torch\.sin\(",
    "softplus": r"F\.softplus\(", "softshrink": r"F\.softshrink\(", "softsign": r"F\.softsign\(",
    "sqrt_abs": r"torch\.sqrt\(x\.abs\(\) \+", "square": r"x = x \* x$", "swish_beta": r"x \* torch\.sigmoid\([\d.]+ \* x\)",
    "tanh": r"torch\.tanh\(", "tanhshrink": r"F\.tanhshrink\(",
    "binary_add": r"x = x \+ y$", "binary_mul": r"x = x \* y$", "binary_sub": r"x = x - y$",
    "binary_max": r"torch\.maximum\(x, y\)", "binary_min": r"torch\.minimum\(x, y\)", "binary_addcmul": r"torch\.addcmul\(",
    "binary_lerp": r"torch\.lerp\(", "binary_where": r"torch\.where\(x > y",
    "bias_add": r"x = x \+ self\.bias\d*$", "channel_scale": r"x = x \* self\.scale\d*$",
    "reduce_sum": r"torch\.sum\(", "reduce_mean": r"torch\.mean\(x, |\.mean\(dim=\(2, 3\)\)", "reduce_amax": r"torch\.amax\(",
    "reduce_amin": r"torch\.amin\(", "reduce_var": r"torch\.var\(", "reduce_std": r"torch\.std\(",
    "reduce_logsumexp": r"torch\.logsumexp\(", "reduce_l2norm": r"torch\.linalg\.vector_norm\(",
    "reduce_mean_abs": r"torch\.mean\(x\.abs\(\)", "argmax": r"torch\.argmax\(", "argmin": r"torch\.argmin\(",
    "scan_cumsum": r"(?<!flip\()torch\.cumsum\(", "scan_cumsum_rev": r"torch\.flip\(torch\.cumsum\(",
    "scan_cummax": r"torch\.cummax\(", "scan_logcumsumexp": r"torch\.logcumsumexp\(", "scan_cumprod": r"torch\.cumprod\(",
    "layer_norm": r"nn\.LayerNorm\(", "rms_norm": r"torch\.rsqrt\(\w+\.pow\(2\)\.mean\(dim=-1", "l2_normalize": r"F\.normalize\(",
    "batch_norm": r"nn\.BatchNorm[123]d\(", "group_norm": r"nn\.GroupNorm\(", "instance_norm": r"nn\.InstanceNorm[123]d\(",
    "softmax": r"torch\.softmax\(", "log_softmax": r"torch\.log_softmax\(", "softmin": r"F\.softmin\(",
    "softmax_temp": r"torch\.softmax\(x / [\d.]+, dim=-1\)", "softmax_channel": r"torch\.softmax\(x, dim=1\)",
    "sparsemax_like": r"torch\.relu\(x - x\.mean\(",
    "linear": r"nn\.Linear\(", "matmul_t": r"torch\.matmul\(x, self\.weight\d*\.t\(\)\)", "bmm": r"torch\.bmm\(",
    "gram": r"torch\.matmul\(x, x\.transpose\(-1, -2\)\)", "matmul": r"torch\.matmul\(", "addmm": r"torch\.addmm\(",
    "baddbmm": r"torch\.baddbmm\(",
    "sdpa": r"F\.scaled_dot_product_attention\(", "sdpa_causal": r"F\.scaled_dot_product_attention\(.*is_causal=True",
    "gather": r"torch\.gather\(|x\[rows\]", "index_select": r"torch\.index_select\(", "scatter_add": r"\.scatter_add_\(",
    "masked_fill": r"\.masked_fill\(", "embedding": r"nn\.Embedding\(", "embedding_bag": r"nn\.EmbeddingBag\(",
    "index_add": r"\.index_add\(", "sort": r"torch\.sort\(", "topk": r"torch\.topk\(", "kthvalue": r"torch\.kthvalue\(",
    "median": r"torch\.median\(",
    "loss_bce_logits": r"F\.binary_cross_entropy_with_logits\(", "loss_cosine": r"F\.cosine_similarity\(",
    "loss_l1": r"F\.l1_loss\(", "loss_margin_ranking": r"F\.margin_ranking_loss\(", "loss_nll": r"F\.nll_loss\(",
    "loss_poisson_nll": r"F\.poisson_nll_loss\(", "loss_soft_margin": r"F\.soft_margin_loss\(",
    "lstm": r"nn\.LSTM\(", "gru": r"nn\.GRU\(", "rnn": r"nn\.RNN\(", "lstmcell": r"nn\.LSTMCell\(",
    "grucell": r"nn\.GRUCell\(", "rnncell": r"nn\.RNNCell\(",
    "add": r" \+ ", "mul": r" \* ", "permute": r"\.permute\(",
    "residual_add": r"x = x \+ r$", "sigmoid_gate": r"x = x \* torch\.sigmoid\(r\)$",
}


def _marker(op: str) -> str:
    m = re.fullmatch(r"conv(\d)d(?:_(strided|dilated|grouped|depthwise|pointwise))?", op)
    if m:
        extra = {None: "", "strided": r".*stride=2", "dilated": r".*dilation=2", "grouped": r".*groups=",
                 "depthwise": r".*groups=", "pointwise": r"(?:.*kernel_size=1,|\d+, \d+, 1[,)])"}[m.group(2)]
        return rf"nn\.Conv{m.group(1)}d\(" + extra
    m = re.fullmatch(r"conv_transpose(\d)d", op)
    if m:
        return rf"nn\.ConvTranspose{m.group(1)}d\("
    m = re.fullmatch(r"(adaptive_avg|adaptive_max|max|avg|lp)_pool(\d)d", op)
    if m:
        return rf"F\.{m.group(1)}_pool{m.group(2)}d\("
    assert op in MARKERS, f"no marker for op {op!r}: add one to MARKERS"
    return MARKERS[op]


GLU = {"SwiGLU": r"F\.silu\(self\.w_gate\(h\)\)", "ReGLU": r"torch\.relu\(self\.w_gate\(h\)\)",
       "GeGLU (tanh approximation)": r"F\.gelu\(self\.w_gate\(h\), approximate='tanh'\)",
       "GeGLU:": r"F\.gelu\(self\.w_gate\(h\)\)"}


def docstring_problems(src: str, meta: dict) -> list[str]:
    """Every way the task's docstring disagrees with its code (empty when it agrees)."""
    tree = ast.parse(src)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    doc = ast.get_docstring(cls) or ""
    fwd = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward")
    code = ast.get_source_segment(src, cls).replace(ast.get_source_segment(src, cls.body[0]), "")  # the class without its docstring
    fwd_lines = [ln.strip() for ln in ast.get_source_segment(src, fwd).splitlines()[1:]]
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    modules = dict(re.findall(r"^\s*self\.(\w+) = (.+)$", ast.get_source_segment(src, init), re.M))
    # a forward line with the constructors of the modules it calls, so `self.fc(x)` reads as nn.Linear
    expanded = [ln + "".join(f" # {modules[a]}" for a in re.findall(r"self\.(\w+)", ln) if a in modules) for ln in fwd_lines]
    problems = []
    m = re.search(r"^Ops: (.+)$", doc, re.M)
    if not m:
        return [f"no 'Ops:' line in {doc!r}"]
    ops = m.group(1).split(", ")
    if ops != meta["ops"]:
        problems.append(f"docstring ops {ops} != metadata ops {meta['ops']}")
    dt = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}[meta["dtypes"][0]]
    if f"({meta['dtypes'][0]})." not in doc or f"dtype = torch.{dt}" not in src:
        problems.append(f"dtype claim disagrees: {meta['dtypes']}")
    for op in ops:
        if not re.search(_marker(op), code, re.M):
            problems.append(f"claims {op} but the code has no {_marker(op)}")
    if meta["generator"] == "fusion":
        # a chain runs its ops in the order the docstring lists them
        pos = 0
        for op in ops:
            hit = next((i for i in range(pos, len(expanded))
                        if re.search(_marker(op), fwd_lines[i]) or re.search(_marker(op), expanded[i])), None)
            if hit is None:
                problems.append(f"{op} is not where the chain order puts it")
                break
            pos = hit + 1
        if ("residual_add" in ops or "sigmoid_gate" in ops) != ("r = x" in fwd_lines):
            problems.append("a skip is claimed without r = x, or the reverse")
        if "r = x" in fwd_lines and ("its input" in doc) != (fwd_lines.index("r = x") == 0):
            problems.append("the docstring says where the skip starts, and the code disagrees")
    for name, pat in GLU.items():
        if name in doc and not re.search(pat, code):
            problems.append(f"says {name} but gates otherwise")
    if "gated MLP" in doc.lower() and not any(name in doc for name in GLU):
        problems.append("a gated MLP that does not name its gate")
    if "causal" in doc.lower() and "is_causal=True" not in code and ".triu(" not in code:
        problems.append("says causal, is not")
    for norm, pat in (("layer_norm", r"nn\.LayerNorm\("), ("rms_norm", r"torch\.rsqrt\(")):
        if f"with {norm} and" in doc and not re.search(pat, code):
            problems.append(f"says {norm}, has none")
    if "with no norm and" in doc and re.search(r"nn\.LayerNorm\(|torch\.rsqrt\(", code):
        problems.append("says no norm, has one")
    red = re.search(r"reduction=(\w+)", doc)
    if red and f"reduction='{red.group(1)}'" not in code:
        problems.append(f"says reduction={red.group(1)}, code does not")
    layers = re.search(r"(\d)-layer (LSTM|GRU)", doc)
    if layers and f"num_layers={layers.group(1)}" not in code:
        problems.append(f"says {layers.group(0)}, code does not")
    return problems


def test_every_v2_docstring_matches_its_code(v2):
    bad = {r["name"]: p for r in v2.records if (p := docstring_problems(v2.source(r), r))}
    assert not bad, list(bad.items())[:5]
    counts = Counter(r["generator"] for r in v2.records)
    assert min(counts.values()) >= 40, counts  # every generator's docstrings were checked, not a few


SHIPPED_V2 = ROOT / "tasksets" / "mosaic-v2"


@pytest.mark.skipif(not (SHIPPED_V2 / "manifest.jsonl").is_file(), reason=f"no shipped mosaic-v2 at {SHIPPED_V2}")
def test_shipped_v2_meets_issue_18_and_its_docstrings_match_its_code():
    """The committed set itself: issue 18's balance (at least 2,000 tasks, fusion chains at least
    35%, fp32 at least 50%, at least 400 templates), every task measured in the eager window on a
    GPU, and every docstring true to its code."""
    ts = TaskSet.open(SHIPPED_V2)
    b = balance(ts.records)
    assert not b.meets() and b.tasks >= 2000 and b.fusion_pct >= 35 and b.fp32_pct >= 50 and b.templates >= 400, b
    assert all(r.get("gpu") and 1.0 <= r["eager_ms"] <= 15.0 for r in ts.records)
    bad = {r["name"]: p for r in ts.records if (p := docstring_problems(ts.source(r), r))}
    assert not bad, list(bad.items())[:5]


def test_docstring_check_catches_v1_style_lies(v2):
    """The check fails on what v1 got wrong: a ReLU-gated MLP called SwiGLU, and docstring ops
    that the code does not run."""
    gated = next(r for r in v2.records if "gated mlp" in (ast.get_docstring(next(
        n for n in ast.parse(v2.source(r)).body if isinstance(n, ast.ClassDef))) or "").lower())
    src = v2.source(gated)
    assert not docstring_problems(src, gated)
    lie = re.sub(r"\((SwiGLU|ReGLU|GeGLU[^:]*):", "(SwiGLU:", src)
    lie = re.sub(r"self\.w_down\(.*\* self\.w_up\(h\)\)", "self.w_down(torch.relu(self.w_gate(h)) * self.w_up(h))", lie)
    assert any("SwiGLU" in p for p in docstring_problems(lie, gated))
    chain = next(r for r in v2.records if r["generator"] == "fusion" and "relu" not in r["ops"])
    src = v2.source(chain)
    wrong = src.replace("Ops: " + ", ".join(chain["ops"]), "Ops: " + ", ".join(chain["ops"] + ["relu"]))
    assert docstring_problems(wrong, chain)  # the docstring names an op the code lacks
    assert docstring_problems(wrong, {**chain, "ops": chain["ops"] + ["relu"]})


# -- v1 is untouched ----------------------------------------------------------------------------------
def test_v1_generation_is_unchanged(tmp_path):
    """v1 still makes the tasks shipped in mosaic-v1, byte for byte, and carries no v2 keys
    (tests/test_tasks_curation.py also pins the whole 5,000-task pool's manifest)."""
    made = make_task("fusion", 123, "fp32", "small")
    assert made and "template" not in made[1] and "version" not in made[1]
    meta = json.loads((ROOT / "tasksets" / "mosaic-v1-pool" / "pool.json").read_text())
    n = 400
    again = {r["name"]: r for r in generate_pool(tmp_path / "v1", n, scale=meta["scale"], seed=meta["seed"])}
    shipped = TaskSet.open(ROOT / "tasksets" / "mosaic-v1")
    early = [r for r in shipped.records if r["name"] in again]
    assert len(early) >= 50, len(early)
    for rec in early:
        assert shipped.source(rec) == (tmp_path / "v1" / again[rec["name"]]["file"]).read_text(), rec["name"]


# -- execution filters and decontamination --------------------------------------------------------------
def test_v2_tasks_pass_the_filters_on_cpu(v2):
    sample = [r for r in v2.records if r["dtypes"] == ["fp32"]]
    by_gen = [r for g in ("fusion", "single", "block") for r in [x for x in sample if x["generator"] == g][:4]]
    results = [measure(v2.source(r), "cpu", timing=False) for r in by_gen]
    assert len(results) == 12
    assert all(r["checks"]["runs"] for r in results), [(t["name"], r["reasons"]) for t, r in zip(by_gen, results)]
    assert sum(r["passed_checks"] for r in results) >= 10, [(t["name"], r["reasons"]) for t, r in zip(by_gen, results)]


def test_v2_pool_passes_kernelbench_decontamination(v2):
    kb = _kernelbench()
    if kb is None:
        pytest.skip("KernelBench not found (set KERNELBENCH_DIR)")
    from kernelmosaic.curate.behaviour import behavioural_check
    from kernelmosaic.task import load_kernelbench
    from kernelmosaic.task.decontam import decontaminate, reference_index

    problems = load_kernelbench(kb, (1, 2, 3))
    items = [(r["name"], v2.source(r)) for r in v2.records]
    lex = decontaminate(items, reference_index(problems))
    assert sum(r["dropped"] for r in lex) <= 0.03 * len(items), [(r["name"], r["nearest"]) for r in lex if r["dropped"]]
    # every task is run against every problem; singles are where a plain L1 function would hide
    assert sum(r["generator"] == "single" for r in v2.records) >= 40
    rows, summary = behavioural_check(items, [(p.key, p.source) for p in problems], jobs=2)
    same = [(r["name"], r.get("kb")) for r in rows if r["verdict"] == "same"]
    assert summary["problems_probed"] >= 230 and summary["tasks_probed"] >= 0.9 * len(items), summary
    assert not same, same


def test_cli_generates_v2_and_prints_the_balance(tmp_path):
    out = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "tasks", "generate", "--out", str(tmp_path / "p"),
                          "--n", "60", "--scale", "small", "--seed", "3", "--version", "v2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "fusion" in out.stdout and "templates" in out.stdout
    recs = TaskSet.open(tmp_path / "p").records
    assert len(recs) == 60 and all(r["version"] == "v2" for r in recs)
    b = balance(recs)
    assert f"{b.templates} templates" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "kernelmosaic.cli", "tasks", "generate", "--out", str(tmp_path / "q"),
                          "--n", "3", "--version", "v3"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert bad.returncode == 2 and "--version" in bad.stderr
