"""``kmosaic``: the command line. Thin: every command calls a library function."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from .task import TaskError, load_kernelbench, resolve_task_spec

app = typer.Typer(add_completion=False, no_args_is_help=True, help="KernelMosaic: verify CUDA kernels and generate repair trajectories with an LLM.")
tasks_app = typer.Typer(no_args_is_help=True, help="Task sets: list, check, curate (generate, filter, dedup, decontam, select, review, stats) and publish.")
app.add_typer(tasks_app, name="tasks")
from .task.commands import register as _register_task_commands  # noqa: E402

_register_task_commands(tasks_app)
from .task.release_cli import register as _register_release_commands  # noqa: E402

_register_release_commands(tasks_app)
guidance_app = typer.Typer(no_args_is_help=True, help="The CUDA guidance knowledge base: list, mine.")
app.add_typer(guidance_app, name="guidance")
from .agent.commands import register as _register_agent_commands  # noqa: E402

_register_agent_commands(app)  # kmosaic episode ..., kmosaic mcp

out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)

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
    profile: bool = typer.Option(False, "--profile/--no-profile", help="Also profile a correct kernel with Nsight Compute (ncu): occupancy, DRAM/SM throughput, top stalls."),
) -> None:
    """Verify a candidate kernel against a reference task. Exit 0 correct, 1 not, 2 usage error."""
    from .agent.commands import read_source
    from .verify import POLICIES, TimingConfig, Verifier, VerifyRequest

    device, backend = _check_backend(device, backend)
    if policy not in POLICIES:
        _fail_usage(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    try:
        src = read_source(candidate)
    except ValueError as e:
        _fail_usage(str(e))
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
    prof = _profile(t, src, device) if profile and verdict.correct else None
    if json_out:
        if prof is None:
            print(verdict.to_json())
        else:
            from ._json import finite

            print(json.dumps(finite({**verdict.to_dict(), "profile": prof.to_dict()})))
    else:
        render_verdict(verdict, candidate=str(candidate))
        if prof is not None:
            out.print(prof.render(), markup=False, highlight=False)
    raise typer.Exit(0 if verdict.correct else 1)


def _profile(task, src: str, device: str):
    """Nsight Compute metrics for a correct candidate (agent/profiler.py); says why there are none."""
    from .agent.profiler import Profile, profile_candidate

    if device != "cuda":
        return Profile(False, "ncu profiles CUDA kernels; this verification ran on the CPU")
    return profile_candidate(task, src)


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
        out.print(f"[bold]{v.error.kind or 'error'}:[/] {v.error.message}", highlight=False)
        log = (v.error.log or "").strip()
        if log:
            out.print(log if len(log) < 4000 else log[-4000:], markup=False, highlight=False)
    if v.mismatch:
        m = v.mismatch
        bits = [f"{k}={getattr(m, k)}" for k in ("max_abs_err", "max_rel_err", "rel_norm_err", "first_bad_index", "trial")
                if getattr(m, k) is not None]
        out.print("[bold]mismatch:[/] " + ", ".join(bits))
    for r in v.rejections:
        out.print(f"[magenta]rule {r.rule}[/]: {r.detail}", highlight=False)
    if v.timing:
        tm = v.timing
        table = Table(show_header=True, header_style="bold", box=None)
        for col in ("", "median ms", "speedup"):
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
            out.print(f"[dim]candidate CV {tm.cv:.3f} over {tm.n} timed calls{checked}{over}[/]")
    if v.phases_s:
        out.print("[dim]phases: " + ", ".join(f"{k} {s:.2f}s" for k, s in v.phases_s.items()) + "[/]")
    if v.isolation and v.isolation.layers:
        on = v.isolation.active()
        off = [k for k in v.isolation.layers if k not in on]
        out.print(f"[dim]sandbox: {', '.join(on) or 'no layer'} on" + (f"; off: {', '.join(off)}" if off else "") + "[/]")
    for n in v.notes:
        out.print(f"[dim]note: {n}[/]", highlight=False)
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


# -- the agent loop ------------------------------------------------------------------------------
def _load_task_set(spec: str, kernelbench: Optional[str]):
    """A task file, a folder of task files, or kernelbench[:LEVELS] (from --kernelbench / $KERNELBENCH_DIR)."""
    from .task import load_task
    from .task.taskset import tasks_for_generation

    picked = tasks_for_generation(spec)  # a curated set: its accepted tasks, and it says so
    if picked is not None:
        err.print(picked[1], highlight=False)
        return picked[0]
    if spec.startswith("kernelbench"):
        try:
            levels = [int(x) for x in spec.split(":", 1)[1].split(",")] if ":" in spec else [1, 2, 3]
        except ValueError:
            raise TaskError(spec, "expected kernelbench or kernelbench:LEVELS, e.g. kernelbench:1,2") from None
        return [t for t in load_kernelbench(kernelbench, levels) if not t.needs_weights]
    p = Path(spec)
    if p.is_dir():
        files = sorted(p.glob("*.py"))
        if not files:
            raise TaskError(spec, "no .py task files in this folder")
        return [load_task(f) for f in files]
    return [resolve_task_spec(spec, kernelbench)]


def _episode_config(backend, policy, max_repair, max_optimize, timing, compile_baseline, max_total_tokens, max_wall,
                    profile=True):
    from .agent import EpisodeConfig
    from .verify import TimingConfig

    return EpisodeConfig(backend=backend, policy=policy, max_repair=max_repair, max_optimize=max_optimize,
                         max_tokens=max_total_tokens, max_wall_s=max_wall, profile=profile,
                         timing=TimingConfig(enabled=timing, compile=compile_baseline))


def _policy(provider, model, base_url, api_key, temperature, top_p, max_tokens, adapter, concurrency, request_timeout, retries):
    from .agent import SamplingConfig, make_policy

    try:
        return make_policy(provider, model, base_url=base_url, api_key=api_key, adapter=adapter,
                           sampling=SamplingConfig(temperature=temperature, top_p=top_p, max_tokens=max_tokens),
                           concurrency=concurrency, timeout_s=request_timeout, retries=retries)
    except ValueError as e:
        _fail_usage(str(e))
    except (OSError, ImportError) as e:
        _fail_usage(f"cannot load the model {model!r}: {e}")


def _check_backend(device, backend):
    from .agent.commands import device_backend

    try:
        return device_backend(device, backend)
    except ValueError as e:
        _fail_usage(str(e))


def _agent_setup(policy, device, backend, max_repair, max_optimize, timing, compile_baseline, max_total_tokens, max_wall,
                 provider, model, base_url, api_key, temperature, top_p, max_tokens, adapter, concurrency, request_timeout, retries,
                 profile=True):
    """Validate the shared options of solve and generate; returns (device, backend, config, policy)."""
    from .verify import POLICIES

    if policy not in POLICIES:
        _fail_usage(f"--policy must be one of {', '.join(POLICIES)}")
    device, backend = _check_backend(device, backend)
    cfg = _episode_config(backend, policy, max_repair, max_optimize, timing, compile_baseline, max_total_tokens, max_wall,
                          profile)
    pol = _policy(provider, model, base_url, api_key, temperature, top_p, max_tokens, adapter, concurrency, request_timeout, retries)
    return device, backend, cfg, pol


def _turn_line(prefix: str, t) -> str:
    from rich.markup import escape

    from .agent.episode import _one_line

    g = escape(f" [guidance: {', '.join(t.guidance_ids)}]") if t.guidance_ids else ""
    style = _STYLE.get(t.verdict.get("status"), "bold")
    return (f"{prefix}turn {t.idx} {t.stage:<9} [{style}]{t.verdict.get('status')}[/] "
            f"{escape(_one_line(t.verdict)[len(t.verdict.get('status') or ''):][:100])}{g} "
            f"[dim](llm {t.latency_s:.1f}s, verify {t.verify_s:.1f}s, {t.usage.get('total_tokens', 0)} tok)[/]")


PROVIDER_HELP = "openai (any OpenAI-compatible endpoint: vLLM, SGLang, hosted) | transformers (a local model path or hub id)"


@app.command()
def solve(
    task: str = typer.Argument(..., help="Task file (KernelBench format) or L<level>/<id>."),
    model: str = typer.Option(..., "--model", "-m", help="Model name at the endpoint, or a local path with --provider transformers."),
    base_url: Optional[str] = typer.Option(None, envvar="OPENAI_BASE_URL", help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1."),
    api_key: Optional[str] = typer.Option(None, envvar="OPENAI_API_KEY", help="API key (local servers accept any)."),
    provider: str = typer.Option("openai", help=PROVIDER_HELP),
    adapter: Optional[str] = typer.Option(None, help="LoRA adapter path (transformers provider)."),
    backend: Optional[str] = typer.Option(None, help="cuda | nvrtc | triton | cpp"),
    device: Optional[str] = typer.Option(None, help="cuda | cpu"),
    policy: str = typer.Option("strict", help="Verifier policy: strict | kernelbench."),
    out_dir: Path = typer.Option(Path("solution"), "--out", help="Writes trajectory.json and best.py here."),
    max_repair: int = typer.Option(4, min=0, help="Repair turns at most."),
    max_optimize: int = typer.Option(2, min=0, help="Optimization turns at most."),
    temperature: float = typer.Option(0.7), top_p: float = typer.Option(0.95),
    max_tokens: int = typer.Option(8192, help="Completion tokens per reply."),
    max_total_tokens: Optional[int] = typer.Option(None, help="Token budget for the whole episode."),
    max_wall: Optional[float] = typer.Option(None, help="Wall-time budget for the episode, seconds."),
    timing: bool = typer.Option(True, "--timing/--no-timing"),
    compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline"),
    profile: bool = typer.Option(True, "--profile/--no-profile", help="Nsight Compute metrics in the feedback of correct kernels on optimize turns (GPU; see docs/agent.md)."),
    request_timeout: float = typer.Option(600.0, help="Seconds per LLM request."),
    retries: int = typer.Option(4, help="Retries on 429/5xx and connection errors, with backoff."),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR"),
) -> None:
    """One episode (implement, repair, optimize) with live progress."""
    from .agent import Episode, write_solution
    from .verify import Verifier

    try:
        t = resolve_task_spec(task, kernelbench)
    except TaskError as e:
        _task_error(e, False)
    device, backend, cfg, pol = _agent_setup(policy, device, backend, max_repair, max_optimize, timing, compile_baseline,
                                             max_total_tokens, max_wall, provider, model, base_url, api_key, temperature,
                                             top_p, max_tokens, adapter, 1, request_timeout, retries, profile)
    out.print(f"[bold]solve[/] {t.key} with {pol.name} (backend {backend}, device {device}, policy {policy})")
    with Verifier(device=device, workers=1) as v:
        ep = Episode(t, pol, v, cfg, on_turn=lambda turn: out.print(_turn_line("  ", turn), highlight=False))
        res = ep.run()
    path = write_solution(out_dir, t, pol.name, cfg, res)
    if res.error:
        err.print(f"[bold red]stopped:[/] {res.error}")
    if res.correct:
        sp = res.best_speedup
        out.print(f"[bold green]correct[/] at turn {res.best_turn}" + (f", {sp:.2f}x over eager" if sp else "") + f"; wrote {path}/best.py and trajectory.json")
    else:
        out.print(f"[bold red]no correct kernel[/] ({res.stopped}); wrote {path}/trajectory.json")
    raise typer.Exit(0 if res.correct else 1)


@app.command()
def generate(
    tasks: str = typer.Option(..., "--tasks", help="A task file, a folder of task files, a task set (its accepted tasks; SET:accepted for reviewer-accepted only), or kernelbench[:1,2,3]."),
    store_path: Path = typer.Option(..., "--store", help="SQLite store (created or resumed)."),
    model: str = typer.Option(..., "--model", "-m"),
    base_url: Optional[str] = typer.Option(None, envvar="OPENAI_BASE_URL"),
    api_key: Optional[str] = typer.Option(None, envvar="OPENAI_API_KEY"),
    provider: str = typer.Option("openai", help=PROVIDER_HELP),
    adapter: Optional[str] = typer.Option(None),
    run_id: Optional[str] = typer.Option(None, help="Resume this run (default: a new run)."),
    samples: int = typer.Option(1, min=1, help="Episodes per task."),
    concurrency: int = typer.Option(4, min=1, help="Episodes in flight (and LLM requests in flight)."),
    backend: Optional[str] = typer.Option(None), device: Optional[str] = typer.Option(None),
    policy: str = typer.Option("strict"),
    max_repair: int = typer.Option(4, min=0), max_optimize: int = typer.Option(2, min=0),
    temperature: float = typer.Option(0.7), top_p: float = typer.Option(0.95), max_tokens: int = typer.Option(8192),
    max_total_tokens: Optional[int] = typer.Option(None), max_wall: Optional[float] = typer.Option(None),
    timing: bool = typer.Option(True, "--timing/--no-timing"),
    compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline"),
    profile: bool = typer.Option(True, "--profile/--no-profile", help="Nsight Compute metrics in the feedback of correct kernels on optimize turns (GPU; see docs/agent.md)."),
    request_timeout: float = typer.Option(600.0), retries: int = typer.Option(4),
    workers: Optional[int] = typer.Option(None, help="Verifier lanes, or Ray verification actors (default: one per GPU, or one per CPU core)."),
    executor: str = typer.Option("local", help="local (this machine) | ray (a Ray cluster; see docs/scale.md)."),
    ray_address: Optional[str] = typer.Option(None, help="Join this Ray cluster (auto, or HOST:PORT) instead of starting a local one."),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR"),
) -> None:
    """Many episodes, committed turn by turn to a store; rerun with --run-id to resume."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .agent import generate as run_generate
    from .data import Store, StoreError

    try:
        task_list = _load_task_set(tasks, kernelbench)
    except TaskError as e:
        _task_error(e, False)
    device, backend, cfg, pol = _agent_setup(policy, device, backend, max_repair, max_optimize, timing, compile_baseline,
                                             max_total_tokens, max_wall, provider, model, base_url, api_key, temperature,
                                             top_p, max_tokens, adapter, concurrency, request_timeout, retries, profile)
    ex = _executor(executor, device, workers, ray_address)
    if executor == "ray":
        hosts = {a.get("host") for a in ex.actors()}
        out.print(f"ray: {len(ex.actors())} verification actor(s) ({device}) on {len(hosts)} host(s)", highlight=False)
    try:
        store = Store(store_path)
    except StoreError as e:
        ex.close()
        _fail_usage(str(e))
    total = len(task_list) * samples
    with store, ex, Progress(
        TextColumn("[bold]generate[/]"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(), console=out,
    ) as prog:
        bar = prog.add_task("episodes", total=total, status="")
        counts = {"turns": 0, "correct": 0, "failed": 0}

        def on_turn(ep_id, turn):
            counts["turns"] += 1
            prog.update(bar, status=f"{counts['turns']} turns, {counts['correct']} correct, {counts['failed']} failed")

        def on_episode(ep_id, res, error):
            if res is not None and res.correct:
                counts["correct"] += 1
            if error:
                counts["failed"] += 1
                prog.console.print(f"[red]episode {ep_id} failed:[/] {error}", highlight=False)
            prog.advance(bar)
            prog.update(bar, status=f"{counts['turns']} turns, {counts['correct']} correct, {counts['failed']} failed")

        try:
            rid = run_generate(task_list, pol, None, store, cfg, run_id=run_id, samples=samples, concurrency=concurrency,
                               task_set=tasks, on_turn=on_turn, on_episode=on_episode, executor=ex)
        except (StoreError, ValueError) as e:
            _fail_usage(str(e))
        done_before = total - prog.tasks[0].completed
        if done_before:
            prog.update(bar, completed=total)
        summary = store.summary(rid)
    table = Table("run", "episodes", "correct", "turns", show_header=True, header_style="bold")
    table.add_row(rid, str(summary.get("episodes")), str(summary.get("correct")), str(summary.get("turns")))
    out.print(table)
    out.print(json.dumps(summary, default=str), highlight=False)
    failed = (summary.get("by_status") or {}).get("failed", 0)
    if failed:
        err.print(f"[bold red]{failed} episode(s) failed[/]; rerun with --run-id {rid} to retry them")
        raise typer.Exit(1)


@app.command()
def bench(
    store_path: Path = typer.Option(..., "--store", help="SQLite store for the run (created, or resumed by a rerun)."),
    model: str = typer.Option(..., "--model", "-m"),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="KernelBench directory (or $KERNELBENCH_DIR)."),
    levels: str = typer.Option("1,2,3", help="Comma-separated KernelBench levels."),
    problems: Optional[str] = typer.Option(None, help="Problem ids within each level, e.g. 1-20,25 (default: all)."),
    mode: str = typer.Option("agent", help="single (one implement turn per sample) | agent (implement, repair, optimize)."),
    samples: int = typer.Option(1, min=1, help="Samples per problem (pass@k needs k)."),
    turns: str = typer.Option("4,2", help="agent mode: R,O = repair and optimize turns at most."),
    baselines: str = typer.Option("measure", help="measure (eager + torch.compile here, cached) | kernelbench (stored timings) | none."),
    stored_hardware: str = typer.Option("H100_Modal", help="--baselines kernelbench: which stored timings."),
    warm_lanes: Optional[int] = typer.Option(None, min=0, help="Parallel torch.compile warm-up processes before baselines are timed (default 4 on a GPU, 0 on the CPU)."),
    timing_runs: int = typer.Option(30, min=1, help="Timed calls per variant (candidate, eager, torch.compile)."),
    compile_baseline: bool = typer.Option(True, "--compile-baseline/--no-compile-baseline"),
    run_id: Optional[str] = typer.Option(None, help="Run id (default: bench-MODE-MODEL, so a rerun resumes)."),
    base_url: Optional[str] = typer.Option(None, envvar="OPENAI_BASE_URL"),
    api_key: Optional[str] = typer.Option(None, envvar="OPENAI_API_KEY"),
    provider: str = typer.Option("openai", help=PROVIDER_HELP),
    adapter: Optional[str] = typer.Option(None),
    concurrency: int = typer.Option(4, min=1, help="Episodes in flight (and LLM requests in flight)."),
    backend: Optional[str] = typer.Option(None), device: Optional[str] = typer.Option(None),
    policy: str = typer.Option("strict"),
    temperature: float = typer.Option(0.7), top_p: float = typer.Option(0.95), max_tokens: int = typer.Option(8192),
    max_total_tokens: Optional[int] = typer.Option(None), max_wall: Optional[float] = typer.Option(None),
    request_timeout: float = typer.Option(600.0), retries: int = typer.Option(4),
    workers: Optional[int] = typer.Option(None, help="Verifier lanes, or Ray verification actors (default: one per GPU, or one per CPU core)."),
    executor: str = typer.Option("local", help="local (this machine) | ray (a Ray cluster; see docs/scale.md)."),
    ray_address: Optional[str] = typer.Option(None, help="Join this Ray cluster (auto, or HOST:PORT) instead of starting a local one."),
) -> None:
    """KernelBench: baselines, then every problem x sample; rerun the same command to resume."""
    from .bench.baselines import SOURCES
    from .bench.command import bench_with_progress
    from .bench.run import MODES, BenchConfig, parse_levels, parse_problems, parse_turns, select_tasks
    from .data import StoreError
    from .verify import TimingConfig

    if mode not in MODES:
        _fail_usage(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    if baselines not in SOURCES:
        _fail_usage(f"--baselines must be one of {', '.join(SOURCES)}, not {baselines!r}")
    try:
        lv, ids, (rep, opt) = parse_levels(levels), parse_problems(problems), parse_turns(turns)
    except ValueError as e:
        _fail_usage(str(e))
    try:
        task_list = select_tasks(kernelbench, lv, ids)
    except TaskError as e:
        _task_error(e, False)
    device, backend, _, pol = _agent_setup(policy, device, backend, rep, opt, True, compile_baseline, max_total_tokens,
                                                max_wall, provider, model, base_url, api_key, temperature, top_p, max_tokens,
                                                adapter, concurrency, request_timeout, retries)
    cfg = BenchConfig(mode=mode, samples=samples, max_repair=rep, max_optimize=opt, backend=backend, policy=policy,
                      baselines=baselines, stored_hardware=stored_hardware, concurrency=concurrency,
                      warm_lanes=(4 if device == "cuda" else 0) if warm_lanes is None else warm_lanes,
                      timing=TimingConfig(n=timing_runs, compile=compile_baseline), max_tokens=max_total_tokens,
                      max_wall_s=max_wall)
    # the local path keeps its own verifier, which also times the baselines ahead of the episodes
    ex = _executor(executor, device, workers, ray_address) if executor != "local" or ray_address else None
    try:
        _, failed = bench_with_progress(task_list, pol, cfg, store_path, device=device, workers=workers,
                                        kernelbench_dir=kernelbench, run_id=run_id, task_set=f"kernelbench:{levels}",
                                        console=out, executor=ex)
    except (StoreError, ValueError) as e:
        _fail_usage(str(e))
    except TaskError as e:
        _task_error(e, False)
    if failed:
        err.print(f"[bold red]{failed} episode(s) failed[/]; rerun the same command to retry them")
        raise typer.Exit(1)


def _executor(kind, device, workers, ray_address):
    """The executor for --executor/--ray-address (kernelmosaic.scale); exit 2 when it cannot start."""
    from .scale import RayUnavailable, make_executor

    try:
        return make_executor(kind, device=device, workers=workers, ray_address=ray_address)
    except (ValueError, RayUnavailable, RuntimeError) as e:
        _fail_usage(str(e))


@app.command("export")
def export_cmd(
    store_path: Path = typer.Option(..., "--store", help="A store written by kmosaic generate."),
    view: str = typer.Option(..., help="iterative (multi-turn chat up to the best turn) | direct (prompt -> final code) | steps (single repair/optimize steps)."),
    out_dir: Path = typer.Option(..., "--out", help="Folder for train.parquet, validation.parquet and README.md (the dataset card)."),
    run_id: Optional[list[str]] = typer.Option(None, "--run-id", help="Only these runs (repeatable)."),
    verified_only: bool = typer.Option(True, "--verified-only/--all", help="Keep only episodes whose best kernel is verified correct."),
    min_speedup: Optional[float] = typer.Option(None, help="Minimum best speedup over eager."),
    max_turns: Optional[int] = typer.Option(None, help="At most this many turns up to the best one."),
    stage: Optional[list[str]] = typer.Option(None, "--stage", help="steps view: only these stages (repair, optimize)."),
    val_fraction: float = typer.Option(0.1, help="Share of tasks in the validation split (split by task)."),
    kernelbench: Optional[str] = typer.Option(None, envvar="KERNELBENCH_DIR", help="Drop examples whose task matches a KernelBench problem."),
    license_id: Optional[str] = typer.Option(None, "--license", help="The card's licence field (a Hub licence id; default apache-2.0). A teacher model's terms may also apply."),
) -> None:
    """Export trajectories as parquet (train/validation split by task) with a dataset card."""
    from .data import StoreError
    from .data.export import export

    try:
        res = export(store_path, view, out_dir, run_ids=run_id or None, verified_only=verified_only, min_speedup=min_speedup,
                     max_turns=max_turns, stages=stage or None, val_fraction=val_fraction, kernelbench_dir=kernelbench,
                     card_info={"license": license_id} if license_id else None)
    except (ValueError, StoreError) as e:
        _fail_usage(str(e))
    except ImportError as e:
        _fail_usage(f"export needs pyarrow and datasets: pip install 'kernelmosaic[data]' ({e})")
    table = Table("split", "rows", "tasks", title=f"{view} view -> {out_dir}")
    for split, n in res.counts.items():
        table.add_row(split, str(n), str(len(res.split_tasks.get(split, []))))
    out.print(table)
    for d in res.dropped:
        out.print(f"[yellow]dropped[/] {d.get('task')}: matches {d.get('kernelbench_file')} ({d.get('match')}, score {d.get('score', 0):.2f})", highlight=False)
    if res.n_filtered:
        out.print("[dim]filtered: " + ", ".join(f"{k} {v}" for k, v in res.n_filtered.items()) + "[/]")
    err.print(f"[yellow]warning:[/] the card's licence is {license_id or 'apache-2.0 (the default; set it with --license)'}; "
              "the replies were written by the policies named in the card, and a teacher model's terms of use may "
              "restrict how its outputs are used, whatever the licence field says", highlight=False)


@app.command("train")
def train_cmd(
    config: Path = typer.Argument(..., help="Training config (YAML); see configs/train/ and docs/training.md."),
    resume: bool = typer.Option(False, "--resume", help="Resume from the latest checkpoint in output_dir."),
    resume_from: Optional[Path] = typer.Option(None, "--resume-from", help="Resume from this checkpoint folder."),
    set_: Optional[list[str]] = typer.Option(None, "--set", help="Override a config field: KEY=VALUE, e.g. sft.max_steps=5 (repeatable)."),
) -> None:
    """Supervised fine-tuning (TRL SFTTrainer, LoRA or full) on an exported dataset. Multi-GPU: accelerate launch."""
    from .train.command import run_train

    try:
        res = run_train(config, resume=str(resume_from) if resume_from else resume, overrides=set_)
    except (ValueError, TypeError) as e:  # ConfigError and bad SFTConfig values
        _fail_usage(" ".join(str(e).split())[:600])
    except ImportError as e:
        _fail_usage(f"train needs trl, peft and datasets: pip install 'kernelmosaic[train]' ({e})")
    except OSError as e:  # a model or tokenizer that cannot be found or read
        _fail_usage(" ".join(str(e).split())[:400])
    if res is not None:  # rank 0 of a multi-process launch speaks for all
        out.print(json.dumps(res, default=str), highlight=False)


@app.command()
def report(
    stores: list[Path] = typer.Argument(..., help="Stores (RUN.db) to report on, side by side; every run in each."),
    out_dir: Path = typer.Option(Path("report"), "--out", help="Writes report.md, report.html and the plots here."),
    title: str = typer.Option("KernelBench evaluation", help="Report title."),
    shot: bool = typer.Option(False, "--screenshot", help="Also render report.png with a headless Chromium."),
) -> None:
    """Markdown and a self-contained HTML report: metrics per level, plots, trajectories."""
    from .bench import ScreenshotError, screenshot, write_report
    from .data import StoreError

    missing = [str(p) for p in stores if not p.exists()]
    if missing:
        _fail_usage(f"no such store: {', '.join(missing)}")
    try:
        md, html = write_report([str(p) for p in stores], out_dir, title=title)
    except (ValueError, StoreError) as e:
        _fail_usage(str(e))
    except ImportError as e:
        _fail_usage(f"the report needs matplotlib: pip install 'kernelmosaic[bench]' ({e})")
    out.print(f"wrote {md} and {html}")
    if shot:
        try:
            png = screenshot(html, Path(out_dir) / "report.png")
            out.print(f"wrote {png}")
        except ScreenshotError as e:
            _fail_usage(str(e))


@guidance_app.command("list")
def guidance_list(category: Optional[str] = typer.Option(None, help="Only this category.")) -> None:
    """The entries of the knowledge base."""
    from .guidance import load_default

    kb = load_default()
    table = Table("id", "category", "title", title=f"guidance {kb.version}: {len(kb.entries)} entries")
    for e in kb.entries:
        if category is None or e.category == category:
            table.add_row(e.id, e.category, e.title)
    out.print(table)


@guidance_app.command("mine")
def guidance_mine(
    store_path: Path = typer.Option(..., "--store", help="A store written by kmosaic generate."),
    out_path: Path = typer.Option(Path("guidance-proposals.json"), "--out", help="Proposals for review."),
    run_id: Optional[str] = typer.Option(None, help="Only this run."),
    min_count: int = typer.Option(1, min=1, help="Propose only errors seen at least this often."),
) -> None:
    """Propose new entries from recorded repairs (an error, then the edit that fixed it).

    Proposals go to a review file; they are never merged into the knowledge base automatically."""
    from .data import Store, StoreError
    from .guidance import load_default, propose_entries, write_proposals

    if not store_path.exists():
        _fail_usage(f"{store_path}: no such store")
    try:
        with Store(store_path) as st:
            pairs = list(st.repair_pairs(run_id))
    except StoreError as e:
        _fail_usage(str(e))
    proposals = propose_entries(pairs, load_default(), min_count=min_count)
    write_proposals(proposals, out_path)
    out.print(f"{len(pairs)} repair pairs, {len(proposals)} proposals for errors no entry covers -> {out_path}")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
