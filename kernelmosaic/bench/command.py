"""The terminal side of ``kmosaic bench``: progress bars and the closing summary.

``kernelmosaic.cli`` validates the options and builds the policy; this module runs
:func:`.run.run_bench` under a rich progress display and prints the per-level table.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..data import Store
from ..verify import Verifier
from .metrics import compute_metrics
from .run import BenchConfig, run_bench


def bench_with_progress(tasks, policy, cfg: BenchConfig, store_path: Path, *, device: str, workers: int | None,
                        kernelbench_dir: str | None, run_id: str | None, task_set: str,
                        console: Console, executor=None) -> tuple[str, int]:
    """Runs the bench; returns (run id, failed episodes).

    ``executor``: a Ray executor from :mod:`kernelmosaic.scale` (this function closes it), or
    None for this machine's verifier.
    """
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(Store(store_path))
        if executor is None:
            v, runner_kwargs = stack.enter_context(Verifier(device=device, workers=workers)), None
        else:
            v, runner_kwargs = None, {"executor": stack.enter_context(executor)}
        run_id, failed = _bench(tasks, policy, cfg, store, v, kernelbench_dir, run_id, task_set, console, runner_kwargs)
    console.print(f"report: kmosaic report {store_path} --out report", highlight=False)
    return run_id, failed


def _bench(tasks, policy, cfg, store, v, kernelbench_dir, run_id, task_set, console, runner_kwargs):
    with Progress(
        TextColumn("[bold]{task.description:<10}[/]"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"), TimeElapsedColumn(), console=console,
    ) as prog:
        bars: dict[str, int] = {}
        counts = {"turns": 0, "correct": 0, "failed": 0}

        def on_start(n_baselines: int, n_episodes: int) -> None:
            if n_baselines:
                bars["baselines"] = prog.add_task("baselines", total=n_baselines, status="eager + torch.compile")
            bars["episodes"] = prog.add_task("episodes", total=n_episodes, status="")

        def on_baseline(t, b, error) -> None:
            if error:
                prog.console.print(f"[yellow]baseline failed[/] {escape(t.key)}: {escape(error[:300])}", highlight=False)
            if "baselines" in bars and not (b or {}).get("cached"):
                prog.advance(bars["baselines"])
                prog.update(bars["baselines"], status="timing eager + torch.compile")

        warmed = [0]

        def on_warm(t, error) -> None:
            warmed[0] += 1
            prog.update(bars["baselines"], status=f"torch.compile warm-up {warmed[0]}/{prog.tasks[bars['baselines']].total}")

        def status() -> str:
            return f"{counts['turns']} turns, {counts['correct']} correct, {counts['failed']} failed"

        def on_turn(ep_id, turn) -> None:
            counts["turns"] += 1
            prog.update(bars["episodes"], status=status())

        def on_episode(ep_id, res, error) -> None:
            if res is not None and res.correct:
                counts["correct"] += 1
            if error:
                counts["failed"] += 1
                prog.console.print(f"[red]episode {escape(ep_id)} failed:[/] {escape(error)}", highlight=False)
            prog.advance(bars["episodes"])
            prog.update(bars["episodes"], status=status())

        res = run_bench(tasks, policy, v, store, cfg, kernelbench_dir=kernelbench_dir, run_id=run_id,
                        task_set=task_set, on_baseline=on_baseline, on_warm=on_warm, on_start=on_start, on_turn=on_turn,
                        on_episode=on_episode, runner_kwargs=runner_kwargs)
        failed = sum(1 for e in store.episodes(res.run_id) if e.status == "failed")
    console.print(f"run {res.run_id}: {res.tasks} problems, {res.episodes_pending} episodes run now "
                  f"(the rest were finished before), baselines: {res.baselines_measured} measured, "
                  f"{res.baselines_cached} from the cache, {len(res.baseline_errors)} failed", highlight=False)
    print_summary(store.path, res.run_id, console)
    return res.run_id, failed


def print_summary(store_path: Path, run_id: str, console: Console) -> None:
    m = compute_metrics(store_path, run_id)
    table = Table("level", "problems", "compiled", "correct", "fast_1 eager", "fast_1 compile", "geomean eager",
                  "pass@1", title=f"{run_id} ({m.model})", header_style="bold")
    for lm in m.level_rows():
        table.add_row(lm.label, str(lm.n_problems), _pct(lm.compiled_pct), _pct(lm.correct_pct),
                      _pct(100 * lm.fast_p_eager.get(1.0, 0.0)), _pct(100 * lm.fast_p_compile.get(1.0, 0.0)),
                      "-" if lm.geomean_speedup_eager is None else f"{lm.geomean_speedup_eager:.2f}x",
                      "-" if 1 not in lm.pass_at_k else _pct(100 * lm.pass_at_k[1]))
    console.print(table)


def _pct(x) -> str:
    return "-" if x is None else f"{x:.1f}%"
