"""Builds a candidate's native code in a sandboxed process of its own, into a content-addressed cache.

A candidate asks for a build (``load_inline`` or ``cc.compile``) from inside its sandbox; the judge
checks the request (names, and every flag against an allow-list) and, on a cache miss, runs

    python -m kernelmosaic.verify.builder REQUEST.json STAGING_DIR [OBJECTS_DIR [PCH_DIR]]

in the same kind of sandbox: it may write only STAGING_DIR and execute only the compilers. It runs
no candidate code: ``load_inline`` builds through torch's own build-file writer, but the commands in
that file run here as argument lists, with no shell and no ninja, and the built module is never
imported here. The judge then hashes the library and moves it into the cache, which only the judge
writes and candidates read; a candidate process checks the hash before it loads the library.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

# -- the flag allow-list ---------------------------------------------------------------------------------
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
_SAFE = re.compile(r"^[A-Za-z0-9_=.,+:/%-]*$")  # no shell metacharacters, quotes, spaces or '@'
_LIBS = {"m", "gomp", "pthread", "cublas", "cublasLt", "cudnn", "curand", "cufft", "cusparse", "cusolver", "cuda",
         "cudart", "nvrtc", "c10", "c10_cuda", "torch", "torch_cpu", "torch_cuda", "torch_python", "dl", "stdc++"}
_F_FLAGS = {"fast-math", "unroll-loops", "openmp", "PIC", "pic", "tree-vectorize", "omit-frame-pointer", "strict-aliasing",
            "no-strict-aliasing", "finite-math-only", "no-math-errno", "unsafe-math-optimizations", "vectorize",
            "no-exceptions", "no-rtti", "inline-functions", "lto", "no-lto", "fp-contract=fast", "fp-contract=on",
            "fp-contract=off", "no-trapping-math", "reciprocal-math", "associative-math", "no-signed-zeros",
            "prefetch-loop-arrays", "peel-loops", "tracer", "visibility=hidden", "visibility=default",
            "diagnostics-color=never", "permissive", "openmp-simd", "no-plt", "builtin", "no-builtin"}
_NVCC_FLAGS = {"--use_fast_math", "-use_fast_math", "--expt-relaxed-constexpr", "--expt-extended-lambda",
               "--extended-lambda", "-lineinfo", "--restrict", "-restrict", "--extra-device-vectorization",
               "-Xptxas=-v", "--ptxas-options=-v", "-dlcm=ca", "-dlcm=cg", "--resource-usage", "-src-in-ptx"}
_NVCC_VALUED = ("-arch=", "--gpu-architecture=", "-gencode=", "--generate-code=", "-code=", "--gpu-code=",
                "-maxrregcount=", "--maxrregcount=", "-Xptxas=", "--ptxas-options=", "--fmad=", "-fmad=", "--ftz=",
                "-ftz=", "--prec-div=", "-prec-div=", "--prec-sqrt=", "-prec-sqrt=", "-O", "--threads=", "-t=",
                "--default-stream=", "-std=", "--std=", "-Xcompiler=", "--compiler-options=", "--split-compile=")
_PTXAS_OK = re.compile(r"^(-v|--verbose|-O[0-3]|--warn-on-spills|--warn-on-local-memory-usage|-dlcm=c[ag]|--maxrregcount=\d+|--allow-expensive-optimizations=(true|false)|--def-load-cache=c[ag]|--fmad=(true|false))$")


# nvcc options written as two list items (`"-Xptxas", "-v"`): checked as their joined form
_NVCC_PAIRED = {"-Xptxas": "-Xptxas=", "--ptxas-options": "--ptxas-options=", "-Xcompiler": "-Xcompiler=",
                "--compiler-options": "--compiler-options=", "-gencode": "-gencode=", "--generate-code": "--generate-code=",
                "-arch": "-arch=", "--gpu-architecture": "--gpu-architecture=", "-code": "-code=",
                "-maxrregcount": "-maxrregcount=", "--maxrregcount": "--maxrregcount=", "-std": "-std="}


def check_flags(flags: list[str], *, nvcc: bool) -> None:
    """Check a flag list, pairing nvcc options that take their value as the next item."""
    i = 0
    while i < len(flags):
        f = flags[i]
        if nvcc and f in _NVCC_PAIRED and i + 1 < len(flags):
            check_flag(_NVCC_PAIRED[f] + str(flags[i + 1]), nvcc=True)
            i += 2
            continue
        check_flag(f, nvcc=nvcc)
        i += 1


class BuildRefused(Exception):
    """A build request the verifier will not run (a rule, not a compiler error)."""


def check_flag(flag: str, *, nvcc: bool) -> None:
    """Raise BuildRefused unless ``flag`` is on the allow-list for the host compiler (or nvcc)."""
    if not isinstance(flag, str) or not flag or not _SAFE.match(flag):
        raise BuildRefused(f"the flag {flag!r} has characters a build flag may not have (shell metacharacters, "
                           "quotes, spaces or '@')")
    if nvcc:
        if flag in _NVCC_FLAGS:
            return
        for p in _NVCC_VALUED:
            if flag.startswith(p) and flag != p:
                v = flag[len(p):]
                if p in ("-Xcompiler=", "--compiler-options="):
                    for part in v.split(","):
                        check_flag(part, nvcc=False)
                elif p in ("-Xptxas=", "--ptxas-options="):
                    for part in v.split(","):
                        if not _PTXAS_OK.match(part):
                            raise BuildRefused(f"the ptxas option {part!r} is not allowed")
                return
    if re.match(r"^-O[0-3sfastg]?$", flag) or re.match(r"^-O(fast)?$", flag) or flag in ("-g", "-g0", "-g1", "-DNDEBUG", "-w"):
        return
    if re.match(r"^-std=(c|gnu|c\+\+|gnu\+\+)(99|11|14|17|20|23|2a|2b|2c)$", flag):
        return
    if re.match(r"^-[DU][A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]*)?$", flag):
        return
    if re.match(r"^-W(no-)?[a-z0-9-]+(=[0-9]+)?$", flag) or flag == "-Werror":
        return
    if re.match(r"^-m(arch|tune|cpu)=[a-z0-9_.-]+$", flag) or re.match(r"^-m(no-)?[a-z0-9.-]+$", flag):
        return
    if flag.startswith("-f") and flag[2:] in _F_FLAGS:
        return
    if flag.startswith("-l") and flag[2:] in _LIBS:
        return
    if flag in ("-fopenmp", "-pthread", "-shared", "-fPIC"):
        return
    raise BuildRefused(f"the flag {flag!r} is not on the verifier's allow-list (see docs/candidates.md, 'Build flags')")


def _check_path(p: str) -> None:
    if not isinstance(p, str) or not _SAFE.match(p) or ".." in p.split("/") or not os.path.isdir(p):
        raise BuildRefused(f"the include path {p!r} is not an existing folder with a plain name")


# -- requests ------------------------------------------------------------------------------------------
@dataclass
class BuildRequest:
    """One build, as a candidate asked for it (checked with :meth:`validate` before it runs)."""

    tool: str  # "load_inline" | "cc"
    name: str = "kernel"
    cpp_sources: list[str] = field(default_factory=list)
    cuda_sources: list[str] = field(default_factory=list)
    functions: list[str] | None = None
    extra_cflags: list[str] = field(default_factory=list)
    extra_cuda_cflags: list[str] = field(default_factory=list)
    extra_ldflags: list[str] = field(default_factory=list)
    extra_include_paths: list[str] = field(default_factory=list)
    with_cuda: bool | None = None
    # cc.compile
    source: str = ""
    language: str = "c"
    flags: list[str] = field(default_factory=list)
    openmp: bool = False

    @classmethod
    def from_reply(cls, d: dict) -> "BuildRequest":
        """From a candidate's JSON message: every field checked for its type."""
        if not isinstance(d, dict) or d.get("tool") not in ("load_inline", "cc"):
            raise BuildRefused("a build request must name its tool (load_inline or cc)")
        kw = {}
        for f, kind in (("name", str), ("source", str), ("language", str), ("openmp", bool), ("with_cuda", (bool, type(None)))):
            if f in d:
                if not isinstance(d[f], kind):
                    raise BuildRefused(f"build request field {f!r} has the wrong type")
                kw[f] = d[f]
        for f in ("cpp_sources", "cuda_sources", "extra_cflags", "extra_cuda_cflags", "extra_ldflags",
                  "extra_include_paths", "flags"):
            v = d.get(f) or []
            if isinstance(v, str):
                v = [v]
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise BuildRefused(f"build request field {f!r} must be a list of strings")
            kw[f] = v
        fn = d.get("functions")
        if fn is not None:
            if isinstance(fn, str):
                fn = [fn]
            if not isinstance(fn, list) or not all(isinstance(x, str) for x in fn):
                raise BuildRefused("load_inline(functions=...) must be a name or a list of names")
            kw["functions"] = fn
        return cls(tool=d["tool"], **kw)

    def validate(self) -> None:
        if not _NAME.match(self.name):
            raise BuildRefused(f"the extension name {self.name!r} is not a plain identifier")
        for fn in self.functions or []:
            if not _NAME.match(fn):
                raise BuildRefused(f"the function name {fn!r} is not a plain identifier")
        if self.tool == "cc":
            if self.language not in ("c", "c++"):
                raise BuildRefused("cc.compile(language=...) must be 'c' or 'c++'")
            check_flags(self.flags, nvcc=False)
            return
        check_flags(self.extra_cflags, nvcc=False)
        check_flags(self.extra_cuda_cflags, nvcc=True)
        for f in self.extra_ldflags:
            if not (f.startswith("-l") and f[2:] in _LIBS):
                raise BuildRefused(f"the linker flag {f!r} is not allowed (only -l with a known library)")
        for p in self.extra_include_paths:
            _check_path(p)

    def key(self, toolchain: str) -> str:
        h = hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode())
        h.update(toolchain.encode())
        return h.hexdigest()[:32]

    def artifact_name(self) -> str:
        return f"{self.name}.so" if self.tool == "load_inline" else "lib.so"


