"""Build a curated set from a pool and write its report: counts, drops with reasons and
examples, coverage tables and plots (matplotlib, written as PNG next to report.md)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np

from ..task import TaskError
from .pipeline import DECONTAM, DEDUP, eligible, read_rows
from .select import coverage_radius, featurize, select
from .taskset import TaskSet

DROPS = "drops.jsonl"
NOT_RETIMED = "not re-timed"


def build_set(pool: TaskSet, out_dir, n: int | None, *, results=None, window=(1.0, 15.0), method: str = "kcenter",
              seed: int = 0, name: str | None = None, only: list[str] | None = None, plots: bool = True,
              balance: bool = True, retimed=None, notes: list[str] | None = None, strict: bool = False,
              quota: str = "sqrt") -> dict:
    """Select ``n`` eligible tasks of ``pool`` into a new set at ``out_dir`` with report.md and plots.

    ``quota``: how ``n`` is split over groups with ``balance`` (:func:`~.select.select`).
    ``n=None`` takes every eligible task. ``strict``: fewer eligible tasks than ``n`` (or none)
    is a TaskError raised before anything is written; otherwise the set just has fewer.
    ``retimed``: the results of a second filter pass over some of the tasks (e.g. re-timed on a
    dedicated GPU). They replace the first pass's, and only tasks it measured stay eligible.
    ``notes``: markdown lines for the report, after its introduction."""
    from .filters import load_results

    if plots:
        import matplotlib  # noqa: F401 - before anything is written: a missing one must not leave half a set

    if retimed is not None:
        second = load_results(retimed)
        results = {**load_results(results or pool.root / "filter"), **second}
    keep, dropped = eligible(pool, results=results, window=window)
    if retimed is not None:
        for r in keep:
            if r["name"] not in second:
                dropped[r["name"]] = ("filter", NOT_RETIMED, "passed the first pass, not among the re-timed tasks")
        keep = [r for r in keep if r["name"] in second]
    if only is not None:  # the candidates a run measured: the others were never offered
        wanted = set(only)
        for r in keep:
            if r["name"] not in wanted:
                dropped[r["name"]] = ("filter", "not measured", "not among the names offered")
        keep = [r for r in keep if r["name"] in wanted]
    if strict and (not keep or (n is not None and len(keep) < n)):
        by_stage = Counter(d[0] if d[1] not in ("not measured", NOT_RETIMED) else d[1] for d in dropped.values())
        raise TaskError(str(pool.root), f"only {len(keep)} of {len(pool.records)} tasks pass every step, "
                        f"{'fewer than the ' + str(n) + ' asked' if n is not None else 'none to select'} (dropped: "
                        + ", ".join(f"{k} {v}" for k, v in by_stage.most_common()) + ")")
    if n is None:
        n = len(keep)
    chosen = select(keep, n, method=method, seed=seed, balance=balance, quota=quota)
    out = Path(out_dir)
    existed = out.exists()
    ts = TaskSet.create(out, meta={"name": name or out.name, "kind": "curated", "pool": pool.meta, "selection": {
        "method": method, "n": n, "seed": seed, "balance": balance, "window_ms": list(window) if window else None,
        **({"quota": quota} if quota != "sqrt" else {})}})
    try:
        return _fill_set(pool, ts, out, chosen, keep, dropped, results, window, method, plots, retimed,
                         second if retimed is not None else None, notes)
    except BaseException:
        if not existed:  # a half-written set would block the rerun ("must not hold a set yet")
            shutil.rmtree(out, ignore_errors=True)
        raise


def _fill_set(pool, ts, out, chosen, keep, dropped, results, window, method, plots, retimed, second, notes) -> dict:
    from .filters import load_results

    records = []
    for rec in chosen:
        rel = f"tasks/{rec['name']}.py"
        (out / rel).write_text(pool.source(rec))
        records.append({**{k: v for k, v in rec.items() if k != "file"}, "file": rel, "status": "auto",
                        "eager_ms": round(rec["eager_ms"], 4) if rec.get("eager_ms") else None})
    ts.rewrite(records)
    dd, dc = read_rows(pool.root / DEDUP), read_rows(pool.root / DECONTAM)
    with open(out / DROPS, "w") as f:
        for nm, (stage, why, detail) in dropped.items():
            row = {"name": nm, "stage": stage, "reason": why, "detail": detail}
            if stage == "decontam" and nm in dc:
                row.update(nearest=dc[nm]["nearest"], score=dc[nm]["score"], op_sim=dc[nm]["op_sim"], src_sim=dc[nm]["src_sim"])
                if dc[nm].get("behaviour"):
                    row["behaviour"] = dc[nm]["behaviour"]
            if stage == "dedup" and nm in dd:
                row.update(duplicate_of=dd[nm]["duplicate_of"], similarity=dd[nm]["similarity"], kind=dd[nm]["kind"])
            f.write(json.dumps(row) + "\n")
    try:
        # the sizing table: with a second pass, only its (trusted) times
        measured = second if retimed is not None else load_results(results or pool.root / "filter")
    except Exception:  # noqa: BLE001 - the sizing table is optional
        measured = {}
    summary = write_report(pool, ts, keep, chosen, dropped, dd, dc, window, method, plots=plots, measured=measured,
                           notes=notes, retimed=retimed is not None)
    return summary


def balance_section(chosen: list[dict], summary: dict) -> list[str]:
    """mosaic-v2's balance targets (issue 18) on the selected tasks; the misses go into ``summary``."""
    from .generate_v2 import TARGETS, balance

    b = balance(chosen)
    misses = b.meets()
    summary["balance"] = {k: getattr(b, k) for k in ("tasks", "fusion_pct", "fp32_pct", "templates")}
    summary["balance_misses"] = misses
    t = TARGETS
    rows = [("tasks", f">= {t['n']:,}", f"{b.tasks:,}", b.tasks >= t["n"]),
            ("fusion chains", f">= {t['fusion_pct']:g}%", f"{b.fusion_pct}% ({b.fusion:,})", b.fusion_pct >= t["fusion_pct"]),
            ("fp32", f">= {t['fp32_pct']:g}%", f"{b.fp32_pct}% ({b.fp32:,})", b.fp32_pct >= t["fp32_pct"]),
            ("distinct templates", f">= {t['templates']:,}", f"{b.templates:,}", b.templates >= t["templates"])]
    L = ["## Balance (issue 18's targets for mosaic-v2)", "", "| | target | selected | met |", "|---|---|---:|---|"]
    L += [f"| {k} | {t} | {v} | {'yes' if ok else '**no**'} |" for k, t, v, ok in rows]
    L += ["", ("Every target is met." if not misses else "**Misses:** " + "; ".join(misses) + "."),
          "", "Wirings: " + ", ".join(f"{k} {v}" for k, v in b.by_wiring.items()) + "; dtypes: "
          + ", ".join(f"{k} {v}" for k, v in b.by_dtype.items()) + ".", ""]
    return L


