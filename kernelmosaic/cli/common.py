"""What every command shares: the consoles, one way to fail, the choices as enums, the option
groups, and the checks on paths that a user types.

The option groups are ``Annotated`` aliases: a command lists the groups it takes in one line
each, and the name, default, range and help of an option are written here once (``solve``,
``generate`` and ``bench`` used to repeat about 20 options each, and their copies drifted).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from rich.console import Console

from ..vocab import Backend, Policy, Protocol, StrEnum

out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)

USAGE_ERROR = 2
INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped with Ctrl-C


def ctrl_c_stops() -> None:
    """Let Ctrl-C (SIGINT) raise KeyboardInterrupt, which ``main`` turns into exit 130, in every
    command. A process started in the background by a non-interactive shell (`cmd &` in a script)
    inherits SIGINT ignored, and Python then leaves it ignored: `kill -INT` would not stop a
    server such as serve-scripted or tasks review --web."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)


def fail(msg: str) -> NoReturn:
    """One line on stderr and exit 2. The message is printed as it is: rich markup would eat
    anything in brackets, such as the extra in ``pip install 'kernelmosaic[data]'``."""
    err.print("[bold red]error:[/] ", end="")
    err.print(msg, markup=False, highlight=False)
    raise typer.Exit(USAGE_ERROR)


def missing_extra(what: str, extra: str, e: ImportError) -> NoReturn:
    """An ImportError as an install hint that names the module that is missing."""
    name = getattr(e, "name", None) or str(e)
    fail(f"{what} needs the {name!r} module: pip install 'kernelmosaic[{extra}]' ({e})")


# -- choices ---------------------------------------------------------------------------------------
# Enums, so that --help lists the values and a typo is refused before anything starts. The
# values come from the module that owns each rule set (vocab, export, bench).
class Device(StrEnum):
    CUDA = "cuda"
    CPU = "cpu"


class Provider(StrEnum):
    OPENAI = "openai"
    TRANSFORMERS = "transformers"


class ExecutorKind(StrEnum):
    LOCAL = "local"
    RAY = "ray"


def _choices(name: str, values: tuple[str, ...]) -> type[StrEnum]:
    return StrEnum(name, {v.upper(): v for v in values})  # type: ignore[return-value]


def view_enum():
    from ..data.export import VIEWS

    return _choices("View", VIEWS)


# -- validated numbers -------------------------------------------------------------------------------
def positive(value):
    """A callback for options that must be > 0 when given (a timeout of 0 s means nothing)."""
    if value is not None and value <= 0:
        raise typer.BadParameter(f"must be greater than 0, not {value}")
    return value


# -- option groups --------------------------------------------------------------------------------------
TaskSpec = Annotated[str, typer.Argument(metavar="TASK", help="Task file (KernelBench format) or L<level>/<id>.")]
KernelBenchDir = Annotated[Optional[str], typer.Option(envvar="KERNELBENCH_DIR", help="KernelBench directory for L<level>/<id> (or $KERNELBENCH_DIR).")]
BackendOpt = Annotated[Optional[Backend], typer.Option(help="Default: cuda on a GPU, cpp on the CPU.")]
DeviceOpt = Annotated[Optional[Device], typer.Option(help="Default: cuda when a GPU is present.")]
PolicyOpt = Annotated[Policy, typer.Option(help="The rule set: strict (all compute in the candidate's kernels) | kernelbench (a custom kernel must run).")]
ProtocolOpt = Annotated[Protocol, typer.Option(help="Which checks make the verdict: kernelmosaic (the project's) | kernelbench (KernelBench's evaluator: its trials, seeds, tolerances and mean time, no rules or other shapes; docs/bench.md lists every difference).")]
TimingOpt = Annotated[bool, typer.Option("--timing/--no-timing", help="Time candidate, eager and torch.compile.")]
CompileOpt = Annotated[bool, typer.Option("--compile-baseline/--no-compile-baseline", help="Also time torch.compile(Model).")]
ProfileOpt = Annotated[bool, typer.Option("--profile/--no-profile", help="Nsight Compute metrics in the feedback of correct kernels on optimize turns (GPU; see docs/agent.md).")]
MaxRepair = Annotated[int, typer.Option(min=0, help="Repair turns at most.")]
MaxOptimize = Annotated[int, typer.Option(min=0, help="Optimization turns at most.")]
MaxTotalTokens = Annotated[Optional[int], typer.Option(min=1, help="Token budget for the whole episode.")]
MaxWall = Annotated[Optional[float], typer.Option(callback=positive, help="Wall-time budget for the episode, seconds.")]
Concurrency = Annotated[int, typer.Option(min=1, help="Episodes in flight (and LLM requests in flight).")]
Workers = Annotated[Optional[int], typer.Option(min=1, help="Verifier lanes, or Ray verification actors (default: one per GPU, or one per CPU core).")]
LanesPerGpu = Annotated[int, typer.Option("--lanes-per-gpu", min=1, help="Judges sharing each GPU (default 1): their builds and checks overlap, and each timed loop still has the GPU alone (docs/verification.md).")]
ExecutorOpt = Annotated[ExecutorKind, typer.Option("--executor", help="local (this machine) | ray (a Ray cluster; see docs/scale.md).")]
RayAddress = Annotated[Optional[str], typer.Option(help="Join this Ray cluster (auto, or HOST:PORT) instead of starting a local one.")]

