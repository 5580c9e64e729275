"""``kmosaic verify``, ``kmosaic baselines list|clear`` and ``kmosaic tasks list|check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from ..task import TaskError, load_kernelbench, resolve_task_spec
from ..vocab import Policy, Protocol, Status
from .common import (USAGE_ERROR, BackendOpt, CompileOpt, DeviceOpt, KernelBenchDir, PolicyOpt, ProtocolOpt, TimingOpt, device_backend,
                     err, fail, out, positive, read_source)


def task_error(e: TaskError, json_out: bool) -> None:
    if json_out:
        print(json.dumps({"task_error": {"task": e.where, "problem": e.problem}}))
    else:
        err.print("[bold red]task error:[/] ", end="")
        err.print(f"{e.where}: {e.problem}", markup=False, highlight=False)
    raise typer.Exit(USAGE_ERROR)


def verify(
    candidate: Annotated[Path, typer.Argument(metavar="CANDIDATE", help="Candidate source defining class ModelNew.")],
    task: Annotated[str, typer.Option("--task", "-t", help="Reference task: a KernelBench-format file, or L<level>/<id> from $KERNELBENCH_DIR.")],
    backend: BackendOpt = None,
    device: DeviceOpt = None,
    policy: PolicyOpt = Policy.STRICT,
    protocol: ProtocolOpt = Protocol.KERNELMOSAIC,
    json_out: Annotated[bool, typer.Option("--json", help="Print one Verdict JSON object.")] = False,
    trials: Annotated[int, typer.Option(min=1, help="Correctness trials, each with fresh seeded inputs.")] = 5,
    seed: Annotated[Optional[int], typer.Option(help="Base seed (default: fresh random seeds, recorded in the verdict).")] = None,
    timing: TimingOpt = True,
    compile_baseline: CompileOpt = True,
    n_timing: Annotated[int, typer.Option("--timing-runs", min=1, help="Timed calls per variant.")] = 30,
    atol: Annotated[Optional[float], typer.Option(min=0.0, help="Absolute tolerance (default by dtype: 1e-4 fp32, 1e-2 fp16/bf16).")] = None,
    rtol: Annotated[Optional[float], typer.Option(min=0.0, help="Relative tolerance (default by dtype).")] = None,
    timeout: Annotated[Optional[float], typer.Option(callback=positive, help="Seconds without progress in any run phase before the worker is killed.")] = None,
    kernelbench: KernelBenchDir = None,
    profile: Annotated[bool, typer.Option("--profile/--no-profile", help="Also profile a correct kernel with Nsight Compute (ncu): occupancy, DRAM/SM throughput, top stalls.")] = False,
    refresh_baselines: Annotated[bool, typer.Option("--refresh-baselines", help="Time eager and torch.compile again and replace the cached times (see kmosaic baselines).")] = False,
    precision: Annotated[Optional[bool], typer.Option("--precision/--no-precision", help="The precision check against a float64 oracle (default: on under strict, off under kernelbench).")] = None,
    shape_variants: Annotated[bool, typer.Option("--shape-variants/--no-shape-variants", help="Also check the candidate on other input shapes (a size grown, then odd prime sizes); off only to compare with protocols that check the task's one shape.")] = True,
) -> None:
    """Verify a candidate kernel against a reference task. Exit 0 correct, 1 not, 2 usage error, 3 the verifier failed (infra_error)."""
    from ..verify import TimingConfig, Verifier, VerifyRequest

    try:
        device, backend = device_backend(device, backend)
        src = read_source(candidate)
    except ValueError as e:
        fail(str(e))
    try:
        t = resolve_task_spec(task, kernelbench)
    except TaskError as e:
        task_error(e, json_out)
    tol = {k: v for k, v in (("atol", atol), ("rtol", rtol)) if v is not None}
    if protocol == Protocol.KERNELBENCH:
        fixed = [f for f, given in (("--atol", atol is not None), ("--rtol", rtol is not None), ("--seed", seed is not None),
                                    ("--trials", trials != 5), ("--timing-runs", n_timing != 30), ("--precision", precision is True))
                 if given]
        if fixed:
            fail(f"{', '.join(fixed)}: fixed by --protocol kernelbench (KernelBench's 5 trials from seed 42, its tolerances, "
                 "100 timed calls, no precision check)")
    timeouts = {p: timeout for p in ("check", "time", "load")} if timeout else None
    req = VerifyRequest(
        candidate=src, task=t, backend=backend, policy=str(policy), trials=trials, seed=seed, tolerances=tol,
        timing=TimingConfig(enabled=timing, n=n_timing, compile=compile_baseline, refresh=refresh_baselines),
        precision=precision,
        shape_variants=shape_variants,
        protocol=str(protocol),
    )
    # a cold run takes up to a minute (process start, builds, baselines): say what is going on,
    # on stderr so that --json output stays one object
    _phase(f"starting the verifier on the {device} (a judge and a sandboxed candidate process)")
    try:
        with Verifier(device=device, workers=1, timeouts=timeouts, prewarm=False) as v:
            _phase(f"verifying {candidate.name} vs {t.key}: build, load, {trials} correctness trials"
                   + (", then timing (eager and torch.compile baselines on first use)" if timing else ""))
            verdict = v.verify(req)
    except TaskError as e:
        task_error(e, json_out)
    except RuntimeError as e:
        fail(str(e))
    prof = _profile(t, src, device) if profile and verdict.correct else None
    if json_out:
        if prof is None:
            print(verdict.to_json())
        else:
            from .._json import finite

            print(json.dumps(finite({**verdict.to_dict(), "profile": prof.to_dict()})))
    else:
        render_verdict(verdict, candidate=str(candidate))
        if prof is not None:
            out.print(prof.render(), markup=False, highlight=False)
    # 3: no verdict on the candidate, the verifier itself failed (infra_error)
    raise typer.Exit(0 if verdict.correct else 3 if verdict.status == Status.INFRA_ERROR else 1)


def _phase(msg: str) -> None:
    err.print(f"[dim]verify: {msg}...[/]", highlight=False)


def _profile(task, src: str, device: str):
    """Nsight Compute metrics for a correct candidate (agent/profiler.py); says why there are none."""
    from ..agent.profiler import Profile, profile_candidate

    if device != "cuda":
        return Profile(False, "ncu profiles CUDA kernels; this verification ran on the CPU")
    return profile_candidate(task, src)


STYLE = {Status.CORRECT: "bold green", Status.INCORRECT: "bold red", Status.COMPILE_ERROR: "bold red",
         Status.RUNTIME_ERROR: "bold red", Status.TIMEOUT: "bold yellow", Status.REJECTED: "bold magenta",
         Status.INVALID_CANDIDATE: "bold red", Status.INFRA_ERROR: "bold yellow"}


def render_verdict(v, candidate: str = "") -> None:
    out.print(f"[{STYLE.get(v.status, 'bold')}]{v.status.upper()}[/]  {candidate} vs {v.task}  "
              f"[dim](backend {v.backend}, policy {v.policy}, "
              + (f"protocol {v.protocol}, " if v.protocol != Protocol.KERNELMOSAIC else "")
              + f"device {v.device}, {len(v.seeds)} trials)[/]")
    if v.error:
        out.print(f"[bold]{v.error.kind or 'error'}:[/] ", end="")
        out.print(v.error.message, markup=False, highlight=False)
        log = (v.error.log or "").strip()
        if log:
            out.print(log if len(log) < 4000 else log[-4000:], markup=False, highlight=False)
    if v.mismatch:
        m = v.mismatch
        bits = [f"{k}={getattr(m, k)}" for k in ("max_abs_err", "max_rel_err", "rel_norm_err", "first_bad_index", "trial")
                if getattr(m, k) is not None]
        out.print("[bold]mismatch:[/] " + ", ".join(bits))
    for r in v.rejections:
        out.print(f"[magenta]rule {r.rule}[/]: ", end="")
        out.print(r.detail, markup=False, highlight=False)
    if v.timing:
        tm = v.timing
        table = Table(show_header=True, header_style="bold", box=None)
        for col in ("", f"{v.timing.statistic} ms", "speedup"):
            table.add_column(col)
        table.add_row("candidate", _ms(tm.candidate_ms), "")
        table.add_row("eager", _ms(tm.eager_ms), _x(tm.speedup_eager))
        table.add_row("torch.compile", _ms(tm.compile_ms), _x(tm.speedup_compile))
        out.print(table)
        if tm.cv is not None:
            checked = f", {tm.checked_calls} outputs checked" if tm.checked_calls is not None else ""
            if tm.sampled_calls:
                checked += f" in full and {tm.sampled_calls} on random elements"
            over = f", empty-call overhead {tm.overhead_ms:.4f} ms taken off" if tm.overhead_ms is not None else ""
            if (tm.long_call_ms or {}).get("candidate"):
                over += f" (and {tm.long_call_ms['candidate']:.4f} ms long-call excess)"
            out.print(f"[dim]candidate CV {tm.cv:.3f} over {tm.n} timed calls{checked}{over}[/]")
        b = tm.baseline
        if b is not None and b.source in ("measured", "cache"):
            spreads = "/".join(f"{x:.3f}" for x in (b.eager_spread, b.compile_spread) if x is not None) or "-"
            kept = "cached" if b.cached else "not cached (too noisy, or a busy machine)" if b.steady is False else "not cached"
            out.print(f"[dim]baselines: {'measured in this verdict' if b.source == 'measured' else 'from the cache'}, "
                      f"timed {b.timed_at or '?'} on {b.device_name or '?'}, spread {spreads}, {kept}[/]")
    if v.precision and v.precision.status == "passed" and v.precision.cand_err is not None:
        p = v.precision
        out.print(f"[dim]precision (float64 oracle, trial {p.trial}): error {p.cand_err:.3g}, the {p.dtype} reference's "
                  f"{p.ref_err:.3g}, bound {p.threshold:.3g}[/]")
    if v.phases_s:
        out.print("[dim]phases: " + ", ".join(f"{k} {s:.2f}s" for k, s in v.phases_s.items()) + "[/]")
    if v.isolation and v.isolation.layers:
        on = v.isolation.active()
        off = [k for k in v.isolation.layers if k not in on]
        out.print(f"[dim]sandbox: {', '.join(on) or 'no layer'} on" + (f"; off: {', '.join(off)}" if off else "") + "[/]")
    for n in v.notes:
        out.print(f"note: {n}", style="dim", markup=False, highlight=False)
    env = ", ".join(f"{k} {val}" for k, val in v.env.items() if val)
    if env:
        out.print(env, style="dim", markup=False)


def _ms(x) -> str:
    return "-" if not isinstance(x, (int, float)) else f"{x:.4f}"


def _x(x) -> str:
    return "-" if not isinstance(x, (int, float)) else f"{x:.2f}x"


def tasks_list(
    kernelbench: KernelBenchDir = None,
    levels: Annotated[str, typer.Option(help="Comma-separated levels (4 needs model weights).")] = "1,2,3",
    json_out: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """List KernelBench tasks."""
    try:
        lv = [int(x) for x in levels.split(",") if x.strip()]
    except ValueError:
        fail(f"--levels must be comma-separated integers, not {levels!r}")
    try:
        ts = load_kernelbench(kernelbench, lv)
    except TaskError as e:
        task_error(e, json_out)
    if json_out:
        print(json.dumps([{"key": t.key, "level": t.level, "id": t.problem_id, "path": t.path, "sha256": t.sha256, "needs_weights": t.needs_weights} for t in ts], indent=1))
        return
    table = Table("key", "level", "id", "needs weights")
    for t in ts:
        table.add_row(t.key, str(t.level), str(t.problem_id), "yes" if t.needs_weights else "")
    out.print(table)
    out.print(f"{len(ts)} tasks")


def tasks_check(
    files: Annotated[list[str], typer.Argument(metavar="TASK", help="Task files (or L<level>/<id> specs) to check statically.")],
    kernelbench: KernelBenchDir = None,
) -> None:
    """Check that task files are well-formed KernelBench tasks (parsed, never executed here)."""
    bad = 0
    for f in files:
        try:
            t = resolve_task_spec(f, kernelbench)
            out.print(f"[green]ok[/] {t.key}  sha256 {t.sha256[:12]}")
        except TaskError as e:
            bad += 1
            out.print("[red]bad[/] ", end="")
            out.print(f"{e.where}: {e.problem}", markup=False)
    raise typer.Exit(1 if bad else 0)


def baselines_list(
    cache_dir: Annotated[Optional[Path], typer.Option(help="The verifier's cache folder (default: $KMOSAIC_CACHE_DIR or ~/.cache/kernelmosaic).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per entry.")] = False,
) -> None:
    """The cached eager/torch.compile baselines: task hash, machine, times, spread and when."""
    from ..verify import baseline_entries

    rows = baseline_entries(cache_dir)
    if json_out:
        for r in rows:
            print(json.dumps(r))
        return
    if not rows:
        out.print("no cached baselines")
        return
    table = Table("task sha256", "device", "n", "eager ms", "eager spread", "compile ms", "timed at", "torch")
    for r in rows:
        def num(k, fmt="{:.4f}"):
            return fmt.format(r[k]) if isinstance(r.get(k), (int, float)) else "-"
        table.add_row(str(r.get("task_sha256", ""))[:12], str(r.get("device_name") or r.get("device") or ""), str(r.get("n", "")),
                      num("eager_ms"), num("eager_spread", "{:.3f}") if r.get("steady") else "(unchecked: timed again)", num("compile_ms"), str(r.get("timed_at", "")), str(r.get("torch", "")))
    out.print(table)


def baselines_clear(
    task_sha256: Annotated[Optional[str], typer.Option("--task-sha256", help="Only the entries of this task (a prefix of its hash, as listed).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every entry.")] = False,
    cache_dir: Annotated[Optional[Path], typer.Option(help="The verifier's cache folder (default: $KMOSAIC_CACHE_DIR or ~/.cache/kernelmosaic).")] = None,
) -> None:
    """Remove cached baselines, so that the next verdicts time them again."""
    from ..verify import clear_baselines

    if not all_ and not task_sha256:
        fail("say which: --task-sha256 PREFIX, or --all")
    if all_ and task_sha256:
        fail("--all and --task-sha256 exclude each other")
    n = clear_baselines(cache_dir, None if all_ else task_sha256)
    out.print(f"removed {n} cached baseline{'s' if n != 1 else ''}")


def register(app: typer.Typer, tasks_app: typer.Typer) -> None:
    app.command()(verify)
    baselines_app = typer.Typer(help="The verifier's cached baselines: list, clear.", no_args_is_help=True, rich_markup_mode=None)
    baselines_app.command("list")(baselines_list)
    baselines_app.command("clear")(baselines_clear)
    app.add_typer(baselines_app, name="baselines")
    tasks_app.command("list")(tasks_list)
    tasks_app.command("check")(tasks_check)
