"""The project's one vocabulary: verdict statuses, backends, policies (rule sets), rules, phases,
turn stages and episode statuses.

Every package imports these names from here (layer 1: stdlib only), so a status or a rule is
spelled in one place. The members are ``str`` subclasses: they compare equal to, hash like and
serialise as their plain values, so records written before these enums existed still read.
"""

from __future__ import annotations

import enum

try:  # Python 3.11+
    from enum import StrEnum
except ImportError:  # pragma: no cover - Python 3.10

    class StrEnum(str, enum.Enum):  # type: ignore[no-redef]
        def __str__(self) -> str:
            return str(self.value)


class Status(StrEnum):
    CORRECT = "correct"
    INCORRECT = "incorrect"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    REJECTED = "rejected"
    INVALID_CANDIDATE = "invalid_candidate"
    # the verifier's own failure (its worker lost, its own out-of-memory, a full disk, a candidate
    # process that could not start): no verdict on the candidate, which is never charged for it
    INFRA_ERROR = "infra_error"


class Backend(StrEnum):
    CUDA = "cuda"
    NVRTC = "nvrtc"
    TRITON = "triton"
    CPP = "cpp"


class Policy(StrEnum):
    """The anti-hacking rule set (not the LLM that writes candidates)."""

    STRICT = "strict"
    KERNELBENCH = "kernelbench"


class Protocol(StrEnum):
    """How a verdict is reached: the project's own checks, or KernelBench's evaluator's semantics
    (verify/protocols.py lists every difference)."""

    KERNELMOSAIC = "kernelmosaic"
    KERNELBENCH = "kernelbench"


class Stage(StrEnum):
    """The kind of an episode's turn."""

    IMPLEMENT = "implement"
    REPAIR = "repair"
    OPTIMIZE = "optimize"


class EpisodeStatus(StrEnum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Phase(StrEnum):
    STARTUP = "startup"
    COMPILE = "compile"
    LOAD = "load"
    CHECK = "check"
    TIME = "time"


class Rule(StrEnum):
    """Why a candidate was rejected. Static rules come from the AST screen, the others from
    what the judge saw of a run."""

    TORCH_COMPILE = "torch_compile"
    THREADS_OR_PROCESSES = "threads_or_processes"
    EXIT_OR_SIGNAL = "exit_or_signal"
    PATCHING = "patching"
    INTROSPECTION = "introspection"
    IO = "io"
    BROAD_EXCEPT = "broad_except"
    TRY_IN_FORWARD = "try_in_forward"
    HIDDEN_STATE = "hidden_state"
    HOOKS = "hooks"
    TORCH_COMPUTE = "torch_compute"
    LIBRARY_COMPUTE = "library_compute"
    NO_CUSTOM_KERNEL = "no_custom_kernel"
    NO_KERNEL_LAUNCHED = "no_kernel_launched"
    UNSYNCHRONIZED_OUTPUT = "unsynchronized_output"
    TENSOR_SUBCLASS = "tensor_subclass"
    RETURNS_INPUT = "returns_input"
    WRITES_INPUTS = "writes_inputs"
    BELOW_SPEED_OF_LIGHT = "below_speed_of_light"
    BUILD_FLAGS = "build_flags"
    PROTOCOL = "protocol"


STATUSES: tuple[str, ...] = tuple(s.value for s in Status)
BACKENDS: tuple[str, ...] = tuple(b.value for b in Backend)
POLICIES: tuple[str, ...] = tuple(p.value for p in Policy)
PROTOCOLS: tuple[str, ...] = tuple(p.value for p in Protocol)
RULES: tuple[str, ...] = tuple(r.value for r in Rule)
STAGES: tuple[str, ...] = tuple(s.value for s in Stage)
EPISODE_STATUSES: tuple[str, ...] = tuple(s.value for s in EpisodeStatus)
# statuses a repair turn can fix (the others end or restart an episode); infra_error is not among
# them: the candidate did not cause it and cannot fix it
FIXABLE: tuple[str, ...] = tuple(s.value for s in (Status.COMPILE_ERROR, Status.RUNTIME_ERROR, Status.INCORRECT, Status.TIMEOUT))

# statuses that are no verdict on the candidate: its turn is verified again, never fed back as an
# error to repair, never exported as training data, and counted apart in benchmarks
NOT_A_VERDICT: tuple[str, ...] = (Status.INFRA_ERROR.value,)
