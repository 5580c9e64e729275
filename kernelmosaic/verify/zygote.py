"""The process starter: a judge's child that has imported torch once and forks each sandboxed process.

Every job gets a fresh candidate process, and importing torch in it cost 1.6-1.9 s of a core on
the CI machine (``results/2026-12-06e-cpu``): most of a CPU verdict, and CPU that lanes sharing a
GPU host compete for. The starter pays that import once per judge. For each start the judge sends
the sandbox's configuration, the environment and the process's descriptors (its channel, its log,
the GPU's quiet locks); the starter forks, and the child applies the same layers that
``python -m kernelmosaic.verify.sandbox`` applies before it executes a new interpreter, then runs
``candidate.main`` in the interpreter it already has.

Why this keeps the boundary where it was:

- **The starter runs no candidate or task code** and never initialises CUDA (a CUDA context does
  not survive a fork, and each child makes its own, as an executed process did). It checks before
  it reports ready: no CUDA device file open, no thread beyond those its imports started. It holds nothing
  of any job: no inputs, no reference, no verdict. What a child inherits is the starter's memory
  (torch's import, and what may be left of earlier starts' requests: sandbox configurations and
  environments) and the descriptors of the start it was made for.
- **The child closes the starter's descriptors** (its channel to the judge, the signal pipe) before
  the sandbox is applied, so no candidate can ask the starter for an unsandboxed process.
  ``tests/test_zygote.py`` checks that a candidate's descriptors are its own, from C.
- **The starter is not dumpable and dies with its judge** (``PR_SET_PDEATHSIG``); every child dies
  with it in turn. Sandboxed processes cannot reach it: a PID namespace hides it, landlock scopes
  signals, seccomp denies ptrace, and a user id of their own owns nothing of it.
- **The judge keeps its own handle on each child**: a pidfd the starter opens right after the
  fork, so that a kill can never reach a reused pid; the exit status comes from the starter, which
  reaps.

What differs from an executed process, stated in ``docs/verification.md`` ("Known limits"): the
children of one starter share its address-space layout and Python's hash seed, and torch's
modules are the ones the starter imported (from the same files).

``KMOSAIC_ZYGOTE=0`` starts every process with a fresh interpreter instead (the way before, kept
for comparison and as the fallback when a starter cannot be started or cannot fork safely).
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

from . import sandbox
from .channel import Channel, ChannelClosed, ChannelTimeout, ProtocolError

READY_TIMEOUT_S = 240.0  # torch's import on a loaded machine; the judge's own start allows the same


_ON, _OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def setting() -> bool | None:
    """``KMOSAIC_ZYGOTE`` read: True (fork everywhere), False (nowhere) or None (unset: the
    default). Any other value is a ValueError that names it: a typo must not silently pick the
    default (the pool checks it as it starts, before any worker reads it)."""
    v = os.environ.get("KMOSAIC_ZYGOTE", "").strip().lower()
    if v in _ON or v in _OFF:
        return v in _ON
    if v:
        raise ValueError(f"KMOSAIC_ZYGOTE must be 1 (fork every candidate process from a starter), 0 (start each "
                         f"with a fresh interpreter) or unset (the same as 1), not {os.environ['KMOSAIC_ZYGOTE']!r}")
    return None


def enabled() -> bool:
    """``KMOSAIC_ZYGOTE``: 1 (or unset) forks on every device, 0 on none. On a GPU, forked processes
    were first run on an H100 (``results/2026-12-07-h100``): the GPU adversarial suite, every cheat
    and control under both policies, gave the same verdicts forked as executed. CUDA's driver is
    not fork-safe, so a starter that finds it initialised refuses to start (``_fork_unsafe``) and
    every process is executed instead."""
    given = setting()
    return True if given is None else given


class StarterGone(Exception):
    """The starter could not start a process (it did not start, or it died)."""


class Child:
    """A process the starter forked, with what the judge needs of ``subprocess.Popen``."""

    def __init__(self, starter: "Starter", pid: int, pidfd: int):
        self.starter, self.pid, self._pidfd = starter, pid, pidfd
        self.returncode: int | None = None

    def _exited(self, timeout: float | None) -> bool:
        if self._pidfd < 0:
            return True
        r, _, _ = select.select([self._pidfd], [], [], timeout)
        return bool(r)  # a pidfd is readable once its process has exited

    def _settle(self) -> None:
        self.returncode = self.starter.exit_status(self.pid, 10.0)
        if self._pidfd >= 0:
            os.close(self._pidfd)
            self._pidfd = -1

    def poll(self) -> int | None:
        if self.returncode is None and self._exited(0):
            self._settle()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not self._exited(timeout):
                raise subprocess.TimeoutExpired("candidate process", timeout)
            self._settle()
        return self.returncode

    def kill(self) -> None:
        if self._pidfd >= 0:
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass


# an exit status the starter could not tell (it died first): what its children get from
# PR_SET_PDEATHSIG, and what describe_exit reports as a kill
LOST_STATUS = -int(signal.SIGKILL)


class Starter:
    """The judge's end of one starter process (one per judge process and device)."""

    MODULE = "kernelmosaic.verify.zygote"

    def __init__(self, device: str):
        self.device = device
        self.ch, theirs = Channel.pair()
        # what its children would have been started with: a forked child's /proc/self/environ is
        # this process's first environment
        env = dict(sandbox.child_env(), PYTHONDONTWRITEBYTECODE="1")
        self.proc = subprocess.Popen([sys.executable, "-m", self.MODULE, str(theirs.fileno()), device],
                                     pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, env=env, close_fds=True)
        theirs.close()
        self.ready: dict | None = None
        self.broken: str | None = None
        self._exits: dict[int, int] = {}

    def alive(self) -> bool:
        return self.broken is None and self.proc.poll() is None

    def _fail(self, why: str) -> StarterGone:
        self.broken = why
        self.close()
        return StarterGone(why)

    def _recv(self, timeout: float | None, until_exit_of: int | None = None) -> tuple[dict, list[int]]:
        """The starter's next message other than an exit report (those are recorded), or, with
        ``until_exit_of``, the exit report of that child."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            msg, fds = self.ch.recv_json_with_fds(left)
            if msg["event"] != "exit":
                return msg, fds
            self._exits[int(msg["pid"])] = int(msg["returncode"])
            if until_exit_of is not None and until_exit_of in self._exits:
                return msg, fds

    def wait_ready(self) -> None:
        if self.ready is not None:
            return
        try:
            msg, _ = self._recv(READY_TIMEOUT_S)
        except (ChannelClosed, ChannelTimeout, ProtocolError) as e:
            raise self._fail(f"the process starter did not start ({type(e).__name__}: {e})") from None
        if msg.get("event") != "ready":
            raise self._fail(f"the process starter did not start: {str(msg)[:300]}")
        self.ready = msg

    def spawn(self, cfg_json: str, env: dict[str, str], role: str, device: str, channel_fd: int, log_fd: int,
              lock_fds: list[int]) -> Child:
        """A process running ``candidate.main`` in the sandbox ``cfg_json`` describes; the
        descriptors are duplicated into it (the caller still owns and closes its own)."""
        if self.broken:
            raise StarterGone(self.broken)
        self.wait_ready()
        req = {"op": "spawn", "cfg": cfg_json, "env": env, "role": role, "device": device, "locks": len(lock_fds)}
        try:
            self.ch.send_pickle(req, [channel_fd, log_fd, *lock_fds])
            msg, fds = self._recv(30.0)
        except (ChannelClosed, ChannelTimeout, ProtocolError) as e:
            raise self._fail(f"the process starter stopped answering ({type(e).__name__}: {e})") from None
        if msg.get("event") != "spawned" or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise self._fail(f"the process starter could not start a process: {str(msg)[:300]}")
        return Child(self, int(msg["pid"]), fds[0])

    def exit_status(self, pid: int, timeout: float) -> int:
        """The return code of an exited child (as Popen gives it), once the starter has reaped it."""
        deadline = time.monotonic() + timeout
        while pid not in self._exits:
            left = deadline - time.monotonic()
            if left <= 0 or self.broken:
                return LOST_STATUS
            try:
                msg, fds = self._recv(left, until_exit_of=pid)
            except (ChannelClosed, ChannelTimeout, ProtocolError):
                return LOST_STATUS
            for fd in fds:  # nothing but a spawn's reply carries one, and none is awaited here
                os.close(fd)
        return self._exits.pop(pid)

    def close(self) -> None:
        self.ch.close()  # the starter exits at the end of its channel; its children die with it
        if self.proc.poll() is None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_STARTERS: dict[str, Starter] = {}


def starter(device: str) -> Starter | None:
    """This process's starter for ``device``, started on first use; None when disabled."""
    if not enabled():
        return None
    s = _STARTERS.get(device)
    if s is not None and s.broken:
        # it could not start here, or failed a start (a kernel without pidfd_open, say): every
        # later start of this process executes a fresh interpreter rather than try it again.
        # A starter that died between starts (killed, out of memory) is replaced below
        return None
    if s is None or not s.alive():
        s = _STARTERS[device] = Starter(device)
    return s


