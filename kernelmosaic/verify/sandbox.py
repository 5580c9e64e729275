"""The sandbox that candidate and builder processes start in: Linux's own isolation, layer by layer.

``python -m kernelmosaic.verify.sandbox CONFIG_JSON -- PROGRAM ARGS...`` applies the layers in
CONFIG, then executes PROGRAM. Nothing here needs new privileges; every layer that a machine
refuses (containers often refuse some) is skipped and reported, and the layers that held are
passed to PROGRAM in ``KMOSAIC_SANDBOX`` (JSON), which the candidate process reports to the
judge before any candidate code runs. The layers, in the order they are applied:

``uid``          a user id of its own (1_000_000 + the launcher's pid), when we are root and the
                 interpreter and the code are readable by other users. Then the candidate owns
                 nothing of ours, cannot open another process's /proc entries and cannot signal it.
                 Reference processes (trusted task code) share one fixed id, REFERENCE_UID, so that
                 they can share a compile cache that no candidate's id can write.
``userns``       a user namespace: whatever the candidate is inside, it holds no capability outside.
``netns``        a network namespace with no interface up: no network at all.
``pidns``        a PID namespace with its own /proc: no other process is visible, and when the
                 candidate process (its PID 1) exits, the kernel kills everything it started.
``mountns``      a private mount namespace where the shared caches are bind-mounted read-only.
``rlimits``      no core files, a cap on file sizes.
``no_new_privs`` no set-uid program can give privileges back.
``landlock``     file-system access by allow-list: read the system, write only the private temp
                 dir (and GPU device files), execute only the listed programs (no shell), read no
                 other process's /proc entries, signal no process outside the sandbox.
``seccomp``      system calls that reach other processes or change the isolation fail with EPERM:
                 ptrace, process_vm_*, pidfd_getfd, mount, setns, unshare, bpf, perf_event_open,
                 io_uring, setsid/setpgid (a candidate cannot leave the process group that the
                 judge kills), internet sockets when there is no network namespace.
``pdeathsig``    the process dies with its launcher, which dies with the judge.

The judge's side never runs in here; it marks itself non-dumpable (see ``harden_judge``) so
that even a process of the same user cannot open its file descriptors through /proc.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import json
import os
import platform
import re
import resource
import signal
import stat
import struct
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

# below every candidate's id (1_000_000 + a pid, and a pid is at least 1)
REFERENCE_UID = 999_999

LAYERS = ("uid", "userns", "netns", "pidns", "mountns", "rlimits", "no_new_privs", "landlock", "seccomp", "pdeathsig")

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 1, 4, 38, 22
SECCOMP_MODE_FILTER = 2


@dataclass
class SandboxConfig:
    """What a sandboxed process may touch. Paths are absolute."""

    workdir: str  # private, writable; created by the caller
    readonly: list[str] = field(default_factory=list)  # shared caches: bind-mounted read-only where possible
    writable: list[str] = field(default_factory=list)  # more writable places (a builder's staging dir)
    execute: list[str] = field(default_factory=list)  # programs or folders that may be executed
    devices: bool = True  # read/write the GPU's device files
    fsize_bytes: int = 8 << 30
    want: list[str] = field(default_factory=lambda: list(LAYERS))
    # the uid layer's id: None gives the process one of its own (1_000_000 + the launcher's pid);
    # a fixed id is for processes that share ``writable`` folders across their lifetimes
    uid: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))


def command(cfg: SandboxConfig, argv: list[str]) -> list[str]:
    """The argv that runs ``argv`` inside the sandbox described by ``cfg``."""
    return [sys.executable, "-m", "kernelmosaic.verify.sandbox", cfg.to_json(), "--", *argv]


# variables of the judge's environment that name a credential: the user's shell that runs
# `kmosaic generate` holds its endpoint's API key, and a sandboxed process could read it (getenv,
# /proc/self/environ, even `#include` in a build) and put it into a log or an output that feedback,
# and so a dataset, quotes
_CREDENTIAL = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE", re.IGNORECASE)


def without_credentials(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` less every variable whose name looks like a credential's: what any sandboxed
    process (candidate, reference, build) is started with."""
    return {k: v for k, v in env.items() if not _CREDENTIAL.search(k)}


