"""``kmosaic``: the command line. Thin: every command calls a library function."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from .task import TaskError, load_kernelbench, resolve_task_spec

app = typer.Typer(add_completion=False, no_args_is_help=True, help="KernelMosaic: verify, generate, train and benchmark CUDA kernels.")
tasks_app = typer.Typer(no_args_is_help=True, help="Task sets: list and check KernelBench-format tasks.")
app.add_typer(tasks_app, name="tasks")

out = Console()
err = Console(stderr=True, soft_wrap=True)

USAGE_ERROR = 2


def _fail_usage(msg: str) -> None:
    err.print(f"[bold red]error:[/] {msg}")
    raise typer.Exit(USAGE_ERROR)


def _auto_device() -> str:
    from .verify.pool import detect_gpus

    return "cuda" if detect_gpus() else "cpu"


@app.command()
def verify(
    candidate: Path = typer.Argument(..., help="Candidate source defining class ModelNew."),
    task: str = typer.Option(..., "--task", "-t", help="Reference task: a KernelBench-format file, or L<level>/<id> from $KERNELBENCH_DIR."),
    backend: Optional[str] = typer.Option(None, help="cuda | nvrtc | triton | cpp (default: cuda on a GPU, cpp on the CPU)."),
    device: Optional[str] = typer.Option(None, help="cuda | cpu (default: cuda when a GPU is present)."),
    policy: str = typer.Option("strict", help="strict (all compute in the candidate's kernels) | kernelbench (a custom kernel must run)."),
    json_out: bool = typer.Option(False, "--json", help="Print one Verdict JSON object."),
    trials: int = typer.Option(5, min=1, help="Correctness trials, each with fresh seeded inputs."),
    seed: Optional[int] = typer.Option(None, help="Base seed (default: fresh random seeds, recorded in the verdict)."),
    timing: bool = typer.Option(True, "--timing/--no-timing", help="Time candidate, eager and torch.compile."),
    compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline", help="Also time torch.compile(Model)."),
    n_timing: int = typer.Option(30, "--timing-runs", min=1, help="Timed calls per variant."),
    atol: Optional[float] = typer.Option(None, help="Absolute tolerance (default by dtype: 1e-4 fp32, 1e-2 fp16/bf16)."),
    rtol: Optional[float] = typer.Option(None, help="Relative tolerance (default by dtype)."),
    timeout: Optional[float] = typer.Option(None, help="Seconds without progress in any run phase before the worker is killed."),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory for L<level>/<id> task specs."),
) -> None:
    """Verify a candidate kernel against a reference task. Exit 0 correct, 1 not, 2 usage error."""
    from .verify import BACKENDS, POLICIES, TimingConfig, Verifier, VerifyRequest

    device = device or _auto_device()
    if device not in ("cuda", "cpu"):
        _fail_usage(f"--device must be cuda or cpu, not {device!r}")
    backend = backend or ("cuda" if device == "cuda" else "cpp")
    if backend not in BACKENDS:
        _fail_usage(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if policy not in POLICIES:
        _fail_usage(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if backend == "cpp" and device == "cuda":
        _fail_usage("the cpp backend runs on the CPU: use --device cpu")
    if backend in ("cuda", "nvrtc") and device == "cpu":
        _fail_usage(f"the {backend} backend needs --device cuda (use cpp or triton on the CPU)")
    if not candidate.is_file():
        _fail_usage(f"{candidate}: no such file")
    try:
        src = candidate.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        _fail_usage(f"{candidate}: not UTF-8 text")
    try:
        t = resolve_task_spec(task, kernelbench)
    except TaskError as e:
        _task_error(e, json_out)
    tol = {k: v for k, v in (("atol", atol), ("rtol", rtol)) if v is not None}
    timeouts = {p: timeout for p in ("check", "time", "load")} if timeout else None
    req = VerifyRequest(
        candidate=src, task=t, backend=backend, policy=policy, trials=trials, seed=seed, tolerances=tol,
        timing=TimingConfig(enabled=timing, n=n_timing, compile=compile_baseline),
    )
    try:
        with Verifier(device=device, workers=1, timeouts=timeouts, prewarm=False) as v:
            verdict = v.verify(req)
    except TaskError as e:
        _task_error(e, json_out)
    except RuntimeError as e:
        _fail_usage(str(e))
    if json_out:
        print(verdict.to_json())
    else:
        render_verdict(verdict, candidate=str(candidate))
    raise typer.Exit(0 if verdict.correct else 1)


def _task_error(e: TaskError, json_out: bool) -> None:
    if json_out:
        print(json.dumps({"task_error": {"task": e.where, "problem": e.problem}}))
    else:
        err.print(f"[bold red]task error:[/] {e.where}: {e.problem}")
    raise typer.Exit(USAGE_ERROR)


_STYLE = {"correct": "bold green", "incorrect": "bold red", "compile_error": "bold red", "runtime_error": "bold red",
          "timeout": "bold yellow", "rejected": "bold magenta", "invalid_candidate": "bold red"}


def render_verdict(v, candidate: str = "") -> None:
    out.print(f"[{_STYLE.get(v.status, 'bold')}]{v.status.upper()}[/]  {candidate} vs {v.task}  "
              f"[dim](backend {v.backend}, policy {v.policy}, device {v.device}, {len(v.seeds)} trials)[/]")
    if v.error:
        out.print(f"[bold]{v.error.get('kind', 'error')}:[/] {v.error.get('message', '')}")
        log = (v.error.get("log") or "").strip()
        if log:
            out.print(log if len(log) < 4000 else log[-4000:], markup=False, highlight=False)
    if v.mismatch:
        m = v.mismatch
        bits = [f"{k}={m[k]}" for k in ("max_abs_err", "max_rel_err", "rel_norm_err", "first_bad_index", "trial") if m.get(k) is not None]
        out.print("[bold]mismatch:[/] " + ", ".join(bits))
    for r in v.rejections:
        out.print(f"[magenta]rule {r['rule']}[/]: {r['detail']}", highlight=False)
    if v.timing:
        tm = v.timing
        table = Table(show_header=True, header_style="bold", box=None)
        for col in ("", "median ms", "speedup"):
            table.add_column(col)
        table.add_row("candidate", _ms(tm.get("candidate_ms")), "")
        table.add_row("eager", _ms(tm.get("eager_ms")), _x(tm.get("speedup_eager")))
        table.add_row("torch.compile", _ms(tm.get("compile_ms")), _x(tm.get("speedup_compile")))
        out.print(table)
        if tm.get("cv") is not None:
            out.print(f"[dim]candidate CV {tm['cv']:.3f} over {tm.get('n')} timed calls[/]")
    if v.phases_s:
        out.print("[dim]phases: " + ", ".join(f"{k} {s:.2f}s" for k, s in v.phases_s.items()) + "[/]")
    for n in v.notes:
        out.print(f"[dim]note: {n}[/]")
    env = ", ".join(f"{k} {val}" for k, val in v.env.items() if val)
    if env:
        out.print(f"[dim]{env}[/]")


def _ms(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def _x(x) -> str:
    return "-" if x is None else f"{x:.2f}x"


@tasks_app.command("list")
def tasks_list(
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory (or $KERNELBENCH_DIR)."),
    levels: str = typer.Option("1,2,3", help="Comma-separated levels (4 needs model weights)."),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """List KernelBench tasks."""
    try:
        lv = [int(x) for x in levels.split(",") if x.strip()]
    except ValueError:
        _fail_usage(f"--levels must be comma-separated integers, not {levels!r}")
    try:
        ts = load_kernelbench(kernelbench, lv)
    except TaskError as e:
        _task_error(e, json_out)
    if json_out:
        print(json.dumps([{"key": t.key, "level": t.level, "id": t.problem_id, "path": t.path, "sha256": t.sha256, "needs_weights": t.needs_weights} for t in ts], indent=1))
        return
    table = Table("key", "level", "id", "needs weights")
    for t in ts:
        table.add_row(t.key, str(t.level), str(t.problem_id), "yes" if t.needs_weights else "")
    out.print(table)
    out.print(f"{len(ts)} tasks")


@tasks_app.command("check")
def tasks_check(
    files: list[str] = typer.Argument(..., help="Task files (or L<level>/<id> specs) to check statically."),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR"),
) -> None:
    """Check that task files are well-formed KernelBench tasks (parsed, never executed here)."""
    bad = 0
    for f in files:
        try:
            t = resolve_task_spec(f, kernelbench)
            out.print(f"[green]ok[/] {t.key}  sha256 {t.sha256[:12]}")
        except TaskError as e:
            bad += 1
            out.print(f"[red]bad[/] {e.where}: {e.problem}")
    raise typer.Exit(1 if bad else 0)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