# -- the starter process ------------------------------------------------------------------------------
def _child(msg: dict, fds: list[int], own: list[int]) -> None:
    """In a forked child: this start's descriptors only, the sandbox, then the candidate program.
    Never returns."""
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in own:  # the starter's channel and signal pipe: never within a candidate's reach
            os.close(fd)
        # as an executed program would be: dumpable (a user namespace's id maps are written
        # through /proc/self), and the OOM killer's first choice (procs._oom_first)
        sandbox.set_dumpable()
        try:
            with open("/proc/self/oom_score_adj", "w") as f:
                f.write("1000")
        except OSError:
            pass
        chan, log, *locks = fds
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        for fd in (null, log):
            if fd > 2:
                os.close(fd)
        keep = {0, 1, 2, chan, *locks}
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass  # the listing's own descriptor
        os.environ.clear()
        os.environ.update(msg["env"])
        sys.dont_write_bytecode = True
        import tempfile

        tempfile.tempdir = None  # computed again from this process's TMPDIR
        report = sandbox.enter(sandbox.SandboxConfig(**json.loads(msg["cfg"])))
        os.environ["KMOSAIC_SANDBOX"] = json.dumps(report)
        if sys.path:
            sys.path[0] = os.getcwd()  # as `python -m` started in the sandbox's folder has it
        from . import candidate

        sys.argv = [candidate.__file__, str(chan), msg["device"], *map(str, locks)]
        candidate.main()
    except BaseException:  # noqa: BLE001 - the judge sees a crash and this in the log
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)
    os._exit(0)