def child_env() -> dict[str, str]:
    """The environment a candidate or reference process (and the starter that forks them) starts
    from: this process's, less credentials and the verifier's own settings (``KMOSAIC_*``; the
    landlock switch stays, as it says which layer the machine refuses)."""
    return {k: v for k, v in without_credentials(os.environ).items()
            if not k.startswith("KMOSAIC_") or k == "KMOSAIC_LANDLOCK_DROP"}


def harden_judge() -> None:
    """Called by judge-side processes: not dumpable, so /proc/<pid>/fd and ptrace need a capability
    in the judge's own user namespace, which no sandboxed process has, whatever its uid."""
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def set_dumpable() -> None:
    """What executing a program does: a process forked from a hardened one (zygote.py) is made
    dumpable again before its layers, which write its id maps through /proc/self."""
    _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)


def die_with_parent() -> bool:
    return _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0


# -- layers ----------------------------------------------------------------------------------------
def _err(what: str) -> str:
    e = ctypes.get_errno()
    return f"off: {what}: {os.strerror(e) if e else 'failed'}"


def readable_by_others(path: str) -> str | None:
    """None when every folder above ``path`` can be searched, and the path read, by any user;
    else the first one that cannot."""
    p = Path(path).resolve()
    for anc in [*reversed(p.parents), p]:
        try:
            st = anc.stat()
        except OSError:
            continue
        need = stat.S_IXOTH if stat.S_ISDIR(st.st_mode) else stat.S_IROTH
        if not st.st_mode & need:
            return str(anc)
    return None


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def uid_layer_refusal() -> str | None:
    """Why this process could not switch a child to a user id of its own, or None when it can:
    the interpreter and the code must be readable by the id it switches to."""
    if os.geteuid() != 0:
        return "not root (cannot switch users)"
    import kernelmosaic

    for need in (sys.executable, sys.prefix, str(Path(kernelmosaic.__file__).parent), *sys.path[1:4]):
        if need and os.path.exists(need):
            bad = readable_by_others(need)
            if bad:
                return f"{bad} is not readable by other users"
    return None


def _uid_layer(cfg: SandboxConfig, report: dict) -> int:
    """Switch to a user id of our own; returns the uid now in force outside any namespace."""
    if "uid" not in cfg.want:
        report["uid"] = "off: not asked for"
        return os.getuid()
    why_not = uid_layer_refusal()
    if why_not:
        report["uid"] = f"off: {why_not}"
        return os.getuid()
    uid = 1_000_000 + os.getpid() if cfg.uid is None else cfg.uid
    try:
        os.chown(cfg.workdir, uid, uid)
        for d in cfg.writable:
            if cfg.uid is None:
                os.chown(d, uid, uid)
            else:
                _chown_tree(d, uid)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except OSError as e:
        report["uid"] = f"off: {e.strerror}"
        return os.getuid()
    # a uid change makes the process non-dumpable, which would hide its own /proc/self/uid_map
    _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    report["uid"] = "on"
    return uid


def _chown_tree(root: str, uid: int) -> None:
    """A shared writable folder, with what earlier processes left in it, made ``uid``'s: walked
    only when its top is not yet (a cache made before the judge ran as root, say)."""
    if os.stat(root).st_uid == uid:
        return
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            os.lchown(os.path.join(d, n), uid, uid)
    os.chown(root, uid, uid)


def _namespaces(cfg: SandboxConfig, report: dict, uid: int, gid: int) -> bool:
    """Enter new namespaces; returns True when a PID namespace was made (the caller forks)."""
    want = [n for n in ("userns", "netns", "pidns", "mountns") if n in cfg.want]
    if "userns" not in want:
        for n in ("userns", "netns", "pidns", "mountns"):
            report[n] = "off: not asked for" if n not in cfg.want else "off: needs a user namespace"
        return False
    flags = {"userns": CLONE_NEWUSER, "netns": CLONE_NEWNET, "pidns": CLONE_NEWPID, "mountns": CLONE_NEWNS}
    # try all of them at once, then fewer: some machines allow a user namespace but not a PID one
    tries = [want] + [[n for n in want if n != drop] for drop in ("pidns", "netns", "mountns")] + [["userns"]]
    for names in tries:
        f = 0
        for n in names:
            f |= flags[n]
        if _libc.unshare(f) == 0:
            break
        last = _err("unshare")
    else:
        for n in want:
            report[n] = last
        return False
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"0 {uid} 1")
        _write("/proc/self/gid_map", f"0 {gid} 1")
    except OSError as e:
        report["userns"] = f"on (no id map: {e.strerror})"
    for n in want:
        if n not in report:
            report[n] = "on" if n in names else "off: refused by this machine"
    if "mountns" in names:
        if _libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            report["mountns"] = _err("making mounts private")
        else:
            ro_done = []
            for d in cfg.readonly:
                if not os.path.isdir(d):
                    continue
                b = d.encode()
                if _libc.mount(b, b, None, MS_BIND | MS_REC, None) == 0 and \
                        _libc.mount(None, b, None, MS_BIND | MS_REMOUNT | MS_RDONLY, None) == 0:
                    ro_done.append(d)
            report["mountns"] = "on" + ("" if len(ro_done) == len([d for d in cfg.readonly if os.path.isdir(d)]) else " (some caches not read-only)")
    return "pidns" in names


