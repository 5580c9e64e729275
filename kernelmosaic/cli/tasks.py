"""``kmosaic tasks generate|filter|dedup|decontam|select|review|stats``: the curation commands.

Registered onto the ``tasks`` sub-app by :func:`register`. Bad input ends with a one-line
error and exit code 2; every step writes its rows into the set folder before it reports.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ..task import TaskError
from .common import fail, lane_options, missing_extra

out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)


_fail = fail


def _open(path: Path):
    from ..curate.taskset import TaskSet

    try:
        return TaskSet.open(path)
    except TaskError as e:
        _fail(f"{e.where}: {e.problem}")


def _window(s: Optional[str]):
    if s is None or s.lower() == "none":
        return None
    try:
        lo, hi = (float(x) for x in s.split(","))
    except ValueError:
        _fail(f"--window must be LO,HI in ms (e.g. 1,15) or none, not {s!r}")
    if not 0 <= lo < hi:
        _fail(f"--window must have 0 <= LO < HI, not {s!r}")
    return lo, hi


def _counts_table(title: str, counts: dict) -> Table:
    t = Table(title=title, show_header=True, header_style="bold")
    t.add_column(title.split()[-1] if " " in title else title)
    t.add_column("tasks", justify="right")
    for k, v in counts.items():
        t.add_row(str(k), str(v))
    return t


def register(app: typer.Typer) -> None:
    @app.command("generate")
    def generate_cmd(
        out_dir: Path = typer.Option(..., "--out", help="New task-set folder (must not hold a set yet)."),
        n: int = typer.Option(..., "--n", min=1, help="Tasks to generate."),
        scale: str = typer.Option("h200", help="h200: sized for 1-15 ms eager on an H200 | small: tiny shapes for CPU tests."),
        seed: int = typer.Option(0, help="Pool seed (same code + seed + n = same files)."),
        mix: Optional[str] = typer.Option(None, help="Generator weights, e.g. single=0.45,fusion=0.35,block=0.2."),
        dtypes: str = typer.Option("fp32,fp16,bf16", help="Comma-separated dtypes."),
        version: str = typer.Option("v1", help="Generators: v1 (what mosaic-v1 was built from) | v2 (mosaic-v2: fusion- and "
                                               "fp32-heavy, no KernelBench L1 singles, a template key per task)."),
    ) -> None:
        """Generate a pool of tasks: single ops, fusion chains, architecture blocks."""
        from ..curate.generate import DTYPES, GENERATORS, TARGET_MS, VERSIONS, generate_pool

        if scale not in TARGET_MS:
            _fail(f"--scale must be one of {', '.join(TARGET_MS)}, not {scale!r}")
        if version not in VERSIONS:
            _fail(f"--version must be one of {', '.join(VERSIONS)}, not {version!r}")
        mixd = None
        if mix:
            try:
                mixd = {k.strip(): float(v) for k, v in (p.split("=") for p in mix.split(","))}
            except ValueError:
                _fail(f"--mix must look like single=0.5,fusion=0.3,block=0.2, not {mix!r}")
            if set(mixd) - set(GENERATORS) or not any(mixd.values()):
                _fail(f"--mix generators are {', '.join(GENERATORS)}")
            if any(v < 0 for v in mixd.values()):
                _fail(f"--mix weights must not be negative, not {mix!r}")
        dts = tuple(d.strip() for d in dtypes.split(",") if d.strip())
        if not dts or set(dts) - set(DTYPES):
            _fail(f"--dtypes must be a subset of {', '.join(DTYPES)}")
        try:
            recs = generate_pool(out_dir, n, scale=scale, seed=seed, mix=mixd, dtypes=dts, version=version)
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")
        from collections import Counter

        out.print(f"{len(recs)} tasks written to {out_dir}")
        out.print(_counts_table("tasks by category", dict(Counter(r["category"] for r in recs).most_common())))
        if version == "v2":
            from ..curate.generate_v2 import balance

            b = balance(recs)
            out.print(f"balance before dedup and decontamination: fusion {b.fusion_pct}%, fp32 {b.fp32_pct}%, "
                      f"{b.templates} templates")

    @app.command("dedup")
    def dedup_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                  near: float = typer.Option(0.98, help="Token-bigram cosine at or above which same-op tasks are near duplicates.")) -> None:
        """Drop exact duplicates (canonical form) and near duplicates; rows go to SET/dedup.jsonl."""
        from ..curate.pipeline import run_dedup

        ts = _open(set_dir)
        rows = run_dedup(ts, near)
        ex = sum(1 for r in rows if r.get("kind") == "exact")
        nr = sum(1 for r in rows if r.get("kind") == "near")
        out.print(f"{len(rows)} tasks: {ex} exact and {nr} near duplicates dropped; {len(rows) - ex - nr} kept "
                  f"(rows in {set_dir / 'dedup.jsonl'})")

    @app.command("decontam")
    def decontam_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                     kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory (L1-L3 are used)."),
                     threshold: float = typer.Option(0.75, help="Drop tasks whose lexical score against a KernelBench problem reaches this."),
                     behaviour: bool = typer.Option(True, "--behaviour/--lexical-only",
                                                    help="After the lexical screen, run the tasks and the problems on shared probe inputs and drop tasks that compute a problem's function."),
                     jobs: int = typer.Option(1, min=1, help="Probe worker processes (CPU only)."),
                     rows_out: Optional[Path] = typer.Option(None, "--out", help="Write the rows here instead of SET/decontam.jsonl (check a shipped set without changing it)."),
                     json_out: bool = typer.Option(False, "--json", help="Print one JSON summary.")) -> None:
        """Screen every task against KernelBench L1-L3 (lexical, then behavioural); rows go to SET/decontam.jsonl."""
        from rich.progress import Progress

        from ..curate.pipeline import run_decontam

        ts = _open(set_dir)
        if rows_out is not None and rows_out.is_dir():
            _fail(f"--out {rows_out} is a folder: give a file name (e.g. {rows_out / 'decontam.jsonl'})")
        try:
            with Progress(console=err, transient=True, disable=json_out) as prog:
                bar = prog.add_task("lexical screen", total=len(ts.records))
                pbar = prog.add_task("behaviour probes", total=None, visible=behaviour)
                rows = run_decontam(ts, kernelbench, threshold, progress=lambda i, n: prog.update(bar, completed=i),
                                    behaviour=behaviour, jobs=jobs, out=rows_out,
                                    probe_progress=lambda i, n: prog.update(pbar, completed=i, total=n))
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")
        target = rows_out or set_dir / "decontam.jsonl"
        lex = [r for r in rows if r.get("drop_reason") == "lexical"]
        beh = [r for r in rows if r.get("drop_reason") == "behaviour"]
        near = [r for r in rows if (r.get("behaviour") or {}).get("verdict") == "near"]
        unprobed = [r for r in rows if (r.get("behaviour") or {}).get("verdict") == "not probed"]
        summary = {"tasks": len(rows), "dropped": len(lex) + len(beh), "dropped_lexical": len(lex),
                   "dropped_behaviour": len(beh), "near": len(near), "not_probed": len(unprobed), "rows": str(target)}
        if behaviour:
            summary["behaviour"] = json.loads(target.with_name(target.name + ".summary.json").read_text())
        if json_out:
            print(json.dumps(summary))
            return
        out.print(f"{len(rows)} tasks: {len(lex)} dropped by the lexical screen (score >= {threshold})"
                  + (f", {len(beh)} by behaviour; {len(near)} near a problem (kept), {len(unprobed)} could not be probed"
                     if behaviour else "") + f" (rows in {target})")
        t = Table("task", "nearest KernelBench problem", "score", title="highest lexical scores", header_style="bold")
        for r in sorted(rows, key=lambda r: -r["score"])[:10]:
            t.add_row(r["name"], r["nearest"], f"{r['score']:.3f}")
        out.print(t)
        if beh or near:
            t = Table(title="behavioural matches", header_style="bold")
            for col in ("task", "verdict", "KernelBench problem", "probe", "max rel. err"):
                t.add_column(col, overflow="fold")  # names are the evidence: wrap them, never cut them
            for r in beh + near:
                b = r["behaviour"]
                t.add_row(r["name"], b["verdict"], b["kb"], b["probe"], f"{b['max_rel_err']:.1e}")
            out.print(t)
        if behaviour:
            s = summary["behaviour"]
            out.print(f"probes: {s['problems_probed']}/{s['problems']} problems in {s['problems_s']} s, "
                      f"{s['tasks_probed']}/{s['tasks']} tasks in {s['tasks_s']} s")

    @app.command("filter")
    def filter_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                   device: str = typer.Option("cpu", help="cpu | cuda."),
                   gpus: Optional[str] = typer.Option(None, help="GPU indices (default: every visible GPU)."),
                   lanes_per_gpu: int = typer.Option(1, "--lanes-per-gpu", min=1, help="Judges sharing each GPU (default 1): "
                                                     "their checks run at once; each timing loop still has the GPU alone, so "
                                                     "timing stays serial per GPU. An out-of-memory beside the others is run "
                                                     "again alone."),
                   budget_s: float = typer.Option(3600.0, help="Stop taking tasks after this many seconds (rerun to resume)."),
                   timing_runs: int = typer.Option(10, min=1),
                   window: Optional[str] = typer.Option(None, help="Eager window LO,HI ms for the summary (default 1,15 on cuda, none on cpu)."),
                   results_dir: Optional[Path] = typer.Option(None, "--out", help="Results folder (default SET/filter)."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
        """Run the execution filters (resumable: tasks already in results.jsonl are skipped)."""
        from ..curate.filters import load_results, run_filters, summarize

        if device not in ("cpu", "cuda"):
            _fail(f"--device must be cpu or cuda, not {device!r}")
        lanes = lane_options(device, lanes_per_gpu, on_cpu="the CPU filter runs one judge").get("lanes_per_gpu", 1)
        _open(set_dir)
        try:
            g = [int(x) for x in gpus.split(",")] if gpus else None
        except ValueError:
            _fail(f"--gpus must be comma-separated integers, not {gpus!r}")
        win = _window(window) if window else ((1.0, 15.0) if device == "cuda" else None)
        rdir = results_dir or set_dir / "filter"
        stats = run_filters(set_dir, rdir, device=device, gpus=g, lanes_per_gpu=lanes, budget_s=budget_s, n_timing=timing_runs,
                            progress=None if json_out else lambda i, n, r: out.print(
                                f"[dim]{i}/{n}[/] {r['name']}: " + ("ok" if r.get("passed_checks") else ", ".join(r.get("reasons") or []))
                                + (f", eager {r['eager_ms']:.3f} ms" if r.get("eager_ms") else ""), highlight=False))
        summ = {**stats, **summarize(load_results(rdir), win)}
        if json_out:
            print(json.dumps(summ))
        else:
            out.print(json.dumps(summ), highlight=False)
            if stats["remaining"] and not stats.get("errors"):
                out.print(f"{stats['remaining']} tasks left: run the same command again to continue")
        if stats.get("errors"):
            _fail("; ".join(sorted(set(stats["errors"]))) + f" ({stats['remaining']} tasks not measured)")

    @app.command("select")
    def select_cmd(set_dir: Path = typer.Argument(..., help="The pool (a task-set folder with dedup/decontam/filter results)."),
                   out_dir: Path = typer.Option(..., "--out", help="New curated set folder."),
                   n: int = typer.Option(..., "--n", min=1, help="Tasks to select."),
                   results: Optional[Path] = typer.Option(None, help="Filter results (results.jsonl or its folder; default SET/filter)."),
                   window: str = typer.Option("1,15", help="Eager window LO,HI in ms, or none (CPU runs)."),
                   method: str = typer.Option("kcenter", help="kcenter | mmr."),
                   names: Optional[Path] = typer.Option(None, help="Only these candidates (one name a line), e.g. those a GPU run measured."),
                   seed: int = typer.Option(0),
                   balance: bool = typer.Option(True, "--balance/--no-balance", help="Split N over categories by the square root of their sizes (capped at what each has)."),
                   plots: bool = typer.Option(True, "--plots/--no-plots")) -> None:
        """Pick N diverse tasks that passed dedup, decontamination and the filters; write the set, report.md and plots."""
        from ..curate.report import build_set

        if method not in ("kcenter", "mmr"):
            _fail(f"--method must be kcenter or mmr, not {method!r}")
        pool = _open(set_dir)
        only = None
        if names:
            if not names.is_file():
                _fail(f"{names}: no such file")
            only = [ln.strip() for ln in names.read_text().splitlines() if ln.strip()]
        try:
            summary = build_set(pool, out_dir, n, results=results, window=_window(window), method=method, seed=seed,
                                only=only, plots=plots, balance=balance)
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")
        except ImportError as e:
            missing_extra("the selection's plots (or pass --no-plots)", "bench", e)
        out.print(json.dumps(summary), highlight=False)
        out.print(f"wrote {out_dir} (report: {out_dir / 'report.md'})")
        if summary["selected"] < n:
            err.print(f"[yellow]only {summary['selected']} eligible tasks for --n {n}[/]")

    @app.command("review")
    def review_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                   reviewer: Optional[str] = typer.Option(None, envvar="KMOSAIC_REVIEWER", help="Who decides (default: your user name)."),
                   only: str = typer.Option("undecided", help="undecided | all | auto | accepted | rejected | pending."),
                   task: Optional[list[str]] = typer.Option(None, "--task", help="Review these tasks (repeatable)."),
                   limit: Optional[int] = typer.Option(None, min=1),
                   web: bool = typer.Option(False, "--web", help="Serve a review page on 127.0.0.1 instead of the terminal UI."),
                   port: int = typer.Option(8765, min=0, max=65535, help="--web: the port (0: any free one)."),
                   decontam: Optional[Path] = typer.Option(None, help="--web: decontamination rows with the behavioural evidence (default SET/decontam.jsonl)."),
                   kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="--web: show the nearest KernelBench problem's source."),
                   open_browser: bool = typer.Option(True, "--open/--no-open", help="--web: open the page in a browser.")) -> None:
        """Review tasks: accept / reject (a note required) / edit / skip, with who and when; saved to SET/review.jsonl. --web: in the browser."""
        if only not in ("undecided", "all", "auto", "accepted", "rejected", "pending"):
            _fail(f"--only must be undecided, all, auto, accepted, rejected or pending, not {only!r}")
        ts = _open(set_dir)
        if web:
            from ..curate.webreview import ReviewApp, ReviewServer

            try:
                srv = ReviewServer(ReviewApp(ts, reviewer, decontam=decontam, kernelbench=kernelbench), port)
            except TaskError as e:
                _fail(f"{e.where}: {e.problem}")
            except OSError as e:
                _fail(f"cannot serve on 127.0.0.1:{port}: {e.strerror or e} (try --port 0)")
            out.print(f"Reviewing {ts.name} as [bold]{srv.app.who}[/] at {srv.url} (decisions go to {ts.root / 'review.jsonl'}); "
                      "Ctrl+C stops", highlight=False)
            if open_browser:
                import webbrowser

                webbrowser.open(srv.url)
            try:
                srv.httpd.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                srv.httpd.server_close()
            out.print("stopped; every decision was saved as it was made")
            return
        from ..curate.review import review

        try:
            review(ts, out, who=reviewer, only=only, names=task, limit=limit, ask=lambda p: out.input(p, markup=False))
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")

    @app.command("stats")
    def stats_cmd(set_dir: Path = typer.Argument(..., help="Task-set folder."),
                  json_out: bool = typer.Option(False, "--json", help="Print one JSON object.")) -> None:
        """Counts by category, dtype, status (review included) and generator."""
        from ..curate.stats import set_stats

        try:
            s = set_stats(_open(set_dir))
        except TaskError as e:
            _fail(f"{e.where}: {e.problem}")
        if json_out:
            print(json.dumps(s, indent=1))
            return
        out.print(f"[bold]{s['set']}[/]: {s['tasks']} tasks, {s['categories']} categories, {s['distinct_ops']} distinct ops")
        for key in ("by_category", "by_dtype", "by_status", "by_generator"):
            out.print(_counts_table(key.replace("_", " "), s[key]))
        if s.get("eager_ms"):
            e = s["eager_ms"]
            out.print(f"eager ms ({e['measured']} measured on {e['gpu']}): min {e['min']}, median {e['median']}, max {e['max']}")
