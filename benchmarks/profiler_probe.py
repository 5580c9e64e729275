"""Which sandbox layers let Nsight Compute profile a process (GPU machine):

    python benchmarks/profiler_probe.py

ncu runs a two-line torch program under each set of layers (all of them, all but one, none)
with the profiler's own flags; prints the exit status, whether metric rows came back, and the
last lines of output. The pilot's profiles failed inside the full sandbox (cudaErrorOperatingSystem
in the profiled process), and this says which layer is the cause."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from kernelmosaic.agent import profiler
from kernelmosaic.verify import sandbox

PROG = "import torch\nx = torch.randn(1 << 20, device='cuda')\ntorch.cuda.synchronize()\n" \
       "torch.cuda.cudart().cudaProfilerStart()\ny = torch.relu(x)\ntorch.cuda.synchronize()\n" \
       "torch.cuda.cudart().cudaProfilerStop()\nprint('ok', float(y.sum()))\n"


def main() -> None:
    ncu = profiler.ncu_path()
    if ncu is None:
        sys.exit("no ncu here")
    with tempfile.TemporaryDirectory(prefix="probe-") as d:
        os.chmod(d, 0o755)
        (Path(d) / "p.py").write_text(PROG)
        os.chmod(Path(d) / "p.py", 0o644)
        cmd = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--profile-from-start", "off",
               "--metrics", "gpu__time_duration.sum", sys.executable, str(Path(d) / "p.py")]
        env = {**os.environ, "HOME": d, "TMPDIR": d, "XDG_CACHE_HOME": d}
        # most telling first: the last run (2026-12-02) timed out before the layers after rlimits
        def but(*xs):
            return [y for y in sandbox.LAYERS if y not in xs]

        variants = [("no sandbox", None, False), ("all but uid", but("uid"), False),
                    ("all but uid, dir 0777", but("uid"), True), ("all but uid+landlock", but("uid", "landlock"), True),
                    ("all but uid+seccomp", but("uid", "seccomp"), True), ("all layers, dir 0777", list(sandbox.LAYERS), True)]
        variants += [(f"all but {x}", but(x), True) for x in ("landlock", "seccomp", "no_new_privs", "pdeathsig")]
        for name, want, open_dir in variants:
            os.chmod(d, 0o777 if open_dir else 0o755)
            argv = cmd if want is None else sandbox.command(sandbox.SandboxConfig(workdir=d, execute=["/"], want=want), cmd)
            try:
                p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=25, env=env)
                rows = len(profiler.parse_raw_csv(p.stdout))
                tail = " | ".join(ln.strip() for ln in (p.stdout + p.stderr).strip().splitlines()[-3:])[:300]
                print(f"{name:24s} rc={p.returncode} rows={rows} :: {tail if not rows else 'metrics back'}", flush=True)
            except subprocess.TimeoutExpired:
                print(f"{name:24s} timed out (25 s)", flush=True)


if __name__ == "__main__":
    main()
