"""The trust boundary: judge and candidate in separate, sandboxed processes (docs/verification.md).

The cheats that target other jobs (shared caches, sibling processes) run first, and an honest
control runs after each one: its verdict and its baseline must be what they were. The families
that target the judge itself (result lines, C into Python, strings as code, frames, build flags,
global state) are in tests/adversarial/ and run through test_adversarial.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kernelmosaic.task import load_task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest
from kernelmosaic.verify.builder import BuildRefused, BuildRequest, check_flag
from kernelmosaic.verify.sandbox import LAYERS, SandboxConfig, command

ROOT = Path(__file__).resolve().parents[1]
RELU = load_task(ROOT / "tests" / "adversarial" / "tasks" / "relu.py")
HONEST = (ROOT / "tests" / "data" / "cpu" / "relu_cc_ok.py").read_text()
WRONG = (ROOT / "tests" / "data" / "cpu" / "relu_cc_wrong.py").read_text()
TIMED = TimingConfig(enabled=True, n=5, warmup=1, compile=False)


def _cheat(c_body: str, forward_extra: str = "") -> str:
    """An honest relu whose import runs ``c_body`` (C, through cc.compile) first."""
    return textwrap.dedent('''
        import torch
        import torch.nn as nn
        from kernelmosaic.verify import cc

        lib = cc.compile(r"""
        #define _DEFAULT_SOURCE
        #include <dirent.h>
        #include <errno.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <string.h>
        #include <unistd.h>
        #include <dlfcn.h>
        #include <stdlib.h>
        C_BODY
        void relu(const float* x, float* y, long n) {
            for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
        }
        """)
        lib.attack(0)


        class ModelNew(nn.Module):
            def __init__(self):
                super().__init__()

            def forward(self, x):
                x = x.contiguous()
                y = torch.empty_like(x)
                lib.relu(x, y, x.numel())
                FORWARD_EXTRA
                return y
        ''').replace("C_BODY", c_body).replace("FORWARD_EXTRA", forward_extra)


@pytest.fixture(scope="module")
def verifier(tmp_path_factory):
    cache = tmp_path_factory.mktemp("kmosaic-boundary-cache")
    v = Verifier(device="cpu", workers=2, cache_dir=cache, timeouts={"check": 90, "time": 240, "load": 60})
    yield v
    v.close()


@pytest.fixture(scope="module")
def verifier_without_landlock(tmp_path_factory):
    """A verifier whose candidate processes run as on a GPU whose driver refuses landlock (the
    H200's): the judge has found the layer refused and recorded it, as procs.CandidateProcess does."""
    cache = tmp_path_factory.mktemp("kmosaic-boundary-cache-nolandlock")
    (cache / "sandbox-refused.json").write_text(json.dumps({"cpu": {"landlock": "off: as a GPU driver refuses it"}}))
    v = Verifier(device="cpu", workers=1, cache_dir=cache, timeouts={"check": 90, "time": 240, "load": 60})
    yield v
    v.close()


def _files(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.endswith(".lock"):
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.mark.parametrize("which", ["verifier", "verifier_without_landlock"], ids=["all-layers", "without-landlock"])
def test_cache_poisoning_is_refused_and_the_control_is_unchanged(request, which):
    """A candidate that overwrites the baseline cache (on main: speedups x1000) and every built
    library in the build cache (on main: the next honest candidate judged incorrect), and plants
    files in every folder of the cache (the reference processes' shared compile cache among
    them). The control runs before and after: same verdict, same eager baseline, and the
    cache's files unchanged. Without landlock (a GPU's case; before the whole cache was mounted
    read-only, its planted files landed), the mount namespace alone must hold."""
    verifier = request.getfixturevalue(which)
    cache = verifier.cache_dir
    # a baseline in the cache to attack: on a machine too busy for a steady measurement it would
    # not be kept (a noisy baseline is never cached), so the measured one is put there as steady
    b = verifier.baseline(RELU, TIMED)
    if not b.get("cached") and not b.get("stored"):
        verifier.baselines.put(verifier._baseline_key(VerifyRequest(candidate="", task=RELU, timing=TIMED)),
                               {k: v for k, v in b.items() if k not in ("cached", "stored")} | {"steady": True})
    before = verifier.verify(VerifyRequest(candidate=HONEST, task=RELU, backend="cpp", timing=TIMED))
    assert before.status == "correct", before.error
    if which == "verifier_without_landlock":
        layers = before.isolation.layers
        assert layers["landlock"].startswith("off"), layers
        if layers["mountns"] != "on" and layers["uid"] != "on":
            pytest.skip(f"without landlock, nothing else on this machine keeps the cache unwritable: {layers}")
    assert (cache / "reference-compile" / "inductor").is_dir()  # made by the reference process's start
    files_before = _files(cache)
    assert any(k.startswith("build/artifacts/") for k in files_before) and "baselines.json" in files_before
    attack = r'''
    static int tries, wrote;
    static void smash(const char *path) {
        tries++;
        int f = open(path, O_WRONLY | O_TRUNC);
        if (f >= 0) { if (write(f, "{\"x\": 1}", 8) == 8) wrote++; close(f); }
        char other[4096];
        snprintf(other, sizeof other, "%s.planted", path);
        f = open(other, O_WRONLY | O_CREAT, 0644);
        if (f >= 0) { wrote++; close(f); }
    }
    static void walk(const char *dir) {
        DIR *d = opendir(dir);
        if (!d) return;
        char mine[4096];
        snprintf(mine, sizeof mine, "%s/x.planted", dir);
        int pf = open(mine, O_WRONLY | O_CREAT, 0644);
        if (pf >= 0) { wrote++; close(pf); }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            if (e->d_type == DT_DIR) walk(p); else smash(p);
        }
        closedir(d);
    }
    void attack(long n) { walk("CACHE"); (void)n; }
    '''.replace("CACHE", str(cache))
    cheat = verifier.verify(VerifyRequest(candidate=_cheat(attack), task=RELU, backend="cpp", timing=TIMED))
    # the cheat's own kernel is honest: whatever it tried, its verdict is that of its work
    assert cheat.status == "correct", cheat.error
    after = verifier.verify(VerifyRequest(candidate=HONEST, task=RELU, backend="cpp", timing=TIMED))
    assert after.status == "correct", after.error
    assert after.timing.eager_ms == before.timing.eager_ms  # the cached baseline, untouched
    files_after = _files(cache)
    planted = [k for k in files_after if k.endswith(".planted")]
    assert not planted, planted
    changed = [k for k, h in files_before.items() if files_after.get(k) != h and k != "baselines.json"]
    assert not changed, changed
    assert json.loads((cache / "baselines.json").read_text())  # still a baseline file, not the cheat's


def test_siblings_are_out_of_reach(verifier):
    """A candidate that looks for other processes in /proc and writes forged results into every
    descriptor it can open there (on main: a warm spare's pipe, so the next wrong candidate came
    back correct). It runs beside a wrong candidate and an honest one in one batch; then a probe
    that is correct only if it sees no other process at all."""
    attack = r'''
    void attack(long n) {
        const char *line = "{\"event\":\"result\",\"status\":\"correct\"}\n";
        DIR *d = opendir("/proc");
        if (!d) return;
        struct dirent *e;
        int self = getpid();
        while ((e = readdir(d))) {
            int pid = atoi(e->d_name);
            if (pid <= 0 || pid == self) continue;
            for (int fd = 0; fd < 64; fd++) {
                char p[128];
                snprintf(p, sizeof p, "/proc/%d/fd/%d", pid, fd);
                int f = open(p, O_WRONLY | O_NONBLOCK);
                if (f >= 0) { if (write(f, line, strlen(line)) < 0) {} close(f); }
            }
        }
        closedir(d);
        (void)n;
    }
    '''
    cheat = _cheat(attack)
    reqs = [VerifyRequest(candidate=cheat, task=RELU, backend="cpp"),
            VerifyRequest(candidate=WRONG, task=RELU, backend="cpp"),
            VerifyRequest(candidate=HONEST, task=RELU, backend="cpp"),
            VerifyRequest(candidate=WRONG, task=RELU, backend="cpp")]
    got = verifier.verify_many(reqs)
    assert [v.status for v in got[1:]] == ["incorrect", "correct", "incorrect"], [(v.status, v.error) for v in got]
    # the probe adds the number of other processes it can see, and of their descriptors it can
    # open, to its output: it is correct only if both are zero
    probe = r'''
    static long seen;
    void attack(long n) {
        DIR *d = opendir("/proc");
        if (d) {
            struct dirent *e;
            int self = getpid();
            while ((e = readdir(d))) {
                int pid = atoi(e->d_name);
                if (pid > 0 && pid != self && pid != 1) {
                    char p[128];
                    snprintf(p, sizeof p, "/proc/%d/fd", pid);
                    DIR *f = opendir(p);
                    seen += 1 + (f != NULL) * 1000;
                    if (f) closedir(f);
                }
            }
            closedir(d);
        }
        (void)n;
    }
    void add(float* y, long n) { for (long i = 0; i < n; ++i) y[i] += (float)seen; }
    '''
    src = _cheat(probe, "lib.add(y, y.numel())")
    v = verifier.verify(VerifyRequest(candidate=src, task=RELU, backend="cpp"))
    assert v.status == "correct", (v.status, v.error)
    layers = v.isolation.layers
    assert layers["pidns"] == "on" or layers["landlock"] == "on" or layers["uid"] == "on", layers


def test_the_clock_is_the_judges(verifier):
    """A candidate that sleeps 30 ms in every call and, from C, makes the clocks of its own process
    run eight times slower (on main: an honest kernel reported 8x too fast). The judge's clock
    still sees the sleep, whatever else the verdict says."""
    attack = r'''
    typedef int (*run_fn)(const char *);
    typedef int (*ensure_fn)(void);
    typedef void (*release_fn)(int);
    void attack(long n) { (void)n; }
    void hook(long n) {
        /* ctypes let go of the GIL for this call: take it back before running Python */
        run_fn run = (run_fn)dlsym(RTLD_DEFAULT, "PyRun_SimpleString");
        ensure_fn ensure = (ensure_fn)dlsym(RTLD_DEFAULT, "PyGILState_Ensure");
        release_fn release = (release_fn)dlsym(RTLD_DEFAULT, "PyGILState_Release");
        if (!run || !ensure || !release) return;
        int g = ensure();
        run("import time\n_p = time.perf_counter\n_q = time.perf_counter_ns\n_m = time.monotonic\n"
                     "time.perf_counter = lambda: _p() / 8\ntime.perf_counter_ns = lambda: _q() // 8\n"
                     "time.monotonic = lambda: _m() / 8\n");
        release(g);
        (void)n;
    }
    void nap(long us) { usleep((useconds_t)us); }
    '''
    # the hooks go in after the correctness calls (5 trials, the instrumented call, 2 shape
    # variants), so that the run-time screen, which looks only at those, has not seen them
    src = _cheat(attack, "lib.nap(30000)\n        self.calls += 1\n        if self.calls == 9:\n            lib.hook(0)")
    src = src.replace("super().__init__()", "super().__init__()\n        self.calls = 0")
    # kernelbench: strict refuses a build that calls dlsym (library_compute) before any clock runs,
    # and this test is about the clock once C code does run
    v = verifier.verify(VerifyRequest(candidate=src, task=RELU, backend="cpp", timing=TIMED, policy="kernelbench"))
    assert v.timing is not None, (v.status, v.error)
    assert v.timing.candidate_ms >= 25.0, v.timing
    assert v.status in ("correct", "rejected"), (v.status, v.error)


def test_an_object_built_from_another_file_of_its_build_is_not_kept(tmp_path):
    """builder.ObjectCache keeps an object for reuse by its own text only when its depfile shows
    that it read no other file of the build folder; the headers it read elsewhere are recorded
    (path, size, mtime) and must be unchanged when it is reused."""
    from kernelmosaic.verify.builder import ObjectCache, parse_depfile

    b = tmp_path / "build"
    b.mkdir()
    header = tmp_path / "include" / "my header.h"
    header.parent.mkdir()
    header.write_text("#pragma once\n")
    for name in ("main.cpp", "cuda.cu", "main.o", "cuda.cuda.o"):
        (b / name).write_text(name)
    (b / "main.o.d").write_text(f"main.o: {b}/main.cpp \\\n {str(header).replace(' ', chr(92) + ' ')}\n")
    (b / "cuda.cuda.o.d").write_text(f"cuda.cuda.o: {b}/cuda.cu {b}/main.cpp\n")
    assert parse_depfile((b / "main.o.d").read_text()) == [f"{b}/main.cpp", str(header)]
    cache = ObjectCache(tmp_path / "objects", str(b), "a toolchain")
    cache.note("a" * 64, "main.o", [f"{b}/main.cpp"])
    cache.note("b" * 64, "cuda.cuda.o", [f"{b}/cuda.cu"])  # it read main.cpp: not kept
    assert [e["key"] for e in cache.stored] == ["a" * 64]
    st = header.stat()
    assert cache.stored[0]["deps"] == [[str(header), st.st_size, st.st_mtime_ns]]


def _pch_build(tmp_path: Path, name: str, cflags: str, root: Path, may_make: bool):
    """A load_inline-shaped build (torch's build-file layout: main.cpp starting with
    ``#include <torch/extension.h>``) against a small stand-in torch include tree, run by the
    builder's own runner with real g++ and the binding's precompiled header cache."""
    from kernelmosaic.verify.builder import PCH_FILE, PchCache, run_build_file

    inc = tmp_path / "inc"
    if not inc.exists():
        (inc / "torch").mkdir(parents=True)
        (inc / "torch" / "extension.h").write_text(
            "#pragma once\n#include <map>\n#include <string>\n#include <vector>\n#include <regex>\n"
            "inline int kmosaic_pch_probe() { return 42; }\n")
    b = tmp_path / name
    b.mkdir()
    (b / "main.cpp").write_text("#include <torch/extension.h>\nint answer() { return kmosaic_pch_probe(); }\n")
    (b / "build.ninja").write_text(textwrap.dedent(f"""\
        ninja_required_version = 1.3
        cxx = c++
        cflags = -DTORCH_EXTENSION_NAME={name} -isystem {inc} -fPIC -std=c++17 {cflags}
        post_cflags =
        ldflags = -shared

        rule compile
          command = $cxx -MMD -MF $out.d $cflags -c $in -o $out $post_cflags
          depfile = $out.d
          deps = gcc

        rule link
          command = $cxx $in $ldflags -o $out

        build main.o: compile {b}/main.cpp

        build {name}.so: link main.o

        default {name}.so
        """))
    run_build_file(str(b), pch=PchCache(root, str(b), "a toolchain", may_make))
    assert (b / f"{name}.so").exists()
    return b, json.loads((b / PCH_FILE).read_text())


def test_the_binding_header_is_precompiled_stored_by_the_judge_and_checked(tmp_path):
    """builder.PchCache with real g++: the build the judge let make it makes the precompiled header
    and lists it, the builder writes nothing into the store, the judge stores it hashed
    (judge.publish_pch); a later build with the same flags uses it (gcc says nothing against it
    under -Winvalid-pch) and compiles the same object; other flags have another key and do not use
    it; a stored header that fails its hash, or one gcc refuses for its flags, is not used and the
    build stands."""
    from kernelmosaic.task import sha256_file
    from kernelmosaic.verify.builder import PCH_HEADER
    from kernelmosaic.verify.judge import publish_pch, stored_pch_ok

    root = tmp_path / "pch"
    root.mkdir()
    gch = PCH_HEADER + ".gch"
    # no claim: nothing stored, nothing made, main.cpp compiled as before
    plain, listing = _pch_build(tmp_path, "plain", "-O1", root, may_make=False)
    assert listing["used"] is False and listing["made"] is None and not list(plain.rglob("*.gch"))
    # the claimed build makes it; only the judge stores it
    first, listing = _pch_build(tmp_path, "first", "-O1", root, may_make=True)
    assert listing["used"] is True and listing["made"]["key"] == listing["key"], listing
    assert list(root.iterdir()) == []  # the builder only listed it
    assert publish_pch(first, root) is True
    entry = root / listing["key"]
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["sha256"] == sha256_file(entry / gch) and stored_pch_ok(entry)
    # the same flags, another extension name and another build folder: the stored header is used
    second, listing2 = _pch_build(tmp_path, "second", "-O1", root, may_make=False)
    assert listing2["used"] is True and listing2["key"] == listing["key"] and listing2["made"] is None, listing2
    assert os.path.realpath(next(second.glob(f".pch/*/{gch}"))) == str((entry / gch).resolve())
    # the object is the same as the one compiled without it
    assert (second / "main.o").read_bytes() == (plain / "main.o").read_bytes()
    # other flags: another key, not used
    other, listing3 = _pch_build(tmp_path, "other", "-O2", root, may_make=False)
    assert listing3["used"] is False and listing3["key"] != listing["key"]
    # a stored header gcc refuses (made with other flags, stored under this key): not used, and said.
    # gcc's own check is partial (it took a -O2 header for a -O1 compile): the key holds the exact flags
    made_o0, _ = _pch_build(tmp_path, "made_o0", "-O0", root, may_make=True)
    (entry / gch).write_bytes(next(made_o0.glob(f".pch/*/{gch}")).read_bytes())
    (entry / "manifest.json").write_text(json.dumps({**manifest, "sha256": sha256_file(entry / gch)}))
    refused, listing5 = _pch_build(tmp_path, "refused", "-O1", root, may_make=False)
    assert listing5["used"] is False and "did not use" in listing5["note"], listing5
    # tampered (its hash no longer matches): not used; the next claimed build makes it again and the
    # judge replaces the bad entry
    (entry / gch).write_bytes(b"not a precompiled header")
    assert not stored_pch_ok(entry)
    tampered, listing6 = _pch_build(tmp_path, "tampered", "-O1", root, may_make=False)
    assert listing6["used"] is False and not list(tampered.glob(f".pch/*/{gch}"))
    again, listing7 = _pch_build(tmp_path, "again", "-O1", root, may_make=True)
    assert listing7["made"] and publish_pch(again, root) is True and stored_pch_ok(entry)


def test_sandboxed_processes_start_without_credentials(monkeypatch):
    """What candidate, reference and starter processes start from (child_env) and what builds
    start from (without_credentials): no variable named like a credential, in any case; a build
    keeps the verifier's settings, a candidate only the landlock switch. The probe that reads them
    from C is tests/test_zygote.py's."""
    from kernelmosaic.verify import sandbox

    for k, v in {"OPENAI_API_KEY": "sk-1", "HF_TOKEN": "hf-1", "aws_secret_access_key": "a", "PGPASSWORD": "p",
                 "GOOGLE_APPLICATION_CREDENTIALS": "/c.json", "KMOSAIC_CPUS": "0", "KMOSAIC_LANDLOCK_DROP": "",
                 "CUDA_VISIBLE_DEVICES": "0"}.items():
        monkeypatch.setenv(k, v)
    secret = {"OPENAI_API_KEY", "HF_TOKEN", "aws_secret_access_key", "PGPASSWORD", "GOOGLE_APPLICATION_CREDENTIALS"}
    build, child = sandbox.without_credentials(os.environ), sandbox.child_env()
    assert not secret & set(build) and not secret & set(child)
    assert build["KMOSAIC_CPUS"] == "0" and "KMOSAIC_CPUS" not in child and "KMOSAIC_LANDLOCK_DROP" in child
    assert child["CUDA_VISIBLE_DEVICES"] == "0" and child["PATH"] == os.environ["PATH"]


def test_a_polling_receive_gets_every_message_whole(tmp_path):
    """TimingConfig.spin_wait's channel: a receive that polls takes a message sent while it polls
    and one sent after it gave up polling (then it waits asleep), each whole, with the descriptor
    sent beside it."""
    import threading

    from kernelmosaic.verify.channel import Channel

    judge, other = Channel.pair()
    cand = Channel(other)
    f = tmp_path / "x"
    f.write_text("fd")

    def send_later():
        time.sleep(0.05)
        fd = os.open(f, os.O_RDONLY)
        cand.send_json({"event": "done", "n": 1, "pad": "x" * 300_000})  # larger than one read
        time.sleep(0.3)
        judge.send_pickle({"op": "call", "n": 2}, [fd])
        os.close(fd)

    t = threading.Thread(target=send_later)
    t.start()
    t0 = time.monotonic()
    first = judge.recv_json(timeout=5, spin_s=0.2)  # arrives while polling
    assert first["n"] == 1 and len(first["pad"]) == 300_000 and time.monotonic() - t0 < 0.2
    msg, fds = cand.recv_pickle(timeout=5, spin_s=0.05)  # polling gives up first, then it sleeps
    t.join()
    assert msg == {"op": "call", "n": 2} and len(fds) == 1 and os.read(fds[0], 2) == b"fd"
    os.close(fds[0])
    judge.close()
    cand.close()


def test_a_build_flag_outside_the_allow_list_is_refused():
    for ok in ("-O3", "-march=native", "-ffast-math", "-fopenmp", "-DN=4", "-std=c++17", "-Wall", "-lm"):
        check_flag(ok, nvcc=False)
    for ok in ("--use_fast_math", "-Xptxas=-v", "-arch=sm_90a", "--maxrregcount=64", "-Xcompiler=-fopenmp"):
        check_flag(ok, nvcc=True)
    for bad in ("-wrapper", "-B/tmp", "-specs=x", "-fplugin=x.so", "@flags.txt", "`touch x`", "$(touch x)", "-O2;id",
                "a b", "-Xcompiler=-wrapper", "--compiler-bindir=/tmp", "-ccbin=/bin/sh", "-Wl,-rpath,/tmp", "-o/tmp/x"):
        with pytest.raises(BuildRefused):
            check_flag(bad, nvcc=bad.startswith(("--", "-X", "-cc")))
    with pytest.raises(BuildRefused):
        BuildRequest(tool="load_inline", name="x; rm -rf /").validate()
    with pytest.raises(BuildRefused):
        BuildRequest(tool="cc", language="fortran").validate()


def _sandboxed(tmp_path, script: str, want=LAYERS) -> subprocess.CompletedProcess:
    work = tmp_path / "work"
    work.mkdir()
    cfg = SandboxConfig(workdir=str(work), readonly=[str(tmp_path / "ro")], want=list(want))
    (tmp_path / "ro").mkdir(exist_ok=True)
    (tmp_path / "ro" / "cache.json").write_text("{}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(command(cfg, [sys.executable, "-c", script]), capture_output=True, text=True, env=env,
                          timeout=120)


PROBE = r'''
import json, os, socket, subprocess
out = {"layers": json.loads(os.environ["KMOSAIC_SANDBOX"])}
def t(name, fn):
    try:
        fn(); out[name] = "allowed"
    except OSError as e:
        out[name] = "denied"
t("write_ro_cache", lambda: open("RO/cache.json", "w").write("x"))
t("write_own_dir", lambda: open("work_file", "w").write("x"))
t("write_elsewhere", lambda: open("/tmp/kmosaic-sandbox-escape", "w").write("x"))
t("shell", lambda: subprocess.run(["/bin/sh", "-c", "true"], check=True))
t("parent_proc_fd", lambda: os.listdir("/proc/%d/fd" % PARENT))
t("setsid", os.setsid)
t("connect", lambda: socket.create_connection(("127.0.0.1", 9), timeout=2))
print(json.dumps(out))
'''


@pytest.mark.parametrize("want", [LAYERS, tuple(l for l in LAYERS if l not in ("pidns", "mountns"))],
                         ids=["all-layers", "without-pid-and-mount-namespaces"])
def test_sandbox_layers_hold(tmp_path, want):
    """Each layer that this machine grants stops what it is for; where one is refused (here: asked
    not to), the others still keep the process in."""
    script = PROBE.replace("RO", str(tmp_path / "ro")).replace("PARENT", str(os.getpid()))
    p = _sandboxed(tmp_path, script, want)
    assert p.returncode == 0, p.stdout + p.stderr
    r = json.loads(p.stdout.strip().splitlines()[-1])
    layers = r.pop("layers")
    assert set(layers) == set(LAYERS)
    if layers["landlock"] != "on" and layers["mountns"] != "on":
        pytest.skip(f"neither landlock nor a mount namespace on this machine: {layers}")
    assert r["write_own_dir"] == "allowed"
    assert r["write_ro_cache"] == "denied"
    if layers["landlock"] == "on":
        assert r["write_elsewhere"] == "denied" and r["shell"] == "denied"
    assert r["parent_proc_fd"] == "denied", (r, layers)
    if layers["seccomp"] == "on":
        assert r["setsid"] == "denied"
    assert r["connect"] == "denied"
    assert not Path("/tmp/kmosaic-sandbox-escape").exists()


_WRITE = r"""
import json, os, sys
path = sys.argv[1]
try:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write("x")
    ok = "allowed"
except OSError:
    ok = "denied"
print(json.dumps({"write": ok, "layers": json.loads(os.environ["KMOSAIC_SANDBOX"])}))
"""


def test_reference_processes_share_their_compile_cache_and_no_candidate_writes_it(open_tmp):
    """The reference processes' compile cache (procs.reference_compile_dir): one reference
    process writes into a folder another one made (under the uid layer they share one id, and
    the folder is made theirs), and a candidate, given the cache read-only as the judge gives it,
    cannot plant a file there."""
    from kernelmosaic.verify.procs import protected_paths
    from kernelmosaic.verify.sandbox import REFERENCE_UID

    cache = open_tmp / "cache"
    shared = cache / "reference-compile"
    (cache / "build").mkdir(parents=True)
    shared.mkdir()

    def run(name: str, target: Path, **cfg) -> dict:
        work = open_tmp / name
        work.mkdir()
        c = SandboxConfig(workdir=str(work), **cfg)
        p = subprocess.run(command(c, [sys.executable, "-c", _WRITE, str(target)]), capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        return json.loads(p.stdout.strip().splitlines()[-1])

    first = run("ref1", shared / "inductor" / "ab" / "one.so", writable=[str(shared)], uid=REFERENCE_UID, execute=["/"])
    second = run("ref2", shared / "inductor" / "ab" / "two.so", writable=[str(shared)], uid=REFERENCE_UID, execute=["/"])
    assert first["write"] == second["write"] == "allowed", (first, second)
    if first["layers"]["uid"] == "on":
        assert (shared / "inductor" / "ab").stat().st_uid == REFERENCE_UID
    cand = run("cand", shared / "inductor" / "ab" / "planted.so",
               readonly=protected_paths(str(cache / "build"), open_tmp / "cand"))
    layers = cand["layers"]
    if not any(layers[k] == "on" for k in ("landlock", "mountns", "uid")):
        pytest.skip(f"no layer that keeps a folder unwritable holds on this machine: {layers}")
    assert cand["write"] == "denied", cand
    assert not (shared / "inductor" / "ab" / "planted.so").exists()


def test_the_reference_compile_cache_is_shared_only_where_the_reference_id_can_reach_it(tmp_path, open_tmp, monkeypatch):
    """A root judge's reference processes switch to REFERENCE_UID: a cache under a folder other
    users cannot enter (pytest's tmp_path, or the default cache under a /root of mode 700) would
    stop every reference process at its start, so there each compiles into its own folder."""
    from kernelmosaic.verify import procs, sandbox

    if os.geteuid() != 0:
        pytest.skip("only a root judge switches reference processes to another id")
    monkeypatch.setattr(sandbox, "uid_layer_refusal", lambda: None)  # as where the uid layer holds
    hidden = tmp_path / "hidden"
    hidden.mkdir(mode=0o700)
    assert procs.reference_compile_dir(str(hidden / "cache" / "build")) is None
    assert procs.reference_compile_dir(str(open_tmp / "cache" / "build")) == open_tmp / "cache" / "reference-compile"
    # where the uid layer cannot hold, references run as the judge, who reaches its own folders
    monkeypatch.setattr(sandbox, "uid_layer_refusal", lambda: "/root is not readable by other users")
    assert procs.reference_compile_dir(str(hidden / "cache" / "build")) == hidden / "cache" / "reference-compile"


def test_verdict_reports_the_layers(verifier):
    v = verifier.verify(VerifyRequest(candidate=HONEST, task=RELU, backend="cpp"))
    assert v.status == "correct"
    assert set(v.isolation.layers) == set(LAYERS)
    d = v.to_dict()
    assert d["isolation"]["layers"] == v.isolation.layers


def test_a_tampered_library_in_the_cache_is_rebuilt_not_loaded(verifier):
    """The build cache is content-addressed and hashed: a library changed behind the judge's back
    (here by the test, as root) fails its hash and is built again, not loaded."""
    first = verifier.verify(VerifyRequest(candidate=HONEST, task=RELU, backend="cpp"))
    assert first.status == "correct"
    libs = list((verifier.cache_dir / "build" / "artifacts").glob("*/lib.so"))
    assert libs
    for lib in libs:
        lib.write_bytes(b"\x7fELF not a library")
    again = verifier.verify(VerifyRequest(candidate=HONEST, task=RELU, backend="cpp"))
    assert again.status == "correct", again.error
    # the library this candidate needs was built again (the others stay broken until asked for)
    assert any(lib.read_bytes()[:4] == b"\x7fELF" and len(lib.read_bytes()) > 100 for lib in libs)


# -- the judge's comparison, slice by slice -------------------------------------------------------


def test_compare_in_slices_agrees_with_one_slice(monkeypatch):
    """A 6 GiB output is compared in slices; the verdict and its statistics must not depend on
    where the slices fall (NaN, Inf, the first bad element, the norms)."""
    import torch
    from kernelmosaic.verify import compare as cmp

    torch.manual_seed(0)
    ref = torch.randn(1000, 37)
    ref[3, 4] = float("nan")
    ref[500, 1] = float("inf")
    good = ref.clone()
    good[10, 10] += 1e-6
    bad = ref.clone()
    bad[700, 5] += 1.0
    bad[900, 0] = float("nan")
    tol = cmp.default_tolerances(torch.float32)
    whole = [cmp.compare(ref, x, tol, 0) for x in (good, bad)]
    monkeypatch.setattr(cmp, "CHUNK", 1000)  # 37 slices, boundaries inside rows
    sliced = [cmp.compare(ref, x, tol, 0) for x in (good, bad)]
    assert whole[0] is None and sliced[0] is None
    assert sliced[1] == whole[1]
    assert sliced[1]["first_bad_index"] == [700, 5]
    assert "1 NaN where the reference is finite" in sliced[1]["reason"]
    assert cmp.same(ref, ref.clone()) and not cmp.same(ref, bad)
    assert cmp.max_abs_diff(ref, bad) == 1.0 and not cmp.all_finite(ref)


def test_fast_check_never_passes_what_compare_fails(monkeypatch):
    """``within`` (the check run on every timed call) may only say yes where ``compare`` says
    None: over wrong, borderline, NaN, Inf, half-precision, integer and non-tensor outputs, in
    slices and whole. A yes must also come for honest outputs, or it saves no time."""
    import torch
    from kernelmosaic.verify import compare as cmp

    g = torch.Generator().manual_seed(1)
    cases = []
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        tol = cmp.default_tolerances(dtype)
        ref = torch.randn(300, 41, generator=g).to(dtype)
        cases.append((ref, ref.clone(), tol, True))
        near = (ref.float() * (1 + tol["rtol"] / 4)).to(dtype)
        cases.append((ref, near, tol, None))  # decided by compare
        for make in (lambda o: o.view(-1)[77].add_(1.0), lambda o: o.view(-1)[5].fill_(float("nan")),
                     lambda o: o.view(-1)[6].fill_(float("inf")), lambda o: o.mul_(1 + 50 * tol["rtol"]),
                     lambda o: o.view(-1)[-1].add_(2 * tol["atol"] + 2 * tol["rtol"] * abs(float(o.view(-1)[-1])))):
            o = ref.clone()
            make(o)
            cases.append((ref, o, tol, False))
    tol = cmp.default_tolerances(torch.float32)
    special = torch.randn(50, generator=g)
    special[3], special[9] = float("nan"), float("-inf")
    cases += [(special, special.clone(), tol, None),  # NaN/Inf agreement: compare's to judge
              (torch.arange(10), torch.arange(10), tol, True), (torch.arange(10), torch.arange(10) * 2, tol, False),
              ((torch.ones(3), 2), (torch.ones(3), 2), tol, True), ((torch.ones(3), 2), (torch.ones(3), 3), tol, False),
              (torch.ones(3), torch.ones(4), tol, False), (torch.ones(3), torch.ones(3, dtype=torch.float64), tol, False),
              (torch.zeros(4), torch.full((4,), 2 * tol["atol"]), tol, False)]
    for chunk in (cmp.CHUNK, 97):
        monkeypatch.setattr(cmp, "CHUNK", chunk)
        for i, (ref, out, tol, expect) in enumerate(cases):
            fast, full = cmp.within(ref, out, tol), cmp.compare(ref, out, tol, 0)
            if fast:
                assert full is None, (chunk, i, full)
            if expect is not None:
                assert fast is expect, (chunk, i, full)
                assert (full is None) is expect, (chunk, i, full)


def test_sampled_check_catches_skipped_work(monkeypatch):
    """``within_sample`` (timed calls with large outputs): honest outputs pass, and an output that
    skipped a small share of its work (left poisoned, or stale) fails, with positions the
    judge's generator draws; small and non-float outputs get the full check."""
    import torch
    from kernelmosaic.verify import compare as cmp

    monkeypatch.setattr(cmp, "SAMPLE", 1 << 12)  # keeps the test small; the ratio is what matters
    tol = cmp.default_tolerances(torch.float32)
    g = torch.Generator().manual_seed(3)
    ref = torch.randn(1 << 18, generator=g)
    gen = torch.Generator().manual_seed(7)
    assert cmp.within_sample(ref, ref * (1 + tol["rtol"] / 4), tol, gen)
    skipped = ref.clone()
    skipped[-(1 << 18) // 100:] = float("nan")  # 1 % of the elements never written: poison left
    stale = ref.clone()
    stale[: (1 << 18) // 100] = torch.randn((1 << 18) // 100, generator=g)  # 1 % from other inputs
    for bad in (skipped, stale):
        # a miss has probability 0.99^4096 < 1e-17 per draw
        assert not cmp.within_sample(ref, bad, tol, gen)
        assert cmp.compare(ref, bad, tol, 0) is not None
    small = torch.randn(100, generator=g)
    off = small.clone()
    off[50] += 1
    assert not cmp.within_sample(small, off, tol, gen)  # below SAMPLE: every element
    assert not cmp.within_sample((ref, torch.arange(5)), (ref.clone(), torch.arange(5) + 1), tol, gen)
    assert cmp.within_sample((ref, 3), (ref.clone(), 3), tol, gen)


def test_quiet_lock_excludes_starts_from_timing(tmp_path):
    """The GPU's quiet lock (quiet.py): a timing loop holds it exclusive, process starts hold it
    shared; starts overlap each other, never a timing loop."""
    from kernelmosaic.verify import quiet

    path = str(tmp_path / "gpu.lock")
    a, b, c = (quiet.open_lock(path) for _ in range(3))
    assert quiet.acquire(a, True, 1)
    assert not quiet.acquire(b, False, 0.2)  # a start waits while the judge times
    quiet.release(a)
    assert quiet.acquire(b, False, 1) and quiet.acquire(c, False, 1)  # starts share it
    assert not quiet.acquire(a, True, 0.2)  # the judge waits for the starts
    quiet.release(b)
    quiet.release(c)
    assert quiet.acquire(a, True, 1)
    for fd in (a, b, c):
        os.close(fd)


def test_a_waiting_judge_goes_before_new_starts(tmp_path, monkeypatch):
    """The turnstile: while a judge waits for a start's GPU step to end, a second start's step
    waits behind the judge instead of joining the shared lock (which would keep the judge waiting
    for as long as steps overlap)."""
    import threading

    from kernelmosaic.verify import quiet

    path = str(tmp_path / "gpu.lock")
    monkeypatch.setenv("KMOSAIC_GPU_LOCK", path)
    first = quiet.open_lock(path)
    second, second_turn = quiet.open_lock(path), quiet.open_lock(quiet.turn_path(path))
    judge = quiet.Quiet("cpu")
    got: dict[str, float] = {}

    def time_it():
        with judge.exclusive():
            got["judge"] = time.monotonic()
            time.sleep(0.3)

    def start():
        with quiet.shared(second, second_turn, timeout=10) as ok:
            got["start"] = time.monotonic()
            got["ok"] = ok

    assert quiet.acquire(first, False, 1)  # a start's step under way
    j = threading.Thread(target=time_it)
    j.start()
    time.sleep(0.2)  # the judge waits, holding the turnstile
    s = threading.Thread(target=start)
    s.start()
    time.sleep(0.3)
    assert "start" not in got  # without the turnstile it would have joined the shared lock at once
    quiet.release(first)
    j.join(5)
    s.join(5)
    assert got["ok"] and got["judge"] < got["start"], got
    assert judge.waits and 0.4 <= judge.waits[0] < 5
    judge.close()
    for fd in (first, second, second_turn):
        os.close(fd)


def test_checks_of_two_lanes_overlap_and_a_timed_loop_has_the_gpu_alone(tmp_path, monkeypatch):
    """Lanes that share a GPU (Verifier(lanes_per_gpu=N)): their checked calls hold the lock
    shared, so two run at once; a judge's timed loop waits for the checks under way, and a check
    that comes while it waits (or times) waits behind it. A busy() inside a timed loop does not
    turn the judge's exclusive lock into a shared one."""
    import threading

    from kernelmosaic.verify import quiet

    monkeypatch.setenv("KMOSAIC_GPU_LOCK", str(tmp_path / "gpu.lock"))
    a, b, timer = quiet.Quiet("cpu"), quiet.Quiet("cpu"), quiet.Quiet("cpu")
    got: dict[str, float] = {}
    with a.busy(), b.busy():  # two lanes' checks at once: neither waits
        got["both_checking"] = time.monotonic()

    def time_it():
        with timer.exclusive():
            got["timed_from"] = time.monotonic()
            with timer.busy():  # a check inside the loop (its sampled calls): still exclusive
                time.sleep(0.3)
            got["timed_to"] = time.monotonic()

    def late_check():
        with b.busy():
            got["late_check"] = time.monotonic()

    with a.busy():
        t = threading.Thread(target=time_it)
        t.start()
        time.sleep(0.2)  # the timer waits for a's check, holding the turnstile
        late = threading.Thread(target=late_check)
        late.start()
        time.sleep(0.2)
        assert "timed_from" not in got and "late_check" not in got, got
        got["a_done"] = time.monotonic()
    t.join(5)
    late.join(5)
    assert got["a_done"] <= got["timed_from"] < got["timed_to"] <= got["late_check"], got
    assert timer.waits and timer.waits[0] >= 0.35 and timer.unquiet == 0
    for q in (a, b, timer):
        q.close()


def test_candidate_start_waits_for_a_timing_loop(tmp_path, monkeypatch):
    """A real candidate process, started while a timing loop holds the lock, does its device work
    (and says ready) only once the loop lets go, and reports that it held the lock."""
    from kernelmosaic.verify import quiet
    from kernelmosaic.verify.procs import CandidateProcess, JobFailed

    path = str(tmp_path / "gpu.lock")
    monkeypatch.setenv("KMOSAIC_GPU_LOCK", path)
    judge = quiet.open_lock(path)
    assert quiet.acquire(judge, True, 1)
    build = tmp_path / "build"
    build.mkdir()
    proc = CandidateProcess("cpu", str(build))
    try:
        with pytest.raises(JobFailed) as held:
            proc.wait_ready(12)  # a start needs 3-5 s here: it would be ready unless it waits
        assert held.value.status == "timeout"
        quiet.release(judge)
        ready = proc.wait_ready(120)
        assert ready["ok"] and ready["startup_parts"]["gpu_lock"] is True
        assert ready["startup_parts"]["gpu_wait_s"] > 1
        # once started, the candidate process holds no part of the lock
        assert quiet.acquire(judge, True, 5)
    finally:
        proc.close()
        os.close(judge)


def test_restarted_candidate_process_gets_a_fresh_workdir(tmp_path):
    """A process restarted without a layer the device refused runs under a new user id: folders its
    predecessor made in the shared workdir (CuPy's cache) would be unwritable to it. On the H200 the
    first nvrtc verdict of every new pool failed that way; the restart now starts from an empty one."""
    from kernelmosaic.verify.procs import CandidateProcess

    build = tmp_path / "build"
    build.mkdir()
    p = CandidateProcess("cpu", str(build))
    try:
        assert p.wait_ready(120)["event"] == "ready"
        left = p.workdir / "cupy"
        left.mkdir()
        os.chown(left, 4_000_000, 4_000_000) if os.geteuid() == 0 else None
        os.chmod(left, 0o700)
        p.kill()
        p.ready = None
        p._start(p.want)
        assert p.wait_ready(120)["event"] == "ready"
        assert not left.exists()
    finally:
        p.close()


def test_a_closed_judge_hands_its_candidate_on_and_the_next_judge_reaps_it_before_timing(tmp_path):
    """The worker sends a verdict, then kills its candidate process without waiting for its exit,
    so that the next verdict does not wait for it. The next job's judge must see it gone before it
    reads the GPU's memory or times anything: a CUDA context's teardown disturbs a timed kernel."""
    from kernelmosaic.verify.judge import Judge
    from kernelmosaic.verify.procs import CandidateProcess
    from kernelmosaic.verify.spec import JobSpec

    build = tmp_path / "build"
    build.mkdir()
    p = CandidateProcess("cpu", str(build))
    first = Judge(JobSpec(device="cpu", build_dir=str(build)), cand=p)
    assert p.wait_ready(120)["event"] == "ready"
    left = first.close(wait=False)
    assert left == [p]
    nxt = Judge(JobSpec(device="cpu", build_dir=str(build)), dying=left)
    nxt.settle()
    assert p.proc.poll() is not None and not nxt.dying
    nxt.close()
    # a judge closed with wait (the default) leaves nothing behind: what it was handed is reaped too
    q = CandidateProcess("cpu", str(build))
    assert q.wait_ready(120)["event"] == "ready"
    q.close(wait=False)
    j = Judge(JobSpec(device="cpu", build_dir=str(build)), dying=[q])
    assert j.close() == [] and q.proc.poll() is not None


@pytest.mark.parametrize("scope", ["call", "loop"])
def test_timed_calls_hold_the_gpu_per_call_or_per_loop(tmp_path, monkeypatch, scope):
    """Where lanes share a GPU each timed call takes the quiet lock alone (the judge's refills and
    checks between calls are shared work, beside the other lanes' checks); with one lane the whole
    loop holds it. A real verdict, each way (KMOSAIC_QUIET_SCOPE forces the mode on the CPU, with
    a lock file named): its times and checks as before, and the holds it took."""
    from conftest import read

    monkeypatch.setenv("KMOSAIC_GPU_LOCK", str(tmp_path / "gpu.lock"))
    monkeypatch.setenv("KMOSAIC_QUIET_SCOPE", scope)
    timing = TimingConfig(n=12, warmup=2, eager=False, compile=False, diagnostics=True, use_cache=False)
    v = Verifier(device="cpu", workers=1, cache_dir=tmp_path / "cache", timeouts={"check": 120, "time": 240, "load": 60})
    try:
        verdict = v.verify(VerifyRequest(candidate=read("cpu/relu_cc_ok.py"), task=load_task(Path(__file__).parent / "data" / "tasks" / "relu.py"),
                                         backend="cpp", timing=timing, trials=2))
    finally:
        v.close()
    assert verdict.status == "correct", (verdict.status, verdict.error)
    d = verdict.timing.diagnostics
    assert d["quiet_per_call"] is (scope == "call")
    holds = d["quiet_waits_s"]["holds"] if isinstance(d["quiet_waits_s"], dict) else len(d["quiet_waits_s"])
    if scope == "call":
        assert holds >= 12 + 2, holds  # every timed call (and each calibration call) on its own
    else:
        assert holds <= 3, holds  # the empty calls' loop and the timed loop (no long-call loop on the CPU)
    assert verdict.timing.candidate_ms > 0
    # the time phase's parts: small sets are kept, so each is made once and the loop makes none
    t = d["time_s"]
    assert t["keep_sets"] is True and t["candidate_inputs_made"] == 2, t  # two timing seeds
    parts = [t[f"candidate_{k}"] for k in ("sets", "fill", "calls", "check")]
    assert all(x >= 0 for x in parts) and t["candidate_calls"] > 0, t
    assert sum(parts) + t["calibrate_after_load"] <= verdict.phases_s["time"], (t, verdict.phases_s)
