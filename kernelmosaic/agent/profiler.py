"""Profiler feedback: Nsight Compute (``ncu``) metrics for a candidate's kernels.

Optimize prompts say how fast a kernel is; these lines say why: achieved occupancy, DRAM and
SM throughput as a share of the GPU's peak, and where warps stall. ``ncu`` runs a small
driver (``_DRIVER`` below) in a subprocess: it builds the task's inputs and ``ModelNew``,
calls forward once unprofiled (builds, JIT and autotuning happen there), then once between
cudaProfilerStart/Stop, which is all that ``--profile-from-start off`` profiles. So the
rows are the kernels one forward launches, not the reference's or the input generator's.

Where ``ncu`` is missing, the counters are not permitted (ERR_NVGPUCTRPERM) or the run
fails, the result says so in one line and the episode carries on without metrics.

The candidate has already been judged correct by the verifier when it gets here; it runs
again, with a time limit, in a fresh temporary folder and inside the verifier's sandbox
(``kernelmosaic.verify.sandbox``): its own user or user namespace, no network, no other process
in view, writes only to that folder. Nothing it does there reaches a verdict: at most it could
print rows that look like ncu's and so mislead its own feedback.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

# metric -> short name; all in NCU's base units with --print-units base
METRICS = {
    "gpu__time_duration.sum": "duration_ns",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy_pct",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_pct",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm_pct",
    "launch__registers_per_thread": "registers",
}
# warp stall reasons, in cycles per issued instruction; a regex so every reason this ncu
# version knows comes back (the set differs between GPU generations)
STALL_REGEX = r"regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$"
_STALL = re.compile(r"^smsp__average_warps_issue_stalled_(.+)_per_issue_active\.ratio$")
# CUDA refusing to start in the profiled process (error 304, "OS call failed"), as torch words
# it and as CuPy does (the nvrtc backend's candidates start CUDA through CuPy: the pilot's
# nvrtc profiles failed this way while torch's were retried without landlock and worked)
_DRIVER_REFUSED = ("cudaGetDeviceCount", "cudaErrorOperatingSystem", "Error 304")
_PERM = ("ERR_NVGPUCTRPERM", "does not have permission to access NVIDIA GPU Performance Counters")

# a one-line hint per stall reason, in the terms of the CUDA guidance
STALL_HINTS = {
    "long_scoreboard": "waiting on global/local memory loads",
    "short_scoreboard": "waiting on shared memory or special-function results",
    "barrier": "waiting at __syncthreads",
    "mio_throttle": "shared-memory / MIO queue full",
    "lg_throttle": "global/local memory queue full",
    "math_pipe_throttle": "a math pipe is saturated",
    "wait": "fixed-latency dependencies",
    "not_selected": "eligible but not picked (plenty of warps)",
    "membar": "memory fences",
    "branch_resolving": "branch resolution",
    "no_instruction": "instruction cache misses",
    "dispatch_stall": "dispatch stalls",
    "tex_throttle": "texture unit queue full",
    "drain": "draining memory stores at exit",
    "imc_miss": "constant cache misses",
    "sleeping": "sleeping",
}

_BUILD_RUNNER = r'''
# load_inline's build runs as the verifier's builder runs it (no ninja, whose setpgid the
# sandbox's seccomp layer refuses: "ninja: fatal: posix_spawn: Operation not permitted")
from kernelmosaic.verify.builder import build_without_ninja
build_without_ninja()
'''

_DRIVER = _BUILD_RUNNER + r'''
import importlib.util, sys
import torch

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

task, cand = load(sys.argv[1], "kmosaic_profile_reference"), load(sys.argv[2], "kmosaic_profile_candidate")
dev = torch.device("cuda")
init = task.get_init_inputs()
with torch.device(dev):
    torch.manual_seed(0)
    ref = task.Model(*init).to(dev)
    torch.manual_seed(0)
    model = cand.ModelNew(*init).to(dev)
# the verifier copies the reference's parameters into ModelNew by name and shape; so does this
ref_sd = ref.state_dict()
with torch.no_grad():
    for k, v in model.state_dict().items():
        if k in ref_sd and ref_sd[k].shape == v.shape and ref_sd[k].dtype == v.dtype:
            v.copy_(ref_sd[k])
del ref
inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
with torch.no_grad():
    model(*inputs)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    model(*inputs)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
'''


@dataclass
class KernelMetrics:
    name: str
    duration_ns: float | None = None
    occupancy_pct: float | None = None
    dram_pct: float | None = None
    sm_pct: float | None = None
    registers: float | None = None
    block: str = ""
    grid: str = ""
    stalls: dict[str, float] = field(default_factory=dict)  # reason -> cycles per issued instruction

    def top_stalls(self, k: int = 3) -> list[tuple[str, float]]:
        # "selected" is a warp issuing, not a stall
        items = [(r, v) for r, v in self.stalls.items() if r != "selected" and v > 0]
        return sorted(items, key=lambda rv: -rv[1])[:k]


@dataclass
class Profile:
    available: bool
    note: str = ""  # why there are no metrics, or a caveat
    kernels: list[KernelMetrics] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    def render(self, max_kernels: int = 3) -> str:
        """A few lines of feedback: the longest kernels first."""
        if not self.available:
            return f"Profiler: no metrics ({self.note})."
        if not self.kernels:
            return "Profiler (Nsight Compute): forward launched no CUDA kernels that ncu could profile."
        ks = sorted(self.kernels, key=lambda k: -(k.duration_ns or 0))
        lines = [f"Profiler (Nsight Compute, one forward, {len(ks)} kernel launch(es)"
                 + (f", the {max_kernels} longest shown" if len(ks) > max_kernels else "") + "):"]
        for k in ks[:max_kernels]:
            bits = []
            if k.duration_ns is not None:
                bits.append(f"{k.duration_ns / 1e3:.1f} us")
            for label, v in (("achieved occupancy", k.occupancy_pct), ("DRAM throughput", k.dram_pct),
                             ("SM throughput", k.sm_pct)):
                if v is not None:
                    bits.append(f"{label} {v:.0f}% of peak")
            if k.registers is not None:
                bits.append(f"{k.registers:.0f} registers/thread")
            if k.grid or k.block:
                bits.append(f"grid {k.grid} block {k.block}")
            lines.append(f"- `{_short(k.name)}`: " + ", ".join(bits))
            top = k.top_stalls()
            if top:
                lines.append("  top stalls (cycles per issued instruction): " + "; ".join(
                    f"{r} {v:.1f}" + (f" ({STALL_HINTS[r]})" if r in STALL_HINTS else "") for r, v in top))
        if self.note:
            lines.append(f"({self.note})")
        return "\n".join(lines)


def _short(name: str, n: int = 80) -> str:
    return name if len(name) <= n else name[: n - 3] + "..."


def _num(s: str) -> float | None:
    s = (s or "").strip().replace(",", "")
    if not s or s.lower() in ("n/a", "nan"):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def parse_raw_csv(text: str) -> list[KernelMetrics]:
    """Kernels from ``ncu --csv --page raw`` output.

    The raw page is one header row (ID, Process ID, Process Name, Host Name, Kernel Name,
    ..., Block Size, Grid Size, ..., then one column per metric), one row of units, and one
    row per profiled kernel launch. ncu's own ``==PROF==`` lines and whatever the profiled
    program printed come before it on stdout, so parsing starts at the header row.
    """
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        return []
    rows = [r for r in csv.reader(io.StringIO("\n".join(lines[start:]))) if r]
    header = rows[0]
    col = {h: i for i, h in enumerate(header)}
    body = [r for r in rows[1:] if r and r[0].strip().isdigit()]  # skips the units row
    out = []
    for r in body:
        def get(h: str) -> str:
            i = col.get(h)
            return r[i] if i is not None and i < len(r) else ""

        k = KernelMetrics(name=get("Kernel Name") or "?", block=get("Block Size"), grid=get("Grid Size"))
        for metric, attr in METRICS.items():
            setattr(k, attr, _num(get(metric)))
        for h, i in col.items():
            m = _STALL.match(h)
            if m and i < len(r):
                v = _num(r[i])
                if v is not None:
                    k.stalls[m.group(1)] = v
        out.append(k)
    return out


def ncu_path() -> str | None:
    return os.environ.get("KMOSAIC_NCU") or shutil.which("ncu")


def machine_allows() -> bool:
    """False where this machine's operator turned profiling off (``KMOSAIC_PROFILE=0``)."""
    return os.environ.get("KMOSAIC_PROFILE", "1").strip().lower() not in ("0", "off", "false", "no")


