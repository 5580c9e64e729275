"""Which sandbox layers let Nsight Compute profile a process, and the profiler on real kernels
(GPU machine):

    python benchmarks/profiler_probe.py                  # the layer matrix
    python benchmarks/profiler_probe.py --kernels FOLDER...   # profile_candidate on pilot episodes

The matrix: ncu runs a small program that starts CUDA through torch, and one that starts it
through CuPy (as the nvrtc backend's candidates do), under each set of layers, with the
profiler's own flags. It prints the exit status, whether metric rows came back, the layers the
sandbox says held, and the last lines of output. The pilot's profiles failed inside the full
sandbox (error 304 in the profiled process), and this says which layer is the cause.
``landlock-drop=R`` runs all the layers with landlock not handling the right R
(``KMOSAIC_LANDLOCK_DROP``, sandbox.py). First, one unsandboxed run prints what the
profiled process sees under ncu in /dev/shm, /tmp and /var/tmp beyond what was there before,
and the shared-memory files it has mapped: where ncu and its target meet.

``--kernels``: each FOLDER is an episode folder of the step CLI (``episode.json`` names the
task, ``best.py`` is the kernel); the task comes from ``--tasks`` (a task set). It prints what
``kernelmosaic.agent.profiler.profile_candidate`` returns, as an optimize prompt shows it.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.agent import profiler  # noqa: E402
from kernelmosaic.verify import sandbox  # noqa: E402

PROGS = {
    "torch": "import torch\nx = torch.randn(1 << 20, device='cuda')\ntorch.cuda.synchronize()\n"
             "torch.cuda.cudart().cudaProfilerStart()\ny = torch.relu(x)\ntorch.cuda.synchronize()\n"
             "torch.cuda.cudart().cudaProfilerStop()\nprint('ok', float(y.sum()))\n",
    # CUDA started by CuPy first, as an nvrtc candidate's import does (nvrtc.compile at module level)
    "cupy": "import cupy as cp\ncp.cuda.runtime.getDevice()\nx = cp.arange(1 << 20, dtype=cp.float32)\n"
            "cp.cuda.runtime.deviceSynchronize()\ncp.cuda.runtime.profilerStart()\ny = cp.maximum(x, 0)\n"
            "cp.cuda.runtime.deviceSynchronize()\ncp.cuda.runtime.profilerStop()\nprint('ok', float(y.sum()))\n",
}


def _but(*xs):
    return [y for y in sandbox.LAYERS if y not in xs]


WHERE = ("import os, json\nimport torch\ntorch.zeros(1, device='cuda')\nout = {}\n"
         "for d in ('/dev/shm', '/tmp', '/var/tmp'):\n    out[d] = sorted(os.listdir(d))\n"
         "out['maps'] = sorted({ln.split()[-1] for ln in open('/proc/self/maps') if len(ln.split()) > 5 and "
         "ln.split()[-1].startswith(('/dev/shm', '/tmp', '/var/tmp', '/run'))})\nprint('WHERE', json.dumps(out))\n")


def where(ncu: str, top: str) -> None:
    d = tempfile.mkdtemp(prefix="where-", dir=top)
    (Path(d) / "p.py").write_text(WHERE)
    before = {x: set(os.listdir(x)) for x in ("/dev/shm", "/tmp", "/var/tmp") if os.path.isdir(x)}
    env = {**os.environ, "HOME": d, "TMPDIR": d, "XDG_CACHE_HOME": d}
    p = subprocess.run([ncu, "--profile-from-start", "off", "--metrics", "gpu__time_duration.sum", sys.executable,
                        str(Path(d) / "p.py")], cwd=d, capture_output=True, text=True, timeout=60, env=env)
    got = next((json.loads(ln[6:]) for ln in p.stdout.splitlines() if ln.startswith("WHERE ")), None)
    if got is None:
        print(f"where: no answer (rc={p.returncode}): {(p.stdout + p.stderr)[-300:]}", flush=True)
        return
    for x, names in before.items():
        print(f"where: new in {x} under ncu: {sorted(set(got[x]) - names)}", flush=True)
    print(f"where: mapped: {got['maps']}; in TMPDIR: {sorted(os.listdir(d))}", flush=True)


# (name, layers or None for no sandbox, KMOSAIC_LANDLOCK_DROP)
VARIANTS = [
    ("no sandbox", None, ""),
    ("all layers", list(sandbox.LAYERS), ""),
    ("all but landlock", _but("landlock"), ""),
    ("all but uid", _but("uid"), ""),
    ("all but seccomp", _but("seccomp"), ""),
    ("all but landlock+seccomp", _but("landlock", "seccomp"), ""),
    ("all but uid+landlock", _but("uid", "landlock"), ""),
    ("all but pidns", _but("pidns"), ""),
    ("all but mountns", _but("mountns"), ""),
    ("landlock-drop=scope", list(sandbox.LAYERS), "scope"),
    ("landlock-drop=write+dirwrite", list(sandbox.LAYERS), "write,dirwrite,truncate,refer"),
    ("landlock-drop=read", list(sandbox.LAYERS), "read"),
    ("landlock-drop=exec", list(sandbox.LAYERS), "exec"),
]


def _held(stdout: str) -> str:
    for ln in stdout.splitlines():
        if ln.startswith("SANDBOX "):
            rep = json.loads(ln[len("SANDBOX "):] or "{}")
            return ",".join(k for k, v in rep.items() if str(v).startswith("on")) or "none"
    return "?"


def run_one(ncu: str, top: str, prog: str, name: str, want, drop: str) -> str:
    d = tempfile.mkdtemp(prefix="v-", dir=top)
    os.chmod(d, 0o755)
    src = "import os\nprint('SANDBOX', os.environ.get('KMOSAIC_SANDBOX', '{}'), flush=True)\n" + PROGS[prog]
    (Path(d) / "p.py").write_text(src)
    os.chmod(Path(d) / "p.py", 0o644)
    cmd = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--profile-from-start", "off",
           "--metrics", "gpu__time_duration.sum", sys.executable, str(Path(d) / "p.py")]
    env = {**os.environ, "HOME": d, "TMPDIR": d, "XDG_CACHE_HOME": d, "CUPY_CACHE_DIR": d + "/cupy"}
    if drop:
        env["KMOSAIC_LANDLOCK_DROP"] = drop
    argv = cmd if want is None else sandbox.command(sandbox.SandboxConfig(workdir=d, execute=["/"], want=want), cmd)
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return f"{prog:5s} {name:30s} timed out (60 s)"
    rows = len(profiler.parse_raw_csv(p.stdout))
    tail = " | ".join(ln.strip() for ln in (p.stdout + p.stderr).strip().splitlines()[-2:])[:240]
    return (f"{prog:5s} {name:30s} rc={p.returncode} rows={rows} {time.monotonic() - t0:4.1f}s held={_held(p.stdout)}"
            f" :: {'metrics back' if rows else tail}")


def matrix(jobs: int) -> None:
    ncu = profiler.ncu_path()
    if ncu is None:
        sys.exit("no ncu here")
    with tempfile.TemporaryDirectory(prefix="probe-") as top:
        os.chmod(top, 0o755)
        where(ncu, top)
        todo = [(prog, *v) for v in VARIANTS for prog in PROGS]
        with ThreadPoolExecutor(jobs) as ex:
            for line in ex.map(lambda t: run_one(ncu, top, *t), todo):
                print(line, flush=True)


def kernels(folders: list[str], tasks: str) -> None:
    from kernelmosaic.curate.taskset import TaskSet

    ts = TaskSet.open(tasks)
    by = ts.by_name()
    for f in folders:
        ep = json.loads((Path(f) / "episode.json").read_text())
        task = ts.load(by[ep["task"]])
        code = (Path(f) / "best.py").read_text()
        t0 = time.monotonic()
        prof = profiler.profile_candidate(task, code, timeout_s=240)
        print(f"== {ep['task']} ({time.monotonic() - t0:.1f} s)\n{prof.render()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernels", nargs="*", help="episode folders to profile with profile_candidate")
    ap.add_argument("--tasks", default=str(ROOT / "tasksets" / "mosaic-v1"))
    ap.add_argument("--jobs", type=int, default=4, help="matrix runs at a time")
    a = ap.parse_args()
    if a.kernels:
        kernels(a.kernels, a.tasks)
    else:
        matrix(a.jobs)


if __name__ == "__main__":
    main()