def _mount_proc(report: dict) -> bool:
    """In the new PID namespace: a /proc that shows only its processes."""
    if report.get("mountns") != "on" and not str(report.get("mountns", "")).startswith("on"):
        report["pidns"] = "on (the old /proc still shows other processes: no mount namespace)"
        return False
    if _libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None) != 0:
        report["pidns"] = "on (" + _err("mounting a new /proc")[5:] + "; the old /proc still shows other processes)"
        return False
    return True


def _rlimits(cfg: SandboxConfig, report: dict) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        lim = cfg.fsize_bytes if hard == resource.RLIM_INFINITY else min(cfg.fsize_bytes, hard)
        resource.setrlimit(resource.RLIMIT_FSIZE, (lim, lim))
        report["rlimits"] = "on"
    except (OSError, ValueError) as e:
        report["rlimits"] = f"off: {e}"


# landlock (linux/landlock.h)
_LL_EXEC, _LL_WRITE, _LL_READ_FILE, _LL_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_LL_DIR_WRITE = sum(1 << i for i in range(4, 13))  # remove/make dir, file, char, sock, fifo, block, sym
_LL_REFER, _LL_TRUNCATE = 1 << 13, 1 << 14
_LL_SCOPE_ABSTRACT_UNIX, _LL_SCOPE_SIGNAL = 1 << 0, 1 << 1
_NR = {"x86_64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445, "landlock_restrict_self": 446},
       "aarch64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445, "landlock_restrict_self": 446}}


def _landlock(cfg: SandboxConfig, report: dict, proc_is_private: bool) -> None:
    nr = _NR.get(platform.machine())
    if nr is None:
        report["landlock"] = f"off: no syscall numbers for {platform.machine()}"
        return
    abi = _libc.syscall(nr["landlock_create_ruleset"], None, 0, 1)
    if abi < 1:
        report["landlock"] = _err("landlock is not enabled in this kernel")
        return
    read = _LL_READ_FILE | _LL_READ_DIR
    handled = _LL_EXEC | _LL_WRITE | read | _LL_DIR_WRITE
    if abi >= 2:
        handled |= _LL_REFER
    if abi >= 3:
        handled |= _LL_TRUNCATE
    scoped = (_LL_SCOPE_ABSTRACT_UNIX | _LL_SCOPE_SIGNAL) if abi >= 6 else 0
    # for finding which right a machine's driver needs: KMOSAIC_LANDLOCK_DROP=scope,read,...
    for d in os.environ.get("KMOSAIC_LANDLOCK_DROP", "").replace("+", ",").split(","):
        handled &= ~{"exec": _LL_EXEC, "write": _LL_WRITE, "read": read, "dirwrite": _LL_DIR_WRITE, "refer": _LL_REFER,
                     "truncate": _LL_TRUNCATE}.get(d, 0)
        scoped &= ~{"scope": scoped, "unix": _LL_SCOPE_ABSTRACT_UNIX, "signal": _LL_SCOPE_SIGNAL}.get(d, 0)
    attr = struct.pack("QQQ", handled, 0, scoped)
    buf = ctypes.create_string_buffer(attr)
    fd = _libc.syscall(nr["landlock_create_ruleset"], buf, len(attr) if abi >= 6 else 8, 0)
    if fd < 0:
        report["landlock"] = _err("landlock_create_ruleset")
        return
    file_rights = _LL_EXEC | _LL_WRITE | _LL_READ_FILE | (_LL_TRUNCATE if abi >= 3 else 0)
    problems: list[str] = []

    def allow(path: str, access: int) -> None:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return
        try:
            if not stat.S_ISDIR(os.fstat(pfd).st_mode):
                access &= file_rights
            rule = ctypes.create_string_buffer(struct.pack("=Qi", access & handled, pfd))
            if _libc.syscall(nr["landlock_add_rule"], fd, 1, rule, 0) != 0:
                problems.append(f"{path}: {os.strerror(ctypes.get_errno())}")
        finally:
            os.close(pfd)

    # read the whole system but /proc (other processes' entries hold their file descriptors)
    for entry in os.listdir("/"):
        if entry != "proc":
            allow("/" + entry, read)
    if proc_is_private:
        allow("/proc", read)
    else:
        # the NVIDIA driver reads /proc/devices and /proc/driver/nvidia; torch and glibc read the rest
        for p in (f"/proc/{os.getpid()}", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/driver", "/proc/sys",
                  "/proc/filesystems", "/proc/version", "/proc/loadavg", "/proc/devices", "/proc/modules",
                  "/proc/self", "/proc/thread-self", "/proc/mounts", "/proc/cmdline"):
            allow(p, read)
    for d in [cfg.workdir, *cfg.writable]:
        allow(d, read | _LL_WRITE | _LL_DIR_WRITE | _LL_REFER | _LL_TRUNCATE | _LL_EXEC)
    allow("/dev/null", _LL_WRITE | _LL_READ_FILE)
    if cfg.devices:
        try:
            for n in os.listdir("/dev"):
                if n.startswith("nvidia"):
                    p = "/dev/" + n
                    allow(p, (read | _LL_WRITE) if os.path.isdir(p) else (_LL_READ_FILE | _LL_WRITE))
                    if os.path.isdir(p):
                        for m in os.listdir(p):
                            allow(f"{p}/{m}", _LL_READ_FILE | _LL_WRITE)
        except OSError:
            pass
    # execve also opens the ELF interpreter (the dynamic loader) for execution
    # execute only (reading is granted above, and never for /proc): "/" here means any program
    for p in {os.path.realpath(sys.executable), *_loaders(), *cfg.execute}:
        allow(p, _LL_EXEC)
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        report["landlock"] = _err("no_new_privs")
        os.close(fd)
        return
    if _libc.syscall(nr["landlock_restrict_self"], fd, 0) != 0:
        report["landlock"] = _err("landlock_restrict_self")
    else:
        report["landlock"] = f"on (ABI {abi}" + (", signals scoped" if scoped else "") + ")" + (
            f" with {len(problems)} paths not added" if problems else "")
        if report["landlock"].startswith("on (") and not problems:
            report["landlock"] = "on"
            report["landlock_abi"] = str(abi)
    os.close(fd)


def _loaders() -> list[str]:
    out = []
    for d in ("/lib64", "/lib", "/usr/lib64", "/usr/lib"):
        try:
            for n in os.listdir(d):
                if n.startswith("ld-linux") or n.startswith("ld64"):
                    out.append(os.path.realpath(os.path.join(d, n)))
        except OSError:
            continue
    return out


# seccomp: a BPF filter that returns EPERM for the calls below (x86_64 only)
_SYSCALLS_X86_64 = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "pidfd_getfd": 438, "pidfd_open": 434,
    "kcmp": 312, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "setns": 308, "unshare": 272,
    "bpf": 321, "perf_event_open": 298, "keyctl": 250, "add_key": 248, "request_key": 249, "userfaultfd": 323,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
    "reboot": 169, "swapon": 167, "swapoff": 168, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "setsid": 112, "setpgid": 109, "open_by_handle_at": 304, "name_to_handle_at": 303,
    "fsopen": 430, "fsmount": 432, "move_mount": 429, "open_tree": 428, "mount_setattr": 442,
}
_NR_SOCKET_X86_64 = 41
_AUDIT_ARCH_X86_64 = 0xC000003E