# -- running a build.ninja without ninja or a shell --------------------------------------------------------
def _ninja_expand(text: str, scope: dict[str, str]) -> str:
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c != "$":
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if nxt in ("$", " ", ":"):
            out.append(nxt)
            i += 2
        elif nxt == "{":
            j = text.index("}", i)
            out.append(scope.get(text[i + 2: j], ""))
            i = j + 1
        else:
            m = re.match(r"[A-Za-z0-9_-]+", text[i + 1:])
            name = m.group(0) if m else ""
            out.append(scope.get(name, ""))
            i += 1 + len(name)
    return "".join(out)


# -- object files reused by content --------------------------------------------------------------------------
OBJECTS_FILE = "objects.json"  # what this build compiled that may be reused: read by the judge
TOOLCHAIN_FILE = "toolchain.txt"  # the judge's toolchain identity, written beside the request


def parse_depfile(text: str) -> list[str]:
    """The prerequisites of a make-style dependency file (gcc -MMD, nvcc
    --generate-dependencies-with-compile): ``out.o: a.cpp b.h \\`` continued over lines."""
    body = text.replace("\\\n", " ")
    _, _, deps = body.partition(": ")
    out, cur = [], []
    i = 0
    while i < len(deps):
        c = deps[i]
        if c == "\\" and i + 1 < len(deps) and deps[i + 1] == " ":
            cur.append(" ")
            i += 2
            continue
        if c.isspace():
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        out.append("".join(cur))
    return out


