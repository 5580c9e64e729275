"""The ablation report: ``ablation.md`` and ``ablation.json``.

Per level and overall, for each arm: correct %, fast_p (p = 1, against eager) and the geomean
speedup, each with a bootstrap interval over problems; then each iterative arm against the direct
arm, paired (see :mod:`.stats` for the method). Also the data both arms trained on, the budget
each arm actually used (steps, input tokens, loss-carrying tokens), the bench protocol, and the
bench problems that were also training tasks.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from .._card import md_table
from .._json import finite
from .stats import Problem, bootstrap

P = 1.0  # fast_p threshold reported: correct and faster than eager


def _pct(x, ci=None) -> str:
    if x is None:
        return "-"
    s = f"{x:.1f}%"
    return s + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")


def _frac(x, ci=None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def _x(x, ci=None, n=None) -> str:
    if x is None:
        return "- (no correct timed problem)" if n == 0 else "-"
    return f"{x:.2f}x" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "") + (f" (n={n})" if n is not None else "")


def _signed(x, ci, unit="") -> str:
    if x is None:
        return "-"
    return f"{x:+.1f}{unit}" + (f" [{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "")


def _signed3(x, ci) -> str:
    if x is None:
        return "-"
    return f"{x:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")


def _num(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.4g}"
    return f"{x:,}" if isinstance(x, int) else str(x)


def collect(arms, protocol: str | None = None) -> tuple[dict[str, dict[str, Any]], list[str], dict[str, list[str]]]:
    """task -> arm -> TaskRow over the problems every arm has; the problems in that order; and the
    problems some arm lacks (an episode never recorded), per arm. ``protocol``: the rows as that
    protocol judged the turns (``compute_metrics``)."""
    from ..bench.metrics import compute_metrics, level_order

    rows: dict[str, dict[str, Any]] = {}
    for r in arms:
        m = compute_metrics(r.bench_store, r.run_id, protocol=protocol)
        for t in m.tasks:
            rows.setdefault(t.task, {})[r.arm.name] = t
    names = [r.arm.name for r in arms]
    common = [k for k, v in rows.items() if all(n in v for n in names)]
    missing = {n: sorted(k for k, v in rows.items() if n not in v) for n in names}
    common.sort(key=lambda k: (level_order(rows[k][names[0]].level), k))
    return rows, common, {n: v for n, v in missing.items() if v}


def write_ablation_report(cfg, arms, out: Path, *, store_sha: str, exports: dict, budget_tokens: int | None,
                          overlap: list[str], wall_s: float) -> tuple[Path, Path, dict]:
    from ..bench.metrics import level_label, level_order

    names = [r.arm.name for r in arms]
    base = cfg.direct.name
    rows, common, missing = collect(arms)
    levels = sorted({rows[k][base].level for k in common}, key=level_order)
    groups = [(level_label(lv), [k for k in common if rows[k][base].level == lv]) for lv in levels] + [("all", common)]
    rep = cfg.report

    def results_of(rows) -> dict:
        out = {}
        for label, keys in groups:
            probs = {n: [Problem(correct=rows[k][n].correct, speedup=rows[k][n].speedup_eager) for k in keys] for n in names}
            out[label] = bootstrap(probs, base, p=P, resamples=rep.bootstrap, confidence=rep.confidence, seed=rep.seed)
        return out

    results = results_of(rows)
    # the same problems and resamples, the turns judged by KernelBench's evaluator (bench.protocol)
    other = cfg.bench.protocol if cfg.bench.protocol != "kernelmosaic" else None
    results_other = results_of(collect(arms, other)[0]) if other else None

    random_init = _random_init(cfg)
    d, it = exports["direct"], exports["iterative"]
    summary = {
        "created": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "config": str(cfg.source) if cfg.source else None, "store": cfg.store, "store_snapshot_sha256": store_sha,
        "random_init": random_init, "wall_s": wall_s,
        "data": {"episodes": exports["episodes"], "unmatched_episodes_left_out": exports["dropped_unmatched"],
                 "split_tasks": d.split_tasks, "rows": {"direct": d.counts, "iterative": it.counts},
                 "history": cfg.export.history, "reasoning": cfg.export.reasoning,
                 "verified_only": cfg.export.verified_only},
        "budget": {"match": cfg.budget.match, "steps": cfg.budget.steps if cfg.budget.match == "steps" else None,
                   "tokens": budget_tokens, "epochs": cfg.budget.epochs if cfg.budget.match == "tokens" else None},
        "arms": {r.arm.name: {"view": r.arm.view, "loss_turns": r.arm.loss_turns, "history_turns": r.arm.history_turns,
                              "model_dir": str(r.model_dir), "bench_store": str(r.bench_store), "run_id": r.run_id,
                              "reused": r.reused, **r.train} for r in arms},
        "bench": {**vars(cfg.bench), "problems_benched": len(common), "problems_missing": missing,
                  "problems_also_trained_on": overlap},
        "bootstrap": {"resamples": rep.bootstrap, "confidence": rep.confidence, "seed": rep.seed, "unit": "problem",
                      "interval": "percentile", "paired": True, "fast_p": P, "speedup_baseline": "eager"},
        "results": results,
        **({"results_under_protocol": {"protocol": other, "results": results_other}} if other else {}),
        "problems": {k: {n: {"correct": rows[k][n].correct, "speedup_eager": rows[k][n].speedup_eager,
                             "best_status": rows[k][n].best_status, "final_status": rows[k][n].final_status,
                             "n_turns": rows[k][n].n_turns, "level": rows[k][n].level} for n in names} for k in common},
    }
    js = out / "ablation.json"
    js.write_text(json.dumps(finite(summary), indent=2, default=str))
    md = out / "ablation.md"
    md.write_text(_markdown(cfg, arms, summary, groups, results, results_other))
    return md, js, summary


def _random_init(cfg) -> bool:
    import yaml

    raw = yaml.safe_load(Path(cfg.train.config).read_text(encoding="utf-8")) or {}
    return bool((raw.get("model") or {}).get("random_init")) and "model.name_or_path" not in cfg.train.set


def _markdown(cfg, arms, s: dict, groups, results, results_other=None) -> str:
    base = cfg.direct.name
    names = [r.arm.name for r in arms]
    conf = int(round(100 * cfg.report.confidence))
    out = ["# Ablation: direct against iterative training", ""]
    if s["random_init"]:
        out += ["**The models are random-init (`model.random_init` in the training config).** These numbers test "
                "the pipeline, not the method: they mean nothing about direct or iterative training.", ""]
    out += [f"Created {s['created']}" + (f" from `{s['config']}`" if s["config"] else "") + f"; {s['wall_s']:.0f} s "
            "in all.", "",
            f"Store: `{s['store']}` (snapshot sha256 `{s['store_snapshot_sha256'][:16]}...`).", ""]

    dd = s["data"]
    out += ["## Data", "",
            f"Both views were exported from the same {dd['episodes']} episodes: those that give a row in both "
            f"(verified_only={dd['verified_only']}); {dd['unmatched_episodes_left_out']} episode(s) gave a row in one "
            f"view only and were left out. Iterative history: `{dd['history']}`; reasoning kept: {dd['reasoning']}.", "",
            md_table(["split", "tasks", "direct rows", "iterative rows"],
                     [[sp, len(dd["split_tasks"].get(sp, [])), dd["rows"]["direct"].get(sp, 0),
                       dd["rows"]["iterative"].get(sp, 0)] for sp in ("train", "validation")]), ""]

    b = s["budget"]
    if b["match"] == "steps":
        out += ["## Budget", "", f"Matched on **optimizer steps**: {b['steps']} per arm, at the same batch size, "
                "learning rate, schedule and max_length (one training config). Rows differ in length, so the tokens "
                "each arm trained on differ; they are counted below.", ""]
    else:
        out += ["## Budget", "", f"Matched on **input tokens**: {b['tokens']:,} per arm ({b['epochs']:g} x the "
                "smallest arm's tokens per epoch). Each arm stopped at the first optimizer step that reached it, so "
                "the arms differ by less than one step's tokens; their steps differ.", ""]
    rows = []
    for r in arms:
        a = s["arms"][r.arm.name]
        ep = a["epoch"]
        rows.append([r.arm.name, r.arm.view, r.arm.loss_turns, r.arm.history_turns or "all that fit", a["global_step"],
                     _num(a["tokens_seen"]), _num(ep["rows"]), f"{ep['rows_shortened']} ({ep['turns_dropped']} turns)",
                     _num(ep["tokens"]), _num(ep["loss_tokens"]),
                     f"{ep['loss_replies']}/{ep['replies']}", _num(a["first_loss"]), _num(a["last_loss"]),
                     _num(a.get("train_runtime_s"))])
    out += [md_table(["arm", "view", "loss on", "history", "steps", "tokens trained", "rows", "rows shortened", "tokens/epoch",
                      "loss tokens/epoch", "replies with loss", "first loss", "last loss", "train s"], rows), "",
            "tokens trained: the input tokens the trainer counted (non-padding); per epoch: the training rows as "
            "built for the arm (history applied), loss tokens being those that carry loss. rows shortened: rows "
            "that lost their oldest turns, to history_turns or to fit max_length.", ""]

    bb = s["bench"]
    out += ["## Bench protocol", "",
            f"Every arm: the same {bb['problems_benched']} KernelBench problems (levels {bb['levels']}, problems "
            f"{bb['problems'] or 'all'}), mode `{bb['mode']}`, turns {bb['turns']} (repair, optimize), "
            f"{bb['samples']} sample(s), temperature {bb['temperature']}, top_p {bb['top_p']}, at most "
            f"{bb['max_new_tokens']} new tokens per reply, baselines `{bb['baselines']}`, device {bb['device']}, "
            f"backend {bb['backend']}, policy {bb['policy']}. Each arm's model (the merged LoRA model, or the full "
            "fine-tuned one) ran in-process through the transformers LLM.", ""]
    from collections import Counter

    verdicts = []
    for n in names:
        c = Counter(p[n]["final_status"] or "none" for p in s["problems"].values())
        verdicts.append([n] + [", ".join(f"{k} {v}" for k, v in sorted(c.items()))])
    out += ["Last verdict of each problem's episode:", "", md_table(["arm", "last verdicts"], verdicts), ""]
    if bb["problems_also_trained_on"]:
        out += [f"**Also training tasks** (same key or same source): {', '.join(bb['problems_also_trained_on'])}.", ""]
    else:
        out += ["No bench problem is a training task (by key or by source).", ""]
    if bb["problems_missing"]:
        out += ["Left out, not recorded for every arm: " + "; ".join(f"{k}: {', '.join(v)}"
                                                                    for k, v in bb["problems_missing"].items()), ""]

    out += ["## Results", "",
            f"Point estimate [{conf} % bootstrap interval over problems]. fast_1: the share of all problems that are "
            "correct and faster than PyTorch eager. geomean: over the correct problems with a measured speedup "
            "(n of them).", ""]
    out += _results_md(groups, results, names, base)
    if results_other is not None:
        p = s["results_under_protocol"]["protocol"]
        out += [f"## Results under the {p} protocol", "",
                f"The same turns of the same problems, judged again by {p}'s evaluator (docs/bench.md lists how it "
                "differs from the project's verdicts, which the results above and the episodes used), with the same "
                "resamples. These are the numbers to set beside published ones.", ""]
        out += _results_md(groups, results_other, names, base)

    out += ["## Method", "",
            f"Bootstrap over problems: {cfg.report.bootstrap} resamples of the problems of each group, drawn with "
            f"replacement (numpy `default_rng({cfg.report.seed})`); the interval is the {conf} % percentile interval "
            "of the resampled statistic. Arms are compared paired: the same resampled problems for both arms. A "
            "resample with no correct timed problem has no geomean and is left out of that interval. Each problem "
            "counts once, by its primary sample (as in `kmosaic report`).", ""]
    return "\n".join(out)


def _results_md(groups, results, names, base) -> list[str]:
    out = []
    for label, keys in groups:
        res = results[label]
        out += [f"### {label} ({len(keys)} problems)", ""]
        out += [md_table(["arm", "correct", "fast_1", "geomean speedup"],
                         [[n, _pct(res["arms"][n]["correct_pct"], res["arms"][n]["correct_pct_ci"]),
                           _frac(res["arms"][n]["fast_p"], res["arms"][n]["fast_p_ci"]),
                           _x(res["arms"][n]["geomean"], res["arms"][n]["geomean_ci"], res["arms"][n]["geomean_n"])]
                          for n in names] if keys else []), ""]
        if keys:
            out += [md_table([f"arm vs {base} (paired)", "correct, points", "fast_1", "geomean ratio"],
                             [[n, _signed(v["correct_pct_diff"], v["correct_pct_diff_ci"]),
                               _signed3(v["fast_p_diff"], v["fast_p_diff_ci"]),
                               _x(v["geomean_ratio"], v["geomean_ratio_ci"])]
                              for n, v in res["vs_baseline"].items()]), ""]
    return out
