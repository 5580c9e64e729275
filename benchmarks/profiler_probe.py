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
        variants = [("no sandbox", None), ("all layers", list(sandbox.LAYERS))]
        variants += [(f"all but {x}", [y for y in sandbox.LAYERS if y != x]) for x in sandbox.LAYERS]
        for name, want in variants:
            argv = cmd if want is None else sandbox.command(sandbox.SandboxConfig(workdir=d, execute=["/"], want=want), cmd)
            try:
                p = subprocess.run(argv, cwd=d, capture_output=True, text=True, timeout=120, env=env)
                rows = len(profiler.parse_raw_csv(p.stdout))
                tail = " | ".join(ln.strip() for ln in (p.stdout + p.stderr).strip().splitlines()[-3:])[:400]
                print(f"{name:24s} rc={p.returncode} rows={rows} :: {tail}", flush=True)
            except subprocess.TimeoutExpired:
                print(f"{name:24s} timed out", flush=True)


if __name__ == "__main__":
    main()