# The sandboxes a profile tries, strongest first, each in a fresh folder. On the H200 the NVIDIA
# driver refused to start (error 304) in a process that ncu launched under all the layers:
# benchmarks/profiler_probe.py measures which layer is the cause. A weaker rung is tried only when
# the stronger one was refused in exactly that way, and the profile's note names what was left out.
# The candidate is never run as our own user without landlock: one of the two always holds, so it
# can write nothing but its own folder (landlock) or nothing it does not own (its own uid).
SANDBOX_RUNGS: tuple[tuple[str, ...], ...] = ((), ("landlock",), ("uid",))
# the driver imports the verifier's build runner from this package, wherever it is installed
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def profile_candidate(task, code: str, *, timeout_s: float = 300.0) -> Profile:
    """Run the candidate's forward under ncu and collect per-kernel metrics."""
    ncu = ncu_path()
    if ncu is None:
        return Profile(False, "Nsight Compute (ncu) is not on PATH here")
    from ..verify import sandbox
    from ..verify.verifier import default_cache_dir

    # the candidate runs here with fewer layers when the driver needs it: the verifier's cache
    # (baselines, builds, the reference compile cache) is still mounted read-only
    protect = [str(default_cache_dir())]
    with tempfile.TemporaryDirectory(prefix="kmosaic-profile-") as top:
        os.chmod(top, 0o755)
        p, left_out = None, ()
        for n, left_out in enumerate(SANDBOX_RUNGS):
            # a fresh folder per try: the uid layer gives each try a user id of its own, which could
            # not write into what the last try made there (torch's extension build lock, CuPy's cache)
            d = os.path.join(top, f"try{n}")
            os.mkdir(d, 0o755)
            dp = Path(d)
            (dp / "reference.py").write_text(task.source)
            (dp / "candidate.py").write_text(code)
            (dp / "driver.py").write_text(_DRIVER)
            for f in dp.iterdir():
                os.chmod(f, 0o644)
            # the driver itself is the application ncu attaches to; the compilers a build starts are not
            cmd = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--profile-from-start", "off",
                   "--metrics", ",".join([*METRICS, STALL_REGEX]),
                   sys.executable, str(dp / "driver.py"), str(dp / "reference.py"), str(dp / "candidate.py")]
            # candidate code runs here: inside the sandbox, with every cache of its libraries in this folder
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HOME": d, "TMPDIR": d, "XDG_CACHE_HOME": d,
                   "TORCH_EXTENSIONS_DIR": d + "/ext", "CUPY_CACHE_DIR": d + "/cupy", "TRITON_CACHE_DIR": d + "/triton",
                   "PYTHONPATH": os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
            cfg = sandbox.SandboxConfig(workdir=d, execute=["/"], readonly=protect,
                                        want=[layer for layer in sandbox.LAYERS if layer not in left_out])
            try:
                p = subprocess.run(sandbox.command(cfg, cmd), cwd=d, capture_output=True, text=True,
                                   timeout=timeout_s, env=env)
            except subprocess.TimeoutExpired:
                return Profile(False, f"ncu did not finish within {timeout_s:.0f}s")
            except OSError as e:
                return Profile(False, f"ncu could not start: {e}")
            if not any(m in p.stdout + p.stderr for m in _DRIVER_REFUSED):
                break
    blob = p.stdout + "\n" + p.stderr
    if any(m in blob for m in _DRIVER_REFUSED):
        tail = " ".join(ln.strip() for ln in blob.strip().splitlines()[-2:])[:200]
        return Profile(False, "the NVIDIA driver did not start under ncu inside the sandbox, with all its layers, "
                              f"without landlock or without its own user id ({tail})")
    try:
        prof = _interpret(p.returncode, p.stdout, blob)
    except (csv.Error, ValueError, IndexError) as e:  # a profile must never cost the turn
        return Profile(False, f"ncu's output could not be read: {e}")
    if left_out:
        why = (f"the sandbox's {' and '.join(left_out)} layer was left out of this run: with it, the NVIDIA "
               "driver did not start under ncu on this machine")
        prof.note = f"{prof.note}; {why}" if prof.note else why
    return prof


def _interpret(returncode: int, stdout: str, blob: str) -> Profile:
    if any(m in blob for m in _PERM):
        return Profile(False, "this machine does not permit access to the GPU performance counters "
                              "(ERR_NVGPUCTRPERM)")
    kernels = parse_raw_csv(stdout)
    if returncode != 0 and not kernels:
        tail = " ".join(ln.strip() for ln in blob.strip().splitlines()[-3:])[:300]
        return Profile(False, f"ncu exited with status {returncode}: {tail}")
    return Profile(True, "" if returncode == 0 else f"ncu exited with status {returncode}", kernels)
