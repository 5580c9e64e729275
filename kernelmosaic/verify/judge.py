"""The judge: makes the inputs, runs the reference, compares, holds the clock and writes the verdict.

A judge process (``worker.py``) runs no candidate code. It starts the candidate in a sandboxed
process of its own (``candidate.py`` under ``sandbox.py``) and talks to it over one socket:

    judge (this module)                              candidate process (sandboxed)
      inputs, reference, reference outputs             imports the candidate; builds through
      comparison, clock, verdict                       the judge's builder; calls ModelNew
           │  shared input/output buffers (memfd / CUDA IPC), "call" ─►
           │  ◄─ "done" + what forward returned (shapes, dtypes), as JSON
      the judge copies the output into its own memory, stops its clock, then checks that copy

Time is the judge's host clock around the whole round trip, ending only when the judge holds a
private copy of the output: work the candidate finishes late is either inside the interval or
missing from the copy, which then fails the check. Every timed call's copy is checked. The cost
of an empty round trip, measured before any candidate code is loaded, is taken off every time,
and baselines are timed through the same channel by a process that never ran candidate code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
import importlib.util
import random
from dataclasses import asdict
from pathlib import Path

import torch

from . import libs, precision, protocols, quiet, sandbox, streams
from ..task import sha256_file
from . import builder
from .builder import BuildRefused, BuildRequest, private_path, toolchain_paths
from .channel import SharedBuffer, dtype_name
from . import infra
from .compare import (SAMPLE_ABOVE, all_finite, clone, compare, default_tolerances, flatten, max_abs_diff, same, within,
                      within_sample)
from .logs import trim_log
from .machine import cpu_name
from .procs import CandidateProcess, JobFailed, TaskProblem, _exc_text, protected_paths
from .rules import dynamic_rejections
from .spec import BASELINE_ATTEMPTS, BASELINE_MAX_SPREAD, BASELINE_PROVENANCE as PROVENANCE, JobSpec
from .timing import SOL_MARGIN, Flusher, cv, excess_at, spread
from .variants import JUDGE_MODES, choose_variant, output_problem, size_sites

# TimingConfig.spin_wait: how long either side polls for the other's message before sleeping
SPIN_MS = 200.0
CALIBRATION_CALLS = 15
# the GPU waits (ms) of the long empty calls (calibrate_waits), and how many of each
LONG_CALL_WAITS_MS = (1.0, 3.0, 9.0)
LONG_CALL_CALLS = 8
# the most a long call's extra may plausibly be, as (share of the wait, ms): more than that is
# noise (another process's start stole the CPU), and the point is dropped. The largest extra
# measured on the H200 was 0.75 ms after 9.4 ms of work (results/2026-12-02c-h200)
LONG_CALL_PLAUSIBLE = (0.1, 0.3)
# of the timed calls whose outputs are checked on a sample of elements (outputs over
# compare.SAMPLE_ABOVE elements), this share, drawn unpredictably, is checked in full
FULL_CHECK_SHARE = 1 / 8


def _exec_module(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


# -- slots: the buffers of one call shape -------------------------------------------------------------------
class Slot:
    """Shared input and output buffers for one layout of inputs and outputs."""

    def __init__(self, name: str, inputs: list, outputs: list, device: torch.device):
        self.name = name
        self.ins = [SharedBuffer(t.shape, t.dtype, device) if isinstance(t, torch.Tensor) else None for t in inputs]
        self.outs = [SharedBuffer(t.shape, t.dtype, device) if isinstance(t, torch.Tensor) else None for t in flatten(outputs)]
        self.values = {str(i): v for i, v in enumerate(inputs) if not isinstance(v, torch.Tensor)}
        self.private = [None if b is None else torch.empty_like(b.tensor) for b in self.outs]
        self.layout = _layout(inputs, outputs)
        self.bound: dict[int, CandidateProcess] = {}  # the processes that have mapped these buffers

    def bind_message(self) -> tuple[dict, list[int]]:
        fds = [b.fd for b in self.ins + self.outs if b is not None and b.fd is not None]
        return ({"op": "bind", "slot": self.name, "inputs": [None if b is None else b.desc() for b in self.ins],
                 "outputs": [None if b is None else b.desc() for b in self.outs], "values": self.values}, fds)

    def fill(self, inputs: list) -> None:
        for b, t in zip(self.ins, inputs):
            if b is not None:
                b.tensor.copy_(t)

    def poison(self) -> None:
        for b in self.outs:
            if b is not None:
                b.raw.fill_(0xFF)  # NaN in every float format: an unwritten output cannot pass

    def inputs_view(self) -> list:
        return [b.tensor if b is not None else self.values[str(i)] for i, b in enumerate(self.ins)]

    def close(self) -> None:
        for b in self.ins + self.outs:
            if b is not None:
                b.close()


class TimingSets:
    """The timing seeds' inputs and the reference's answers for them, by index. Sets that fit a
    budget (a quarter of the GPU's memory, at most half of what is free; 1 GiB on the CPU) are
    made once and kept. Larger ones (a KernelBench task's inputs can be 8 GiB, and its output as
    much) are made again when their turn comes, off the clock, one at a time, so that the GPU's
    memory is left to the candidate.

    Making a set costs the inputs, a copy of them and a reference forward, and the timed calls
    take the sets in turn, so a set too large to keep is made again for every call (on an H100,
    L1/47's timing phase took 1.2 s in one run and 7.5-8.1 s in another, results/2026-12-07g-h100:
    likely this, not yet measured part by part; ``diagnostics`` now says). So where every set's
    *answer* fits the budget (KernelBench's L1/47 reduces 8 GiB of input to 2 MiB) the answers
    are kept (``answers``) and only the inputs are made again, from their seed, for each turn.
    Made again from a seed, they must be the inputs the answer was computed on: a sample of each
    is kept (``_sample``) and compared, and a task whose ``get_inputs()`` gives other values for
    the same seed (Python's or NumPy's generator, say) falls back to making whole sets, answers
    included. Only where the answers are small beside the inputs (at most a quarter of one set's):
    an elementwise task's answers are as large as its inputs, and kept they take the room its
    baselines and candidate need."""

    KEEP_BYTES = 1 << 30
    SAMPLE = 257  # elements kept per input tensor to recognise it when it is made again

    def __init__(self, judge: "Judge", mod, ref, seeds: list[int]):
        self.judge, self.mod, self.ref, self.seeds = judge, mod, ref, list(seeds)
        self.made = 0  # inputs made, the first ones included (diagnostics: what not keeping them cost)
        first = self._make(0)
        self.size = nbytes(first)
        self.in_bytes = nbytes(first[0])
        self.keep = self.fits(judge, self.size * len(self.seeds))
        # a tensor nested in a non-tensor input (a list of tensors) is not sampled: whole sets then
        flat_inputs = all(isinstance(x, torch.Tensor) or not any(isinstance(t, torch.Tensor) for t in flatten([x]))
                          for x in first[0])
        # every set's answer and one set's inputs: what the answers-kept mode holds
        answers = (self.size - self.in_bytes) * len(self.seeds)
        self.answers_bytes = self.in_bytes + answers
        # only where the answers are small beside the inputs (a reduction): an elementwise task's
        # answers are as large as its inputs, and keeping them held the memory its baselines
        # needed (KernelBench's L1/19 on an H100: 12 GiB of answers, and the eager baseline out
        # of memory in the judge, results/2026-12-07i-h100), to save one reference forward a turn
        self.answers_only = (not self.keep and flat_inputs and answers <= self.in_bytes // 4
                             and self.fits(judge, self.answers_bytes))
        self.held: dict[int, tuple] = {0: first}
        self.answers: dict[int, tuple] = {}  # answers_only: each set's answer and its inputs' sample
        if self.keep:
            for j in range(1, len(self.seeds)):
                self.held[j] = self._make(j)

    @classmethod
    def budget(cls, device: torch.device, share: float = 1.0) -> int:
        """A quarter of the judge's share of the GPU (its lane's, where lanes share it), at most
        half of what is free."""
        if device.type != "cuda":
            return cls.KEEP_BYTES
        free, total = torch.cuda.mem_get_info(device)
        return max(cls.KEEP_BYTES, min(int(total * share) // 4, free // 2))

    @classmethod
    def fits(cls, judge: "Judge", nbytes: int) -> bool:
        """Whether the judge may keep this many bytes of cases (timing sets, trial cases) made
        ahead of their turn, rather than make each again when it comes."""
        return nbytes <= cls.budget(judge.device, judge.gpu_share)

    @property
    def bytes_in_use(self) -> int:
        """What the sets hold while the timing uses them: every set, or every answer and one set's
        inputs, or one set (the candidate's budget counts it as the judge's)."""
        if self.answers_only:
            return self.answers_bytes
        return self.size * (len(self.seeds) if self.keep else 1)

    def release(self) -> None:
        """Drop what is held if it is large (before the trials, where a set too large to keep
        would take the room of the trial cases and the candidate; before the shape variants,
        which need room of their own); the sets are made again, from the same seeds, when they
        are next asked for."""
        if self.size * len(self.held) > self.KEEP_BYTES or (self.answers and self.bytes_in_use > self.KEEP_BYTES):
            self.held.clear()
            self.answers.clear()

    def _make_inputs(self, j: int) -> list:
        self.made += 1
        return self.judge.make_inputs(self.mod, self.seeds[j])

    def _answer(self, inputs):
        try:
            with torch.no_grad():
                answer = self.ref(*clone(inputs))
            self.judge.sync()
        except BaseException as e:  # noqa: BLE001
            raise (self.judge.own_failure(e, "the reference forward (timing inputs)")
                   or TaskProblem(f"the reference forward raised {type(e).__name__}: {e}\n{_exc_text(e)}")) from None
        return answer

    def _make(self, j: int) -> tuple:
        inputs = self._make_inputs(j)
        return inputs, self._answer(inputs)

    def _sample(self, inputs) -> list:
        """A fixed sample of each input tensor (its first, last and evenly spaced elements, on
        the CPU), and non-tensor inputs as they are."""
        out = []
        for x in inputs:
            if isinstance(x, torch.Tensor):
                n = x.numel()
                if n == 0 or x.dim() == 0:
                    out.append((tuple(x.shape), x.dtype, x.detach().reshape(-1).cpu()))
                    continue
                # gathered by index, not through a flattened view: an input that is not contiguous
                # would be copied whole to flatten it. float64: exact indices past 2**24 elements
                idx = torch.linspace(0, n - 1, min(self.SAMPLE, n), dtype=torch.float64, device=x.device).long()
                out.append((tuple(x.shape), x.dtype, x.detach()[torch.unravel_index(idx, x.shape)].cpu()))
            else:
                out.append(x)
        return out

    @staticmethod
    def _same_sample(a: list, b: list) -> bool:
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if isinstance(x, tuple) and isinstance(y, tuple) and len(x) == 3 and isinstance(x[2], torch.Tensor):
                if x[:2] != y[:2] or not torch.equal(x[2], y[2]):
                    return False
            else:  # a non-tensor input (tensors are sampled into tuples, none is nested: flat_inputs)
                try:
                    if bool(x != y):
                        return False
                except Exception:  # noqa: BLE001 - an object that cannot say: not the same, to be safe
                    return False
        return True

    def _answers_for_all(self) -> None:
        """Every set's answer and its inputs' sample, one set's inputs alive at a time."""
        for j in range(len(self.seeds)):
            self.held.clear()  # the last set's inputs go before these are made: one set's at a time
            inputs, answer = self._make(j)
            self.answers[j] = (answer, self._sample(inputs))
            self.held = {j: (inputs, answer)}
            del inputs, answer

    def __len__(self) -> int:
        return len(self.seeds)

    def __getitem__(self, j: int) -> tuple:
        if j in self.held:
            return self.held[j]
        if self.answers_only:
            if not self.answers:
                self._answers_for_all()
                if j in self.held:
                    return self.held[j]
            self.held.clear()  # drop the other set's inputs before making these
            inputs = self._make_inputs(j)
            answer, sample = self.answers[j]
            if self._same_sample(self._sample(inputs), sample):
                self.held[j] = (inputs, answer)
                return self.held[j]
            # other inputs from the same seed: the kept answer is not theirs. Whole sets from now on
            self.judge.notes.append("the timing inputs made again from their seed differed from the first ones "
                                    "(get_inputs() draws from a generator other than torch's?): the timing made "
                                    "whole sets, answers included, for each turn")
            self.answers_only = False
            self.answers.clear()
            self.held[j] = (inputs, self._answer(inputs))
            return self.held[j]
        self.held.clear()  # drop the other set before making this one
        # sets that fit the budget are all made again at once: the timed calls take them in
        # turn, and making one per call (a reference forward each) cost seconds a verdict
        for k in range(len(self.seeds)) if self.keep else (j,):
            self.held[k] = self._make(k)
        return self.held[j]


def nbytes(tree) -> int:
    """The bytes of the tensors in a (nested) case: inputs, outputs or both."""
    return sum(t.numel() * t.element_size() for t in flatten(tree) if isinstance(t, torch.Tensor))


def steady(b: dict) -> bool:
    """Every spread measured is within the limit, and other programs left the machine quiet while
    they were timed: the only baselines that may be cached."""
    return quiet.is_quiet(b.get("foreign_cores")) is not False and all(b.get(k) is None or b[k] <= BASELINE_MAX_SPREAD for k in ("eager_spread", "compile_spread"))


def load_per_core() -> float | None:
    """The 1-minute load average over the cores this process may use: a baseline's conditions."""
    try:
        return round(os.getloadavg()[0] / max(1, len(os.sched_getaffinity(0))), 3)
    except (OSError, AttributeError):
        return None


def _layout(inputs, outputs) -> tuple:
    def one(x):
        return (tuple(x.shape), str(x.dtype)) if isinstance(x, torch.Tensor) else ("value", repr(x))

    return tuple(one(x) for x in inputs), tuple(one(x) for x in flatten(outputs))


# -- the judge ---------------------------------------------------------------------------------------------------
class Judge:
    def __init__(self, spec: JobSpec, emit=None, cand: CandidateProcess | None = None, workdir: str | None = None,
                 ref_proc: CandidateProcess | None = None, dying: list[CandidateProcess] | None = None):
        self.spec = spec
        # the last job's candidate processes, killed after its verdict was sent but maybe not yet
        # gone (worker.main): reaped by ``settle`` before this job measures the GPU's memory or
        # times anything, so their teardown overlaps only this job's untimed start
        self.dying = list(dying or [])
        self.close_parts: dict[str, float] = {}  # how long close() took, by part (worker diagnostics)
        # a started reference process that never ran candidate code, for the baselines: taken (and
        # set to None) when used; the caller keeps it otherwise
        self.ref_proc = ref_proc
        self.emit = emit
        self.device = torch.device(spec.device)
        self.is_cuda = self.device.type == "cuda"
        # this job's share of the GPU: its lane's (the pool sets KMOSAIC_GPU_SHARE where lanes
        # share a GPU), or the whole GPU's for a job that runs alone there (spec.gpu_share)
        try:
            self.gpu_share = float(spec.gpu_share or os.environ.get("KMOSAIC_GPU_SHARE") or 1.0)
        except ValueError:
            self.gpu_share = 1.0
        # other lanes' judges work on this GPU at once (KMOSAIC_GPU_LANES, set by the pool), and this
        # job was not given the GPU to itself: an out-of-memory here may be theirs, and a verdict's
        # memory must not depend on how many lanes there are, so none is charged to the candidate;
        # it is the verifier's (infra_error), and the pool runs the job again alone (pool.GpuGate)
        # CPU lanes given one lock file (KMOSAIC_GPU_LOCK) stand in for a GPU's lanes: the tests'
        # only way to reach this rule without a GPU. The pool sets KMOSAIC_GPU_LANES on GPU lanes
        # alone, so on the CPU nothing but a test that sets both variables is affected
        stand_in = not self.is_cuda and quiet.lock_path(spec.device) is not None
        self.shared_gpu = (self.is_cuda or stand_in) and spec.gpu_share is None and _int_env("KMOSAIC_GPU_LANES", 1) > 1
        self._cand_bytes: int | None = None  # the candidate's GPU memory after its trials (GpuGate.learn)
        # how this job's protocol judges (protocols.Semantics: the project's own, or KernelBench's
        # evaluator's seeds, weights, inputs and tolerances, with no rules and no extra checks)
        self.sem = protocols.semantics(spec.protocol)
        self.phases: dict[str, float] = {}
        self.notes: list[str] = []
        # the shape variants tried (variants.py): each mode, what it changed, what the reference refused
        self.shape_variants: list[dict] = []
        self.rejections: list[dict] = []
        self.compiled = False
        self.tolerances: dict[str, float] = {}
        self.tolerances0: dict[str, float] | None = None  # the task's own, before any widening (reference_rounding)
        self._own_workdir = workdir is None
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="kmosaic-judge-"))
        self.cand = cand
        self.slots: dict[str, Slot] = {}
        self.isolation: dict | None = None
        self._toolchain: str | None = None
        self.build_s = 0.0
        self.diag: dict[str, list[dict]] = {}  # TimingConfig.diagnostics: the parts of each timed call
        self.diag_phase = ""
        self.diag_overheads: dict[str, dict] = {}
        self.diag_setup: dict[str, float] = {}  # the setup phase's parts, in seconds
        self.diag_time: dict[str, float] = {}  # the time phase's parts, in seconds (diagnostics)
        self._setup_t = time.perf_counter()
        self.fastest_null: dict[int, float] = {}
        # per process: (GPU wait ms, extra ms over an empty call) points, from calibrate_waits
        self.long_calls: dict[int, list[tuple[float, float]]] = {}
        self.long_call_ms: dict[str, float] = {}  # what was taken off, by kind of call
        self._cpu0: tuple | None = None  # quiet.cpu_sample when the candidate's timing phase began
        self.sets: TimingSets | None = None
        self._sample_gen: torch.Generator | None = None
        self._rng = random.SystemRandom()  # which timed calls get a full check
        # no process start works on this GPU while the judge times on it (quiet.py)
        self.quiet = quiet.Quiet(spec.device)
        # where other lanes' judges share this GPU, the GPU is this judge's alone for each timed call
        # (the poison, the cache flush, the call and the copy of its output), not for the whole
        # loop: refilling the inputs and checking the output between calls is the judge's own GPU
        # work, done beside the other lanes' checks (shared), so a loop over multi-GiB inputs no
        # longer holds the GPU from them for seconds. KMOSAIC_QUIET_SCOPE=loop holds it for the
        # loop, as with one lane (where a process start could otherwise slip in between calls);
        # =call takes it per call anywhere (tests; a lane of one)
        scope = os.environ.get("KMOSAIC_QUIET_SCOPE", "")
        self.quiet_per_call = scope == "call" or (self.shared_gpu and scope != "loop")
        self.precision: precision.Precision | None = None  # the float64 oracle's findings (precision.py)
        self._last_out: list | None = None  # the judge's private copies of the last checked call's outputs
        self._null_made = False  # the candidate process holds the empty calls' copy of the outputs (harness_bytes)

    def phase(self, name: str) -> None:
        if self.emit:
            self.emit({"event": "phase", "phase": name})

    def sync(self) -> None:
        if self.is_cuda:
            torch.cuda.synchronize(self.device)

    # -- environment ---------------------------------------------------------------------------------------
    def env_info(self) -> dict:
        info = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": None, "driver": None,
                "python": sys.version.split()[0]}
        if self.is_cuda:
            info["gpu"] = torch.cuda.get_device_name(self.device)
            cap = torch.cuda.get_device_capability(self.device)
            info["arch"] = f"{cap[0]}.{cap[1]}"
            info["driver"] = _driver_version()
        else:
            info["cpu"] = cpu_name()
        return info

    # -- the reference (trusted task code, run here) --------------------------------------------------------
    def load_reference(self, source: str, tag: str = "reference"):
        path = self.workdir / f"{tag}.py"
        path.write_text(source)
        try:
            mod = _exec_module(path, f"kmosaic_{tag}_{os.getpid()}")
        except BaseException as e:  # noqa: BLE001 - a broken task must not take the judge down
            raise TaskProblem(f"the reference failed to import: {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        for name in ("Model", "get_inputs", "get_init_inputs"):
            if not hasattr(mod, name):
                raise TaskProblem(f"the reference defines no `{name}`")
        return mod

    def init_inputs(self, mod) -> list:
        try:
            if self.sem.weights_seed is not None:
                torch.manual_seed(self.sem.weights_seed)
            init = mod.get_init_inputs()
        except BaseException as e:  # noqa: BLE001
            raise TaskProblem(f"get_init_inputs() raised {type(e).__name__}: {e}\n{_exc_text(e)}") from None
        if not isinstance(init, (list, tuple)):
            raise TaskProblem(f"get_init_inputs() must return a list, got {type(init).__name__}")
        return list(init)

    def build_reference(self, mod, init):
        try:
            # cpu_made: built on the CPU (KernelBench's, after seed 42), then moved
            with contextlib.nullcontext() if self.sem.cpu_made else torch.device(self.device):
                torch.manual_seed(self.weights_seed())
                ref = mod.Model(*clone(init))
        except BaseException as e:  # noqa: BLE001
            raise (self.own_failure(e, "building the reference Model")
                   or TaskProblem(f"Model(*get_init_inputs()) raised {type(e).__name__}: {e}\n{_exc_text(e)}")) from None
        return ref.to(self.device) if isinstance(ref, torch.nn.Module) else ref

    def make_inputs(self, mod, seed: int) -> list:
        try:
            # KernelBench's get_inputs() makes its tensors where the task says (the CPU, mostly),
            # from the CPU generator, and then moves them: other values than made on the GPU
            with contextlib.nullcontext() if self.sem.cpu_made else torch.device(self.device):
                torch.manual_seed(seed)
                inputs = mod.get_inputs()
        except BaseException as e:  # noqa: BLE001
            raise (self.own_failure(e, "making the inputs (get_inputs)")
                   or TaskProblem(f"get_inputs() raised {type(e).__name__}: {e}\n{_exc_text(e)}")) from None
        if not isinstance(inputs, (list, tuple)):
            raise TaskProblem(f"get_inputs() must return a list, got {type(inputs).__name__}")
        return [x.to(self.device) if isinstance(x, torch.Tensor) and x.device != self.device else x for x in inputs]

    def reference_case(self, mod, ref, seed: int):
        inputs = self.make_inputs(mod, seed)
        try:
            with torch.no_grad(), self.quiet.busy():  # off the GPU while another lane times on it
                out = ref(*clone(inputs))
                self.sync()
        except BaseException as e:  # noqa: BLE001
            raise (self.own_failure(e, "the reference forward")
                   or TaskProblem(f"the reference forward raised {type(e).__name__}: {e}\n{_exc_text(e)}")) from None
        return inputs, out

    # -- builds, asked for by the candidate process -----------------------------------------------------------
    def toolchain(self) -> str:
        if self._toolchain is None:
            parts = [torch.__version__, str(torch.version.cuda), os.environ.get("TORCH_CUDA_ARCH_LIST", ""), sys.version]
            for cc in (os.environ.get("CC", "gcc"), os.environ.get("CXX", "g++")):
                try:
                    parts.append(subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0])
                except (OSError, subprocess.TimeoutExpired):
                    parts.append(cc)
            self._toolchain = "\0".join(parts)
        return self._toolchain

    def on_build(self, raw) -> tuple[dict, list[int]]:
        t0 = time.perf_counter()
        try:
            return self._build(raw)
        finally:
            self.build_s += time.perf_counter() - t0

    def _build(self, raw) -> tuple[dict, list[int]]:
        try:
            req = BuildRequest.from_reply(raw)
            req.validate()
        except BuildRefused as e:
            self.rejections.append({"rule": "build_flags", "detail": str(e)})
            return {"ok": False, "message": f"the verifier refused this build: {e}"}, []
        key = req.key(self.toolchain())
        root = Path(self.spec.build_dir) / "artifacts"
        objects = Path(self.spec.build_dir) / "objects"  # compiled files by content (builder.ObjectCache)
        pch = Path(self.spec.build_dir) / "pch"  # the binding's precompiled header (builder.PchCache)
        use_pch = req.tool == "load_inline" and os.environ.get("KMOSAIC_BUILD_PCH", "1") != "0"
        art = root / key
        found = self._cached_artifact(art)
        if found is None:
            root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix="kmosaic-build-"))
            os.chmod(staging, 0o755)
            claim = None
            try:
                (staging / "request.json").write_text(json.dumps(req.__dict__))
                (staging / builder.TOOLCHAIN_FILE).write_text(self.toolchain())
                if use_pch:
                    claim = self._claim_pch(req, pch)
                    if claim is not None:
                        (staging / builder.PCH_CLAIM_FILE).write_text(claim.name)
                cfg = sandbox.SandboxConfig(workdir=str(staging), execute=toolchain_paths(), devices=False,
                                            readonly=protected_paths(self.spec.build_dir, staging))
                env = dict(sandbox.without_credentials(os.environ), HOME=str(staging), TMPDIR=str(staging),
                           PATH=private_path(staging / ".bin") + os.pathsep + str(Path(sys.executable).parent))
                log = staging / "builder.log"
                with open(log, "wb") as lf:
                    try:
                        subprocess.run(sandbox.command(cfg, [sys.executable, "-m", "kernelmosaic.verify.builder",
                                                             str(staging / "request.json"), str(staging), str(objects),
                                                             str(pch) if use_pch else ""]),
                                       stdin=subprocess.DEVNULL, stdout=lf, stderr=subprocess.STDOUT, env=env,
                                       timeout=900, close_fds=True)
                    except subprocess.TimeoutExpired:
                        return {"ok": False, "message": "the build did not finish within 900 s"}, []
                infra.check_room(staging)  # a build that failed on a full disk is the verifier's (infra_error)
                if req.tool == "load_inline":
                    self._note_build_steps(staging)
                # before the candidate's own result: a header made here holds none of its code
                if use_pch and publish_pch(staging, pch):
                    self.notes.append("main.cpp was compiled with the precompiled torch/extension.h (the same flags and toolchain)")
                try:
                    result = json.loads((staging / "result.json").read_text())
                except (OSError, ValueError):
                    tail = log.read_text(errors="replace")[-3000:]
                    return {"ok": False, "message": "Error building extension: the builder stopped", "log": tail}, []
                if not result.get("ok"):
                    if result.get("refused"):
                        self.rejections.append({"rule": "build_flags", "detail": result["refused"]})
                        return {"ok": False, "message": f"the verifier refused this build: {result['refused']}"}, []
                    msg = str(result.get("error", "the build failed")).replace(str(staging) + "/", "")
                    return {"ok": False, "message": "Error building extension: the kernel source did not compile",
                            "log": trim_log(msg)}, []
                built = Path(result["path"])
                self._publish_objects(staging, objects)
                # publish: hash it, then move a complete folder into place in one rename
                tmp = root / f".{key}.{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                tmp.mkdir()
                shutil.copy2(built, tmp / req.artifact_name())
                digest = sha256_file(tmp / req.artifact_name())
                (tmp / "manifest.json").write_text(json.dumps({"file": req.artifact_name(), "sha256": digest,
                                                               "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))
                for p in (tmp, *tmp.iterdir()):
                    os.chmod(p, 0o755 if p.is_dir() else 0o644)
                if art.exists() and self._cached_artifact(art) is None:
                    # a library that fails its hash is never loaded: move it aside and replace it
                    bad = root / f".{key}.bad.{os.getpid()}"
                    try:
                        os.rename(art, bad)
                        shutil.rmtree(bad, ignore_errors=True)
                    except OSError:
                        pass
                try:
                    os.rename(tmp, art)
                except OSError:  # another judge published the same key first: use theirs
                    shutil.rmtree(tmp, ignore_errors=True)
                found = self._cached_artifact(art)
                if found is None:
                    return {"ok": False, "message": "the built library could not be stored"}, []
            finally:
                if claim is not None:
                    claim.unlink(missing_ok=True)
                shutil.rmtree(staging, ignore_errors=True)
        path, digest = found
        if self.spec.policy == "strict":  # the symbols the loader will bind, in the library the judge built
            detail = libs.build_rejection(path)
            if detail:
                self.rejections.append({"rule": "library_compute", "detail": detail})
                return {"ok": False, "message": f"the verifier refused this build: {detail}"}, []
        return {"ok": True, "sha256": digest}, [os.open(path, os.O_RDONLY | os.O_CLOEXEC)]

    def _publish_objects(self, staging: Path, root: Path) -> None:
        """Store the object files the builder listed as reusable (builder.ObjectCache), each hashed,
        in a folder moved into place in one rename. Only the judge writes this cache; a listing it
        cannot read is skipped (the build stands, nothing is stored)."""
        try:
            listing = json.loads((staging / builder.OBJECTS_FILE).read_text())
            entries = listing.get("objects") or []
            if listing.get("reused"):
                self.notes.append(f"the build reused {len(listing['reused'])} compiled file(s) of earlier builds "
                                  "(the same source, command and toolchain)")
        except (OSError, ValueError, AttributeError):
            return
        for e in entries[:16]:
            try:
                key, obj, deps = e["key"], e["object"], e["deps"]
                if not (isinstance(key, str) and re.fullmatch(r"[0-9a-f]{64}", key) and isinstance(obj, str)
                        and isinstance(deps, list) and all(isinstance(d, list) and len(d) == 3 for d in deps)):
                    continue
                src = (staging / obj).resolve()
                if staging.resolve() not in src.parents or not src.is_file():
                    continue
                if (root / key).exists():
                    if self._stored_object_ok(root / key):
                        continue
                    # one that fails its hash is never used: moved aside, and replaced below
                    bad = root / f".{key}.bad.{os.getpid()}"
                    try:
                        os.rename(root / key, bad)
                        shutil.rmtree(bad, ignore_errors=True)
                    except OSError:
                        continue
                root.mkdir(parents=True, exist_ok=True)
                tmp = root / f".{key}.{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                tmp.mkdir()
                shutil.copyfile(src, tmp / "object.o")
                (tmp / "manifest.json").write_text(json.dumps({"sha256": sha256_file(tmp / "object.o"), "deps": deps}))
                for q in (tmp, *tmp.iterdir()):
                    os.chmod(q, 0o755 if q.is_dir() else 0o644)
                try:
                    os.rename(tmp, root / key)
                except OSError:  # another judge stored it first
                    shutil.rmtree(tmp, ignore_errors=True)
            except (OSError, KeyError, TypeError):
                continue

    def _note_build_steps(self, staging: Path) -> None:
        """Where a load_inline build's time went (builder.STEPS_FILE), as a note: main.cpp (the
        binding; where this build made the precompiled header, main.cpp's time includes it),
        cuda.cu (the kernels), the link."""
        try:
            steps = json.loads((staging / builder.STEPS_FILE).read_text())
            made = steps.pop("pch", None)
            names = {"main.o": "main.cpp", "cuda.cuda.o": "cuda.cu"}
            parts = [f"{names.get(k, 'link' if str(k).endswith('.so') else str(k)[:40])} {float(v):.1f}"
                     + (f" (of which making the precompiled header {float(made):.1f})" if k == "main.o" and made else "")
                     for k, v in sorted(steps.items(), key=lambda kv: kv[0] != "main.o")[:8]]
        except (OSError, ValueError, AttributeError, TypeError):
            return
        if parts:
            self.notes.append("build steps (s): " + ", ".join(parts))

    def _claim_pch(self, req: BuildRequest, root: Path) -> Path | None:
        """Let this build make the precompiled header for its flags, unless another build is making
        it now: a cold batch of builds would otherwise each make the same header (36 s and 786 MB on
        the CPU machine). The claim is a file only judges write; one older than builder.PCH_CLAIM_STALE_S is
        a build that died, and is taken over."""
        h = hashlib.sha256(self.toolchain().encode())
        h.update(json.dumps([req.extra_cflags, req.extra_include_paths, req.with_cuda, bool(req.cuda_sources)]).encode())
        claim = root / f".claim-{h.hexdigest()[:32]}"
        try:
            root.mkdir(parents=True, exist_ok=True)
            try:
                if time.time() - claim.stat().st_mtime > builder.PCH_CLAIM_STALE_S:
                    claim.unlink(missing_ok=True)
            except FileNotFoundError:
                pass
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            return claim
        except OSError:
            return None

    @staticmethod
    def _stored_object_ok(entry: Path) -> bool:
        try:
            return sha256_file(entry / "object.o") == json.loads((entry / "manifest.json").read_text())["sha256"]
        except (OSError, ValueError, KeyError, TypeError):
            return False

    @staticmethod
    def _cached_artifact(art: Path) -> tuple[Path, str] | None:
        try:
            m = json.loads((art / "manifest.json").read_text())
            path = art / m["file"]
            if sha256_file(path) == m["sha256"]:
                return path, m["sha256"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None

    # -- the candidate's side of things -------------------------------------------------------------------------
    def start_candidate(self, timeout: float = 300.0) -> None:
        if self.cand is None:
            self.cand = CandidateProcess(self.spec.device, self.spec.build_dir)
        age = time.monotonic() - self.cand.spawned
        try:
            ready = self.cand.wait_ready(timeout)
        except JobFailed as f:
            if f.status == "infra_error":
                raise
            # no candidate code is in it yet: whatever stopped it is the verifier's
            raise JobFailed("infra_error", "candidate_start", f"the candidate process did not start: {f.error['message']}",
                            f.error.get("log", ""), infra=True, fatal=True) from None
        if self.spec.timing.diagnostics:
            # a slow setup: a process started too late (its age), or one whose own start was slow
            self.diag_setup["candidate_age_at_start_s"] = round(age, 3)
            self.diag_setup["candidate_startup_s"] = ready.get("startup_s")
            self.diag_setup.update({f"candidate_{k}": v for k, v in (ready.get("startup_parts") or {}).items()})
        # how the process came to be is part of what stood between it and the judge (zygote.py)
        how = {"starter": "forked by the judge's process starter, which holds no job's data",
               "exec": "started as a fresh interpreter"}[self.cand.started_by]
        self.isolation = {"layers": ready["sandbox"], "processes": f"judge and candidate in separate processes; the candidate {how}"}
        # what it has mapped before any candidate code is loaded (libs.py, read by the judge)
        self.libs_before = libs.mapped_files(libs.process_pid(self.cand))

    def slot(self, name: str, inputs: list, outputs, proc: CandidateProcess | None = None) -> Slot:
        """The slot ``name`` for this layout, bound in ``proc``. One set of buffers serves every
        process and phase with that layout: a KernelBench task's inputs can be 6 GiB."""
        proc = proc or self.cand
        s = self.slots.get(name)
        if s is None or s.layout != _layout(inputs, outputs):
            if s is not None:
                s.close()
            s = self.slots[name] = Slot(name, inputs, outputs, self.device)
            self.sync()
        if id(proc) not in s.bound:
            msg, fds = s.bind_message()
            reply = proc.request(msg, fds, what="binding buffers")
            if reply.get("event") != "bound":
                raise JobFailed("runtime_error", "protocol", f"the candidate process could not map the buffers: {reply.get('message')}",
                                str(reply.get("log", "")))
            s.bound[id(proc)] = proc
        return s

    def trim_cache(self) -> None:
        """Before a checked call: give the GPU back what the judge's allocator keeps cached beyond
        what it has allocated, where that is large. The reference forwards of a large task (a
        temporary per op, a clone of the inputs, the second trial's case made and dropped) leave
        as much cached as they used, and the driver counts it as the judge's: on KernelBench's
        L1/36 (7 GiB tensors), with one lane on an 80 GB H100, the verifier's processes held
        58-64 GiB by NVML while the judge's tensors come to about 35 GiB (read from the code), and
        the candidate's own 14.6 GiB no longer fit (results/2026-12-07g-h100)."""
        if not self.is_cuda:
            return
        cached = torch.cuda.memory_reserved(self.device) - torch.cuda.memory_allocated(self.device)
        if cached > TimingSets.KEEP_BYTES:
            torch.cuda.empty_cache()

    def drop_slot(self, name: str) -> None:
        """Free a slot's buffers: each process that mapped them lets go first (and returns its own
        cached blocks), then the judge frees them and its own cache. A KernelBench task's check
        slot holds three times its output and once its inputs; a shape variant needs as much again."""
        s = self.slots.pop(name, None)
        if s is None:
            return
        for proc in s.bound.values():
            if proc.alive():
                proc.request({"op": "unbind", "slot": name}, what="releasing buffers")
        s.close()
        if self.is_cuda:
            self.sync()
            torch.cuda.empty_cache()

    def weights_seed(self) -> int:
        """The seed Model and ModelNew are built after: the protocol's, or the first trial's."""
        w = self.sem.weights_seed
        return w if w is not None else (self.spec.seeds[0] if self.spec.seeds else 0)

    def load(self, proc: CandidateProcess, source: str, class_name: str, init, params: dict | None, *,
             compile_model: bool = False, import_only: bool = False) -> dict:
        msg = {"op": "load", "source": source, "file": "candidate.py" if class_name == "ModelNew" else "reference.py",
               "module": f"kmosaic_{'candidate' if class_name == 'ModelNew' else 'reference'}", "class_name": class_name,
               "seed": self.weights_seed(), "init": init, "params": params, "cpu_init": self.sem.cpu_made,
               "compile": compile_model, "import_only": import_only}
        return proc.request(msg, on_build=self.on_build, what="loading")

    def load_with_params(self, proc: CandidateProcess, ref, init) -> dict:
        """Load ModelNew with the reference's parameters and buffers beside it, in shared buffers
        (a pickle of a large model's weights would cost seconds, and gigabytes twice)."""
        shared: dict[str, SharedBuffer] = {}
        try:
            if isinstance(ref, torch.nn.Module) and self.sem.copy_params:
                for n, t in list(ref.named_parameters()) + list(ref.named_buffers()):
                    if t.device.type == self.device.type and t.numel():
                        b = shared[n] = SharedBuffer(t.shape, t.dtype, self.device)
                        b.tensor.copy_(t.detach())
                self.sync()
            msg = {"op": "load", "source": self.spec.candidate, "file": "candidate.py", "module": "kmosaic_candidate",
                   "class_name": "ModelNew", "seed": self.weights_seed(), "init": init, "compile": False,
                   "import_only": False, "params": {n: b.desc() for n, b in shared.items()},
                   "cpu_init": self.sem.cpu_made, **self.budget_message()}
            return proc.request(msg, [b.fd for b in shared.values() if b.fd is not None], on_build=self.on_build,
                                what="loading")
        finally:
            for b in shared.values():
                b.close()

    def budget_message(self) -> dict:
        """The candidate's GPU memory budget as a fraction of the device, for the advisory cap it
        sets before loading its code (``torch.cuda.set_per_process_memory_fraction``). The budget
        counts the process's CUDA context, which that cap (its allocator's) does not: the cap is
        looser than the budget by that much, and the judge's own measurement decides."""
        mark = getattr(self, "_mem0", None)
        if mark is None or not getattr(self, "gpu_budget", None):
            return {}
        return {"gpu_fraction": self.gpu_budget / mark["total"]}

    def call(self, s: Slot, mode: str, what: str, proc: CandidateProcess | None = None, wait_ms: float = 0.0) -> dict:
        msg = {"op": "call", "slot": s.name, "mode": mode, "what": what}
        if self.sem.device_sync:
            msg["device_sync"] = True  # KernelBench synchronises the device before it compares
        if wait_ms:
            msg["wait_ms"] = wait_ms
        if self.spec.timing.diagnostics and mode in ("timed", "null"):
            msg["diag"] = True
        if mode in ("timed", "null"):  # inside a timing loop, which holds the GPU alone
            if self.spec.timing.spin_wait and self.is_cuda:
                msg["spin_ms"] = SPIN_MS
                return (proc or self.cand).request(msg, what=what, spin_s=SPIN_MS / 1e3)
            return (proc or self.cand).request(msg, what=what)
        # a checked call: with other lanes' checks, never during another lane's timed loop
        with self.quiet.busy():
            return (proc or self.cand).request(msg, what=what)

    def fail_from_reply(self, reply: dict) -> None:
        """Turn a candidate process's error reply into the job's failure."""
        if reply.get("event") == "error":
            status = reply.get("status") if reply.get("status") in ("compile_error", "runtime_error", "invalid_candidate") else "runtime_error"
            log = str(reply.get("log") or "")
            if status == "compile_error":
                log = trim_log(log)
            if status == "runtime_error":
                own = self.candidate_oom(reply)
                if own is not None:
                    raise own
            raise JobFailed(status, str(reply.get("kind") or "exception"), str(reply.get("message") or "")[:3000], log,
                            fatal=bool(reply.get("fatal")))
        if reply.get("event") != "done":
            raise JobFailed("rejected", "rule", f"the candidate process sent {reply.get('event')!r} where a result was due",
                            rejection=("protocol", "an unexpected reply"))

    def outputs(self, s: Slot, reply: dict, ref_out, trial: int, copied: bool = False) -> list:
        """The candidate's outputs as the judge holds them (private copies, made here unless a
        timed call already ``copied`` them), after checking what it said."""
        metas = reply.get("outs")
        refs = flatten(ref_out)
        if not isinstance(metas, list):
            raise JobFailed("rejected", "rule", "the candidate process sent no outputs", rejection=("protocol", "no outputs"))
        if len(metas) != len(refs):
            raise JobFailed("incorrect", "mismatch", f"trial {trial}: the reference returns {len(refs)} outputs, the candidate {len(metas)}",
                            mismatch={"reason": f"the reference returns {len(refs)} outputs, the candidate {len(metas)}", "trial": trial})
        got = []
        for k, (m, r, buf, priv) in enumerate(zip(metas, refs, s.outs, s.private)):
            where = f"output {k}: " if len(refs) > 1 else ""
            if not isinstance(m, dict):
                raise JobFailed("rejected", "rule", "malformed output description", rejection=("protocol", "malformed output"))
            if not isinstance(r, torch.Tensor):
                got.append(m.get("value"))
                continue
            if m.get("type") != "tensor":
                reason = f"{where}expected a tensor, got {m.get('cls')}"
                raise JobFailed("incorrect", "mismatch", f"trial {trial}: {reason}", mismatch={"reason": reason, "trial": trial})
            if m.get("cls") not in ("Tensor", "Parameter") and self.sem.rules:  # its values cross all the same
                self.rejections.append({"rule": "tensor_subclass", "detail": f"the output is a {m.get('cls')}, not a plain torch.Tensor"})
                raise JobFailed("rejected", "rule", "the candidate returned a tensor subclass")
            reason = None
            if tuple(m.get("shape") or ()) != tuple(r.shape):
                reason = f"{where}shape {tuple(m.get('shape') or ())} != expected {tuple(r.shape)}"
            elif m.get("dtype") != dtype_name(r.dtype):
                reason = f"{where}dtype {m.get('dtype')} != expected {dtype_name(r.dtype)}"
            elif str(m.get("device", "")).split(":")[0] != self.device.type:
                reason = f"{where}device {m.get('device')} != expected {self.device.type}"
            if reason:
                raise JobFailed("incorrect", "mismatch", f"trial {trial}: {reason}", mismatch={"reason": reason, "trial": trial})
            if not copied:
                priv.copy_(buf.tensor)
            got.append(priv)
        self.sync()
        return got

    def screen(self, reply: dict, when: str) -> None:
        for item in reply.get("integrity") or []:
            if isinstance(item, list) and len(item) == 2 and item[0] in ("patching", "hooks"):
                self.rejections.append({"rule": str(item[0]), "detail": f"{item[1]} ({when})"})
        if self.rejections:
            raise JobFailed("rejected", "rule", f"the candidate tampered with its runtime ({when})")

    # -- correctness ----------------------------------------------------------------------------------------------
    def check_one(self, s: Slot, inputs, ref_out, trial: int, seed: int, what: str):
        # the fill, the call and the comparison: GPU work kept off other lanes' timed loops
        with self.quiet.busy():
            return self._check_one(s, inputs, ref_out, trial, seed, what)

    def _check_one(self, s: Slot, inputs, ref_out, trial: int, seed: int, what: str):
        s.fill(inputs)
        s.poison()
        self.sync()
        self.trim_cache()
        reply = self.call(s, "check", what)
        self.fail_from_reply(reply)
        if self.sem.rules:  # patching its own runtime is no rule of KernelBench's, nor a reach into the judge's
            self.screen(reply, f"after {what}")
        out = self.outputs(s, reply, ref_out, trial)
        self._last_out = out
        if not self.sem.rules:  # KernelBench compares the output and nothing else
            mm = self.mismatch(ref_out, out, trial)
            if mm is not None:
                mm["seed"] = seed
            return mm, reply
        if not same(s.inputs_view(), inputs):
            self.rejections.append({"rule": "writes_inputs", "detail": f"{what}: the candidate modified its input tensors"})
            raise JobFailed("rejected", "rule", "the candidate wrote into its inputs")
        self.check_not_input(reply, out, ref_out, inputs, trial)
        mm = self.mismatch(ref_out, out, trial)
        if mm is not None:
            mm["seed"] = seed
            if reply.get("late"):
                self.rejections.append({"rule": "unsynchronized_output", "detail": "the output is incomplete on the "
                                        "caller's stream when forward returns (work left on a side stream): " + mm["reason"]})
                raise JobFailed("rejected", "rule", "the candidate left its work on a side stream")
            return mm, reply
        return None, reply

    def reference_rounding(self, ref, inputs, ref_out, trial: int, seed: int, mm: dict, what: str | None = None) -> bool:
        """Whether a trial (or a shape variant: ``what``) outside the task-dtype reference's
        tolerance is the reference's own rounding (``precision.reference_rounding``): then it
        passes, and atol and rtol widen for the comparisons with the reference that follow. Asked
        only where the precision check runs, and only of a near miss (finite, within the
        relative-norm bound): a float64 oracle run costs seconds, and a grossly wrong output needs
        no oracle to be wrong."""
        base = self.tolerances0
        if (not self.sem.extra_checks or base is None or base.get("rel_norm") is None or self._last_out is None
                or not precision.enabled(self.spec.precision, self.spec.policy)
                or "NaN/Inf" in mm.get("reason", "") or mm.get("rel_norm_err") is None
                or mm["rel_norm_err"] > base["rel_norm"]):
            return False
        t0 = time.perf_counter()
        with self.quiet.busy():  # the float64 oracle: GPU work, kept off other lanes' timed loops
            factor, detail = precision.reference_rounding(ref, inputs, ref_out, self._last_out, self.device, base)
        self.phases["rounding"] = round(self.phases.get("rounding", 0.0) + time.perf_counter() - t0, 4)  # a part of check
        if factor is None:
            mm["reason"] += f" (not the reference's rounding: {detail})"
            return False
        widened = {**self.tolerances, "atol": max(self.tolerances["atol"], base["atol"] * factor),
                   "rtol": max(self.tolerances["rtol"], base["rtol"] * factor)}
        if compare(ref_out, self._last_out, widened, trial) is not None:
            mm["reason"] += " (within tolerance of the float64 oracle, yet not within the widened tolerance of the reference)"
            return False
        self.tolerances = widened
        self.notes.append(f"{what or f'trial {trial}'} (seed {seed}): {mm['reason']} of the task-dtype reference, but {detail}; atol "
                          f"and rtol x{factor:.3g} ({widened['atol']:.3g}, {widened['rtol']:.3g}) for the comparisons "
                          "with the reference that follow")
        return True

    def mismatch(self, ref_out, out, trial: int, sample: bool = False) -> dict | None:
        """None when the output is right, else what is wrong. The fast check answers for nearly
        every right output (every timed call is checked: it has to be cheap); anything it cannot
        vouch for gets the full comparison and its statistics. With ``sample``, large outputs are
        checked on random elements (``within_sample``)."""
        ok = within_sample(ref_out, out, self.tolerances, self.sample_gen()) if sample else within(ref_out, out, self.tolerances)
        return None if ok else compare(ref_out, out, self.tolerances, trial)

    def sample_gen(self) -> torch.Generator:
        """The judge's own generator for sampled positions, seeded from the OS: nothing the
        candidate saw or chose decides which elements are looked at."""
        if self._sample_gen is None:
            self._sample_gen = torch.Generator(device=self.device)
            self._sample_gen.manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)
        return self._sample_gen

    def check_not_input(self, reply, out, ref_out, inputs, trial: int) -> None:
        """An output that is one of the inputs (the same memory, or the same bits) while the
        reference's output is not: a no-op that passes only because the op is nearly identity."""
        ins = [t for t in inputs if isinstance(t, torch.Tensor)]
        for m, o, r in zip(reply.get("outs") or [], out, flatten(ref_out)):
            if not isinstance(o, torch.Tensor) or not isinstance(r, torch.Tensor) or o.numel() == 0:
                continue
            alias = m.get("alias") if isinstance(m, dict) else None
            for idx, i in enumerate(inputs):
                if not isinstance(i, torch.Tensor) or i.shape != o.shape or i.dtype != o.dtype or same(r, i):
                    continue
                how = "is a view of" if alias == idx else "equals" if same(o, i) else None
                if how is None and o.is_floating_point() and all_finite(o):
                    # a nudged copy (one ulp off the input) also passes a nearly-identity op;
                    # an honest kernel moves as far from the input as the reference does
                    d_ref = max_abs_diff(r, i)
                    d_out = max_abs_diff(o, i)
                    if d_ref > 0 and d_out < 0.1 * d_ref:
                        how = f"stays within {d_out:.3g} of"
                if how:
                    self.rejections.append({"rule": "returns_input", "detail": f"trial {trial}: the output {how} an input, while "
                                            "the reference's output differs from it (a no-op passing on a nearly-identity op, "
                                            "or output memory never written)"})
                    raise JobFailed("rejected", "rule", "the candidate returned its input")
        del ins

    def trials(self, mod, ref) -> None:
        t0 = time.perf_counter()
        seeds = self.spec.seeds
        cases = {0: self.reference_case(mod, ref, seeds[0])}
        # what a shape variant's reference output must still look like (variants.output_problem)
        self.ref_kind = [x.to("meta") if isinstance(x, torch.Tensor) else x for x in flatten(cases[0][1])]
        self.ref_finite = [all_finite(x) if isinstance(x, torch.Tensor) and x.is_floating_point() else True
                           for x in flatten(cases[0][1])]
        t = next((x for x in flatten(cases[0][1]) if isinstance(x, torch.Tensor)), None)
        self.tolerances = default_tolerances(t.dtype if t is not None else torch.float32)
        self.tolerances.update({k: v for k, v in (self.spec.tolerances or {}).items() if v is not None})
        if not self.sem.rel_norm:
            self.tolerances["rel_norm"] = None  # torch.allclose alone
        self.tolerances0 = dict(self.tolerances)
        if len(seeds) >= 2:
            # a task whose output ignores its inputs lets any constant pass: flag it first
            cases[1] = self.reference_case(mod, ref, seeds[1])
            if same(cases[0][1], cases[1][1]):
                raise TaskProblem("the reference output does not change with the inputs (a degenerate task: any constant passes)")
            if not TimingSets.fits(self, nbytes(cases[0]) + nbytes(cases[1])):
                # made again at its turn (a reference forward) rather than held through trial 0
                # beside that trial's case, its buffers and the candidate: the timing sets' rule
                del cases[1]
        # the precision check's trial is drawn by the judge: a kernel cannot be exact on a call it
        # could predict (the first, say) and downcast on the others
        oracle_trial = self._rng.randrange(len(seeds)) if precision.enabled(self.spec.precision, self.spec.policy) else None
        for trial, seed in enumerate(seeds):
            inputs, ref_out = cases.pop(trial) if trial in cases else self.reference_case(mod, ref, seed)
            # every trial's inputs go into the same buffers: the same addresses with new values,
            # so an output cache keyed on data_ptr serves stale answers and fails
            s = self.slot("check", inputs, ref_out)
            mm, _ = self.check_one(s, inputs, ref_out, trial, seed, f"trial {trial}")
            if mm is not None and self.reference_rounding(ref, inputs, ref_out, trial, seed, mm):
                mm = None
            if mm is not None:
                raise JobFailed("incorrect", "mismatch", f"trial {trial} (seed {seed}): {mm['reason']}", mismatch=mm)
            if trial == oracle_trial:
                # judged now, while the judge holds this call's outputs; a failure is raised after
                # the instrumented call, so that a broken rule (a torch cast, say) names the cause
                t_p = time.perf_counter()
                with self.quiet.busy():  # the float64 oracle: GPU work, kept off other lanes' timed loops
                    self.precision = precision.check(ref, inputs, ref_out, self._last_out, self.device, trial=trial, seed=seed)
                self.phases["precision"] = round(time.perf_counter() - t_p, 4)  # a part of check
            self._last_out = None
            del inputs, ref_out
        if not self.sem.extra_checks:
            self.notes.append(f"protocol {self.spec.protocol}: KernelBench's trials, seeds, weights and tolerances; no rules, no "
                              "instrumented call, no other shapes, no precision oracle")
            self.phases["check"] = round(time.perf_counter() - t0, 4)
            return
        # the instrumented call: one more call with the same kind of inputs, observed
        inputs, ref_out = self.reference_case(mod, ref, seeds[0] ^ 0x2545F491)
        s = self.slot("check", inputs, ref_out)
        s.fill(inputs)
        s.poison()
        self.sync()
        self.trim_cache()
        reply = self.call(s, "instrumented", "the instrumented call")
        self.fail_from_reply(reply)
        self.screen(reply, "after the instrumented call")
        for rule, detail in dynamic_rejections(reply.get("instr") or {}, self.spec.policy, self.spec.kernel_names, self.is_cuda):
            self.rejections.append({"rule": rule, "detail": detail})
        if self.is_cuda:
            self.notes.extend(streams.notes((reply.get("instr") or {}).get("streams")))
        if self.spec.policy == "strict":  # vendor libraries loaded, or their kernels run (libs.py)
            for rule, detail in libs.after_call(getattr(self, "libs_before", None), self.cand,
                                                (reply.get("instr") or {}).get("kernels"), self.spec.build_dir,
                                                self.is_cuda, self.notes):
                self.rejections.append({"rule": rule, "detail": detail})
        if self.rejections:
            raise JobFailed("rejected", "rule", "; ".join(r["rule"] for r in self.rejections))
        out = self.outputs(s, reply, ref_out, -1)
        mm = self.mismatch(ref_out, out, -1)
        if mm is not None:
            if reply.get("late"):
                self.rejections.append({"rule": "unsynchronized_output", "detail": "the output is incomplete on the caller's "
                                        "stream when forward returns (work left on a side stream): " + mm["reason"]})
                raise JobFailed("rejected", "rule", "the candidate left its work on a side stream")
            raise JobFailed("incorrect", "mismatch", f"the instrumented call: {mm['reason']}", mismatch=mm)
        if self.precision is not None:
            if self.precision.status == "failed":
                raise JobFailed("incorrect", "precision", f"trial {self.precision.trial} (seed {self.precision.seed}): "
                                f"{self.precision.reason}")
            if self.precision.status == "skipped":
                self.notes.append(f"precision check skipped: {self.precision.reason}")
        if self.spec.shape_variants:
            # room for a variant's buffers (a grown KernelBench shape is over 8 GiB per tensor):
            # what the trials and the timing sets held is freed first, and made again later
            del inputs, ref_out, out
            self.drop_slot("check")
            if self.sets is not None:
                self.sets.release()
            sites = size_sites(self.spec.reference)
            if not sites:
                self.notes.append("no shape variant: no integer in the task sets only an input's size")
            t_v = time.perf_counter()
            for mode in JUDGE_MODES if sites else ():
                self.shape_variant(ref, seeds[-1] ^ 0x9E3779B9, mode, sites)
            self.phases["variants"] = round(time.perf_counter() - t_v, 4)  # a part of check
        else:
            self.notes.append("shape variants off (JobSpec.shape_variants, --no-shape-variants): only the task's own shape was checked")
        self.phases["check"] = round(time.perf_counter() - t0, 4)

    def shape_variant(self, ref, seed: int, mode: str, sites=None) -> None:
        """Run once more with the integers that set the task's input sizes changed (variants.py):
        ``grow`` first (a baked-in size then leaves poisoned elements, a clear mismatch), then
        ``prime`` (odd, prime sizes: a dropped remainder or an assumed alignment shows). The
        reference decides which changes are valid; the verdict lists both."""
        def valid(src):
            vmod = self.load_reference(src, f"reference_{mode}")
            try:
                inputs, out = self.reference_case(vmod, ref, seed)
            except JobFailed as f:
                if f.status == "runtime_error" or (self.shared_gpu and f.status == "infra_error"):
                    # the judge ran out of memory while the candidate held more than its budget:
                    # the candidate's, not a refusal of the shape; or other lanes' jobs held the
                    # memory: the job is judged again alone, where the variant can run (refusing it
                    # would let a baked-in shape through on a shared GPU only)
                    raise
                # otherwise the verifier's own failure on this shape: refused like a shape the task refuses
                raise ValueError(f"the verifier could not run the reference on it: {f.error['message'][:300]}") from None
            problem = output_problem(self.ref_kind, flatten(out), self.ref_finite,
                                     lambda t: not (isinstance(t, torch.Tensor) and t.is_floating_point()) or all_finite(t))
            if problem:
                raise ValueError(problem)
            return inputs, out

        chosen, refused = choose_variant(self.spec.reference, mode, valid, sites, passthrough=(JobFailed,))
        record = {"mode": mode, "applied": chosen is not None, "changed": chosen.changed if chosen else {},
                  "refused": refused, **({"passed": False} if chosen else {})}
        self.shape_variants.append(record)
        if chosen is None:
            self.notes.append(f"shape variant {mode}: not applied, the reference accepts none of its changes")
            return
        changed = chosen.changed
        inputs, ref_out = chosen.case
        del chosen
        what = "shape variant (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")"
        s = self.slot("variant", inputs, ref_out)
        try:
            mm, _ = self.check_one(s, inputs, ref_out, len(self.spec.seeds), seed, what)
            # a near miss on another shape may be the reference's rounding there, as in the trials
            # (issue 20's pilot: L2/14's float64-accumulating GEMV missed 1 of 1280 elements of a
            # grown shape after its trials had passed through this very check)
            if mm is not None and self.reference_rounding(ref, inputs, ref_out, len(self.spec.seeds), seed, mm, what):
                mm = None
            self._last_out = None
            del inputs, ref_out
            self.drop_slot("variant")
        except JobFailed as f:
            hint = " — the kernel does not handle other valid shapes (hard-coded sizes?)"
            if f.status == "runtime_error" and not f.extra.get("fatal") and f.error["kind"] not in ("crash", "infra"):
                raise JobFailed("incorrect", "shape_variant", f"{what}: {f.error['message']}{hint}", f.error.get("log", "")) from None
            if f.status == "incorrect":  # a wrong output shape, say
                mm = dict(f.extra.get("mismatch") or {"reason": f.error["message"]}, shape_variant=changed)
                raise JobFailed("incorrect", "shape_variant", f"{what}: {f.error['message']}{hint}", mismatch=mm) from None
            raise
        if mm is not None:
            mm["shape_variant"] = changed
            raise JobFailed("incorrect", "shape_variant", f"{what}: {mm['reason']} — the kernel does not handle other "
                            "valid shapes (hard-coded sizes?)", mismatch=mm)
        record["passed"] = True
        self.notes.append(f"also correct on a {what}")

    # -- timing ---------------------------------------------------------------------------------------------------------
    def timing_sets(self, mod, ref) -> "TimingSets":
        return TimingSets(self, mod, ref, self.spec.timing_seeds)

    def loop_quiet(self):
        """Around a calibration or timing loop: the GPU exclusive for the whole loop, or nothing
        where each timed call takes it (``quiet_per_call``)."""
        return contextlib.nullcontext() if self.quiet_per_call else self.quiet.exclusive()

    @contextlib.contextmanager
    def off_clock(self):
        """The judge's GPU work between timed calls (refilling inputs, checking an output): beside
        other lanes' checks where each timed call takes the GPU alone (inside a loop's exclusive
        hold, ``busy`` does nothing). It is finished on the GPU before the lock is let go."""
        with self.quiet.busy():
            yield
            if self.quiet_per_call:
                self.sync()

    def timed_call(self, proc: CandidateProcess, s: Slot, mode: str, flush, wait_ms: float = 0.0) -> tuple[float, dict]:
        """One call by the judge's clock: from the request to a private copy of the output in hand."""
        with self.quiet.exclusive():  # held already where the loop holds it
            s.poison()
            flush()
            self.sync()
            t0 = time.perf_counter()
            reply = self.call(s, mode, "a timed call", proc, wait_ms)
            t_reply = time.perf_counter()
            for b, priv in zip(s.outs, s.private):
                if b is not None:
                    priv.copy_(b.tensor)
            self.sync()
            t1 = time.perf_counter()
        if self.spec.timing.diagnostics:
            d = dict(reply.get("diag")) if isinstance(reply.get("diag"), dict) else {}
            marks = [d.pop(k, None) for k in ("t_host0", "t_host1", "t_reply")]
            if all(isinstance(m, float) for m in marks):
                # the round trip's parts, on the one monotonic clock of the host: the judge's request
                # to the candidate's start, the candidate's work after its own measure (the reply),
                # and the reply back to the judge
                d.update(hand_over_ms=(marks[0] - t0) * 1e3, after_host_ms=(marks[2] - marks[1]) * 1e3,
                         way_back_ms=(t_reply - marks[2]) * 1e3)
            key = f"{(proc or self.cand).role}:{mode}{f':wait{wait_ms:g}' if wait_ms else ''}{self.diag_phase}"
            self.diag.setdefault(key, []).append({"round_trip_ms": (t_reply - t0) * 1e3, "copy_ms": (t1 - t_reply) * 1e3,
                                                   **{k: v for k, v in d.items() if isinstance(v, (int, float))}})
        return (t1 - t0) * 1e3, reply

    def setup_mark(self, part: str) -> None:
        """End one part of the setup phase (TimingConfig.diagnostics): which of the reference, the
        wait for the candidate process, the timing sets and the empty calls a slow setup spent on."""
        now = time.perf_counter()
        self.diag_setup[part] = round(now - self._setup_t, 4)
        self._setup_t = now

    def diagnostics(self) -> dict:
        """Medians of each part of the timed calls, by call mode (TimingConfig.diagnostics)."""
        out = {}
        for key, rows in self.diag.items():
            keys = sorted({k for r in rows for k in r})
            out[key] = {k: round(statistics.median([r[k] for r in rows if k in r]), 5) for k in keys}
            out[key]["calls"] = len(rows)
            # stalls that hit some calls only: the medians of the parts then do not add up
            for k in ("round_trip_ms", "hand_over_ms", "candidate_host_ms", "way_back_ms"):
                xs = [r[k] for r in rows if k in r]
                if len(xs) >= 4:
                    out[key][f"{k}_p90"] = round(statistics.quantiles(xs, n=10)[-1], 5)
                    out[key][f"{k}_over_1ms_extra"] = sum(x > min(xs) + 1.0 for x in xs)
            for k in keys:
                if k.startswith("alloc_"):
                    out[key][k] = sum(r.get(k, 0) for r in rows)  # totals, not medians
        return out

    def time_process(self, proc: CandidateProcess, sets: "TimingSets", overhead: float, what: str,
                     flush, check: bool) -> tuple[list[float], int, int]:
        """``n`` timed calls after ``warmup`` untimed ones. The buffers are refilled from the input
        sets in turn between calls (off the clock), so the same address comes back with other values.
        With ``check``, every call's output is compared with the reference's answer: in full, or,
        for outputs over ``SAMPLE_ABOVE`` elements (where a full check costs more than the call),
        on random elements, with an unpredictable ``FULL_CHECK_SHARE`` of the calls in full.
        Returns the times and the counts of calls checked in full and on a sample."""
        cfg = self.spec.timing
        n, warmup = int(cfg.n), int(cfg.warmup)
        s = self.slot("check", *sets[0], proc)
        times: list[float] = []
        checked = sampled = 0
        big = sum(t.numel() for t in flatten(sets[0][1]) if isinstance(t, torch.Tensor)) > SAMPLE_ABOVE
        # where the loop's time goes besides the calls (diagnostics): a set made again, the refill
        # and the check are the judge's own work, and for a large task they cost more than the calls
        part = dict.fromkeys(("sets", "fill", "calls", "check"), 0.0)
        with self.loop_quiet():  # no process start works on this GPU meanwhile
            for i in range(max(warmup, len(sets)) + n):
                j = i % len(sets)
                t_p = time.perf_counter()
                inputs, answer = sets[j]
                t_f = time.perf_counter()
                with self.off_clock():
                    s.fill(inputs)
                t_c = time.perf_counter()
                ms, reply = self.timed_call(proc, s, "timed", flush)
                t_k = time.perf_counter()
                part["sets"] += t_f - t_p
                part["fill"] += t_c - t_f
                part["calls"] += t_k - t_c
                if reply.get("event") != "done":
                    if check:
                        self.fail_from_reply(reply)
                    raise TaskProblem(f"timing the reference ({what}) failed: {reply.get('message')}")
                timed = i >= max(warmup, len(sets))
                if timed:
                    times.append(ms - overhead)
                if check:
                    full = not big or self._rng.random() < FULL_CHECK_SHARE
                    with self.off_clock():
                        out = self.outputs(s, reply, answer, -1, copied=True)
                        mm = self.mismatch(answer, out, -1, sample=not full)
                    if mm is not None:
                        mm["call"] = i
                        raise JobFailed("incorrect", "timing_check", f"the output of timed call {i} is wrong: {mm['reason']} "
                                        "(stale results served, or work finished after forward returned?)", mismatch=mm)
                    checked += int(timed and full)
                    sampled += int(timed and not full)
                    part["check"] += time.perf_counter() - t_k
        for k, v in part.items():
            self.diag_time[f"{proc.role}_{k}"] = round(self.diag_time.get(f"{proc.role}_{k}", 0.0) + v, 4)
        self.diag_time[f"{proc.role}_inputs_made"] = sets.made  # so far, the first sets included
        return times, checked, sampled

    def calibrate(self, proc: CandidateProcess, sets: "TimingSets", flush) -> float:
        """The median cost of an empty call through the channel (buffers, copies, syncs, no
        forward). The fastest empty call seen per process is kept too (``self.fastest_null``): no
        real call can take less than it plus the work."""
        s = self.slot("check", *sets[0], proc)
        with self.off_clock():
            s.fill(sets[0][0])
        ts = []
        with self.loop_quiet():
            for _ in range(CALIBRATION_CALLS + 3):
                ms, reply = self.timed_call(proc, s, "null", flush)
                if reply.get("event") != "done":
                    if proc is self.cand and self.compiled:
                        self.fail_from_reply(reply)  # candidate code is loaded: its failure
                    raise JobFailed("infra_error", "calibration", "the calibration call failed before any candidate code was "
                                    f"loaded: {str(reply.get('message'))[:300]}", infra=True, fatal=True)
                ts.append(ms)
                if proc is self.cand:
                    self._null_made = True
        key = id(proc)
        self.fastest_null[key] = min([*ts[3:], self.fastest_null.get(key, float("inf"))])
        return statistics.median(ts[3:])

    def overhead_after_load(self, proc: CandidateProcess, sets: "TimingSets", before: float, flush) -> float:
        """Calibrate again once the code to time is loaded, and take the smaller of the two.

        The empty call made before loading can read higher than the cost a loaded process pays
        (measured on the H200: 0.53 ms before, 0.46 ms after, for the same process). Once candidate
        code is loaded it could slow the empty calls down to make its own calls look faster, but
        only up to the first calibration, which it could not touch: the minimum is safe."""
        after = self.calibrate(proc, sets, flush)
        if self.spec.timing.diagnostics:
            self.diag_overheads[proc.role] = {"before_load_ms": round(before, 5), "after_load_ms": round(after, 5)}
        return min(before, after)

    def calibrate_waits(self, proc: CandidateProcess, sets: "TimingSets", flush, base: float) -> None:
        """What a long call costs over an empty one, besides its work (GPU only).

        On the H200 a timed call's round trip, the candidate's sync and the judge's copy all took
        longer than an empty call's, by more the longer the call (0.1 ms after 0.3 ms of work, up
        to 0.75 ms after 9 ms; results/2026-12-02c-h200), so the empty-call overhead alone left
        the boundary's times 4-6 % over in-process timing. Here the process makes empty calls that
        first keep the GPU busy for a while (``LONG_CALL_WAITS_MS``): their round trip less that
        wait (by the process's own CUDA events) less the empty call's cost ``base``, the lower
        quartile of ``LONG_CALL_CALLS``, is the extra at that length. It must run before any candidate code is loaded: the process
        is still the verifier's own, so its events can be trusted and nothing can stretch these
        calls to make its later times look shorter."""
        if not (self.is_cuda and self.spec.timing.long_call_calibration):
            return
        s = self.slot("check", *sets[0], proc)
        with self.off_clock():
            s.fill(sets[0][0])
        points = [(0.0, 0.0)]
        with self.loop_quiet():
            for w in LONG_CALL_WAITS_MS:
                waits, extra = [], []
                for i in range(LONG_CALL_CALLS + 1):
                    ms, reply = self.timed_call(proc, s, "null", flush, wait_ms=w)
                    waited = reply.get("wait_ms")
                    if reply.get("event") != "done" or not isinstance(waited, (int, float)):
                        raise JobFailed("infra_error", "calibration", "a long empty call failed before any candidate code was "
                                        f"loaded: {str(reply.get('message'))[:300]}", infra=True, fatal=True)
                    if i:  # the first of each length warms it up
                        waits.append(float(waited))
                        extra.append(ms - float(waited) - base)
                # too much taken off would flatter every time that follows, so the estimate leans
                # low: the lower quartile, and nothing from a length where it is implausibly large
                w_ms, e_ms = statistics.median(waits), statistics.quantiles(extra, n=4)[0]
                share, fixed = LONG_CALL_PLAUSIBLE
                if e_ms > share * w_ms + fixed:
                    self.notes.append(f"the long empty calls of {w_ms:.2f} ms cost {e_ms:.3f} ms more than an empty call: "
                                      "too much to be the channel's (a busy machine?), so not taken off")
                    continue
                points.append((w_ms, e_ms))
        self.long_calls[id(proc)] = points

    def long_call_excess(self, proc: CandidateProcess, ms: float) -> float:
        """The extra a call of ``ms`` pays over an empty call, interpolated between the measured
        lengths (flat past the longest), and never below zero: the empty-call overhead alone is
        what is taken off where the long calls showed nothing more."""
        return excess_at(self.long_calls.get(id(proc)) or [], ms)

    def less_long_call(self, proc: CandidateProcess, times: list[float], what: str) -> list[float]:
        """``times`` less the long-call excess at their median, recorded under ``what``."""
        e = self.long_call_excess(proc, statistics.median(times)) if times else 0.0
        self.long_call_ms[what] = round(e, 5)
        return [t - e for t in times]

    def baselines(self, mod, init, sets, flush, attempts: int = 1) -> dict:
        """Eager and torch.compile times, in a process that never ran candidate code, by the
        same channel and clock as the candidate. ``attempts``: timing runs allowed for a noisy
        one (a verdict makes one: on a busy machine every verdict would otherwise time its
        baselines three times over; a noisy one is not cached, so the next verdict times it again)."""
        cfg = self.spec.timing
        given = self.spec.baselines or {}
        out: dict = {}
        if "eager_ms" in given:
            out.update(eager_ms=given.get("eager_ms"), eager_cv=given.get("eager_cv"))
        if "compile_ms" in given:
            out.update(compile_ms=given.get("compile_ms"), compile_cv=given.get("compile_cv"))
        need_eager = cfg.eager and "eager_ms" not in out
        need_compile = cfg.compile and "compile_ms" not in out
        if not (need_eager or need_compile):
            return out
        proc = self.ref_proc or CandidateProcess(self.spec.device, self.spec.build_dir, role="reference")
        self.ref_proc = None
        try:
            proc.wait_ready(300)
            cpu0 = quiet.cpu_sample(os.getppid())
            overhead = self.calibrate(proc, sets, flush)
            self.calibrate_waits(proc, sets, flush, overhead)
            if need_eager:
                r = self.load(proc, self.spec.reference, "Model", init, None)
                if r.get("event") != "loaded":
                    raise TaskProblem(f"the reference failed to load in the timing process: {r.get('message')}")
                self.diag_phase = ":after_load"
                overhead = self.overhead_after_load(proc, sets, overhead, flush)
                self.diag_phase = ""
                e, sp, k = self.steady_times(proc, sets, overhead, "eager", flush, attempts)
                e = self.less_long_call(proc, e, "eager")
                out.update(eager_ms=self.resolved(self.statistic(e), "eager"), eager_cv=cv(e), eager_spread=sp,
                           attempts=k)
            if need_compile:
                try:
                    r = self.load(proc, self.spec.reference, "Model", init, None, compile_model=True)
                    if r.get("event") != "loaded":
                        raise TaskProblem(str(r.get("message")))
                    c, sp, k = self.steady_times(proc, sets, overhead, "torch.compile", flush, attempts)
                    c = self.less_long_call(proc, c, "compile")
                    out.update(compile_ms=self.resolved(self.statistic(c), "torch.compile"), compile_cv=cv(c),
                               compile_spread=sp, attempts=max(k, out.get("attempts") or 0))
                except (TaskProblem, JobFailed) as t:
                    out["compile_ms"] = None
                    self.notes.append(f"torch.compile baseline failed: {str(t)[:300]}")
            out["overhead_ms"] = overhead
            out["load_per_core"] = load_per_core()
            cond = quiet.conditions(cpu0, quiet.cpu_sample(os.getppid()))
            out["foreign_cores"] = cond["foreign_cores"]
            if cond["quiet"] is False:
                self.notes.append(f"while the baselines were timed, programs other than the verifier kept {cond['foreign_cores']:.2f} "
                                  f"of {cond['cpus']} cores busy: they are reported but not cached")
        finally:
            # its exit (a CUDA context's teardown) is left to the next job's settle, off this verdict
            proc.close(wait=False)
            self.dying.append(proc)
        return out

    def steady_times(self, proc: CandidateProcess, sets: "TimingSets", overhead: float, what: str,
                     flush, attempts: int) -> tuple[list[float], float | None, int]:
        """A baseline's times, timed again while their spread is wider than BASELINE_MAX_SPREAD (up
        to ``attempts`` runs): the run with the least spread, its spread, and the runs made.
        The spread is taken on the raw round trips: after the empty call's cost is taken off, a
        fast kernel's times are mostly that cost's noise."""
        best: tuple[list[float], float | None] | None = None
        k = 0
        for k in range(1, max(1, attempts) + 1):
            t, _, _ = self.time_process(proc, sets, overhead, what, flush, check=False)
            sp = spread([x + overhead for x in t])
            if best is None or (sp is not None and (best[1] is None or sp < best[1])):
                best = (t, sp)
            if sp is None or sp <= BASELINE_MAX_SPREAD:
                break
        if best[1] is not None and best[1] > BASELINE_MAX_SPREAD:
            self.notes.append(f"the {what} baseline stayed noisy over {k} timing run{'s' if k != 1 else ''} (spread {best[1]:.2f}, the limit is "
                              f"{BASELINE_MAX_SPREAD:g}): a busy machine? Its time is reported but not cached")
        return best[0], (None if best[1] is None else round(best[1], 4)), k

    def timing(self, mod, ref, init, overhead: float, sets, flush) -> dict:
        t0 = time.perf_counter()
        self.diag_phase = ":after_load"
        overhead = self.overhead_after_load(self.cand, sets, overhead, flush)
        self.diag_time["calibrate_after_load"] = round(time.perf_counter() - t0, 4)
        self.diag_time["keep_sets"] = sets.keep
        self.diag_phase = ""
        raw_ms, checked, sampled = self.time_process(self.cand, sets, overhead, "candidate", flush, check=self.sem.extra_checks)
        cand_ms = self.less_long_call(self.cand, raw_ms, "candidate")
        cond = quiet.conditions(self._cpu0, quiet.cpu_sample(os.getppid()))
        result = {"candidate_ms": self.resolved(self.statistic(cand_ms), "the candidate"), "eager_ms": None, "compile_ms": None, "speedup_eager": None,
                  "speedup_compile": None, "cv": cv(cand_ms), "n": len(cand_ms), "overhead_ms": round(overhead, 5),
                  "checked_calls": checked, "sampled_calls": sampled, "clock": "judge host clock, round trip to a private copy of the output, "
                  "less the empty-call overhead", "statistic": self.spec.timing.statistic}
        t_base = time.perf_counter()
        b = self.baselines(mod, init, sets, flush)
        prov = {k: b.pop(k) for k in PROVENANCE if k in b}
        result.update({k: v for k, v in b.items() if k != "overhead_ms"})
        if prov:  # measured here; the orchestrator adds when and where, and decides whether to cache
            result["baseline"] = {"source": "measured", **prov, "steady": steady(prov)}
        if time.perf_counter() - t_base > 0.01:
            self.phases["baselines"] = round(time.perf_counter() - t_base, 4)
        if self.long_call_ms:
            result["long_call_ms"] = dict(self.long_call_ms)
        result["conditions"] = cond
        if cond["quiet"] is False:
            self.notes.append(f"while the candidate was timed, programs other than the verifier kept {cond['foreign_cores']:.2f} of "
                              f"{cond['cpus']} cores busy: its times may read high")
        if self.spec.timing.diagnostics:
            result["diagnostics"] = {**self.diagnostics(), "overheads": self.diag_overheads, "setup_s": self.diag_setup,
                                     # the same dict: the speed-of-light part below is added to it
                                     "time_s": self.diag_time,
                                     "quiet_waits_s": self.quiet.waits if len(self.quiet.waits) <= 16 else
                                     {"holds": len(self.quiet.waits), "total": round(sum(self.quiet.waits), 4),
                                      "max": max(self.quiet.waits)}, "quiet_per_call": self.quiet_per_call}
        if self.quiet.unquiet:
            self.notes.append(f"{self.quiet.unquiet} timing loop(s) ran while other processes may have been starting on this GPU "
                              f"(its quiet lock was not free within {quiet.WAIT_S:g} s): times may read high")
        for base in ("eager", "compile"):
            b = result.get(f"{base}_ms")
            result[f"speedup_{base}"] = (b / result["candidate_ms"]) if b and result["candidate_ms"] > 0 else None
        t_sol = time.perf_counter()
        floors = self.speed_of_light(ref, sets[0][0]) if self.sem.rules else None
        self.diag_time["speed_of_light"] = round(time.perf_counter() - t_sol, 4)
        if floors is not None:
            floor, memory = floors
            result["floor_ms"] = floor
            # the calibrated overhead is a median and can overshoot for a fast kernel: judge the
            # floor by the least the work can have taken, the median round trip less the fastest
            # empty call this process ever made. Only the memory floor decides: every input and
            # output is moved at least once whatever the algorithm, but the reference's FLOPs are
            # not a bound on a correct kernel's (KernelBench L2/14's GEMM then sum is a GEMV,
            # exactly: the pilot's agent found it, issue 20)
            least = statistics.median(raw_ms) + overhead - self.fastest_null.get(id(self.cand), overhead)
            if least < SOL_MARGIN * memory:
                self.rejections.append({"rule": "below_speed_of_light", "detail": f"the median round trip less the fastest "
                                        f"empty call, {least:.4f} ms, is below the memory floor of {memory:.4f} ms (the "
                                        "fewest bytes moved over the measured bandwidth)"})
        self.phases["time"] = round(time.perf_counter() - t0, 4)
        return result

    def statistic(self, times: list[float]) -> float:
        """The time a verdict reports: the median (robust to the odd slow call), or the mean
        (KernelBench's; ``TimingConfig.statistic``)."""
        return statistics.mean(times) if self.spec.timing.statistic == "mean" else statistics.median(times)

    def resolved(self, ms: float, what: str) -> float:
        """A median time after the empty call's cost is taken off. One within that cost's noise is
        below what this clock can resolve: it is reported as 1 µs, and the verdict says so."""
        floor = 1e-3
        if ms < floor:
            self.notes.append(f"{what}: the median time is within the empty call's overhead; reported as {floor * 1e3:g} µs, "
                              "the clock's floor (the kernel is too fast to time through the process boundary here)")
            return floor
        return ms

    @staticmethod
    def work(ref, inputs) -> dict:
        """FLOPs (matmul/conv/attention, as torch counts them) and the fewest bytes moved."""
        try:
            from torch.utils.flop_counter import FlopCounterMode

            with FlopCounterMode(display=False) as fc, torch.no_grad():
                out = ref(*inputs)
            flops = int(fc.get_total_flops())
        except Exception:  # noqa: BLE001 - the counter is a safety net, not a requirement
            return {}
        tensors = [t for t in flatten(inputs) + flatten(out) if isinstance(t, torch.Tensor)]
        if isinstance(ref, torch.nn.Module):
            tensors += list(ref.parameters()) + list(ref.buffers())
        return {"flops": flops, "bytes": nbytes(tensors)}

    def speed_of_light(self, ref, inputs) -> tuple[float, float] | None:
        """(the floor, its memory part) in ms: the larger of the fewest bytes over the measured
        bandwidth and the reference's FLOPs over the measured peak, and the bytes' time alone."""
        ceil = self.spec.ceilings
        if not ceil:
            return None
        w = self.work(ref, inputs)
        if not w:
            return None
        memory = w["bytes"] / (ceil["bandwidth_gbs"] * 1e9) * 1e3
        return max(memory, w["flops"] / (ceil["peak_tflops"] * 1e12) * 1e3), memory

    # -- the verifier's own failures (infra.py) --------------------------------------------------------------------
    def own_failure(self, e: BaseException, where: str) -> JobFailed | None:
        """The failure for an exception raised in the judge's own work (``where``): a full disk or
        an out-of-memory is the verifier's ``infra_error``, unless the candidate process held more
        GPU memory than its budget when the judge ran out (then it is the candidate's). None for
        any other exception (a broken task, say), which the caller reports as before."""
        if infra.is_disk_full(e):
            return JobFailed("infra_error", "disk_full", f"the verifier could not write ({where}): {type(e).__name__}: {e}",
                             _exc_text(e), infra=True, fatal=True)
        if not infra.is_oom(e):
            return None
        if self.shared_gpu:
            return self.shared_oom(where, f"{type(e).__name__}: {str(e)[:300]}", _exc_text(e))
        m = self.memory_report()
        if m.get("candidate_bytes") is not None and m.get("budget_bytes") is not None \
                and m["candidate_bytes"] > m["budget_bytes"] + m.get("slack_bytes", 0):
            return JobFailed("runtime_error", "out_of_memory",
                             f"the GPU ran out of memory in the judge ({where}) while the candidate process held "
                             f"{_gib(m['candidate_bytes'])} of it, over its budget of {_gib(m['budget_bytes'])} ({m['how']})",
                             _exc_text(e))
        held = f"; the candidate process held {_gib(m['candidate_bytes'])} of its {_gib(m['budget_bytes'])} budget ({m['how']})" \
            if m.get("candidate_bytes") is not None and m.get("budget_bytes") is not None else ""
        return JobFailed("infra_error", "out_of_memory", f"the verifier ran out of memory in its own work ({where}): "
                         f"{type(e).__name__}: {str(e)[:300]}{held}", _exc_text(e), infra=True, fatal=True)

    def mem_mark(self) -> None:
        """Before any candidate code is loaded (GPU): what the device and the judge hold, and the
        candidate's budget, its lane's share of the GPU (KMOSAIC_GPU_SHARE, set by the pool) less
        a margin for CUDA contexts and less what the judge holds now."""
        if not self.is_cuda:
            return
        try:
            free, total = torch.cuda.mem_get_info(self.device)
            judge_bytes = torch.cuda.memory_reserved(self.device)
            share = self.gpu_share
        except RuntimeError:
            return
        # what the candidate process holds already (its CUDA context, the empty calls' copy of
        # the outputs) is gone from ``free`` but is counted in what it holds later: it is part
        # of its budget. NVML's count where NVML sees the process; else the copy's size, which
        # the judge knows (the growth it then measures starts from here too)
        held = infra.nvml_used(infra.descendants(self.cand.proc.pid), self._nvml_device()) \
            if self.cand is not None and self.cand.proc is not None else None
        self._mem0 = {"used": total - free, "judge": judge_bytes, "total": total,
                      "held": held if held is not None else self.harness_bytes()}
        # a released timing set is made again for the timing: the judge will hold one then, and
        # the candidate's budget counts it as before it was released
        remade = self.sets.bytes_in_use if self.sets is not None and not self.sets.held else 0
        self.gpu_budget = infra.gpu_budget(total, share, judge_bytes + remade, free, self._mem0["held"])

    def harness_bytes(self) -> int:
        """What the harness holds in the candidate process before its code loads: the copy of the
        outputs that the empty calls return (``calibrate``), where the candidate has made them."""
        s = self.slots.get("check")
        if not self._null_made or s is None or self.cand is None or id(self.cand) not in s.bound:
            return 0
        return sum(b.tensor.nbytes for b in s.outs if b is not None)

    def memory_report(self) -> dict:
        """The candidate process's GPU memory now, by the judge's own measurement: NVML's count
        for the candidate's processes where NVML sees them, else the device's growth since
        ``mem_mark`` less the judge's own growth (which also counts processes that started
        since, hence a slack of the margin before it is held against the candidate)."""
        mark = getattr(self, "_mem0", None)
        if not self.is_cuda or mark is None or self.cand is None or self.cand.proc is None:
            return {}
        try:
            free, total = torch.cuda.mem_get_info(self.device)
            judge_now = torch.cuda.memory_reserved(self.device)
        except RuntimeError:
            return {}
        out = {"budget_bytes": self.gpu_budget, "used_bytes": total - free, "total_bytes": total}
        got = infra.nvml_used(infra.descendants(self.cand.proc.pid), self._nvml_device())
        if got is not None:
            out.update(candidate_bytes=got, how="measured by NVML", slack_bytes=0)
        else:
            grown = max(0, (total - free) - mark["used"] - (judge_now - mark["judge"]))
            out.update(candidate_bytes=grown + mark["held"],
                       how="the device's growth since the candidate loaded, less the judge's, and the harness's copy of the "
                           "outputs", slack_bytes=infra.GPU_MARGIN_BYTES)
        return out

    def gpu_memory(self) -> dict:
        """What this job took of the GPU, by the judge's own measures, for the pool's admission of
        the task's next jobs where lanes share the GPU: the judge's peak (its allocator's), and
        the candidate's memory after its trials (NVML's count; None where NVML does not see the
        candidate's processes, or the candidate never got that far). Nothing for the CPU lanes
        that stand in for a GPU's in tests (``shared_gpu``)."""
        if not self.is_cuda:
            return {}
        try:
            _, total = torch.cuda.mem_get_info(self.device)
            peak = torch.cuda.max_memory_reserved(self.device)
        except RuntimeError:
            return {}
        return {"judge_peak_bytes": int(peak), "candidate_bytes": self._cand_bytes, "total_bytes": int(total),
                "share": self.gpu_share}

    def _nvml_device(self) -> int | str:
        """This GPU for NVML: its UUID where torch gives it (CUDA's order of devices need not be
        NVML's), else the index CUDA_VISIBLE_DEVICES names."""
        try:
            return f"GPU-{torch.cuda.get_device_properties(self.device).uuid}"
        except (AttributeError, RuntimeError):
            vis = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip()
            return int(vis) if vis.isdigit() else 0

    def shared_oom(self, where: str, what: str, log: str) -> JobFailed:
        """An out-of-memory on a GPU that other lanes' jobs share: the verifier's (see
        ``shared_gpu``); the pool runs the job again with the GPU to itself."""
        return JobFailed("infra_error", "out_of_memory",
                         f"the GPU ran out of memory ({where}) while other lanes' jobs shared it ({self.gpu_share:.0%} of it "
                         f"was this job's): {what}", log, infra=True, fatal=True)

    def shared_crash(self, f: JobFailed) -> JobFailed:
        """A candidate process that died of an out-of-memory on a GPU that other lanes' jobs
        share is no more the candidate's than one that reported it (``candidate_oom``): the
        harness's own steps in that process (the NaN fill before a check, the copy of an output)
        can be the allocation that failed, and the memory may have been the other lanes'. Seen in
        the pilot on an H100 with four lanes (2026-12-06): two correct KernelBench kernels got
        ``runtime_error`` that way. Its log is the candidate's own text, so claiming an
        out-of-memory buys at most the run alone, where a crash is charged as before."""
        if self.shared_gpu and f.status == "runtime_error" and f.error.get("kind") == "crash":
            own = self.candidate_oom({"message": f.error.get("message"), "log": f.error.get("log")})
            if own is not None:
                return own
        return f

    def wait_for_other_lanes(self) -> None:
        """A job that runs alone on a GPU its lanes share (``pool.GpuGate``): the other lanes'
        jobs have ended, but what their processes held may not be back yet (a killed candidate's
        teardown, a judge's clean-up after its verdict). Waits, within limits, until the other
        processes on the GPU hold no more than idle ones (NVML; where NVML is missing, not at all)."""
        mine = set(infra.descendants(os.getpid()))
        device = self._nvml_device()

        def others():
            procs = infra.nvml_processes(device)
            return None if procs is None else [b for p, b in procs.items() if p not in mine]

        w = infra.wait_for_others(others)
        if w["waited_s"] >= 0.05:
            self.phases["others_wait"] = w["waited_s"]
        if w["why"] in ("still", "limit"):
            self.notes.append(f"other processes on this GPU still held {_gib(w['held_bytes'])} beyond idle ones after "
                              f"{w['waited_s']:.1f} s, when this job was to have the GPU to itself")
        elif w["waited_s"] >= 0.5:
            self.notes.append(f"waited {w['waited_s']:.1f} s for the other lanes' processes to give their GPU memory back")

    def candidate_oom(self, reply: dict) -> JobFailed | None:
        """A candidate process that reports an out-of-memory is charged with it, unless the judge's
        own measurement shows it within its budget while the others (the judge, the lane's other
        processes) had taken more than the rest of the GPU: then the verifier took its memory."""
        text = f"{reply.get('message')}\n{reply.get('log')}"
        if not ("OutOfMemoryError" in text or "out of memory" in text):
            return None
        if self.shared_gpu:
            return self.shared_oom("the candidate process", str(reply.get("message") or "")[:300],
                                   str(reply.get("log") or "")[-3000:])
        m = self.memory_report()
        if not m or m.get("candidate_bytes") is None or m.get("budget_bytes") is None:
            return None
        others = m["used_bytes"] - m["candidate_bytes"]
        if infra.verifier_took_it(m["candidate_bytes"], infra.requested_bytes(text), m["budget_bytes"], m["used_bytes"],
                                  m["total_bytes"]):
            return JobFailed("infra_error", "out_of_memory",
                             f"the candidate ran out of GPU memory within its budget: it held {_gib(m['candidate_bytes'])} of "
                             f"{_gib(m['budget_bytes'])}, and the verifier's processes held {_gib(others)} ({m['how']})",
                             str(reply.get("log") or "")[-3000:], infra=True, fatal=True)
        return None

    # -- whole jobs -----------------------------------------------------------------------------------------------------
    def run(self) -> dict:
        result: dict = {"status": None}
        t_setup = self._setup_t = time.perf_counter()
        if self.is_cuda:
            torch.cuda.reset_peak_memory_stats(self.device)  # the judge serves many jobs: this one's peak
            if self.spec.gpu_share is not None and _int_env("KMOSAIC_GPU_LANES", 1) > 1:
                self.wait_for_other_lanes()
        try:
            mod = self.load_reference(self.spec.reference)
            init = self.init_inputs(mod)
            ref = self.build_reference(mod, init)
            self.setup_mark("reference")
            timing_on = self.spec.timing.enabled
            sets = None
            flush = None
            self.start_candidate()
            self.setup_mark("candidate_start")
            self.settle()  # before the timing sets, the empty calls and the candidate's memory budget
            overhead = 0.0
            if timing_on:
                sets = self.sets = self.timing_sets(mod, ref)
                self.setup_mark("timing_sets")
                flush = Flusher(self.device)
                # before any candidate code exists in that process: it cannot skew its own overhead
                self._cpu0 = quiet.cpu_sample(os.getppid())  # the orchestrator: the verifier's own processes
                overhead = self.calibrate(self.cand, sets, flush)
                self.calibrate_waits(self.cand, sets, flush, overhead)
                if not sets.keep:
                    # made again when the timing needs it. Held through the trials, KernelBench's
                    # largest L1 sets (12 GiB each) left an 80 GB GPU too little for the trial
                    # cases and the candidate: every verdict on them that got past its build was an
                    # out-of-memory infra_error (results/2026-12-07c-h100)
                    sets.release()
                    if self.is_cuda:
                        torch.cuda.empty_cache()
                self.setup_mark("calibrate")
            # the reference, the candidate process's start, the timing sets and the empty calls
            self.phases["setup"] = round(time.perf_counter() - t_setup, 4)
            self.phase("compile")
            self.mem_mark()
            t0 = time.perf_counter()
            reply = self.load_with_params(self.cand, ref, init)
            self.phases["compile"] = round(time.perf_counter() - t0 - float(reply.get("load_s") or 0), 4)
            if self.rejections:  # a refused build: the rule, whatever the import did next
                raise JobFailed("rejected", "rule", "; ".join(sorted({r["rule"] for r in self.rejections})))
            if reply.get("event") == "error":
                self.fail_from_reply(reply)
            if reply.get("event") != "loaded":
                raise JobFailed("rejected", "rule", "the candidate process sent an unexpected reply while loading",
                                rejection=("protocol", "unexpected reply"))
            self.compiled = True
            self.phases["load"] = float(reply.get("load_s") or 0)
            if reply.get("copied"):
                self.notes.append(f"copied {reply['copied']} parameter/buffer tensors from Model into ModelNew by name and shape")
            self.phase("load")
            self.phase("check")
            self.trials(mod, ref)
            if self.is_cuda:
                if self.shared_gpu:
                    # what the candidate held after its trials, for the pool's admission of the
                    # task's next jobs (pool.GpuGate.learn); NVML's count only: the fallback (the
                    # device's growth) would count the other lanes' memory as this candidate's
                    m = self.memory_report()
                    self._cand_bytes = m.get("candidate_bytes") if m.get("how") == "measured by NVML" else None
                # what the trials held goes back to the GPU, for the processes that time next
                torch.cuda.empty_cache()
            if timing_on:
                self.phase("time")
                result["timing"] = self.timing(mod, ref, init, overhead, sets, flush)
                if self.rejections:
                    raise JobFailed("rejected", "rule", "; ".join(r["rule"] for r in self.rejections))
            if timing_on and self.sem.extra_checks:
                # a candidate must still be right after many calls
                post = self.spec.timing_seeds[-1] ^ 0x5F3759DF
                inputs, ref_out = self.reference_case(mod, ref, post)
                s = self.slot("check", inputs, ref_out)
                mm, _ = self.check_one(s, inputs, ref_out, len(self.spec.seeds), post, "the post-timing check")
                if mm is not None:
                    raise JobFailed("incorrect", "mismatch", f"after timing (seed {post}): {mm['reason']} — the output "
                                    "changed after repeated calls", mismatch=mm)
            result["status"] = "correct"
        except JobFailed as f:
            f = self.shared_crash(f)
            result["status"] = f.status
            result["error"] = f.error
            if "mismatch" in f.extra:
                result["mismatch"] = f.extra["mismatch"]
            if f.extra.get("rejection"):
                rule, detail = f.extra["rejection"]
                self.rejections.append({"rule": rule, "detail": detail})
            if f.extra.get("fatal"):
                result["fatal"] = True
            if f.extra.get("infra"):
                result["infra"] = True
        except TaskProblem as t:
            result["status"] = "task_error"
            result["error"] = {"kind": "task", "message": str(t).split("\n")[0], "log": str(t)}
        except BaseException as e:  # noqa: BLE001 - a judge bug still yields a verdict
            # the judge's own failure (its out-of-memory in a comparison, a full disk while it
            # builds, a bug) is no verdict on the candidate: infra_error, retried on a fresh judge
            own = self.own_failure(e, "the judge's own work")
            if own is not None and own.status != "infra_error":
                result["status"], result["error"] = own.status, own.error
            else:
                result["status"] = "infra_error"
                result["error"] = own.error if own is not None else {
                    "kind": "harness", "message": f"internal error: {type(e).__name__}: {e}", "log": _exc_text(e)}
            result["fatal"] = True
            result["infra"] = True
        if self.precision is not None:
            result["precision"] = asdict(self.precision)
        result.update(compiled=self.compiled, rejections=self.rejections, tolerances=self.tolerances,
                      phases_s={**self.phases, **({"build": round(self.build_s, 3)} if self.build_s else {})},
                      notes=self.notes, env=self.env_info(), isolation=self.isolation)
        result["shape_variants"] = self.shape_variants
        if self.shared_gpu:
            result["gpu_memory"] = self.gpu_memory()
        # the caller (worker.main) closes the judge after it has sent the verdict: a candidate
        # process's exit (its CUDA context's teardown) is no part of the verdict's latency
        return result

    def build_only(self) -> dict:
        """Run the candidate's import on the CPU so that its extensions land in the build cache."""
        try:
            self.start_candidate()
            t0 = time.perf_counter()
            reply = self.load(self.cand, self.spec.candidate, "ModelNew", [], None, import_only=True)
            self.phases["compile"] = round(time.perf_counter() - t0, 4)
            if self.rejections:
                return {"built": False, "status": "rejected", "rejections": self.rejections,
                        "error": {"kind": "rule", "message": "; ".join(r["detail"] for r in self.rejections), "log": ""},
                        "phases_s": self.phases}
            if reply.get("event") == "error" and reply.get("status") == "compile_error":
                return {"built": False, "status": "compile_error", "phases_s": self.phases,
                        "error": {"kind": "compile", "message": str(reply.get("message")), "log": trim_log(str(reply.get("log") or ""))}}
            # anything else (code that needs a GPU at import, say) is for the GPU judge to see
            return {"built": reply.get("event") == "loaded", "status": None, "phases_s": self.phases}
        except JobFailed as f:
            return {"built": False, "status": None, "phases_s": self.phases, "note": f.error["message"]}
        finally:
            self.close()

    def run_baseline(self) -> dict:
        """Eager (and torch.compile) times of the reference alone, by the candidates' protocol."""
        result: dict = {"status": None}
        try:
            mod = self.load_reference(self.spec.reference)
            init = self.init_inputs(mod)
            ref = self.build_reference(mod, init)
            self.settle()
            sets = self.timing_sets(mod, ref)
            b = self.baselines(mod, init, sets, Flusher(self.device), attempts=BASELINE_ATTEMPTS)
            result.update(eager_ms=b.get("eager_ms"), eager_cv=b.get("eager_cv"), n=self.spec.timing.n,
                          compile_ms=b.get("compile_ms"), compile_cv=b.get("compile_cv"), overhead_ms=b.get("overhead_ms"),
                          **{k: b[k] for k in PROVENANCE if k in b}, steady=steady(b))
            result.update(self.work(ref, sets[0][0]))
            result["status"] = "ok"
        except TaskProblem as t:
            result["status"] = "task_error"
            result["error"] = {"kind": "task", "message": str(t).split("\n")[0], "log": str(t)}
        except JobFailed as f:
            result["status"] = "task_error"
            result["error"] = {"kind": "baseline", "message": f.error["message"], "log": f.error.get("log", "")}
        except BaseException as e:  # noqa: BLE001 - e.g. out of memory on a huge reference
            result["status"] = "task_error"
            result["error"] = {"kind": "baseline", "message": f"{type(e).__name__}: {str(e)[:500]}", "log": _exc_text(e)}
        result.update(notes=self.notes, env=self.env_info())
        return result  # closed by the caller after the result is sent, as run()'s

    def settle(self) -> None:
        """Wait for the last job's candidate processes to be gone, and return what this judge
        still caches to the GPU: before the candidate's memory budget is read and before the
        first timing loop. Until then their teardown runs beside this job's reference and
        candidate start."""
        while self.dying:
            self.dying.pop().reap()
        if self.is_cuda:
            torch.cuda.empty_cache()

    def close(self, wait: bool = True) -> list[CandidateProcess]:
        """Free the buffers and end the candidate process. With ``wait=False`` the process is
        killed but not waited for: it is returned, for the next job's ``settle``."""
        t0 = time.monotonic()
        for s in self.slots.values():
            s.close()
        self.slots.clear()
        if self.sets is not None:
            # the sets refer back to this judge: dropped here, their tensors go at once, not at
            # the next full collection
            self.sets.held.clear()
            self.sets.answers.clear()
            self.sets = None
        self.close_parts = {"buffers": round(time.monotonic() - t0, 4)}
        left = self.dying
        self.dying = []
        if self.cand is not None:
            self.cand.close(wait)
            if not wait:
                left.append(self.cand)
            self.cand = None
        for p in left if wait else ():
            p.reap()
        self.close_parts["candidate"] = round(time.monotonic() - t0 - self.close_parts["buffers"], 4)
        self.quiet.close()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        return [] if wait else left


def _gib(n: int | float) -> str:
    return f"{n / 2**30:.2f} GiB"


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name) or default)
    except ValueError:
        return default


