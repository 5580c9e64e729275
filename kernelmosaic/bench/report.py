"""The KernelBench report: ``report.md`` and a self-contained ``report.html`` for one or more runs.

    from kernelmosaic.bench import write_report
    md, html = write_report([("a.db", "run-a"), ("b.db", "run-b")], "out/")

``report.html`` needs nothing but itself: inline CSS, plots embedded as base64 PNG, no scripts
and no external URLs. ``report.md`` holds the same tables and links the plots, which are also
written next to it as PNG files.

Problem categories (for "correctness by category") come from the op words of the task name
(``L2/12_Gemm_Multiply_LeakyReLU`` -> ``Gemm``, ``Multiply``, ``LeakyReLU``): the first family
in :data:`CATEGORY_FAMILIES` order with a keyword in the name wins (so a fused conv + ReLU is
"convolution", a softmax is "activation", not "reduction"); a name with no known op word falls
back to its level ("L3 other").
"""

from __future__ import annotations

import base64
import difflib
import html
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..data import Store, require_store
from .metrics import BASELINES, PASS_KS, RunMetrics, TaskRow, compute_metrics, fast_p, level_label, level_order
from .published import PUBLISHED, PUBLISHED_LABEL
from ..vocab import Protocol

CATEGORY_FAMILIES: list[tuple[str, tuple[str, ...]]] = [
    ("attention", ("attention", "attn", "transformer", "gpt", "bert", "vit", "swin")),
    ("rnn", ("lstm", "gru", "rnn")),
    ("convolution", ("conv",)),
    ("matmul/gemm", ("matmul", "gemm", "bmm", "matrix", "linear", "einsum", "dense")),
    ("pooling", ("pool",)),
    ("normalization", ("norm",)),
    ("loss", ("loss", "entropy", "divergence")),
    ("activation", ("relu", "elu", "sigmoid", "tanh", "softmax", "softplus", "softsign", "swish",
                    "mish", "hardtanh", "hardswish", "gelu", "silu", "clamp", "dropout")),
    ("reduction/scan", ("sum", "mean", "max", "min", "argmax", "argmin", "prod", "reduc", "cumsum",
                        "cumprod", "scan")),
    ("elementwise", ("add", "mul", "multiply", "subtract", "divide", "scale", "bias", "residual")),
    ("network", ("net", "mlp", "vgg", "model", "block", "mamba")),
]

_CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#1d232b;max-width:1500px}
h1{font-size:24px;margin-bottom:4px} h2{border-bottom:2px solid #d5dbe3;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
th,td{border:1px solid #d5dbe3;padding:3px 7px;text-align:right} th{background:#eef2f6}
td.l,th.l{text-align:left;white-space:nowrap} td.lw,th.lw{text-align:left} tr.lvl-start td{border-top:2px solid #8894a3}
.muted{color:#6b7785} .small{font-size:12px}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;color:#fff;background:#6b7785}
.b-correct{background:#1f8a4c} .b-incorrect{background:#c0392b} .b-compile_error{background:#a04000}
.b-runtime_error{background:#8e44ad} .b-infra_error{background:#7f8c8d} .b-timeout{background:#7f6000} .b-rejected{background:#34495e}
.b-invalid_candidate{background:#555}
.published{border:2px dashed #c47f00;background:#fff8e6;padding:8px 12px;margin:8px 0}
.published h2{border:none;margin-top:4px}
.plot img{max-width:100%;border:1px solid #e3e7ec;margin:6px 0}
details.task{border:1px solid #d5dbe3;border-radius:4px;margin:4px 0;padding:2px 8px}
details.task>summary{cursor:pointer;padding:3px 0}
details.sample{margin:6px 0 6px 12px}
.turn{border-left:3px solid #b8c2cc;margin:8px 0 8px 6px;padding:2px 10px}
.turn.t-correct{border-left-color:#1f8a4c}
pre{background:#f6f8fa;border:1px solid #e3e7ec;padding:6px;overflow-x:auto;font-size:12px;white-space:pre-wrap;word-break:break-word}
pre.diff{white-space:pre} .d-add{color:#1a7f37;background:#e6ffec} .d-del{color:#b3261e;background:#ffebe9}
.d-hunk{color:#6b45c2} .kv{font-size:12px} .kv b{color:#42505e}
"""


# -- inputs ------------------------------------------------------------------------------------------
def _store_run_ids(store: Store) -> list[str]:
    return store.run_ids()


def _normalize_runs(runs: Any) -> list[tuple[str, str | None]]:
    """[(store path, run_id or None for every run in the store)]."""
    if isinstance(runs, (str, os.PathLike)):
        return [(os.fspath(runs), None)]
    if (isinstance(runs, tuple) and len(runs) == 2 and isinstance(runs[1], str)
            and isinstance(runs[0], (str, os.PathLike)) and not os.path.isfile(runs[1])):
        return [(os.fspath(runs[0]), runs[1])]
    out: list[tuple[str, str | None]] = []
    for r in runs:
        if isinstance(r, (str, os.PathLike)):
            out.append((os.fspath(r), None))
        else:
            path, run_id = r
            out.append((os.fspath(path), run_id))
    if not out:
        raise ValueError("write_report needs at least one store path or (path, run_id) pair")
    return out


def run_setup(path: str, run_id: str) -> tuple[str, str]:
    """(mode, baselines) of a run, from the settings ``kmosaic bench`` records; "–" for other runs."""
    with Store(path) as st:
        run = st.get_run(run_id)
    b = ((run.settings if run else {}) or {}).get("bench") or {}
    if not b:
        return "–", "–"
    mode = b.get("mode", "?")
    if mode == "agent" and b.get("turns"):
        mode += f" (R={b['turns'][0]}, O={b['turns'][1]})"
    if b.get("samples", 1) > 1:
        mode += f", {b['samples']} samples"
    src = b.get("baselines")
    base = {"measure": "measured here (this verifier's timing protocol)",
            "kernelbench": f"KernelBench stored ({b.get('stored_hardware')})",
            "none": "none (no speedups)"}.get(src, str(src))
    return mode, base


# -- categories --------------------------------------------------------------------------------------
def task_words(task_key: str) -> list[str]:
    """Op words of a task name: ``L2/12_Gemm_Multiply_LeakyReLU`` -> [Gemm, Multiply, LeakyReLU]."""
    name = task_key.rsplit("/", 1)[-1]
    name = re.sub(r"\.py$", "", name)
    name = re.sub(r"^\d+_", "", name)
    return [w for w in re.split(r"[_\-\s]+", name) if w]


def task_category(task_key: str, level: int | None = None) -> str:
    """The task's op family (see :data:`CATEGORY_FAMILIES`), or its level when none matches."""
    name = " ".join(task_words(task_key)).lower()
    for fam, keys in CATEGORY_FAMILIES:
        if any(k in name for k in keys):
            return fam
    if level is None or level_label(level) == "other":
        return "other"
    return f"{level_label(level)} other"


# -- formatting --------------------------------------------------------------------------------------
def _pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}%"


def _frac(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _x(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}x"


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x:.4g}"


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _md(x: Any) -> str:
    return ("" if x is None else str(x)).replace("|", "\\|").replace("\n", " ")


def _trunc(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n] + f"\n... [{len(s) - n} more characters]"


_SUMMARY_COLS = (["n", "compiled", "correct"]
                 + [f"fast_{p:g} eager" for p in (0, 1, 2)] + [f"fast_{p:g} compile" for p in (0, 1, 2)]
                 + ["geomean eager", "geomean compile"] + [f"pass@{k}" for k in PASS_KS]
                 # problems the verifier never judged (infra_error): not in compiled, correct, fast_p
                 + ["no verdict"])


def _summary_cells(lm) -> list[str]:
    return ([str(lm.n_problems), _pct(lm.compiled_pct), _pct(lm.correct_pct)]
            + [_frac(lm.fast_p_eager.get(float(p))) for p in (0, 1, 2)]
            + [_frac(lm.fast_p_compile.get(float(p))) for p in (0, 1, 2)]
            + [_x(lm.geomean_speedup_eager), _x(lm.geomean_speedup_compile)]
            + [_frac(lm.pass_at_k.get(k)) for k in PASS_KS]
            + [f"{getattr(lm, 'n_no_verdict', 0)} ({getattr(lm, 'n_infra_error_turns', 0)} turns)"])


KB_JUDGED = "judged by KernelBench's protocol"
KB_NOTE = ("The same turns, judged again by KernelBench's evaluator (kmosaic bench --protocol kernelbench): its seeds, "
           "weights, tolerances and mean time, no rules, one shape. The numbers to set beside published ones; the "
           "table above is the project's verdicts, which the episodes ran on (docs/bench.md lists every difference).")


def _judged_under(path: str, run_id: str, protocol: str) -> bool:
    with Store(path) as st:
        return bool(st.protocol_verdicts(run_id, protocol))


def _summary_md(groups) -> list[str]:
    out = ["| level | run | " + " | ".join(_SUMMARY_COLS) + " |", "|---|---|" + "---:|" * len(_SUMMARY_COLS)]
    for lvl, items in groups:
        for lab, lm in items:
            out.append(f"| {lvl} | {_md(lab)} | " + " | ".join(_summary_cells(lm)) + " |")
    return out


def _summary_rows_html(groups) -> list[str]:
    out = []
    for lvl, items in groups:
        for i, (lab, lm) in enumerate(items):
            cls = " class='lvl-start'" if i == 0 else ""
            out.append(f"<tr{cls}><td class='l'>{_e(lvl)}</td><td class='l'>{_e(lab)}</td>"
                       + "".join(f"<td>{_e(c)}</td>" for c in _summary_cells(lm)) + "</tr>")
    return out


def _summary_groups(metrics: list[RunMetrics], labels: list[str]):
    """[(level label, [(run label, LevelMetrics)])], levels in order, "all" last."""
    lvls = sorted({lv for m in metrics for lv in m.levels}, key=level_order)
    groups = []
    for lv in lvls:
        groups.append((level_label(lv), [(lab, m.levels[lv]) for lab, m in zip(labels, metrics) if lv in m.levels]))
    groups.append(("all", [(lab, m.overall) for lab, m in zip(labels, metrics)]))
    return groups


# -- plots -------------------------------------------------------------------------------------------
def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _plt().close(fig)
    return buf.getvalue()


def _horizontal() -> dict:
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


_LOG_TICKS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)
_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def plot_speedups(metrics: list[RunMetrics], labels: list[str]) -> bytes:
    """Box plots (with points) of the speedups of correct kernels, per level and baseline, log x."""
    plt = _plt()
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    _HORIZONTAL = _horizontal()
    lvls = sorted({lv for m in metrics for lv in m.levels}, key=level_order)
    fig, axes = plt.subplots(len(lvls) or 1, 2, figsize=(12, 0.6 + (0.55 * len(metrics) + 1.1) * max(1, len(lvls))),
                             squeeze=False)
    for i, lv in enumerate(lvls or [None]):
        for j, base in enumerate(BASELINES):
            ax = axes[i][j]
            data = []
            for m in metrics:
                rows = [r for r in m.tasks if r.level == lv and r.correct]
                data.append([v for v in (getattr(r, f"speedup_{base}") for r in rows) if v is not None and v > 0])
            ax.set_xscale("log")
            ax.axvline(1.0, color="#888", lw=1, ls="--")
            flat = [v for d in data for v in d]
            if flat:
                pos = [k + 1 for k, d in enumerate(data) if d]
                ax.boxplot([d for d in data if d], positions=pos, widths=0.5, showfliers=False, **_HORIZONTAL)
                for k, d in enumerate(data):
                    ys = [k + 1 + 0.18 * (((n * 7919) % 11) / 10 - 0.5) for n in range(len(d))]
                    ax.scatter(d, ys, s=10, alpha=0.6, color=_COLORS[k % len(_COLORS)], zorder=3)
                lo, hi = min(min(flat) / 1.3, 0.5), max(max(flat) * 1.3, 2.0)
            else:
                lo, hi = 0.1, 10.0
                ax.text(1.0, (len(metrics) + 1) / 2, "no correct timed kernels", ha="center", va="center",
                        color="#888", fontsize=9)
            ax.set_xlim(lo, hi)
            ticks = [t for t in _LOG_TICKS if lo <= t <= hi]
            ax.xaxis.set_major_locator(FixedLocator(ticks))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
            ax.xaxis.set_minor_formatter(NullFormatter())
            # after boxplot, which sets its own tick labels
            ax.set_yticks(range(1, len(metrics) + 1))
            ax.set_yticklabels([f"{lab} (n={len(d)})" for lab, d in zip(labels, data)], fontsize=8)
            ax.set_ylim(len(metrics) + 0.6, 0.4)  # first run on top
            ax.set_title(f"{level_label(lv) if lv is not None else 'all'}: speedup vs {base} (correct kernels)",
                         fontsize=10)
            ax.set_xlabel(f"speedup over {'torch eager' if base == 'eager' else 'torch.compile'} (log)", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def fast_p_curve(rows: Sequence[TaskRow], baseline: str, ps: Sequence[float]) -> list[float]:
    return [fast_p(rows, p, baseline) for p in ps]


def plot_fast_p(metrics: list[RunMetrics], labels: list[str]) -> bytes:
    """fast_p for p in [0, 3], per run; rows: all problems, then each level; columns: baseline."""
    plt = _plt()
    ps = [i * 0.05 for i in range(61)]
    lvls = sorted({lv for m in metrics for lv in m.levels}, key=level_order)
    groups: list[tuple[str, int | None]] = [("all", None)] + [(level_label(lv), lv) for lv in lvls]
    fig, axes = plt.subplots(len(groups), 2, figsize=(12, 2.7 * len(groups)), squeeze=False)
    for i, (name, lv) in enumerate(groups):
        for j, base in enumerate(BASELINES):
            ax = axes[i][j]
            for k, (lab, m) in enumerate(zip(labels, metrics)):
                rows = m.tasks if lv is None else [r for r in m.tasks if r.level == lv]
                if not rows:
                    continue
                ax.plot(ps, [100 * v for v in fast_p_curve(rows, base, ps)], color=_COLORS[k % len(_COLORS)],
                        lw=1.8, label=f"{lab} (n={len(rows)})")
            ax.axvline(1.0, color="#888", lw=1, ls="--")
            ax.set_xlim(0, 3)
            ax.set_ylim(-2, 102)
            ax.set_title(f"{name}: fast_p vs {base}", fontsize=10)
            ax.set_xlabel("speedup threshold p", fontsize=9)
            ax.set_ylabel("% of problems", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return _png(fig)


def category_table(metrics: list[RunMetrics]) -> dict[str, list[tuple[int, int]]]:
    """{category: [(correct, n) per run]}."""
    cats: dict[str, list[list[int]]] = {}
    for i, m in enumerate(metrics):
        for r in m.tasks:
            c = cats.setdefault(task_category(r.task, r.level), [[0, 0] for _ in metrics])
            c[i][0] += int(r.correct)
            c[i][1] += 1
    return {k: [tuple(x) for x in v] for k, v in sorted(cats.items())}


def plot_categories(metrics: list[RunMetrics], labels: list[str]) -> bytes:
    """Correct % per problem category, grouped bars per run (labels give correct/n)."""
    plt = _plt()
    cats = category_table(metrics)
    names = list(cats)
    nr = len(metrics)
    fig, ax = plt.subplots(figsize=(12, 0.8 + 0.32 * max(1, len(names)) * max(1, nr)))
    h = 0.8 / nr
    for k, lab in enumerate(labels):
        ys = [i + (k - (nr - 1) / 2) * h for i in range(len(names))]
        vals = [100 * c / n if n else 0.0 for c, n in (cats[nm][k] for nm in names)]
        ax.barh(ys, vals, height=h * 0.9, color=_COLORS[k % len(_COLORS)], label=lab)
        for y, v, (c, n) in zip(ys, vals, (cats[nm][k] for nm in names)):
            if n:
                ax.text(v + 1, y, f"{c}/{n}", va="center", fontsize=7)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 112)
    ax.set_xlabel("% correct (primary sample)", fontsize=9)
    ax.set_title("Correctness by category (op family from the task name)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return _png(fig)


def plot_turns(metrics: list[RunMetrics], labels: list[str]) -> bytes:
    """Turns used until the first correct turn (problems), per run; 'never' last."""
    plt = _plt()
    keys = sorted({t for m in metrics for t in m.overall.turns_to_first_correct})
    cols = [str(t) for t in keys] + ["never"]
    nr = len(metrics)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    w = 0.8 / nr
    for k, (lab, m) in enumerate(zip(labels, metrics)):
        vals = [m.overall.turns_to_first_correct.get(t, 0) for t in keys] + [m.overall.never_correct]
        ax.bar([i + (k - (nr - 1) / 2) * w for i in range(len(cols))], vals, width=w * 0.9,
               color=_COLORS[k % len(_COLORS)], label=lab)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols)
    ax.set_xlabel("turns until the first correct turn", fontsize=9)
    ax.set_ylabel("problems", fontsize=9)
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Turns to first correct (primary sample)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


# -- trajectory viewer -------------------------------------------------------------------------------
def _badge(status: str | None) -> str:
    s = status or "none"
    return f'<span class="badge b-{_e(s)}">{_e(s)}</span>'


def _diff_html(prev: str, cur: str, a: str, b: str, max_lines: int) -> str:
    lines = list(difflib.unified_diff(prev.splitlines(), cur.splitlines(), a, b, lineterm="", n=3))
    if not lines:
        return '<p class="muted small">code unchanged from the previous turn</p>'
    more = len(lines) - max_lines
    out = []
    for ln in lines[:max_lines]:
        cls = ("d-hunk" if ln.startswith("@@") else "d-add" if ln.startswith("+") and not ln.startswith("+++")
               else "d-del" if ln.startswith("-") and not ln.startswith("---") else "")
        out.append(f'<span class="{cls}">{_e(ln)}</span>' if cls else _e(ln))
    if more > 0:
        out.append(_e(f"... [{more} more diff lines]"))
    return '<pre class="diff">' + "\n".join(out) + "</pre>"


def _turn_html(t, prev_code: str | None, max_text: int, max_diff_lines: int) -> str:
    v = t.verdict.to_dict()  # the protocol's JSON shape, which this page shows as it is stored
    parts = [f'<div class="turn t-{_e(v.get("status"))}"><div><b>turn {t.idx}</b> · {_e(t.stage)} · '
             f'{_badge(v.get("status"))} · compiled: {"yes" if v.get("compiled") else "no"}'
             f'{" · backend " + _e(v.get("backend")) if v.get("backend") else ""}</div>']
    timing = v.get("timing") or {}
    if timing:
        kv = " · ".join(f"<b>{_e(k)}</b> {_e(_fmt_num(timing.get(k)))}"
                        for k in ("candidate_ms", "eager_ms", "compile_ms", "speedup_eager", "speedup_compile")
                        if timing.get(k) is not None)
        parts.append(f'<div class="kv">timing: {kv}</div>')
    err = v.get("error") or {}
    if err:
        parts.append(f'<div class="kv"><b>error</b> ({_e(err.get("kind"))}): {_e(_trunc(str(err.get("message") or ""), max_text))}</div>')
        if err.get("log"):
            parts.append(f'<details><summary class="small">error log</summary><pre>{_e(_trunc(str(err["log"]), max_text))}</pre></details>')
    if v.get("mismatch"):
        parts.append(f'<div class="kv"><b>mismatch</b></div><pre>{_e(_trunc(json.dumps(v["mismatch"], indent=1, default=str), max_text))}</pre>')
    if v.get("rejections"):
        rej = "; ".join(f"{r.get('rule')}: {r.get('detail')}" if isinstance(r, dict) else str(r) for r in v["rejections"])
        parts.append(f'<div class="kv"><b>rejections</b>: {_e(_trunc(rej, max_text))}</div>')
    if t.guidance_ids:
        parts.append(f'<div class="kv"><b>guidance</b>: {_e(", ".join(map(str, t.guidance_ids)))}</div>')
    if t.feedback:
        parts.append(f'<details><summary class="small">feedback sent to the model</summary><pre>{_e(_trunc(t.feedback, max_text))}</pre></details>')
    if t.code is None:
        parts.append('<p class="muted small">no code in this reply</p>')
    elif prev_code is None:
        parts.append(f'<details><summary class="small">code ({len(t.code.splitlines())} lines)</summary>'
                     f'<pre>{_e(_trunc(t.code, max_text * 4))}</pre></details>')
    else:
        parts.append(f'<details open><summary class="small">code diff vs the previous code</summary>'
                     f'{_diff_html(prev_code, t.code, "previous", f"turn {t.idx}", max_diff_lines)}</details>')
    parts.append("</div>")
    return "".join(parts)


def _fmt_num(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _episode_html(st: Store, ep, max_text: int, max_diff_lines: int) -> str:
    turns = st.turns(ep.episode_id)
    out = [f'<div class="small muted">episode {_e(ep.episode_id)} · {_e(ep.status)} · best turn '
           f'{_e("–" if ep.best_turn is None else ep.best_turn)}{" · error: " + _e(ep.error) if ep.error else ""}</div>']
    prev = None
    for t in turns:
        out.append(_turn_html(t, prev, max_text, max_diff_lines))
        if t.code is not None:
            prev = t.code
    if not turns:
        out.append('<p class="muted small">no turns recorded</p>')
    return "".join(out)


def _viewer_html(path: str, run_id: str, m: RunMetrics, trajectory_samples: int | None,
                 max_text: int, max_diff_lines: int) -> str:
    out = []
    with Store(path) as st:
        eps_by_task: dict[str, list] = {}
        for e in st.episodes(run_id):
            if e.sample in m.samples:
                eps_by_task.setdefault(e.task_key, []).append(e)
        for r in m.tasks:
            eps = sorted(eps_by_task.get(r.task, []), key=lambda e: e.sample)
            if trajectory_samples is not None:
                eps = eps[:trajectory_samples]
            dash = lambda x: "–" if x is None else x  # noqa: E731
            summ = (f'<b>{_e(r.task)}</b> {_badge("correct" if r.correct else r.final_status)} <span class="small muted">'
                    f'{_e(level_label(r.level))} · {_e(task_category(r.task, r.level))} · {r.n_turns} turns · best turn '
                    f'{_e(dash(r.best_turn))} · first correct {_e(dash(r.first_correct_turn))} · eager {_e(_x(r.speedup_eager))}'
                    f' · compile {_e(_x(r.speedup_compile))} · {r.n_correct_samples}/{r.n_samples} samples correct</span>')
            body = []
            for e in eps:
                inner = _episode_html(st, e, max_text, max_diff_lines)
                if len(eps) > 1 or e.sample != r.sample:
                    body.append(f'<details class="sample"{" open" if e.sample == r.sample else ""}><summary>sample '
                                f'{e.sample}{" (primary)" if e.sample == r.sample else ""}</summary>{inner}</details>')
                else:
                    body.append(inner)
            out.append(f'<details class="task"><summary>{summ}</summary>{"".join(body)}</details>')
    return "".join(out)


# -- the report --------------------------------------------------------------------------------------
def _task_cols():
    return ["task", "level", "correct", "best turn", "first correct", "turns", "cand. ms", "eager ms",
            "compile ms", "vs eager", "vs compile", "compiled", "final status", "samples correct"]


def _task_cells(r: TaskRow) -> list[str]:
    return [r.task, level_label(r.level), "yes" if r.correct else "no", "–" if r.best_turn is None else str(r.best_turn),
            "–" if r.first_correct_turn is None else str(r.first_correct_turn), str(r.n_turns),
            _ms(r.candidate_ms), _ms(r.eager_ms), _ms(r.compile_ms), _x(r.speedup_eager), _x(r.speedup_compile),
            "yes" if r.compiled else "no", r.final_status or "–", f"{r.n_correct_samples}/{r.n_samples}"]


def _published_rows(rows: list[dict]) -> list[list[str]]:
    return [[str(r.get("system", "")), level_label(r.get("level")), _pct(r.get("correct_pct")),
             str(r.get("source", "")), str(r.get("note", ""))] for r in rows]


def write_report(runs: Any, out_dir: str | os.PathLike, *, title: str = "KernelBench evaluation",
                 samples: int | Iterable[int] | None = None, trajectory_samples: int | None = 1,
                 published: list[dict] | None = None, max_text: int = 4000,
                 max_diff_lines: int = 400) -> tuple[Path, Path]:
    """Writes ``report.md`` and ``report.html`` (plus the plots as PNG) to ``out_dir``.

    ``runs``: a store path (every run in it), a ``(store path, run_id)`` pair, or a list of
    either. ``samples`` is passed to :func:`compute_metrics`. ``trajectory_samples``: how many
    samples per task the trajectory viewer shows (None: all). Returns (md path, html path).
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: is an existing file, not a folder")
    pairs: list[tuple[str, str]] = []
    for path, run_id in _normalize_runs(runs):
        require_store(path)  # a reader never creates a store (nor turns a 0-byte file into one)
        if run_id is None:
            with Store(path) as st:
                ids = _store_run_ids(st)
            if not ids:
                raise ValueError(f"{path}: the store holds no runs")
            pairs.extend((path, i) for i in ids)
        else:
            pairs.append((path, run_id))
    metrics = [compute_metrics(p, r, samples=samples) for p, r in pairs]
    labels = [r for _, r in pairs]
    if len(set(labels)) < len(labels):
        labels = [f"{r} ({Path(p).name})" for p, r in pairs]
    if len(set(labels)) < len(labels):
        labels = [f"{lab} #{i + 1}" for i, lab in enumerate(labels)]
    # runs benched with --protocol kernelbench: the same turns as KernelBench's evaluator judged them
    judged = [(lab, compute_metrics(p, r, samples=samples, protocol=Protocol.KERNELBENCH.value))
              for (p, r), lab in zip(pairs, labels) if _judged_under(p, r, Protocol.KERNELBENCH.value)]
    pub = PUBLISHED if published is None else published

    plots = {
        "fast_p": ("fast_p curves (p from 0 to 3) vs torch eager and torch.compile", plot_fast_p(metrics, labels)),
        "speedups": ("Speedup distributions of correct kernels, per level (log x)", plot_speedups(metrics, labels)),
        "categories": ("Correctness by category", plot_categories(metrics, labels)),
        "turns": ("Turns to the first correct turn", plot_turns(metrics, labels)),
    }
    # the folder is made once the stores have read and the plots are drawn (matplotlib may be
    # missing): a failed report leaves no empty folder behind
    out.mkdir(parents=True, exist_ok=True)
    for name, (_, png) in plots.items():
        (out / f"{name}.png").write_bytes(png)
    generated = time.strftime("%Y-%m-%d %H:%M:%S")
    groups = _summary_groups(metrics, labels)

    # ---- markdown
    setups = [run_setup(p, r) for p, r in pairs]
    md: list[str] = [f"# {title}", "", f"Generated {generated}.", "", "## Runs", "",
                     "| run | model | mode | baselines | store | sample ids | problems |", "|---|---|---|---|---|---|---|"]
    for lab, m, (mode, base) in zip(labels, metrics, setups):
        md.append(f"| {_md(lab)} | {_md(m.model)} | {_md(mode)} | {_md(base)} | {_md(m.store_path)} "
                  f"| {_md(','.join(map(str, m.samples)))} | {m.overall.n_problems} |")
    md += ["", "## Summary per level", "",
           "compiled/correct/fast_p/geomean use each problem's primary sample (its lowest sample id, normally 0); pass@k uses all "
           "samples (shown only when every problem has at least k). fast_p = % of ALL problems correct with "
           "speedup > p.", ""] + _summary_md(groups)
    if judged:
        md += ["", f"## Summary per level, {KB_JUDGED}", "", KB_NOTE, ""]
        md += _summary_md(_summary_groups([m for _, m in judged], [lab for lab, _ in judged]))
    md += ["", "## Plots", ""]
    for name, (cap, _) in plots.items():
        md += [f"### {cap}", "", f"![{cap}]({name}.png)", ""]
    md += ["## Correctness by category", "", "| category | " + " | ".join(_md(lab) for lab in labels) + " |",
           "|---|" + "---:|" * len(labels)]
    for cat, vals in category_table(metrics).items():
        md.append(f"| {_md(cat)} | " + " | ".join(f"{c}/{n}" if n else "–" for c, n in vals) + " |")
    md += ["", f"## {PUBLISHED_LABEL}", "",
           f"**{PUBLISHED_LABEL}.** These are numbers claimed by others, copied with their sources; "
           "they are not results of the runs above.", "",
           "| system | level | correct % (published) | source | note |", "|---|---|---:|---|---|"]
    for row in _published_rows(pub):
        md.append("| " + " | ".join(_md(c) for c in row) + " |")
    for lab, m in zip(labels, metrics):
        md += ["", f"## Per-task results: {_md(lab)}", "", "| " + " | ".join(_task_cols()) + " |",
               "|" + "---|" * len(_task_cols())]
        for r in m.tasks:
            md.append("| " + " | ".join(_md(c) for c in _task_cells(r)) + " |")
    md_path = out / "report.md"
    md_path.write_text("\n".join(md) + "\n", encoding="utf-8")

    # ---- html
    h: list[str] = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
                    f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
                    f"<h1>{_e(title)}</h1><div class='muted small'>Generated {_e(generated)}</div>",
                    "<h2>Runs</h2><table><tr><th class='l'>run</th><th class='l'>model</th><th class='l'>mode</th>"
                    "<th class='l'>baselines</th><th class='l'>store</th><th>sample ids</th><th>problems</th></tr>"]
    for lab, m, (mode, base) in zip(labels, metrics, setups):
        h.append(f"<tr><td class='l'>{_e(lab)}</td><td class='l'>{_e(m.model)}</td><td class='l'>{_e(mode)}</td>"
                 f"<td class='l'>{_e(base)}</td><td class='l'>{_e(m.store_path)}"
                 f"</td><td>{_e(','.join(map(str, m.samples)))}</td><td>{m.overall.n_problems}</td></tr>")
    h.append("</table><h2>Summary per level</h2><p class='small muted'>compiled / correct / fast_p / geomean use "
             "each problem's primary sample (its lowest sample id, normally 0); pass@k uses all samples (shown only when every problem has "
             "at least k). fast_p = % of ALL problems that are correct with speedup &gt; p.</p><table><tr>"
             "<th class='l'>level</th><th class='l'>run</th>" + "".join(f"<th>{_e(c)}</th>" for c in _SUMMARY_COLS)
             + "</tr>")
    h += _summary_rows_html(groups)
    h.append("</table>")
    if judged:
        h.append(f"<h2>Summary per level, {_e(KB_JUDGED)}</h2><p class='small muted'>{_e(KB_NOTE)}</p><table><tr>"
                 "<th class='l'>level</th><th class='l'>run</th>" + "".join(f"<th>{_e(c)}</th>" for c in _SUMMARY_COLS)
                 + "</tr>")
        h += _summary_rows_html(_summary_groups([m for _, m in judged], [lab for lab, _ in judged]))
        h.append("</table>")
    h.append("<h2>Plots</h2>")
    for name, (cap, png) in plots.items():
        b64 = base64.b64encode(png).decode("ascii")
        h.append(f"<div class='plot'><h3>{_e(cap)}</h3><img alt='{_e(cap)}' src='data:image/png;base64,{b64}'></div>")
    h.append("<h3>Correctness by category (correct / problems, primary sample)</h3><table><tr><th class='l'>category</th>"
             + "".join(f"<th>{_e(lab)}</th>" for lab in labels) + "</tr>")
    for cat, vals in category_table(metrics).items():
        h.append(f"<tr><td class='l'>{_e(cat)}</td>" + "".join(f"<td>{c}/{n}</td>" if n else "<td>–</td>"
                                                               for c, n in vals) + "</tr>")
    h.append(f"</table><div class='published'><h2>{_e(PUBLISHED_LABEL)}</h2><p><b>{_e(PUBLISHED_LABEL)}.</b> "
             "Numbers claimed by others, copied with their sources; they are not results of the runs in this "
             "report.</p><table><tr><th class='l'>system</th><th>level</th><th>correct % (published)</th>"
             "<th class='lw'>source</th><th class='lw'>note</th></tr>")
    for row in _published_rows(pub):
        h.append("<tr>" + "".join(f"<td{' class=l' if i == 0 else ' class=lw' if i in (3, 4) else ''}>{_e(c)}</td>"
                                  for i, c in enumerate(row)) + "</tr>")
    h.append("</table></div>")
    for lab, m in zip(labels, metrics):
        h.append(f"<h2>Per-task results: {_e(lab)}</h2><table><tr>"
                 + "".join(f"<th{' class=l' if i == 0 else ''}>{_e(c)}</th>" for i, c in enumerate(_task_cols()))
                 + "</tr>")
        for r in m.tasks:
            h.append("<tr>" + "".join(f"<td{' class=l' if i == 0 else ''}>{_e(c)}</td>"
                                      for i, c in enumerate(_task_cells(r))) + "</tr>")
        h.append("</table>")
    for (path, run_id), lab, m in zip(pairs, labels, metrics):
        shown = "all samples" if trajectory_samples is None else f"first {trajectory_samples} sample(s)"
        h.append(f"<h2 id='viewer'>Trajectories: {_e(lab)}</h2><p class='small muted'>One entry per problem "
                 f"({_e(shown)}); open one to see each turn's verdict, feedback, guidance and code diff.</p>")
        h.append(_viewer_html(path, run_id, m, trajectory_samples, max_text, max_diff_lines))
    h.append("</body></html>")
    html_path = out / "report.html"
    html_path.write_text("\n".join(h), encoding="utf-8")
    return md_path, html_path


# -- screenshot --------------------------------------------------------------------------------------
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


class ScreenshotError(RuntimeError):
    pass


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        p = shutil.which(name)
        if p:
            return p
    return None


def screenshot(html_path: str | os.PathLike, png_path: str | os.PathLike, *, width: int = 1280,
               height: int = 2000, timeout_s: float = 120) -> Path:
    """Renders ``html_path`` with a headless Chromium to ``png_path``; raises ScreenshotError
    when no Chromium is on PATH or it produces no image."""
    exe = find_chromium()
    if exe is None:
        raise ScreenshotError(f"no headless Chromium on PATH (looked for {', '.join(CHROMIUM_NAMES)}); "
                              "install one, e.g. `apt-get install chromium`")
    html_path, png_path = Path(html_path).resolve(), Path(png_path).resolve()
    if not html_path.is_file():
        raise FileNotFoundError(f"no HTML file at {html_path}")
    png_path.parent.mkdir(parents=True, exist_ok=True)
    if png_path.exists():
        png_path.unlink()
    with tempfile.TemporaryDirectory(prefix="km-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--screenshot={png_path}", f"--window-size={width},{height}",
               html_path.as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired as e:
            raise ScreenshotError(f"{exe} took over {timeout_s:g}s to take the screenshot") from e
    if not png_path.is_file() or png_path.stat().st_size == 0:
        raise ScreenshotError(f"{exe} wrote no screenshot (exit {proc.returncode}): {proc.stderr[-2000:]}")
    return png_path
