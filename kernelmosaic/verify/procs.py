"""The judge's end of the processes it starts: the sandboxed candidate (and reference) process.

Torch-free, so that a judge process can start its candidate process before it imports torch
itself, and the two imports overlap.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from . import quiet, sandbox, zygote
from .builder import toolchain_paths
from .channel import Channel, ChannelClosed, ChannelTimeout, ProtocolError
from .pool import describe_exit


class JobFailed(Exception):
    """Stops the job with a verdict status; carries the verdict fields."""

    def __init__(self, status: str, kind: str, message: str, log: str = "", **extra):
        super().__init__(message)
        self.status = status
        self.error = {"kind": kind, "message": message, "log": log}
        self.extra = extra


class TaskProblem(Exception):
    """The reference itself is broken: the task is flagged, not the candidate."""


def _exc_text(e: BaseException, limit: int = 12) -> str:
    return "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-limit))



def _candidate_exec_paths() -> list[str]:
    """What a candidate process may execute besides Python: Triton's bundled ptxas and the CUDA
    toolkit (Triton compiles on first launch). No shell is among them."""
    out = []
    spec = importlib.util.find_spec("triton")
    if spec and spec.origin:
        out.append(str(Path(spec.origin).parent))
    for p in toolchain_paths():
        if "cuda" in p or "nvvm" in p:
            out.append(p)
    return out


def refused_layers_file(build_dir: str) -> Path:
    return Path(build_dir).parent / "sandbox-refused.json"


def protected_paths(build_dir: str, workdir: str | os.PathLike) -> list[str]:
    """What a sandboxed process that runs candidate code gets read-only (bind-mounted, where a
    mount namespace holds): the whole cache (baselines, ceilings, the reference compile cache,
    the builds), not only the builds. Landlock and the uid layer keep it unwritable too, but on a
    GPU whose driver refuses landlock, a judge that is not root has only this mount. Just the
    builds when the process's own folder lies inside the cache (a TMPDIR set there)."""
    root = Path(build_dir).parent
    return [build_dir] if Path(workdir).resolve().is_relative_to(root.resolve()) else [str(root)]


def reference_compile_dir(build_dir: str) -> Path | None:
    """The Inductor and Triton caches every reference process shares (writable by them alone:
    ``protected_paths`` and the uid layer keep candidates out), or None where it cannot be
    made, where a judge that is not root cannot write it (one made when the judge ran as root
    belongs to the reference id), or where the reference id could not reach it (a root judge's
    default cache under a /root that other users cannot enter): then each reference process
    compiles into its own folder."""
    root = Path(build_dir).parent / "reference-compile"
    try:
        for sub in ("inductor", "triton"):
            (root / sub).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if os.geteuid() != 0:
        return root if os.access(root / "inductor", os.W_OK) else None
    if sandbox.uid_layer_refusal() is None and sandbox.readable_by_others(str(root.parent)):
        return None
    return root