# the LLM that writes the candidates
Model = Annotated[str, typer.Option("--model", "-m", help="Model name at the endpoint, or a local path with --provider transformers.")]
BaseUrl = Annotated[Optional[str], typer.Option(envvar="OPENAI_BASE_URL", help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1.")]
ApiKey = Annotated[Optional[str], typer.Option(envvar="OPENAI_API_KEY", help="API key (local servers accept any).")]
ProviderOpt = Annotated[Provider, typer.Option(help="openai (any OpenAI-compatible endpoint: vLLM, SGLang, hosted) | transformers (a local model path or hub id).")]
Adapter = Annotated[Optional[str], typer.Option(help="LoRA adapter path (transformers provider).")]
Temperature = Annotated[float, typer.Option(min=0.0, help="Sampling temperature.")]
TopP = Annotated[float, typer.Option(min=0.0, max=1.0, help="Nucleus sampling mass.")]
MaxTokens = Annotated[int, typer.Option(min=1, help="Completion tokens per reply.")]
RequestTimeout = Annotated[float, typer.Option(callback=positive, help="Seconds per LLM request.")]
Retries = Annotated[int, typer.Option(min=0, help="Retries on 429/5xx and connection errors, with backoff.")]
ExtraBody = Annotated[Optional[str], typer.Option("--extra-body", metavar="JSON", help="A JSON object merged into every request's body (openai provider), e.g. '{\"top_k\": 20}' for vLLM's sampling fields.")]
EnableThinking = Annotated[Optional[bool], typer.Option("--enable-thinking/--disable-thinking", help="Turn a reasoning model's thinking on or off: chat_template_kwargs.enable_thinking in the request (vLLM, SGLang), or the local chat template's switch. Default: the template's own. Thinking the endpoint returns (reasoning_content) is stored with each turn.")]


@dataclass
class LLMOptions:
    provider: str
    model: str
    base_url: str | None
    api_key: str | None
    adapter: str | None
    temperature: float
    top_p: float
    max_tokens: int
    request_timeout: float
    retries: int
    extra_body: str | None = None  # JSON text, as typed
    enable_thinking: bool | None = None

    def body(self) -> dict | None:
        """--extra-body as a dict; exit 2 unless it is a JSON object."""
        import json

        if self.extra_body is None:
            return None
        try:
            body = json.loads(self.extra_body)
        except ValueError as e:
            fail(f"--extra-body is not JSON ({e}): {self.extra_body[:200]}")
        if not isinstance(body, dict):
            fail(f"--extra-body must be a JSON object, not {type(body).__name__}: {self.extra_body[:200]}")
        return body

    def build(self, concurrency: int):
        """The LLM; exit 2 with the reason when it cannot be made (no endpoint, no model)."""
        from ..agent import SamplingConfig, make_llm

        body = self.body()
        try:
            return make_llm(self.provider, self.model, base_url=self.base_url, api_key=self.api_key,
                            adapter=self.adapter, concurrency=concurrency, timeout_s=self.request_timeout,
                            retries=self.retries, extra_body=body, enable_thinking=self.enable_thinking,
                            sampling=SamplingConfig(temperature=self.temperature, top_p=self.top_p,
                                                    max_tokens=self.max_tokens))
        except ValueError as e:
            fail(str(e))
        except ImportError as e:
            missing_extra(f"--provider {self.provider}", "train", e)
        except OSError as e:
            fail(f"cannot load the model {self.model!r}: {e}")


@dataclass
class LoopOptions:
    """How episodes run: where candidates are verified, under which rules, with which budgets."""

    device: str | None
    backend: str | None
    policy: str
    max_repair: int
    max_optimize: int
    timing: bool = True
    compile_baseline: bool = True
    max_total_tokens: int | None = None
    max_wall: float | None = None
    profile: bool = True

    def resolve(self) -> tuple[str, str]:
        """(device, backend), checked against each other; exit 2 on a pair that cannot run."""
        try:
            self.device, self.backend = device_backend(self.device, self.backend)
        except ValueError as e:
            fail(str(e))
        return self.device, self.backend

    def episode_config(self):
        from ..agent import EpisodeConfig
        from ..verify import TimingConfig

        device, backend = self.resolve()
        return EpisodeConfig(backend=backend, policy=str(self.policy), max_repair=self.max_repair,
                             max_optimize=self.max_optimize, max_tokens=self.max_total_tokens,
                             max_wall_s=self.max_wall, profile=self.profile,
                             timing=TimingConfig(enabled=self.timing, compile=self.compile_baseline))


def auto_device() -> str:
    from ..verify.pool import detect_gpus

    return "cuda" if detect_gpus() else "cpu"


def device_backend(device: str | None, backend: str | None) -> tuple[str, str]:
    """The device (default: cuda when a GPU is present) and a backend that runs on it; ValueError
    with the message for the user otherwise. Shared by every command that verifies."""
    from ..vocab import BACKENDS

    device = str(device) if device else auto_device()
    if device not in ("cuda", "cpu"):
        raise ValueError(f"--device must be cuda or cpu, not {device!r}")
    backend = str(backend) if backend else ("cuda" if device == "cuda" else "cpp")
    if backend not in BACKENDS:
        raise ValueError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend in ("cuda", "nvrtc") and device == "cpu":
        raise ValueError(f"the {backend} backend needs --device cuda (use cpp or triton on the CPU)")
    if backend == "cpp" and device == "cuda":
        raise ValueError("the cpp backend runs on the CPU: use --device cpu")
    return device, backend


def read_source(path: Path) -> str:
    """A candidate file's text; ValueError saying what is wrong with it otherwise."""
    if path.is_dir():
        raise ValueError(f"{path}: is a directory, not a file")
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None


# -- paths ----------------------------------------------------------------------------------------------
def existing_store(path: Path) -> Path:
    """A store to read; exit 2 unless ``path`` is a SQLite file. Never creates anything: opening
    a missing or empty file as a store would turn it into an empty database."""
    from ..data.store import StoreError, require_store

    try:
        return require_store(path)
    except StoreError as e:
        fail(str(e))


def new_store(path: Path) -> Path:
    """A store to create or resume: a directory, or a file that is not SQLite, is refused."""
    if path.is_dir():
        fail(f"{path}: is a directory; --store takes a file (e.g. run.db)")
    if path.exists() and path.stat().st_size:
        existing_store(path)
    return path


def out_folder(path: Path, option: str = "--out") -> Path:
    """A folder to write into; exit 2 when the path names an existing file."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path}: is an existing file; give a folder")
    return path


def out_file(path: Path, option: str = "--out") -> Path:
    if path.is_dir():
        fail(f"{option} {path}: is a directory; give a file name")
    return path


def lane_options(device: str, lanes_per_gpu: int, on_cpu: str = "on the CPU the lanes are cores, set with --workers") -> dict:
    """The verifier's options for ``--lanes-per-gpu``; exit 2 with --device cpu, where the lanes
    are CPU cores and --workers sets them (``on_cpu``: what the command does there instead)."""
    if lanes_per_gpu == 1:
        return {}
    if str(device) != "cuda":
        fail(f"--lanes-per-gpu is for --device cuda; {on_cpu}")
    return {"lanes_per_gpu": lanes_per_gpu}