def sizing_table(pool: TaskSet, measured: dict, window, retimed: bool = False) -> list[str]:
    """How well the generators' cost model aimed: per category, measured vs estimated eager time."""
    import statistics

    by: dict[str, list[tuple[float, float]]] = {}
    for rec in pool.records:
        r = measured.get(rec["name"])
        if r and r.get("eager_ms") and rec.get("est_ms"):
            by.setdefault(rec["category"], []).append((r["eager_ms"], rec["est_ms"]))
    if not by:
        return []
    L = ["## Sizing: estimated vs measured eager time", "",
         "The generators size each task with an H200 cost model (docs/tasks.md); this is how it did on the tasks "
         "that ran and were timed" + (" in the second pass (picked among the first pass's survivors, so it shows few misses)"
                                      if retimed else "") + ".", "",
         "| category | timed | in window | median measured / estimated |", "|---|---:|---:|---:|"]
    for cat, xs in sorted(by.items(), key=lambda kv: -len(kv[1])):
        inw = sum(1 for m, _ in xs if window and window[0] <= m <= window[1])
        L.append(f"| {cat} | {len(xs)} | {inw} | {statistics.median(m / e for m, e in xs):.2f} |")
    return L + [""]


def write_report(pool: TaskSet, ts: TaskSet, keep: list[dict], chosen: list[dict], dropped: dict, dd: dict, dc: dict,
                 window, method: str, plots: bool = True, measured: dict | None = None, notes: list[str] | None = None,
                 retimed: bool = False) -> dict:
    out = ts.root
    stage_counts = Counter(d[0] for d in dropped.values())
    filt = Counter(d[1] for d in dropped.values() if d[0] == "filter")
    dedup_kind = Counter(dd[n]["kind"] for n, d in dropped.items() if d[0] == "dedup" and n in dd)
    X, _ = featurize(keep) if keep else (np.zeros((0, 1)), {})
    idx = {r["name"]: i for i, r in enumerate(keep)}
    rmax, rmean = coverage_radius(X, [idx[r["name"]] for r in chosen]) if len(keep) else (0.0, 0.0)
    offered = len(pool.records) - filt.get("not measured", 0)
    thr = next((r.get("threshold") for r in dc.values()), None)
    summary = {
        "pool": len(pool.records), "dedup_dropped": stage_counts.get("dedup", 0), "decontam_dropped": stage_counts.get("decontam", 0),
        "filter_dropped": sum(v for k, v in filt.items() if k not in ("not measured", NOT_RETIMED)),
        "not_measured": filt.get("not measured", 0), "not_retimed": filt.get(NOT_RETIMED, 0),
        "eligible": len(keep), "selected": len(chosen), "categories": len({r["category"] for r in chosen}),
        "dtypes": sorted({d for r in chosen for d in r.get("dtypes", [])}), "coverage_radius_max": round(rmax, 4),
        "coverage_radius_mean": round(rmean, 4), "decontam_threshold": thr, "offered": offered,
    }
    L = [f"# {ts.name}: a curated task set", ""]
    gpu = Counter(r.get("gpu") for r in chosen if r.get("gpu")).most_common(1)
    L += [f"{len(chosen)} KernelBench-format tasks in {summary['categories']} categories and dtypes "
          f"{', '.join(summary['dtypes'])}, selected by {method}" + ((
              " within (category, dtype) quotas in proportion to the eligible tasks"
              if ts.meta["selection"].get("quota") == "proportional" else " within per-category quotas")
              if ts.meta["selection"].get("balance") else "")
          + f" from {len(keep)} that passed every step. "
          + (f"Eager times were measured on {gpu[0][0] if gpu else 'the GPU'} with the verifier's timing loop; the window "
             f"was {window[0]:g}-{window[1]:g} ms." if window else "(No timing window: a CPU run, checks only.)"), "",
          "Generated by `kmosaic tasks generate`, then `dedup`, `decontam`, `filter` and `select` "
          "(see docs/tasks.md). Every task's source is in `tasks/`, its metadata in `manifest.jsonl`, every dropped "
          "task with its stage and reason in `drops.jsonl`.", ""] + (notes + [""] if notes else []) + ["## Funnel", "",
          "| step | tasks | dropped |", "|---|---:|---:|",
          f"| generated pool | {len(pool.records)} | |",
          f"| dedup (exact {dedup_kind.get('exact', 0)}, near {dedup_kind.get('near', 0)}) | {len(pool.records) - stage_counts.get('dedup', 0)} | {stage_counts.get('dedup', 0)} |",
          f"| decontamination vs KernelBench L1-L3 (score >= {thr}) | {len(pool.records) - stage_counts.get('dedup', 0) - stage_counts.get('decontam', 0)} | {stage_counts.get('decontam', 0)} |"]
    if filt.get("not measured"):
        L.append(f"| not measured (not offered to the filter run) | {len(pool.records) - stage_counts.get('dedup', 0) - stage_counts.get('decontam', 0) - filt['not measured']} | {filt['not measured']} |")
    L.append(f"| execution filters | {len(keep) + summary['not_retimed']} | {summary['filter_dropped']} |")
    if summary["not_retimed"]:
        L.append(f"| not re-timed (passed the first pass only) | {len(keep)} | {summary['not_retimed']} |")
    L += [f"| diversity selection ({method}) | {len(chosen)} | {len(keep) - len(chosen)} |", ""]
    if pool.meta.get("version") == "v2":
        L += balance_section(chosen, summary)
    if filt:
        L += ["## Execution-filter drops by reason", "", "| reason | tasks | example | detail |", "|---|---:|---|---|"]
        ex = {}
        for nm, (s, why, detail) in dropped.items():
            if s == "filter":
                ex.setdefault(why, (nm, detail))
        for why, c in filt.most_common():
            if why not in ("not measured", NOT_RETIMED):
                L.append(f"| {why} | {c} | `{ex[why][0]}` | {ex[why][1][:120]} |")
        L.append("")
    L += sizing_table(pool, measured or {}, window, retimed=retimed)
    dd_rows = [(n, dd[n]) for n, d in dropped.items() if d[0] == "dedup" and n in dd]
    if dd_rows:
        L += ["## Dedup drops (examples)", "", "| task | duplicate of | kind | similarity |", "|---|---|---|---:|"]
        for n, r in dd_rows[:8]:
            L.append(f"| `{n}` | `{r['duplicate_of']}` | {r['kind']} | {r['similarity']} |")
        L.append("")
    dc_rows = sorted(((n, dc[n]) for n, d in dropped.items() if d[0] == "decontam" and n in dc), key=lambda x: -x[1]["score"])
    if dc_rows:
        near_cut = [x for x in dc_rows if x[1]["score"] < (thr or 1) + 0.05]
        L += ["## Decontamination drops", "",
              f"{len(dc_rows)} tasks scored >= {thr} against a KernelBench L1-L3 problem (score = 0.7 op-sequence "
              "similarity + 0.3 token-bigram cosine); all of them, with the nearest problem and the scores, are in "
              "`drops.jsonl`. Most-often-nearest problems:", "", "| KernelBench problem | tasks dropped |", "|---|---:|"]
        for k, c in Counter(r["nearest"] for _, r in dc_rows).most_common(12):
            L.append(f"| {k} | {c} |")
        L += ["", "Examples (highest scores, then those just over the threshold):", "",
              "| task | ops | nearest | score | op sim | src sim |", "|---|---|---|---:|---:|---:|"]
        for n, r in dc_rows[:6] + near_cut[-6:]:
            L.append(f"| `{n}` | {' '.join(r['ops'][:6])} | {r['nearest']} | {r['score']} | {r['op_sim']} | {r['src_sim']} |")
        beh = [(n, dc[n]["behaviour"]) for n, _ in dc_rows if dc[n].get("drop_reason") == "behaviour"]
        if beh:
            L += ["", f"{len(beh)} of them passed the lexical screen but compute a KernelBench function (the behavioural "
                  "check: same outputs on shared float64 probe inputs at the task's own shrunk shape):", "",
                  "| task | computes | probe | max rel. error |", "|---|---|---|---:|"]
            for n, b in beh[:12]:
                L.append(f"| `{n}` | {b['kb']} | {b['probe']} | {b['max_rel_err']:.1e} |")
        kept_scores = [r.get("kb_score") or 0 for r in chosen]
        L += ["", f"Highest score among the shipped tasks: {max(kept_scores) if kept_scores else 0:.4f} (threshold {thr}).", ""]
    L += ["## Coverage", "", f"Feature space: op histogram, category, dtype, shape class, FLOP/byte, chain length. Every eligible "
          f"task lies within {rmax:.3f} (mean {rmean:.3f}) of a selected one.", ""]
    for title, key in (("category", lambda r: [r.get("category")]), ("dtype", lambda r: r.get("dtypes") or []),
                       ("generator", lambda r: [r.get("generator")])):
        ce, cs = Counter(v for r in keep for v in key(r)), Counter(v for r in chosen for v in key(r))
        L += [f"| {title} | eligible | selected |", "|---|---:|---:|"]
        for k, c in ce.most_common():
            L.append(f"| {k} | {c} | {cs.get(k, 0)} |")
        L.append("")
    ops = Counter(o for r in chosen for o in r.get("ops") or [])
    L += [f"{len(ops)} distinct ops in the selected tasks; the most common: " + ", ".join(f"{o} ({c})" for o, c in ops.most_common(25)), ""]
    eager = sorted(r["eager_ms"] for r in chosen if r.get("eager_ms"))
    if eager:
        q = lambda p: eager[min(len(eager) - 1, int(p * len(eager)))]  # noqa: E731
        L += [f"Eager time of the selected tasks: min {eager[0]:.3f} ms, median {q(0.5):.3f} ms, p90 {q(0.9):.3f} ms, "
              f"max {eager[-1]:.3f} ms.", ""]
    if plots and chosen:
        names = make_plots(out, keep, chosen, X, [idx[r["name"]] for r in chosen])
        L += ["## Plots", ""] + [f"![{n}](plots/{n}.png)" for n in names] + [""]
    (out / "report.md").write_text("\n".join(L))
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def make_plots(out: Path, keep: list[dict], chosen: list[dict], X: np.ndarray, chosen_idx: list[int]) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = out / "plots"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    made = []

    def bars(name, counter_e, counter_s, title, top=None):
        keys = [k for k, _ in counter_e.most_common(top)]
        fig, ax = plt.subplots(figsize=(10, 4))
        x = np.arange(len(keys))
        ax.bar(x - 0.2, [counter_e[k] for k in keys], 0.4, label="eligible")
        ax.bar(x + 0.2, [counter_s.get(k, 0) for k in keys], 0.4, label="selected")
        ax.set_xticks(x, keys, rotation=60, ha="right", fontsize=8)
        ax.set_title(title)
        ax.legend()
        fig.tight_layout()
        fig.savefig(d / f"{name}.png", dpi=80)
        plt.close(fig)
        made.append(name)

    bars("categories", Counter(r["category"] for r in keep), Counter(r["category"] for r in chosen), "tasks per category")
    bars("ops", Counter(o for r in keep for o in r.get("ops") or []), Counter(o for r in chosen for o in r.get("ops") or []),
         "op occurrences (top 40)", top=40)
    bars("dtypes", Counter(d_ for r in keep for d_ in r.get("dtypes") or []), Counter(d_ for r in chosen for d_ in r.get("dtypes") or []),
         "tasks per dtype")
    eager = [r["eager_ms"] for r in chosen if r.get("eager_ms")]
    if eager:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.hist(eager, bins=np.logspace(np.log10(min(eager)), np.log10(max(eager)), 30))
        ax.set_xscale("log")
        ax.set_xlabel("eager ms")
        ax.set_title("eager time of the selected tasks")
        fig.tight_layout()
        fig.savefig(d / "eager_ms.png", dpi=80)
        plt.close(fig)
        made.append("eager_ms")
        pts = [(r.get("measured_flops") or r.get("flops") or 0) / max(1, r.get("measured_bytes") or r.get("bytes") or 1) for r in chosen if r.get("eager_ms")]
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.scatter([max(p, 1e-3) for p in pts], eager, s=6, alpha=0.5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("FLOP per byte (fewest bytes)")
        ax.set_ylabel("eager ms")
        ax.set_title("arithmetic intensity vs eager time")
        fig.tight_layout()
        fig.savefig(d / "intensity.png", dpi=80)
        plt.close(fig)
        made.append("intensity")
    if len(X) > 2:
        Xc = X - X.mean(axis=0)
        _, _, vt = np.linalg.svd(Xc, full_matrices=False)
        P = Xc @ vt[:2].T
        fig, ax = plt.subplots(figsize=(6, 5))
        ax.scatter(P[:, 0], P[:, 1], s=4, c="lightgray", label="eligible")
        ax.scatter(P[chosen_idx, 0], P[chosen_idx, 1], s=4, c="tab:blue", label="selected")
        ax.set_title("feature space, first two principal components")
        ax.legend()
        fig.tight_layout()
        fig.savefig(d / "features_pca.png", dpi=80)
        plt.close(fig)
        made.append("features_pca")
    return made