def _stat_key(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [path, st.st_size, st.st_mtime_ns]


class ObjectCache:
    """Object files of earlier builds, by content. A compile is skipped when an object was built
    from the same source text by the same command (the build folder's path left out) with the same
    toolchain, and every header it read outside the build folder is unchanged (path, size, mtime).
    An object whose source read another file of its build folder (``#include "cuda.cu"``) is never
    stored: its text alone would not name what it was built from. The cache is read here (the
    builder, sandboxed) and written only by the judge (``Judge._publish_objects``), from the list
    this builder leaves in ``objects.json``; each object's hash is checked before it is used.

    In an agent's repair loop the binding (``main.cpp``: ``torch/extension.h`` and pybind11, the
    slowest file to compile) rarely changes while the kernels do; it is compiled once."""

    def __init__(self, root: str | os.PathLike, build_dir: str, toolchain: str):
        self.root = Path(root)
        self.given = str(build_dir)
        self.build_dir = os.path.realpath(build_dir)
        # the judge's (Judge.toolchain): the same identity that keys the libraries it stores
        self.toolchain = toolchain
        self.reused: list[str] = []
        self.stored: list[dict] = []

    def key(self, cmd: str, ins: list[str], sources: list[str]) -> str:
        """The object's identity: the toolchain, the command, the file's text, and the names of the
        build's other sources (which ``__has_include`` can see without the depfile saying so)."""
        h = hashlib.sha256(self.toolchain.encode())
        h.update(b"\0" + cmd.replace(self.given, "@BUILD@").replace(self.build_dir, "@BUILD@").encode())
        h.update(b"\0" + "\0".join(sorted(os.path.basename(x) for x in sources)).encode())
        for name in ins:
            h.update(b"\0" + Path(self.build_dir, name).read_bytes())
        return h.hexdigest()

    def fetch(self, key: str, out: str) -> bool:
        """Copy the object stored under ``key`` to ``out``; False when there is none, or its headers
        changed, or it fails its hash."""
        try:
            m = json.loads((self.root / key / "manifest.json").read_text())
            if any(_stat_key(d[0]) != d for d in m["deps"]):
                return False
            dst = Path(self.build_dir, out)
            shutil.copyfile(self.root / key / "object.o", dst)
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return False
        from ..task import sha256_file

        if sha256_file(dst) != m.get("sha256"):
            dst.unlink(missing_ok=True)
            return False
        self.reused.append(out)
        return True

    def note(self, key: str, out: str, ins: list[str]) -> None:
        """Record a fresh object for the judge to store, if its depfile shows it read nothing else of
        the build folder."""
        try:
            deps = parse_depfile(Path(self.build_dir, out + ".d").read_text())
        except OSError:
            return
        own = {os.path.realpath(os.path.join(self.build_dir, i)) for i in ins}
        outside = []
        for d in deps:
            real = os.path.realpath(os.path.join(self.build_dir, d))
            if real in own or real.startswith(os.path.join(self.build_dir, ".pch") + os.sep):
                continue  # .pch: the precompiled header's fixed text (PchCache), the same object with or without it
            if real.startswith(self.build_dir + os.sep):
                return  # built from another file of this build: not reusable by its own text
            st = _stat_key(real)
            if st is None:
                return
            outside.append(st)
        self.stored.append({"key": key, "object": out, "deps": outside})

    def write(self) -> None:
        Path(self.build_dir, OBJECTS_FILE).write_text(json.dumps({"objects": self.stored, "reused": self.reused}))


# -- the binding's precompiled header -----------------------------------------------------------------
STEPS_FILE = "steps.json"  # seconds each compile and the link took, by output file: read by the judge
PCH_FILE = "pch.json"  # the precompiled header this build made or used: read by the judge
PCH_CLAIM_FILE = "pch-claim"  # written by the judge: this build may make a missing precompiled header
PCH_HEADER = "kmosaic_pch.h"
PCH_KEEP = 4  # flag sets whose header the judge keeps: each is hundreds of MB (786 MB for torch 2.14, C++20)
PCH_MAX_BYTES = 4 << 30  # a larger file is not stored
PCH_CLAIM_STALE_S = 1200  # a claim this old is a build that died: another may make the header
# load_inline's main.cpp always starts with this line; the header is exactly it, and nothing a
# candidate wrote is in it
PCH_TEXT = "#include <torch/extension.h>\n"


class PchCache:
    """A precompiled ``torch/extension.h`` for ``main.cpp``, the binding file ``load_inline``
    writes: on the 2-core CPU machine its compile took a median 21.6 s in a gold kernel's build,
    most of it parsing that header, and 8.2 s with the header precompiled. The object compiled with it is byte-identical to the one
    compiled without (measured), so it changes build time only.

    One per toolchain and exact flag set: the key hashes the judge's toolchain identity, the
    header's text and the compile command of ``main.cpp`` with its input, output, depfile and the
    extension's name (``-DTORCH_EXTENSION_NAME=...``, which no torch header reads) left out; the
    precompiled header is built with exactly those flags. gcc also checks the flags itself and
    silently parses the header instead when they differ: ``-Winvalid-pch`` makes it say so, and
    the build then records that it was not used.

    Never torch's ``use_pch=True``: that writes ``extension.h.gch`` into torch's install folder,
    which every candidate process can reach. Here the builder (sandboxed) only reads
    ``<cache>/build/pch/``: it checks the stored file against the hash the judge recorded and
    against the (path, size, mtime) of every header it was made from, then links it into its own
    staging folder. A missing one is made only by the build the judge allowed to (``PCH_CLAIM_FILE``,
    one build per flag set at a time: a cold batch would otherwise make it once per build, 36 s
    and 786 MB each); the judge hashes and stores what this builder lists in ``pch.json``
    (``judge.publish_pch``). The judge never writes into a stored file, it renames whole folders,
    so the file hashed here is the one gcc reads, or gcc finds none and parses the header."""

    def __init__(self, root: str | os.PathLike, build_dir: str, toolchain: str, may_make: bool = False):
        self.root = Path(root)
        self.given = str(build_dir)
        self.build_dir = os.path.realpath(build_dir)
        self.toolchain = toolchain
        self.may_make = may_make
        self.key: str | None = None
        self.made: dict | None = None
        self.used = False
        self.note = ""
        self.made_s: float | None = None  # how long making it took, where this build made it

    @staticmethod
    def header_args(args: list[str], source: str) -> list[str]:
        """The flags of a ``main.cpp`` compile (``source``) that a precompiled header must be made with."""
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-MF", "-o"):
                skip = True
                continue
            if a in ("-MMD", "-MD", "-c", source) or a.startswith("-DTORCH_EXTENSION_NAME="):
                continue
            out.append(a)
        return out

    def _key(self, flags: list[str]) -> str:
        h = hashlib.sha256(self.toolchain.encode())
        h.update(b"\0" + "\0".join(flags).replace(self.given, "@BUILD@").replace(self.build_dir, "@BUILD@").encode())
        h.update(b"\0" + PCH_TEXT.encode())
        return h.hexdigest()

    def args_for(self, args: list[str], source: str) -> list[str]:
        """Extra arguments for a ``main.cpp`` compile that use the precompiled header (found, or
        made when this build may), or none."""
        try:
            if not Path(self.build_dir, source).read_text().startswith(PCH_TEXT):
                return []
        except OSError:
            return []
        flags = self.header_args(args, source)
        self.key = key = self._key(flags)
        local = Path(self.build_dir, ".pch", key[:16])
        local.mkdir(parents=True, exist_ok=True)
        hdr = local / PCH_HEADER
        hdr.write_text(PCH_TEXT)
        gch = local / (PCH_HEADER + ".gch")
        if self._stored_ok(key):
            os.symlink(self.root / key / (PCH_HEADER + ".gch"), gch)
        elif self.may_make:
            t0 = time.monotonic()
            p = subprocess.run([*flags, "-MD", "-MF", f"{gch}.d", "-x", "c++-header", str(hdr), "-o", str(gch)],
                               cwd=self.build_dir, capture_output=True, text=True, timeout=900)
            self.made_s = round(time.monotonic() - t0, 2)
            if p.returncode != 0:
                self.note = "the precompiled header did not build: " + (p.stdout + p.stderr)[-500:]
                gch.unlink(missing_ok=True)
                return []
            deps = []
            try:
                for d in parse_depfile(gch.with_name(gch.name + ".d").read_text()):
                    real = os.path.realpath(os.path.join(self.build_dir, d))
                    if real.startswith(self.build_dir + os.sep):
                        continue  # the header itself
                    st = _stat_key(real)
                    if st is None:
                        return []
                    deps.append(st)
            except OSError:
                return []
            self.made = {"key": key, "file": str(gch.relative_to(self.build_dir)), "deps": deps}
        else:
            return []
        self.used = True  # until gcc says otherwise (-Winvalid-pch)
        # -Winvalid-pch: gcc says when it parses the header instead (saw()); never an error, whatever -Werror asks
        return ["-include", str(hdr), "-Winvalid-pch", "-Wno-error=invalid-pch"]

    def _stored_ok(self, key: str) -> bool:
        try:
            m = json.loads((self.root / key / "manifest.json").read_text())
            if any(_stat_key(d[0]) != d for d in m["deps"]):
                return False
            from ..task import sha256_file

            return sha256_file(self.root / key / (PCH_HEADER + ".gch")) == m["sha256"]
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return False

    def saw(self, log: str) -> None:
        """The compile's output: gcc says here when it would not use the header (other flags)."""
        if self.used and ".gch: not used because" in log:
            self.used = False
            self.note = "gcc did not use the precompiled header: " + log.split(".gch: not used because", 1)[1][:200].strip()

    def write(self) -> None:
        Path(self.build_dir, PCH_FILE).write_text(json.dumps({"key": self.key, "made": self.made, "used": self.used,
                                                              "note": self.note}))


def run_build_file(build_dir: str, error_prefix: str = "Error building extension", objects: ObjectCache | None = None,
                   pch: PchCache | None = None) -> None:
    """Run the commands of the build.ninja that torch wrote: compiles in parallel, then the link.

    Each command becomes an argument list (the flags in it were allow-listed, and torch's own
    quoting is undone by shlex) and runs without a shell. A compile whose object is in
    ``objects`` (the same text, command and toolchain) is skipped. ``main.cpp`` is compiled with
    ``pch``'s precompiled header where there is one for its exact flags (the object is the same,
    and keyed by the command without it). Raises RuntimeError with the compiler's output, as
    torch's ninja runner does, so the candidate sees the same compile error."""
    text = Path(build_dir, "build.ninja").read_text()
    variables: dict[str, str] = {}
    rules: dict[str, str] = {}
    builds: list[tuple[list[str], str, list[str]]] = []
    cur_rule = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("  ") and cur_rule:
            k, _, v = line.strip().partition("=")
            if k.strip() == "command":
                rules[cur_rule] = v.strip()
            continue
        cur_rule = None
        if line.startswith("rule "):
            cur_rule = line.split()[1]
        elif line.startswith("build "):
            outs, _, rest = line[6:].partition(":")
            parts = rest.split()
            builds.append((outs.split(), parts[0], [p for p in parts[1:] if p != "|"]))
        elif "=" in line and not line.startswith("default"):
            k, _, v = line.partition("=")
            variables[k.strip()] = _ninja_expand(v.strip(), variables)

    def run(outs, rule, ins):
        t0 = time.monotonic()
        try:
            return _run(outs, rule, ins)
        finally:
            steps[outs[0]] = round(time.monotonic() - t0, 2)

    def _run(outs, rule, ins):
        cmd = _ninja_expand(rules[rule], {**variables, "in": " ".join(ins), "out": " ".join(outs)})
        key = None
        if objects is not None and rule != "link" and len(outs) == 1:
            key = objects.key(cmd, ins, [i for b in compiles for i in b[2]])
            if objects.fetch(key, outs[0]):
                return 0, "(reused: the same source, command and toolchain as an earlier build)", cmd
        args = shlex.split(cmd)
        with_pch = pch is not None and rule == "compile" and len(ins) == 1 and os.path.basename(ins[0]) == "main.cpp"
        if with_pch:
            args += pch.args_for(args, ins[0])
        p = subprocess.run(args, cwd=build_dir, capture_output=True, text=True, timeout=900)
        if with_pch:
            pch.saw(p.stdout + p.stderr)
        if p.returncode == 0 and key is not None:
            objects.note(key, outs[0], ins)
        return p.returncode, (p.stdout + p.stderr), cmd

    compiles = [b for b in builds if b[1] != "link"]
    links = [b for b in builds if b[1] == "link"]
    logs = []
    steps: dict[str, float] = {}
    try:
        with ThreadPoolExecutor(max_workers=max(1, min(len(compiles), os.cpu_count() or 1))) as ex:
            results = list(ex.map(lambda b: run(*b), compiles))
    finally:
        if pch is not None:  # a header made here is kept even when the candidate's code did not compile
            pch.write()
    for rc, log, cmd in results:
        logs.append(cmd + "\n" + log)
        if rc != 0:
            raise RuntimeError(f"{error_prefix}: " + "\n".join(logs))
    for b in links:
        rc, log, cmd = run(*b)
        logs.append(cmd + "\n" + log)
        if rc != 0:
            raise RuntimeError(f"{error_prefix}: " + "\n".join(logs))
    if pch is not None and pch.made_s is not None:
        steps["pch"] = pch.made_s
    Path(build_dir, STEPS_FILE).write_text(json.dumps(steps))
    if objects is not None:
        objects.write()


def build_without_ninja(objects=None, pch=None) -> None:
    """Make torch's ``cpp_extension`` run the build files it writes through ``run_build_file``
    (argument lists: no ninja, no shell). ``objects``: build folder -> ObjectCache, or None;
    ``pch``: build folder -> PchCache, or None.
    Also the profiler's driver (agent/profiler.py): ninja starts each compiler in a process
    group of its own, which the sandbox's seccomp layer refuses (setpgid)."""
    from torch.utils import cpp_extension as ce

    ce.verify_ninja_availability = lambda: None
    ce._run_ninja_build = lambda build_directory, verbose, error_prefix: run_build_file(
        build_directory, error_prefix, objects(build_directory) if objects else None, pch(build_directory) if pch else None)


def build(req: BuildRequest, staging: str, objects_dir: str | None = None, toolchain: str = "",
          pch_dir: str | None = None) -> str:
    """Build ``req`` into ``staging``; returns the library's path. Runs inside the builder sandbox.
    ``objects_dir``: the judge's object cache (read only here), for ``load_inline``'s compiles,
    keyed with the judge's ``toolchain``; ``pch_dir``: the judge's precompiled headers (read only
    here; PchCache), made here when the judge left ``PCH_CLAIM_FILE`` in ``staging``."""
    req.validate()  # again: the judge checked, and this process trusts nothing it was handed
    if req.tool == "cc":
        cc = os.environ.get("CC", "gcc") if req.language == "c" else os.environ.get("CXX", "g++")
        std = "-std=c11" if req.language == "c" else "-std=c++17"
        src = Path(staging) / ("kernel.c" if req.language == "c" else "kernel.cpp")
        src.write_text(req.source)
        out = Path(staging) / "lib.so"
        args = [cc, std, *req.flags, "-shared", "-fPIC", *(["-fopenmp"] if req.openmp else []), src.name, "-o", out.name, "-lm"]
        try:
            p = subprocess.run(args, cwd=staging, capture_output=True, text=True, timeout=300)
        except FileNotFoundError:
            raise RuntimeError(f"compiler `{cc}` not found") from None
        if p.returncode != 0:
            raise RuntimeError(f"{cc} failed with exit code {p.returncode}\n{p.stdout}{p.stderr}")
        return str(out)
    from torch.utils import cpp_extension as ce

    # torch writes the build file and would run ninja (through /bin/sh) and import the result:
    # here the commands run as argument lists, and nothing is imported
    may_make = Path(staging, PCH_CLAIM_FILE).exists()
    build_without_ninja(lambda d: ObjectCache(objects_dir, d, toolchain) if objects_dir and toolchain else None,
                        lambda d: PchCache(pch_dir, d, toolchain, may_make) if pch_dir and toolchain else None)
    ce._import_module_from_library = lambda *a, **k: None
    ce.load_inline(req.name, req.cpp_sources, cuda_sources=req.cuda_sources or None, functions=req.functions,
                   extra_cflags=req.extra_cflags, extra_cuda_cflags=req.extra_cuda_cflags, extra_ldflags=req.extra_ldflags,
                   extra_include_paths=req.extra_include_paths, build_directory=staging, with_cuda=req.with_cuda)
    out = Path(staging) / f"{req.name}.so"
    if not out.exists():
        raise RuntimeError(f"the build produced no {out.name}")
    return str(out)


def toolchain_paths() -> list[str]:
    """Programs a build may execute: the C and C++ compilers with their parts, and the CUDA toolkit."""
    paths: set[str] = set()
    shared_bins = {"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"}
    script = False
    for prog in ("cc", "c++", "gcc", "g++", "as", "ld", "ld.bfd", "ld.gold", os.environ.get("CC", ""), os.environ.get("CXX", "")):
        w = shutil.which(prog) if prog else None
        if not w:
            continue
        real = os.path.realpath(w)
        paths.add(real)
        try:
            with open(real, "rb") as f:
                script = script or f.read(2) == b"#!"
        except OSError:
            pass
        # a toolchain in a prefix of its own (/opt/gcc/bin/g++ -> g++-real, libexec/cc1plus): all of it
        d = os.path.dirname(real)
        if d not in shared_bins:
            paths.add(d)
            prefix = os.path.dirname(d)
            if prefix not in ("/", "/usr", "/usr/local"):
                paths.add(prefix)
    for d in ("/usr/lib/gcc", "/usr/libexec/gcc"):
        if os.path.isdir(d):
            paths.add(d)
    # the toolkit torch builds with (its build file names $CUDA_HOME/bin/nvcc); a `nvcc` on PATH may
    # be a shell wrapper, which is not followed
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        homes.append(str(Path(os.path.realpath(nvcc)).parents[1]))
    for cuda in homes:
        if cuda and os.path.isdir(os.path.join(cuda, "bin")):
            for d in ("bin", "nvvm/bin"):
                if os.path.isdir(os.path.join(cuda, d)):
                    paths.add(os.path.realpath(os.path.join(cuda, d)))
    # nvcc runs its own steps (the host compiler, cicc, ptxas) through /bin/sh, and some machines'
    # compilers are shell wrappers. Every flag that can reach those command lines has passed the
    # allow-list (no metacharacters, quotes or spaces), and the builder's PATH holds the compilers
    # alone, so no candidate text is read by a shell.
    if script or any("cuda" in p for p in paths):
        paths.add(os.path.realpath("/bin/sh"))
    return sorted(paths)


def private_path(bin_dir: str | os.PathLike) -> str:
    """A PATH for the builder with the compilers and nothing else (no shell): links in ``bin_dir``."""
    os.makedirs(bin_dir, exist_ok=True)
    for prog in ("cc", "c++", "gcc", "g++", "as", "ld", "nvcc", os.environ.get("CC", ""), os.environ.get("CXX", "")):
        if not prog:
            continue
        w = shutil.which(prog)
        if prog == "nvcc":
            for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
                if home and os.path.exists(os.path.join(home, "bin", "nvcc")):
                    w = os.path.join(home, "bin", "nvcc")
                    break
        link = os.path.join(bin_dir, os.path.basename(prog))
        if w and not os.path.lexists(link):
            os.symlink(os.path.realpath(w), link)
    return str(bin_dir)


def main() -> None:
    req = BuildRequest(**json.loads(Path(sys.argv[1]).read_text()))
    staging = sys.argv[2]
    objects_dir = sys.argv[3] if len(sys.argv) > 3 else None
    pch_dir = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
    try:
        toolchain = Path(staging, TOOLCHAIN_FILE).read_text()
    except OSError:
        toolchain = ""  # no identity to key objects by: nothing is reused
    try:
        path = build(req, staging, objects_dir, toolchain, pch_dir)
        result = {"ok": True, "path": path}
    except BuildRefused as e:
        result = {"ok": False, "refused": str(e)}
    except Exception as e:  # noqa: BLE001 - a compiler error is the answer, not a crash
        result = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    Path(staging, "result.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main()