def _seccomp(report: dict, deny_inet: bool) -> None:
    if platform.machine() != "x86_64":
        report["seccomp"] = f"off: no filter for {platform.machine()}"
        return
    # struct sock_filter {u16 code; u8 jt; u8 jf; u32 k}
    LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06
    ALLOW, EPERM, KILL = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x80000000
    nrs = sorted(set(_SYSCALLS_X86_64.values()))
    sock = 5 if deny_inet else 0
    allow_at = 4 + len(nrs) + sock  # index of the ALLOW return; EPERM follows it
    eperm_at = allow_at + 1
    # a jump at index i with offset k lands on i + 1 + k
    prog: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (JEQ_K, 1, 0, _AUDIT_ARCH_X86_64),
        (RET_K, 0, 0, KILL),
        (LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
    ]
    for n in nrs:
        prog.append((JEQ_K, eperm_at - (len(prog) + 1), 0, n))
    if deny_inet:
        # socket(AF_INET=2 / AF_INET6=10 / AF_PACKET=17, ...): the low word of arg0 is at offset 16
        p = len(prog)
        prog += [(JEQ_K, 0, allow_at - (p + 1), _NR_SOCKET_X86_64), (LD_W_ABS, 0, 0, 16),
                 (JEQ_K, eperm_at - (p + 3), 0, 2), (JEQ_K, eperm_at - (p + 4), 0, 10), (JEQ_K, eperm_at - (p + 5), 0, 17)]
    assert len(prog) == allow_at
    prog += [(RET_K, 0, 0, ALLOW), (RET_K, 0, 0, EPERM)]
    raw = b"".join(struct.pack("HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw)
    fprog = struct.pack("HxxxxxxQ", len(prog), ctypes.addressof(buf))
    pbuf = ctypes.create_string_buffer(fprog)
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        report["seccomp"] = _err("no_new_privs")
        return
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, pbuf, 0, 0) != 0:
        report["seccomp"] = _err("seccomp filter")
        return
    report["seccomp"] = "on" + (" (internet sockets denied)" if deny_inet else "")



def apply(cfg: SandboxConfig) -> dict[str, str]:
    """Apply every layer to this process (forking once for a PID namespace). Returns the report."""
    report: dict[str, str] = {}
    gid = os.getgid()
    uid = _uid_layer(cfg, report)
    if report.get("uid") == "on":
        gid = uid
    new_pid = _namespaces(cfg, report, uid, gid)
    if new_pid:
        pid = os.fork()
        if pid:
            # the launcher: wait for the namespace's PID 1 and exit as it did
            die_with_parent()
            while True:
                try:
                    _, status = os.waitpid(pid, 0)
                    break
                except ChildProcessError:
                    os._exit(1)
                except InterruptedError:
                    continue
            if os.WIFSIGNALED(status):
                os._exit(128 + os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status))
    proc_private = _mount_proc(report) if new_pid else False
    _rlimits(cfg, report)
    if "landlock" in cfg.want:
        _landlock(cfg, report, proc_private)
    else:
        report["landlock"] = "off: not asked for"
    if "seccomp" in cfg.want:
        _seccomp(report, deny_inet=report.get("netns") != "on")
    else:
        report["seccomp"] = "off: not asked for"
    nnp = _libc.prctl(39, 0, 0, 0, 0)  # PR_GET_NO_NEW_PRIVS
    if nnp != 1 and "no_new_privs" in cfg.want:
        _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        nnp = _libc.prctl(39, 0, 0, 0, 0)
    report["no_new_privs"] = "on" if nnp == 1 else "off: refused"
    if "pdeathsig" in cfg.want and die_with_parent():
        report["pdeathsig"] = "on"
    else:
        report["pdeathsig"] = "off"
    return {k: report.get(k, "off") for k in LAYERS}


def enter(cfg: SandboxConfig) -> dict[str, str]:
    """Apply every layer, then move into the sandbox's folder; returns the report that the
    program run in it passes on to its judge."""
    try:
        report = apply(cfg)
    except Exception as e:  # noqa: BLE001 - a layer that breaks is reported, never fatal
        report = {"error": f"{type(e).__name__}: {e}"}
    os.chdir(cfg.workdir)
    return report


def main() -> None:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print("usage: python -m kernelmosaic.verify.sandbox CONFIG_JSON -- PROGRAM ARGS...", file=sys.stderr)
        os._exit(2)
    cfg = SandboxConfig(**json.loads(sys.argv[1]))
    argv = sys.argv[3:]
    env = dict(os.environ)
    env["KMOSAIC_SANDBOX"] = json.dumps(enter(cfg))
    try:
        os.execve(argv[0], argv, env)
    except OSError as e:
        print(f"sandbox: cannot execute {argv[0]}: {e}", file=sys.stderr)
        os._exit(127)


if __name__ == "__main__":
    main()
