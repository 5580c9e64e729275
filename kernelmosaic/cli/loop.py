"""The agent loop's commands: ``solve`` (one episode), ``generate`` (many, into a store),
``bench`` (KernelBench) and ``serve-scripted`` (an endpoint with scripted replies, to try the
loop without a model)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..task import TaskError, load_kernelbench, resolve_task_spec
from ..vocab import Policy, Protocol, StrEnum
from .common import (INTERRUPTED, Adapter, ApiKey, BackendOpt, BaseUrl, CompileOpt, Concurrency, DeviceOpt, EnableThinking,
                     ExecutorKind, ExecutorOpt, ExtraBody, KernelBenchDir, LLMOptions, LoopOptions, MaxOptimize, MaxRepair, MaxTokens,
                     LanesPerGpu, MaxTotalTokens, MaxWall, Model, PolicyOpt, ProfileOpt, Provider, ProviderOpt, RayAddress,
                     RequestTimeout, Retries, TaskSpec, Temperature, TimingOpt, TopP, Workers, err, fail, new_store,
                     lane_options, out, out_folder)
from .progress import RunProgress, stop_on_ctrl_c
from .verify import STYLE, task_error


class Scale(StrEnum):
    FULL = "full"
    SMALL = "small"


SMALL_SIZE = 256  # --scale small: every integer literal above this in a task becomes this
ScaleOpt = Annotated[Scale, typer.Option(help=f"full: the tasks as written | small: CPU-sized, every integer literal above {SMALL_SIZE} in a task becomes {SMALL_SIZE} (KernelBench and the shipped set are sized for an H200); the task key gets '@small'.")]


def scaled(tasks: list, scale: Scale) -> list:
    """The tasks at ``scale``. Small tasks are new tasks (their own key and sha256), so a store
    never mixes them up with the full-size ones; the metadata names the original."""
    if scale == Scale.FULL:
        return tasks
    import dataclasses

    from ..curate.behaviour import shrink_source
    from ..task import parse_task

    out = []
    for t in tasks:
        src = shrink_source(t.source, size=SMALL_SIZE)
        parse_task(src, f"{t.key} (--scale small)")
        out.append(dataclasses.replace(t, name=f"{t.name}@small", source=src,
                                       metadata={**t.metadata, "scale": "small", "full_key": t.key,
                                                 "full_sha256": t.sha256}))
    return out


def load_task_set(spec: str, kernelbench: Optional[str]):
    """A task file, a folder of task files, a curated set, or kernelbench[:LEVELS]."""
    from ..task import load_task
    from ..curate.taskset import tasks_for_generation

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


def check_executor(kind, ray_address) -> None:
    """Options that cannot go together are refused before anything starts (an endpoint, a model)."""
    if ray_address and kind != ExecutorKind.RAY:
        fail("--ray-address needs --executor ray")


def make_executor(kind, device, workers, ray_address, lanes_per_gpu: int = 1):
    """The executor for --executor/--ray-address (kernelmosaic.scale); exit 2 when it cannot start."""
    from ..scale import RayUnavailable, make_executor as _make

    opts = lane_options(device, lanes_per_gpu)
    # a local executor takes the verifier's options itself; Ray hands them to each actor's verifier
    extra = opts if str(kind) == "local" or not opts else {"verifier_options": opts}
    try:
        return _make(str(kind), device=device, workers=workers, ray_address=ray_address, **extra)
    except (ValueError, RayUnavailable, RuntimeError) as e:
        fail(str(e))


def turn_line(prefix: str, t) -> str:
    from ..agent.episode import one_line

    g = escape(f" [guidance: {', '.join(t.guidance_ids)}]") if t.guidance_ids else ""
    status = t.verdict.status
    return (f"{prefix}turn {t.idx} {t.stage:<9} [{STYLE.get(status, 'bold')}]{status}[/] "
            f"{escape(one_line(t.verdict)[len(status):][:100])}{g} "
            f"[dim](llm {t.latency_s:.1f}s, verify {t.verify_s:.1f}s, {t.usage.get('total_tokens', 0)} tok)[/]")


def solve(
    task: TaskSpec,
    model: Model,
    base_url: BaseUrl = None,
    api_key: ApiKey = None,
    provider: ProviderOpt = Provider.OPENAI,
    adapter: Adapter = None,
    backend: BackendOpt = None,
    device: DeviceOpt = None,
    policy: PolicyOpt = Policy.STRICT,
    out_dir: Annotated[Path, typer.Option("--out", help="Writes trajectory.json and best.py here.")] = Path("solution"),
    max_repair: MaxRepair = 4,
    max_optimize: MaxOptimize = 2,
    temperature: Temperature = 0.7,
    top_p: TopP = 0.95,
    max_tokens: MaxTokens = 8192,
    max_total_tokens: MaxTotalTokens = None,
    max_wall: MaxWall = None,
    timing: TimingOpt = True,
    compile_baseline: CompileOpt = True,
    profile: ProfileOpt = True,
    request_timeout: RequestTimeout = 600.0,
    retries: Retries = 4,
    extra_body: ExtraBody = None,
    enable_thinking: EnableThinking = None,
    kernelbench: KernelBenchDir = None,
    scale: ScaleOpt = Scale.FULL,
) -> None:
    """One episode (implement, repair, optimize) with live progress."""
    from ..agent import Episode, write_solution
    from ..verify import Verifier

    out_folder(out_dir)
    try:
        t = scaled([resolve_task_spec(task, kernelbench)], scale)[0]
    except TaskError as e:
        task_error(e, False)
    loop = LoopOptions(device, backend, policy, max_repair, max_optimize, timing, compile_baseline, max_total_tokens,
                       max_wall, profile)
    cfg = loop.episode_config()
    llm = LLMOptions(provider, model, base_url, api_key, adapter, temperature, top_p, max_tokens, request_timeout,
                     retries, extra_body, enable_thinking).build(concurrency=1)
    out.print(f"[bold]solve[/] {escape(t.key)} with {escape(llm.name)} (backend {loop.backend}, device {loop.device}, "
              f"policy {policy})")
    with Verifier(device=loop.device, workers=1) as v:
        ep = Episode(t, llm, v, cfg, on_turn=lambda turn: out.print(turn_line("  ", turn), highlight=False))
        res = ep.run()
    path = write_solution(out_dir, t, llm.name, cfg, res)
    if res.error:
        err.print("[bold red]stopped:[/] ", end="")
        err.print(res.error, markup=False)
    if res.correct:
        sp = res.best_speedup
        out.print(f"[bold green]correct[/] at turn {res.best_turn}" + (f", {sp:.2f}x over eager" if sp else "")
                  + f"; wrote {path}/best.py and trajectory.json", highlight=False)
    else:
        out.print(f"[bold red]no correct kernel[/] ({res.stopped}); wrote {path}/trajectory.json", highlight=False)
    raise typer.Exit(0 if res.correct else 1)


def generate(
    tasks: Annotated[str, typer.Option("--tasks", help="A task file, a folder of task files, a task set (its accepted tasks; SET:accepted for reviewer-accepted only), or kernelbench[:1,2,3].")],
    store_path: Annotated[Path, typer.Option("--store", help="SQLite store (created or resumed).")],
    model: Model,
    base_url: BaseUrl = None,
    api_key: ApiKey = None,
    provider: ProviderOpt = Provider.OPENAI,
    adapter: Adapter = None,
    run_id: Annotated[Optional[str], typer.Option(help="Resume this run (default: a new run).")] = None,
    samples: Annotated[int, typer.Option(min=1, help="Episodes per task.")] = 1,
    concurrency: Concurrency = 4,
    backend: BackendOpt = None,
    device: DeviceOpt = None,
    policy: PolicyOpt = Policy.STRICT,
    max_repair: MaxRepair = 4,
    max_optimize: MaxOptimize = 2,
    temperature: Temperature = 0.7,
    top_p: TopP = 0.95,
    max_tokens: MaxTokens = 8192,
    max_total_tokens: MaxTotalTokens = None,
    max_wall: MaxWall = None,
    timing: TimingOpt = True,
    compile_baseline: CompileOpt = True,
    profile: ProfileOpt = True,
    request_timeout: RequestTimeout = 600.0,
    retries: Retries = 4,
    extra_body: ExtraBody = None,
    enable_thinking: EnableThinking = None,
    workers: Workers = None,
    lanes_per_gpu: LanesPerGpu = 1,
    executor: ExecutorOpt = ExecutorKind.LOCAL,
    ray_address: RayAddress = None,
    kernelbench: KernelBenchDir = None,
    scale: ScaleOpt = Scale.FULL,
) -> None:
    """Many episodes, committed turn by turn to a store; rerun with --run-id to resume.

    Ctrl-C stops cleanly: the turns in flight finish and are committed, queued episodes are
    cancelled, and the command exits 130 (a second Ctrl-C quits at once)."""
    from ..data import Store, StoreError
    from ..scale import generate as run_generate

    new_store(store_path)
    check_executor(executor, ray_address)
    try:
        task_list = scaled(load_task_set(tasks, kernelbench), scale)
    except TaskError as e:
        task_error(e, False)
    loop = LoopOptions(device, backend, policy, max_repair, max_optimize, timing, compile_baseline, max_total_tokens,
                       max_wall, profile)
    lane_options(loop.device, lanes_per_gpu)  # refused before an endpoint or a model is touched
    cfg = loop.episode_config()
    llm = LLMOptions(provider, model, base_url, api_key, adapter, temperature, top_p, max_tokens, request_timeout,
                     retries, extra_body, enable_thinking).build(concurrency=concurrency)
    ex = make_executor(executor, loop.device, workers, ray_address, lanes_per_gpu)
    if executor == ExecutorKind.RAY:
        hosts = {a.get("host") for a in ex.actors()}
        out.print(f"ray: {len(ex.actors())} verification actor(s) ({loop.device}) on {len(hosts)} host(s)", highlight=False)
    try:
        store = Store(store_path)
    except StoreError as e:
        ex.close()
        fail(str(e))
    total = len(task_list) * samples
    with store, ex, RunProgress(out, total=total) as prog, stop_on_ctrl_c(prog) as stop:
        try:
            rid = run_generate(task_list, llm, None, store, cfg, run_id=run_id, samples=samples,
                               concurrency=concurrency, task_set=tasks, on_turn=prog.on_turn,
                               on_episode=prog.on_episode, executor=ex, stop=stop)
        except (StoreError, ValueError) as e:
            fail(str(e))
        if not stop.is_set():
            prog.prog.update(prog.bars["episodes"], completed=total)  # episodes finished before count as done
        summary = store.summary(rid)
    table = Table("run", "episodes", "correct", "turns", show_header=True, header_style="bold")
    table.add_row(rid, str(summary.get("episodes")), str(summary.get("correct")), str(summary.get("turns")))
    out.print(table)
    out.print(json.dumps(summary, default=str), highlight=False)
    if stop.is_set():
        err.print(f"stopped: every turn made was committed; rerun with --run-id {rid} to resume", highlight=False)
        raise typer.Exit(INTERRUPTED)
    failed = (summary.get("by_status") or {}).get("failed", 0)
    if failed:
        err.print(f"[bold red]{failed} episode(s) failed[/]; rerun with --run-id {rid} to retry them", highlight=False)
        raise typer.Exit(1)


def bench(
    store_path: Annotated[Path, typer.Option("--store", help="SQLite store for the run (created, or resumed by a rerun).")],
    model: Model,
    kernelbench: KernelBenchDir = None,
    levels: Annotated[str, typer.Option(help="Comma-separated KernelBench levels.")] = "1,2,3",
    problems: Annotated[Optional[str], typer.Option(help="Problem ids within each level, e.g. 1-20,25 (default: all).")] = None,
    mode: Annotated[str, typer.Option(help="single (one implement turn per sample) | agent (implement, repair, optimize).")] = "agent",
    samples: Annotated[int, typer.Option(min=1, help="Samples per problem (pass@k needs k).")] = 1,
    turns: Annotated[str, typer.Option(help="agent mode: R,O = repair and optimize turns at most.")] = "4,2",
    baselines: Annotated[str, typer.Option(help="measure (eager + torch.compile here, cached) | kernelbench (stored timings) | none.")] = "measure",
    stored_hardware: Annotated[str, typer.Option(help="--baselines kernelbench: which stored timings.")] = "H100_Modal",
    warm_lanes: Annotated[Optional[int], typer.Option(min=0, help="Parallel torch.compile warm-up processes before baselines are timed (default 4 on a GPU, 0 on the CPU).")] = None,
    timing_runs: Annotated[int, typer.Option(min=1, help="Timed calls per variant (candidate, eager, torch.compile).")] = 30,
    compile_baseline: CompileOpt = True,
    run_id: Annotated[Optional[str], typer.Option(help="Run id (default: bench-MODE-MODEL, so a rerun resumes).")] = None,
    base_url: BaseUrl = None,
    api_key: ApiKey = None,
    provider: ProviderOpt = Provider.OPENAI,
    adapter: Adapter = None,
    concurrency: Concurrency = 4,
    backend: BackendOpt = None,
    device: DeviceOpt = None,
    policy: PolicyOpt = Policy.STRICT,
    temperature: Temperature = 0.7,
    top_p: TopP = 0.95,
    max_tokens: MaxTokens = 8192,
    max_total_tokens: MaxTotalTokens = None,
    max_wall: MaxWall = None,
    request_timeout: RequestTimeout = 600.0,
    retries: Retries = 4,
    extra_body: ExtraBody = None,
    enable_thinking: EnableThinking = None,
    workers: Workers = None,
    lanes_per_gpu: LanesPerGpu = 1,
    executor: ExecutorOpt = ExecutorKind.LOCAL,
    ray_address: RayAddress = None,
    shape_variants: Annotated[bool, typer.Option("--shape-variants/--no-shape-variants", help="Also check candidates on other input shapes; off to compare with KernelBench's own protocol, which checks one shape.")] = True,
    protocol: Annotated[Protocol, typer.Option(help="kernelbench: after the episodes, also judge every turn by KernelBench's evaluator (docs/bench.md) and report both scores; the episodes run on the project's verdicts.")] = Protocol.KERNELMOSAIC,
) -> None:
    """KernelBench: baselines, then every problem x sample; rerun the same command to resume."""
    from ..bench.baselines import SOURCES
    from ..bench.run import MODES, BenchConfig, parse_levels, parse_problems, parse_turns, select_tasks
    from ..data import StoreError
    from ..verify import TimingConfig
    from .bench import bench_with_progress

    if mode not in MODES:
        fail(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    if baselines not in SOURCES:
        fail(f"--baselines must be one of {', '.join(SOURCES)}, not {baselines!r}")
    new_store(store_path)
    check_executor(executor, ray_address)
    try:
        lv, ids, (rep, opt) = parse_levels(levels), parse_problems(problems), parse_turns(turns)
    except ValueError as e:
        fail(str(e))
    try:
        task_list = select_tasks(kernelbench, lv, ids)
    except TaskError as e:
        task_error(e, False)
    loop = LoopOptions(device, backend, policy, rep, opt, True, compile_baseline, max_total_tokens, max_wall)
    device, backend = loop.resolve()
    vopts = lane_options(device, lanes_per_gpu)  # refused before an endpoint or a model is touched
    llm = LLMOptions(provider, model, base_url, api_key, adapter, temperature, top_p, max_tokens, request_timeout,
                     retries, extra_body, enable_thinking).build(concurrency=concurrency)
    cfg = BenchConfig(mode=mode, samples=samples, max_repair=rep, max_optimize=opt, backend=backend, policy=str(policy),
                      baselines=baselines, stored_hardware=stored_hardware, concurrency=concurrency,
                      warm_lanes=(4 if device == "cuda" else 0) if warm_lanes is None else warm_lanes,
                      timing=TimingConfig(n=timing_runs, compile=compile_baseline), max_tokens=max_total_tokens,
                      max_wall_s=max_wall, shape_variants=shape_variants, protocol=str(protocol))
    # the local path keeps its own verifier, which also times the baselines ahead of the episodes
    ex = make_executor(executor, device, workers, ray_address, lanes_per_gpu) if executor != ExecutorKind.LOCAL or ray_address else None
    try:
        _, failed, stopped = bench_with_progress(task_list, llm, cfg, store_path, device=device, workers=workers,
                                                 verifier_options=vopts,
                                                 kernelbench_dir=kernelbench, run_id=run_id,
                                                 task_set=f"kernelbench:{levels}", console=out, executor=ex)
    except (StoreError, ValueError) as e:
        fail(str(e))
    except TaskError as e:
        task_error(e, False)
    if stopped:
        err.print("stopped: every turn made was committed; rerun the same command to resume", highlight=False)
        raise typer.Exit(INTERRUPTED)
    if failed:
        err.print(f"[bold red]{failed} episode(s) failed[/]; rerun the same command to retry them", highlight=False)
        raise typer.Exit(1)


def serve_scripted(
    script: Annotated[Path, typer.Argument(metavar="REPLIES.json", help="JSON: {task key or \"*\": [reply, reply, ...]}; each task's replies are served in order (the last one repeats).")],
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free port).")] = 8000,
    delay: Annotated[float, typer.Option(min=0.0, help="Seconds to wait before each reply (to watch the loop).")] = 0.0,
) -> None:
    """An OpenAI-compatible endpoint that serves scripted replies: try solve/generate without a model.

    Prints the base URL to pass as --base-url; Ctrl-C stops it."""
    from ..agent.scripted_server import ScriptedServer

    if script.is_dir() or not script.is_file():
        fail(f"{script}: " + ("is a directory, not a script file" if script.is_dir() else "no such file"))
    try:
        scripts = json.loads(script.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        fail(f"{script}: not JSON ({e})")
    if not isinstance(scripts, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and v and all(isinstance(r, str) for r in v)
            for k, v in scripts.items()):
        fail(f"{script}: expected an object mapping task keys (or \"*\") to non-empty lists of reply strings")
    try:
        srv = ScriptedServer(scripts, delay_s=delay, host=host, port=port)
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror}")
    with srv:
        # flushed at once: a script or test waiting for the URL reads this line
        print(f"serving scripted replies at {srv.base_url} (tasks: {', '.join(scripts)}); Ctrl-C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            err.print(f"stopped after {len(srv.requests)} request(s)", highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(solve)
    app.command()(generate)
    app.command()(bench)
    app.command("serve-scripted")(serve_scripted)
