"""The terminal side of ``kmosaic bench``: the progress display and the closing summary.

The command (``loop.py``) validates the options and builds the LLM; this module runs
:func:`kernelmosaic.bench.run.run_bench` under :class:`.progress.RunProgress` and prints the
per-level table.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..bench.metrics import compute_metrics
from ..bench.run import BenchConfig, run_bench
from ..data import Store
from ..verify import Verifier
from ..vocab import Protocol
from .progress import RunProgress, stop_on_ctrl_c


def bench_with_progress(tasks, llm, cfg: BenchConfig, store_path: Path, *, device: str, workers: int | None,
                        kernelbench_dir: str | None, run_id: str | None, task_set: str,
                        console: Console, executor=None, verifier_options: dict | None = None) -> tuple[str, int, bool]:
    """Runs the bench; returns (run id, failed episodes, stopped by Ctrl-C).

    ``executor``: a Ray executor from :mod:`kernelmosaic.scale` (this function closes it), or
    None for this machine's verifier.
    """
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(Store(store_path))
        if executor is None:
            v, runner_kwargs = stack.enter_context(Verifier(device=device, workers=workers, **(verifier_options or {}))), {}
        else:
            v, runner_kwargs = None, {"executor": stack.enter_context(executor)}
        prog = stack.enter_context(RunProgress(console))
        stop = stack.enter_context(stop_on_ctrl_c(prog))
        res = run_bench(tasks, llm, v, store, cfg, kernelbench_dir=kernelbench_dir, run_id=run_id,
                        task_set=task_set, on_baseline=prog.on_baseline, on_warm=prog.on_warm, on_start=prog.start,
                        on_turn=prog.on_turn, on_episode=prog.on_episode, on_protocol=prog.on_protocol,
                        runner_kwargs={**runner_kwargs, "stop": stop})
        failed = sum(1 for e in store.episodes(res.run_id) if e.status == "failed")
    console.print(f"run {res.run_id}: {res.tasks} problems, {res.episodes_pending} episodes run now "
                  f"(the rest were finished before), baselines: {res.baselines_measured} measured, "
                  f"{res.baselines_cached} from the cache, {len(res.baseline_errors)} failed"
                  + (f" ({res.baselines_noisy} too noisy to cache, or timed on a busy machine: timed again in each verdict)" if res.baselines_noisy else ""),
                  highlight=False)
    print_summary(store_path, res.run_id, console)
    if cfg.protocol != Protocol.KERNELMOSAIC:
        # the same turns, judged by KernelBench's evaluator: the score to set beside published ones
        console.print(f"{res.protocol_verdicts} turns judged under the {cfg.protocol} protocol now "
                      "(the rest were judged before)", highlight=False)
        print_summary(store_path, res.run_id, console, protocol=cfg.protocol)
    console.print(f"report: kmosaic report {store_path} --out report", highlight=False)
    return res.run_id, failed, stop.is_set()


def print_summary(store_path: Path, run_id: str, console: Console, protocol: str | None = None) -> None:
    m = compute_metrics(store_path, run_id, protocol=protocol)
    title = f"{run_id} ({m.model})" + (f", judged by the {protocol} protocol" if protocol else "")
    table = Table("level", "problems", "compiled", "correct", "fast_1 eager", "fast_1 compile", "geomean eager",
                  "pass@1", "no verdict", title=title, header_style="bold")
    for lm in m.level_rows():
        table.add_row(lm.label, str(lm.n_problems), _pct(lm.compiled_pct), _pct(lm.correct_pct),
                      _pct(100 * lm.fast_p_eager.get(1.0, 0.0)), _pct(100 * lm.fast_p_compile.get(1.0, 0.0)),
                      "-" if lm.geomean_speedup_eager is None else f"{lm.geomean_speedup_eager:.2f}x",
                      "-" if 1 not in lm.pass_at_k else _pct(100 * lm.pass_at_k[1]),
                      # problems the verifier never judged (infra_error), left out of the rates
                      str(lm.n_no_verdict))
    console.print(table)


def _pct(x) -> str:
    return "-" if x is None else f"{x:.1f}%"
