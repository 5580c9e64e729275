"""Which sandbox layers this machine grants, and whether the judge-candidate channel works under them.

For each layer set (all layers, then all but the PID namespace, then none), a judge (this process)
shares an input and an output buffer with a sandboxed child, which computes out = 2 * in on the
device and replies; the judge checks the result and times 200 empty round trips.

    python benchmarks/sandbox_probe.py --device cuda
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CHILD = r'''
import json, os, socket, sys, time
import torch
from kernelmosaic.verify.channel import Channel, map_buffer
dev = torch.device(sys.argv[2])
if dev.type == "cuda":
    torch.cuda.init()
ch = Channel(socket.socket(fileno=int(sys.argv[1])))
try:
    procs = len([p for p in os.listdir("/proc") if p.isdigit()])
except OSError as e:
    procs = f"cannot list /proc: {e.strerror}"
ch.send_json({"event": "ready", "sandbox": json.loads(os.environ.get("KMOSAIC_SANDBOX", "{}")), "procs": procs,
              "uid": os.getuid()})
msg, fds = ch.recv_pickle()
x, k1 = map_buffer(msg["in"], fds[0] if fds else None, dev)
y, k2 = map_buffer(msg["out"], fds[1] if len(fds) > 1 else None, dev)
y.copy_(x * 2)
if dev.type == "cuda":
    torch.cuda.synchronize()
ch.send_json({"event": "done"})
while True:
    m, _ = ch.recv_pickle()
    if m == "exit":
        break
    if dev.type == "cuda":
        torch.cuda.synchronize()
    ch.send_json({"event": "done"})
'''


def probe(device: str, want: list[str]) -> dict:
    import torch

    from kernelmosaic.verify import sandbox
    from kernelmosaic.verify.channel import Channel, SharedBuffer

    dev = torch.device(device)
    wd = tempfile.mkdtemp(prefix="kmosaic-probe-")
    os.chmod(wd, 0o755)
    script = Path(wd) / "child.py"
    script.write_text(CHILD)
    os.chmod(script, 0o644)
    ch, theirs = Channel.pair()
    # "w:/path" in a set makes that path writable too (for finding what a layer must allow)
    cfg = sandbox.SandboxConfig(workdir=wd, want=[w for w in want if not w.startswith("w:")],
                                writable=[w[2:] for w in want if w.startswith("w:")])
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]), HOME=wd, CUPY_CACHE_DIR=wd + "/cupy")
    env.update(w[2:].split("=", 1) for w in want if w.startswith("e:"))  # "e:NAME=VALUE": an environment variable
    want = [w for w in want if not w.startswith("e:")]
    t0 = time.perf_counter()
    p = subprocess.Popen(sandbox.command(cfg, [sys.executable, str(script), str(theirs.fileno()), device]),
                         pass_fds=(theirs.fileno(),), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    theirs.close()
    out: dict = {"want": want}
    try:
        ready = ch.recv_json(timeout=120)
        out.update(startup_s=round(time.perf_counter() - t0, 3), sandbox=ready["sandbox"], procs_visible=ready["procs"],
                   uid=ready["uid"])
        x = SharedBuffer((1 << 20,), torch.float32, dev)
        y = SharedBuffer((1 << 20,), torch.float32, dev)
        x.tensor.copy_(torch.arange(1 << 20, dtype=torch.float32, device=dev))
        y.tensor.fill_(float("nan"))
        if dev.type == "cuda":
            torch.cuda.synchronize()
        ch.send_pickle({"in": x.desc(), "out": y.desc()}, [b.fd for b in (x, y) if b.fd is not None])
        ch.recv_json(timeout=120)
        out["shared_ok"] = bool(torch.equal(y.tensor, x.tensor * 2))
        ts = []
        for _ in range(200):
            t = time.perf_counter()
            ch.send_pickle("go")
            ch.recv_json(timeout=30)
            ts.append((time.perf_counter() - t) * 1e6)
        out["round_trip_us_median"] = round(statistics.median(ts), 1)
        ch.send_pickle("exit")
    except Exception as e:  # noqa: BLE001 - the report says what failed
        out["error"] = f"{type(e).__name__}: {e}"
    try:
        log = p.communicate(timeout=60)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        log = p.communicate()[0].decode(errors="replace")
    if "error" in out or p.returncode:
        out["log_tail"] = log[-2000:]
    out["rc"] = p.returncode
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--sets", default=None, help="layer sets to try, ';' between sets, ',' between layers (default: "
                    "all, all but pidns, all but pidns and uid, none)")
    args = ap.parse_args()
    from kernelmosaic.verify.sandbox import LAYERS

    sets = [[l for l in s.split(",") if l] for s in args.sets.split(";")] if args.sets else \
        [list(LAYERS), [l for l in LAYERS if l != "pidns"], [l for l in LAYERS if l not in ("pidns", "uid")], []]
    for want in sets:
        print(json.dumps(probe(args.device, want)), flush=True)


if __name__ == "__main__":
    main()