_driver: list = []


def _driver_version() -> str | None:
    if not _driver:
        v = None
        try:
            import re

            txt = Path("/proc/driver/nvidia/version").read_text()
            m = re.search(r"Kernel Module\s+(?:for \S+\s+)?([\d.]+)", txt)
            v = m.group(1) if m else None
        except OSError:
            pass
        if v is None:
            try:
                v = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True,
                                   text=True, timeout=20).stdout.strip().splitlines()[0]
            except Exception:  # noqa: BLE001
                v = None
        _driver.append(v)
    return _driver[0]


# -- the binding's precompiled header (builder.PchCache): stored by the judge only ----------------------------
def publish_pch(staging: Path, root: Path) -> bool:
    """Store the precompiled header the builder in ``staging`` made (builder.PchCache), hashed, in a
    folder moved into place in one rename; keep the builder.PCH_KEEP newest (each is hundreds of MB).
    Only the judge writes this cache, and never into a stored file: a builder that hashed one reads
    that one. Returns whether that build's main.cpp was compiled with a precompiled header."""
    try:
        listing = json.loads((staging / builder.PCH_FILE).read_text())
        used = bool(listing.get("used"))
        made = listing.get("made")
        if not made:
            return used
        key, rel, deps = made["key"], made["file"], made["deps"]
        if not (isinstance(key, str) and re.fullmatch(r"[0-9a-f]{64}", key) and isinstance(rel, str)
                and isinstance(deps, list) and all(isinstance(d, list) and len(d) == 3 for d in deps)):
            return used
        src = staging / rel
        if src.is_symlink() or staging.resolve() not in src.resolve().parents or not src.is_file() \
                or src.stat().st_size > builder.PCH_MAX_BYTES:
            return used
        entry = root / key
        if entry.exists():
            if stored_pch_ok(entry):
                return used
            bad = root / f".{key}.bad.{os.getpid()}"  # one that fails its hash is never used: replaced
            os.rename(entry, bad)
            shutil.rmtree(bad, ignore_errors=True)
        tmp = root / f".{key}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copyfile(src, tmp / (builder.PCH_HEADER + ".gch"))
        (tmp / "manifest.json").write_text(json.dumps({"sha256": sha256_file(tmp / (builder.PCH_HEADER + ".gch")),
                                                       "deps": deps}))
        for q in (tmp, *tmp.iterdir()):
            os.chmod(q, 0o755 if q.is_dir() else 0o644)
        try:
            os.rename(tmp, entry)
        except OSError:  # another judge stored it first
            shutil.rmtree(tmp, ignore_errors=True)
        stored = sorted((p for p in root.iterdir() if re.fullmatch(r"[0-9a-f]{64}", p.name)),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in stored[builder.PCH_KEEP:]:
            gone = root / f".{old.name}.old.{os.getpid()}"
            os.rename(old, gone)
            shutil.rmtree(gone, ignore_errors=True)
        return used
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def stored_pch_ok(entry: Path) -> bool:
    try:
        return sha256_file(entry / (builder.PCH_HEADER + ".gch")) == json.loads((entry / "manifest.json").read_text())["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