class CandidateProcess:
    """A sandboxed process running ``kernelmosaic.verify.candidate``, and the judge's end of its channel."""

    def __init__(self, device: str, build_dir: str, role: str = "candidate"):
        self.device, self.build_dir, self.role = device, build_dir, role
        self.root = Path(tempfile.mkdtemp(prefix=f"kmosaic-{role}-"))
        self.workdir = self.root / "work"  # the only place it may write
        self.workdir.mkdir()
        self.log_path = self.root / "log.txt"
        skip = {}
        try:
            skip = json.loads(refused_layers_file(build_dir).read_text()).get(device, {})
        except (OSError, ValueError, AttributeError):
            pass
        self.skipped = dict(skip)
        self.proc = None
        self.ready: dict | None = None
        self._start([layer for layer in sandbox.LAYERS if layer not in skip])

    def _start(self, want: list[str]) -> None:
        self.want = list(want)
        self.spawned = time.monotonic()
        if any(self.workdir.iterdir()):
            # a restart (a layer the device refused): the next process gets a user id of its own
            # and could not write into the folders the last one made (CuPy's cache, found on the
            # H200: the first nvrtc verdict of every new pool failed with PermissionError)
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir.mkdir(exist_ok=True)
        os.chmod(self.root, 0o755)
        self.ch, theirs = Channel.pair()
        shared = reference_compile_dir(self.build_dir) if self.role == "reference" else None
        if self.role == "reference":
            # the reference process runs the task's own code only; torch.compile of it calls
            # compilers and tools (inductor runs g++, openssl, ...), so it may execute any program.
            # Its compilers' caches are shared by every reference process (bench --warm-lanes
            # compiles ahead in parallel, and the timed pass hits), under one id of their own.
            cfg = sandbox.SandboxConfig(workdir=str(self.workdir), readonly=[self.build_dir], execute=["/"], want=want,
                                        writable=[str(shared)] if shared else [], uid=sandbox.REFERENCE_UID)
        else:
            cfg = sandbox.SandboxConfig(workdir=str(self.workdir), readonly=protected_paths(self.build_dir, self.workdir),
                                        execute=_candidate_exec_paths(), want=want)
        env = sandbox.child_env()
        w = str(self.workdir)
        # every cache a candidate's libraries write goes to its private folder
        env.update(HOME=w, TMPDIR=w, XDG_CACHE_HOME=w + "/.cache", CUPY_CACHE_DIR=w + "/cupy",
                   TRITON_CACHE_DIR=w + "/triton", TORCH_EXTENSIONS_DIR=w + "/torch_extensions",
                   TORCHINDUCTOR_CACHE_DIR=w + "/inductor", PYTHONDONTWRITEBYTECODE="1")
        if shared:
            env.update(TORCHINDUCTOR_CACHE_DIR=str(shared / "inductor"), TRITON_CACHE_DIR=str(shared / "triton"))
        self.log = open(self.log_path, "ab")
        # its own descriptors of the GPU's quiet lock and turnstile, for its start only (quiet.py)
        path = quiet.lock_path(self.device)
        lock = quiet.open_lock(path)
        turn = quiet.open_lock(quiet.turn_path(path)) if lock is not None else None
        locks = [fd for fd in (lock, turn) if fd is not None]
        try:
            self.proc = self._forked(cfg, env, theirs.fileno(), locks)
            if self.proc is None:
                argv = [sys.executable, "-m", "kernelmosaic.verify.candidate", str(theirs.fileno()), self.device,
                        *map(str, locks)]
                self.proc = subprocess.Popen(
                    sandbox.command(cfg, argv), pass_fds=(theirs.fileno(), *locks), stdin=subprocess.DEVNULL,
                    stdout=self.log, stderr=subprocess.STDOUT, env=env, close_fds=True)
                _oom_first(self.proc.pid)
        finally:
            for fd in locks:
                os.close(fd)
            theirs.close()

    def _forked(self, cfg: sandbox.SandboxConfig, env: dict, channel_fd: int, locks: list[int]):
        """The process forked by this judge's starter (zygote.py), which has torch imported
        already; None where there is none (``KMOSAIC_ZYGOTE=0``, or it could not start here)."""
        st = zygote.starter(self.device)
        if st is None:
            return None
        try:
            child = st.spawn(cfg.to_json(), env, self.role, self.device, channel_fd, self.log.fileno(), locks)
        except zygote.StarterGone as e:
            self.log.write(f"[judge] the process starter failed ({e}); starting a fresh interpreter\n".encode())
            self.log.flush()
            return None
        return child

    @property
    def started_by(self) -> str:
        """"starter" when forked by the judge's process starter (zygote.py), else "exec"."""
        return "starter" if isinstance(self.proc, zygote.Child) else "exec"

    def wait_ready(self, timeout: float) -> dict:
        """The sandbox report; restarts once without a layer the device's driver cannot run under."""
        if self.ready is not None:
            return self.ready
        msg = self._recv(timeout, "startup")
        if msg.get("event") != "ready":
            raise JobFailed("runtime_error", "protocol", "the candidate process did not start properly")
        if not msg.get("ok"):
            layers = msg.get("sandbox") or {}
            if self.device == "cuda" and layers.get("landlock", "").startswith("on"):
                # measured on an H200: CUDA's initialisation fails with error 304 under any landlock
                # ruleset. Fall back to the other layers, and remember it for the next processes.
                reason = f"off: the GPU driver does not start under it ({str(msg.get('error'))[:120]})"
                self.skipped["landlock"] = reason
                _remember_refusal(self.build_dir, self.device, "landlock", reason)
                self.kill()
                self._start([layer for layer in sandbox.LAYERS if layer not in self.skipped])
                return self.wait_ready(timeout)
            raise JobFailed("infra_error", "candidate_start", f"the candidate process could not start: {msg.get('error')}",
                            str(msg.get("log", ""))[-3000:], infra=True, fatal=True)
        layers = {k: str(v) for k, v in (msg.get("sandbox") or {}).items()}
        for k, v in self.skipped.items():
            layers[k] = v
        self.ready = {**msg, "sandbox": layers}
        return self.ready

    def stale(self) -> bool:
        """Started with a sandbox layer that another process has since found this device refuses:
        it would fail its start and begin again when first used, in a verdict's time."""
        if self.ready is not None:
            return False
        try:
            refused = json.loads(refused_layers_file(self.build_dir).read_text()).get(self.device, {})
        except (OSError, ValueError, AttributeError):
            return False
        return any(layer in refused for layer in self.want)

    def _recv(self, timeout: float | None, what: str, spin_s: float = 0.0) -> dict:
        try:
            return self.ch.recv_json(timeout, spin_s)
        except ChannelClosed:
            raise JobFailed("runtime_error", "crash", f"{self.exit_description()} during {what}", self.log_tail()) from None
        except ChannelTimeout:
            raise JobFailed("timeout", "timeout", f"the candidate process did not answer within {timeout:g} s ({what})") from None
        except ProtocolError as e:
            raise JobFailed("rejected", "rule", f"the candidate process broke the protocol: {e}",
                            rejection=("protocol", str(e))) from None

    def request(self, msg: dict, fds=(), on_build=None, what: str = "a call", spin_s: float = 0.0) -> dict:
        try:
            self.ch.send_pickle(msg, fds)
        except ChannelClosed:
            raise JobFailed("runtime_error", "crash", f"{self.exit_description()} before {what}", self.log_tail()) from None
        while True:
            reply = self._recv(None, what, spin_s)
            if reply["event"] == "build" and on_build is not None:
                answer, afds = on_build(reply.get("request"))
                try:
                    self.ch.send_pickle(answer, afds)
                except ChannelClosed:
                    raise JobFailed("runtime_error", "crash", f"{self.exit_description()} while building", self.log_tail()) from None
                finally:
                    for fd in afds:
                        os.close(fd)
                continue
            return reply

    def exit_description(self) -> str:
        try:
            rc = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return "the candidate process stopped answering"
        return describe_exit(rc, "the candidate process")

    def log_tail(self, limit: int = 6000) -> str:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - limit))
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, wait: bool = True) -> None:
        """SIGKILL the process and, with ``wait``, wait for it to be gone. Without, the caller
        must call ``reap`` before it relies on the process's GPU memory and context being gone."""
        if self.alive():
            try:
                self.proc.kill()  # the launcher; its PID namespace (when there is one) dies with it
            except ProcessLookupError:
                pass
            if wait:
                self.reap()
        self.ch.close()
        try:
            self.log.close()
        except OSError:
            pass

    def reap(self, timeout: float = 30.0) -> None:
        """Wait for a killed process to be gone: its exit is its CUDA context's teardown, which
        frees its GPU memory and would disturb a kernel timed meanwhile."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass

    def close(self, wait: bool = True) -> None:
        try:
            self.ch.send_pickle({"op": "exit"})
        except ChannelClosed:
            pass
        self.kill(wait)
        shutil.rmtree(self.root, ignore_errors=True)


def _oom_first(pid: int) -> None:
    """The kernel's OOM killer takes this process (and what it starts, which inherits the score)
    before the judge: a candidate that exhausts the host's memory dies itself, as its own
    runtime_error, rather than taking its judge down (which would be the verifier's infra_error).
    Written by the judge as soon as the launcher exists, before it starts the candidate; the
    candidate process writes it again itself where its sandbox allows."""
    try:
        with open(f"/proc/{pid}/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass


def _remember_refusal(build_dir: str, device: str, layer: str, reason: str) -> None:
    path = refused_layers_file(build_dir)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = {}
    data.setdefault(device, {})[layer] = reason
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    try:
        tmp.write_text(json.dumps(data, indent=1))
        os.replace(tmp, path)
    except OSError:
        pass