def _reap(ch: Channel) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        ch.send_json({"event": "exit", "pid": pid, "returncode": os.waitstatus_to_exitcode(status)})


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _open_devices() -> list[str]:
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            out.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass  # the listing's own descriptor, closed by now
    return out


def _fork_unsafe(torch, imported_threads: int) -> str | None:
    """Why a fork of this process would not give a working child, or None: CUDA's driver must not
    be initialised (a context, or even cuInit, does not survive a fork), nor threads made by running
    torch (OpenMP's pool hangs in a forked child) beyond the ones its libraries start as they load.
    A CUDA build of torch maps libcuda.so as it is imported (seen on the H100 with torch 2.11+cu130)
    without initialising it: the driver's state starts at cuInit, which opens the GPU's device
    files and starts threads of its own, and that is what is checked."""
    if torch.cuda.is_initialized():
        return "torch initialised CUDA"
    nvidia = [d for d in _open_devices() if d.startswith("/dev/nvidia")]
    if nvidia:
        return f"CUDA's driver has the GPU open ({', '.join(sorted(set(nvidia)))})"
    threads = _threads()
    if threads > imported_threads:
        return f"{threads - imported_threads} thread(s) started since the imports"
    return None


def main() -> None:
    fd, device = int(sys.argv[1]), sys.argv[2]
    t0 = time.perf_counter()
    sandbox.harden_judge()  # not dumpable: no process of the same user opens its descriptors
    sandbox.die_with_parent()
    from . import candidate

    if device != "cuda":
        candidate.keep_freed_memory()  # before torch allocates anything, as the candidate does
    import torch

    if device != "cuda":
        # what every candidate's start imports. Not on a GPU: importing it asks whether CUDA is
        # available, which initialises the driver (seen on the H100: /dev/nvidia* open, a thread),
        # and a driver does not survive a fork. A forked child imports it itself
        from torch.utils import cpp_extension  # noqa: F401

    imported_threads = _threads()  # OpenBLAS's pool, started as numpy loads (fork-safe: it has its own handlers)
    candidate.warm_dispatch(torch, "cpu")  # on the CPU whatever the device: no CUDA here
    why = _fork_unsafe(torch, imported_threads)
    if why:
        print(f"the process starter cannot fork safely: {why}", file=sys.stderr)
        os._exit(2)
    # Ctrl-C reaches the whole process group: the judge decides, and its children keep the
    # handling they would have had as its own children
    sigint = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ch = Channel(socket.socket(fileno=fd))
    rfd, wfd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wfd)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    own = [fd, rfd, wfd]
    try:
        ch.send_json({"event": "ready", "pid": os.getpid(), "import_s": round(time.perf_counter() - t0, 3)})
        while True:
            r, _, _ = select.select([ch.sock, rfd], [], [])
            if rfd in r:
                try:
                    while os.read(rfd, 512):
                        pass
                except BlockingIOError:
                    pass
            _reap(ch)
            if ch.sock not in r:
                continue
            msg, fds = ch.recv_pickle()
            if msg.get("op") != "spawn":
                ch.send_json({"event": "error", "message": f"unknown op {msg.get('op')!r}"})
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                signal.signal(signal.SIGINT, sigint)
                _child(msg, fds, own)
            for f in fds:
                os.close(f)
            # opened before this process could reap the child: it can only ever name that child
            pidfd = os.pidfd_open(pid)
            try:
                ch.send_json({"event": "spawned", "pid": pid}, fds=[pidfd])
            finally:
                os.close(pidfd)
    except ChannelClosed:
        pass
    os._exit(0)  # the children die with this process (PR_SET_PDEATHSIG)


if __name__ == "__main__":
    main()
