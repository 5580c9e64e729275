"""The candidate process: imports, builds and calls ``ModelNew``, and nothing else.

``python -m kernelmosaic.verify.candidate FD DEVICE`` runs inside the sandbox (``sandbox.py``),
started by a judge that holds the other end of the socket FD. It never sees the reference's
outputs, the code that compares them, the clock or the verdict: it maps the input and output
buffers the judge shares, calls ``forward`` when told, copies what ``forward`` returned into the
output buffers, and says "done". Everything it says is data that the judge checks.

The same program, given the reference's source and ``Model``, times baselines in a process that
never ran candidate code: candidate and baseline go through the same channel and the same clock.

What it reports about a call (which aten ops ran, whether its own kernels ran, which GPU kernels
the profiler saw) comes from inside this process. Native candidate code can falsify those reports;
they decide only policy rules, never correctness or time (docs/verification.md, "Known limits").
"""

from __future__ import annotations

import collections
import contextlib
import faulthandler
import importlib.machinery
import importlib.util
import inspect
import json
import os
import socket
import sys
import time
import traceback

from ..task import sha256_fd
from . import launches, streams
from .channel import Channel, ChannelClosed, dtype_name, map_buffer, unmap


def keep_freed_memory() -> bool:
    """CPU: keep large allocations in the heap, where the poison of freed blocks reaches them.

    glibc serves an allocation of 32 MiB or more (its largest mmap threshold) with fresh mmap
    pages, which read as zero, and unmaps it when freed: an output the kernel never wrote read
    0.0, and a ReLU that wrote only its positive elements was judged correct. With mmap off and
    trimming at its limit, freed blocks stay in the heap with their NaN bits and the next
    allocation of that size reuses them. Costs memory the process holds, not time. True when
    glibc took both settings."""
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, 2**31 - 1))


def _exc_text(e: BaseException, limit: int = 12) -> str:
    return "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-limit))


def _flatten(out) -> list:
    if isinstance(out, (list, tuple)):
        flat = []
        for o in out:
            flat.extend(_flatten(o))
        return flat
    return [out]


class BuildFailed(RuntimeError):
    """The judge's builder rejected or failed a build; the message reads like torch's."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message + ("\n" + log if log else ""))
        self.log = log or message


class Runner:
    def __init__(self, ch: Channel, device: str):
        import torch

        self.torch = torch
        self.ch = ch
        self.device = torch.device(device)
        self.is_cuda = self.device.type == "cuda"
        self.model = None
        self.slots: dict[str, dict] = {}
        self.keep: list = []  # mappings that must outlive their tensors
        self.ext_module_names: set[str] = set()
        self.triton_runs: collections.Counter[str] = collections.Counter()
        self.snapshot: list = []

    # -- builds through the judge --------------------------------------------------------------------
    def request_build(self, req: dict) -> str:
        """The path of the built library: a read-only descriptor the judge opened in its cache
        (this process has no path into the cache at all)."""
        self.ch.send_json({"event": "build", "request": req})
        reply, fds = self.ch.recv_pickle()
        if not reply.get("ok"):
            for fd in fds:
                os.close(fd)
            raise BuildFailed(reply.get("message", "the build failed"), reply.get("log", ""))
        fd = fds[0]
        self.keep.append(fd)  # the library stays mapped; the descriptor stays open with it
        # the judge hashed the library when it stored it; a different file is not loaded
        if sha256_fd(fd) != reply["sha256"]:
            raise BuildFailed("the built library does not match the hash recorded when it was built; not loaded")
        return f"/proc/self/fd/{fd}"

    def install_build_hooks(self) -> None:
        from torch.utils import cpp_extension

        from . import cc

        runner = self

        def load_inline(name, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None, extra_cuda_cflags=None,
                        extra_ldflags=None, extra_include_paths=None, build_directory=None, verbose=False,
                        with_cuda=None, is_python_module=True, **_ignored):
            as_list = lambda v: [v] if isinstance(v, str) else list(v or [])  # noqa: E731
            fn = functions
            if isinstance(fn, dict):
                fn = list(fn)
            path = runner.request_build({
                "tool": "load_inline", "name": name, "cpp_sources": as_list(cpp_sources),
                "cuda_sources": as_list(cuda_sources), "functions": as_list(fn) if fn is not None else None,
                "extra_cflags": as_list(extra_cflags), "extra_cuda_cflags": as_list(extra_cuda_cflags),
                "extra_ldflags": as_list(extra_ldflags), "extra_include_paths": as_list(extra_include_paths),
                "with_cuda": with_cuda})
            loader = importlib.machinery.ExtensionFileLoader(name, path)
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            mod = importlib.util.module_from_spec(spec)
            loader.exec_module(mod)
            runner.ext_module_names.add(getattr(mod, "__name__", name))
            return mod

        def load(name, sources, extra_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
                 extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None,
                 is_python_module=True, **_ignored):
            cpp, cu = [], []
            for s in [sources] if isinstance(sources, str) else sources:
                with open(s) as f:
                    (cu if s.endswith((".cu", ".cuh")) else cpp).append(f.read())
            return load_inline(name, cpp, cuda_sources=cu or None, extra_cflags=extra_cflags,
                               extra_cuda_cflags=extra_cuda_cflags, extra_ldflags=extra_ldflags,
                               extra_include_paths=extra_include_paths, with_cuda=with_cuda)

        cpp_extension.load_inline = load_inline
        cpp_extension.load = load

        def cc_build(source, language, flags, openmp):
            return runner.request_build({"tool": "cc", "source": source, "language": language, "flags": list(flags),
                                         "openmp": bool(openmp)})

        cc._builder = cc_build

    # -- loading ----------------------------------------------------------------------------------------
    def load(self, msg: dict) -> dict:
        torch = self.torch
        t0 = time.perf_counter()
        frac = msg.get("gpu_fraction")
        if frac and self.is_cuda:
            # the judge's memory budget for this process, set before any candidate code runs. It
            # is advisory: code in this process could raise it again. The judge measures what this
            # process holds itself when an out-of-memory happens (judge.py, infra.py).
            torch.cuda.set_per_process_memory_fraction(min(1.0, max(0.01, float(frac))))
        path = os.path.join(os.getcwd(), msg["file"])
        with open(path, "w") as f:
            f.write(msg["source"])
        name = msg["module"]
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod  # triton and dataclasses look their module up by name
            spec.loader.exec_module(mod)
        except SystemExit as e:
            return {"event": "error", "status": "runtime_error", "kind": "exit",
                    "message": f"the candidate called exit({e.code}) while loading"}
        except BaseException as e:  # noqa: BLE001
            return self._failure(e, "import", "while loading")
        compile_s = time.perf_counter() - t0
        if msg.get("import_only"):
            return {"event": "loaded", "copied": 0, "compile_s": round(compile_s, 4), "load_s": 0.0}
        cls = getattr(mod, msg["class_name"], None)
        if not isinstance(cls, type):
            return {"event": "error", "status": "invalid_candidate", "kind": "no_model_new",
                    "message": f"the candidate defines no class {msg['class_name']}"}
        self._wrap_triton_kernels(mod)
        t1 = time.perf_counter()
        try:
            # cpu_init: built on the CPU and then moved, as KernelBench builds it (protocols.py):
            # the CPU generator's weights, not the GPU's
            with contextlib.nullcontext() if msg.get("cpu_init") else torch.device(self.device):
                torch.manual_seed(msg["seed"])
                model = cls(*msg["init"])
            if isinstance(model, torch.nn.Module):
                model = model.to(self.device)
        except SystemExit as e:
            return {"event": "error", "status": "runtime_error", "kind": "exit",
                    "message": f"{msg['class_name']}.__init__ called exit({e.code})"}
        except BaseException as e:  # noqa: BLE001
            return self._failure(e, "init", f"in {msg['class_name']}(*get_init_inputs())")
        copied = 0
        if isinstance(model, torch.nn.Module) and msg.get("params"):
            theirs = dict(model.named_parameters())
            theirs.update(dict(model.named_buffers()))
            fds = iter(msg.get("_fds") or [])
            with torch.no_grad():
                for pname, d in msg["params"].items():
                    t, keep = map_buffer(d, next(fds) if d.kind == "cpu" else None, self.device)
                    c = theirs.get(pname)
                    if c is not None and tuple(c.shape) == tuple(t.shape) and c.dtype == t.dtype:
                        c.copy_(t)
                        copied += 1
                    del t
                    self.sync()
                    unmap(keep)
        if msg.get("compile"):
            model = torch.compile(model)
        self.model = model
        self.sync()
        return {"event": "loaded", "copied": copied, "compile_s": round(compile_s, 4),
                "load_s": round(time.perf_counter() - t1, 4)}

    def _failure(self, e: BaseException, kind: str, where: str) -> dict:
        if isinstance(e, BuildFailed) or _is_build_error(e):
            return {"event": "error", "status": "compile_error", "kind": "compile",
                    "message": f"{type(e).__name__}: the kernel source did not compile", "log": getattr(e, "log", None) or str(e)}
        return {"event": "error", "status": "runtime_error", "kind": kind,
                "message": f"the candidate raised {type(e).__name__} {where}: {str(e)[:2000]}", "log": _exc_text(e)}

    def _wrap_triton_kernels(self, mod) -> None:
        """Count launches of the candidate's @triton.jit kernels (JIT or interpreter)."""
        for name, obj in list(vars(mod).items()):
            inner, depth = obj, 0
            while depth < 5 and type(inner).__name__ in ("Autotuner", "Heuristics"):
                inner, depth = getattr(inner, "fn", None), depth + 1
            if type(inner).__name__ not in ("JITFunction", "InterpretedFunction") or not hasattr(inner, "run"):
                continue
            kname = getattr(getattr(inner, "fn", None), "__name__", name)
            orig, counter = inner.run, self.triton_runs

            def run(*a, _orig=orig, _k=kname, **kw):
                counter[_k] += 1
                return _orig(*a, **kw)

            try:
                inner.run = run
            except AttributeError:
                pass

    # -- buffers and calls --------------------------------------------------------------------------------
    def bind(self, msg: dict, fds: list[int]) -> dict:
        it = iter(fds)
        slot = {"inputs": [], "outputs": [], "in_values": msg.get("values") or {}}
        for d in msg["inputs"]:
            if d is None:
                slot["inputs"].append(None)
                continue
            t, keep = map_buffer(d, next(it) if d.kind == "cpu" else None, self.device)
            slot.setdefault("keeps", []).append(keep)
            slot["inputs"].append(t)
        for d in msg["outputs"]:
            if d is None:
                slot["outputs"].append(None)
                continue
            t, keep = map_buffer(d, next(it) if d.kind == "cpu" else None, self.device)
            slot.setdefault("keeps", []).append(keep)
            slot["outputs"].append(t)
        old = self.slots.get(msg["slot"])
        self.slots[msg["slot"]] = slot
        if old is not None:
            self._release(old)
        return {"event": "bound"}

    def unbind(self, msg: dict) -> dict:
        """Let go of a slot's buffers, and of this process's cached blocks, so that the judge can
        free them: one KernelBench output can be 8 GiB, and a shape variant needs its own."""
        old = self.slots.pop(msg.get("slot"), None)
        if old is not None:
            self._release(old)
        return {"event": "unbound"}

    def _release(self, slot: dict) -> None:
        keeps = slot.pop("keeps", [])
        slot.clear()
        import gc

        gc.collect()
        for keep in keeps:
            unmap(keep)
        if self.is_cuda:
            self.sync()
            self.torch.cuda.empty_cache()

    def sync(self) -> None:
        if self.is_cuda:
            self.torch.cuda.synchronize(self.device)

    def poison(self, outs) -> None:
        """Fill freed allocator blocks of the outputs' sizes with NaN bits: an output this process
        never writes then reads as NaN, not as a stale result."""
        torch = self.torch
        blocks = []
        # one block per size on the GPU (a KernelBench output can be 6 GiB); glibc's best-fit bins
        # need several on the CPU
        copies = 1 if self.is_cuda else 4
        for t in outs:
            if t is not None and t.numel():
                for _ in range(copies):
                    blocks.append(torch.full((t.numel() * t.element_size(),), 0xFF, dtype=torch.uint8, device=self.device))
        if self.is_cuda:
            blocks.append(torch.full((64 << 20,), 0xFF, dtype=torch.uint8, device=self.device))
        del blocks
        self.sync()

    def call(self, msg: dict) -> dict:
        torch = self.torch
        slot = self.slots[msg["slot"]]
        mode = msg["mode"]  # null | check | timed | instrumented
        outs = slot["outputs"]
        args = [slot["in_values"].get(str(i)) if t is None else t for i, t in enumerate(slot["inputs"])]
        try:
            if mode == "null" and "null_src" not in slot:
                # made once: cloning it on every call (as a setdefault's argument was) doubled the copy,
                # overstated the overhead and understated a large output's time by one copy of it
                slot["null_src"] = [None if o is None else o.clone() for o in outs]
            if mode in ("check", "instrumented"):
                self.poison(outs)
        except Exception as e:  # noqa: BLE001
            # the harness's own allocations in this process (an output's copy, the NaN fill):
            # answered, not died of, so that the judge can measure this process's memory while it
            # lives and tell its out-of-memory from the verifier's (judge.candidate_oom). An
            # H100's four lanes (2026-12-06) had a KernelBench output's 8 GiB copy fail here
            kind = "out_of_memory" if type(e).__name__ == "OutOfMemoryError" or isinstance(e, MemoryError) else "harness"
            return {"event": "error", "status": "runtime_error", "kind": kind,
                    "message": f"the harness's own {'copy of the output' if mode == 'null' else 'NaN fill'} in the "
                               f"candidate process failed before {msg.get('what', 'a call')}: {type(e).__name__}: {str(e)[:600]}"}
        instr = None
        waited = None
        diag = bool(msg.get("diag")) and self.is_cuda
        try:
            if diag:  # the judge's benchmarks only: this process's own view of the call (untrusted)
                mem0 = _alloc_counts(torch, self.device)
                t_host = time.perf_counter()
                ev = [torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)]
                ev[0].record()
            if mode == "null":
                # the calibration call: the same path as a timed call (the copy into the judge's
                # buffer, the output descriptions, the sync, the reply) with no forward
                src = slot["null_src"]
                out = src[0] if len(src) == 1 else list(src)
                if msg.get("wait_ms") and self.is_cuda:
                    # a long empty call (judge.calibrate_waits): the GPU busy for about wait_ms first
                    waited = self._gpu_wait(float(msg["wait_ms"]))
            elif mode == "instrumented":
                out, instr = self._instrumented(args)
            else:
                with torch.no_grad():
                    out = self.model(*args)
            if msg.get("device_sync") and self.is_cuda:
                self.sync()  # KernelBench's protocol: the whole device, before the output is read
            metas = self._copy_out(out, outs, slot["inputs"])
            if diag:
                ev[1].record()
            late = False
            if mode in ("check", "instrumented") and self.is_cuda:
                # the copy above ran on the caller's stream; after a device-wide sync, work left on a
                # side stream has finished: if the output differs now, it was not ready in time
                self.sync()
                late = any(isinstance(o, torch.Tensor) and m.get("copied") and not _same_bits(o, b)
                           for o, b, m in zip(_flatten(out), outs, metas))
            self.sync()
        except SystemExit as e:
            return {"event": "error", "status": "runtime_error", "kind": "exit",
                    "message": f"the candidate called exit({e.code}) during {msg.get('what', 'a call')}"}
        except BaseException as e:  # noqa: BLE001
            r = self._failure(e, "cuda" if "CUDA" in str(e) or "cuda" in type(e).__name__.lower() else "exception",
                              f"during {msg.get('what', 'a call')}")
            r["fatal"] = self.is_cuda and _cuda_context_broken(torch)
            return r
        reply = {"event": "done", "outs": metas}
        if waited is not None:
            reply["wait_ms"] = waited[0].elapsed_time(waited[1])
        if diag:
            t_end = time.perf_counter()
            # absolute times on the host's monotonic clock (the judge's too): the judge splits its
            # round trip into the hand-over, this process's part and the way back
            reply["diag"] = {"candidate_event_ms": ev[0].elapsed_time(ev[1]), "candidate_host_ms": (t_end - t_host) * 1e3,
                             "t_host0": t_host, "t_host1": t_end,
                             # the caching allocator's trips to the driver during the call (cudaMalloc,
                             # cudaFree, a retry after freeing its cache): each can stall for milliseconds
                             **{k: v - mem0.get(k, 0) for k, v in _alloc_counts(torch, self.device).items()}}
        if mode in ("check", "instrumented"):
            reply["late"] = late
            reply["integrity"] = self.integrity()
        if instr is not None:
            reply["instr"] = instr
        if diag:
            reply["diag"]["t_reply"] = time.perf_counter()
        return reply

    def _gpu_wait(self, ms: float) -> tuple:
        """Keep the GPU busy for about ``ms`` on the caller's stream (torch's spin kernel), as a
        forward would, with no sync of its own: the CUDA events around it, to read once the call
        has synchronised. Its cycles per millisecond are measured once."""
        torch = self.torch

        def spin(cycles: int) -> tuple:
            ev = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
            ev[0].record()
            torch.cuda._sleep(int(cycles))
            ev[1].record()
            return ev

        if getattr(self, "_cycles_per_ms", None) is None:
            spin(100_000)[1].synchronize()
            ev = spin(1_000_000)
            ev[1].synchronize()
            self._cycles_per_ms = 1_000_000 / max(ev[0].elapsed_time(ev[1]), 1e-3)
        return spin(ms * self._cycles_per_ms)

    def _copy_out(self, out, bufs: list, inputs: list) -> list[dict]:
        torch = self.torch
        flat = _flatten(out)
        metas = []
        for k, o in enumerate(flat):
            if not isinstance(o, torch.Tensor):
                v = o if isinstance(o, (int, float, bool, str, type(None))) else repr(o)[:200]
                metas.append({"type": "value", "value": v, "cls": type(o).__name__})
                continue
            m = {"type": "tensor", "shape": list(o.shape), "dtype": dtype_name(o.dtype), "device": str(o.device),
                 "cls": type(o).__name__, "copied": False, "alias": None}
            try:
                ptr = o.untyped_storage().data_ptr()
                for i, t in enumerate(inputs):
                    if t is not None and t.untyped_storage().data_ptr() == ptr:
                        m["alias"] = i
            except Exception:  # noqa: BLE001 - a tensor without storage (a subclass) has no alias
                pass
            b = bufs[k] if k < len(bufs) else None
            if b is not None and tuple(b.shape) == tuple(o.shape) and b.dtype == o.dtype and o.device.type == self.device.type:
                # on the caller's stream, ordered after forward's work on that stream
                b.copy_(torch.Tensor.as_subclass(o, torch.Tensor) if type(o) is not torch.Tensor else o)
                m["copied"] = True
            metas.append(m)
        return metas

    def _instrumented(self, args):
        """One call under observation: aten ops, the candidate's own launches, the GPU's kernels."""
        torch = self.torch
        from torch.utils._python_dispatch import TorchDispatchMode

        ops: collections.Counter[str] = collections.Counter()

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types_, a=(), kw=None):
                name = func.overloadpacket.__name__
                if name in ("_to_copy", "to"):
                    src = a[0] if a else None
                    dt = (kw or {}).get("dtype")
                    if isinstance(src, torch.Tensor) and dt is not None and dt != src.dtype:
                        name = f"_to_copy(dtype {dtype_name(src.dtype)}->{dtype_name(dt)})"
                ops[name] += 1
                return func(*a, **(kw or {}))

        c_calls: collections.Counter[str] = collections.Counter()
        ext_names = {n for n in self.ext_module_names if n}

        def prof(frame, event, arg):
            if event == "c_call" and getattr(arg, "__module__", None) in ext_names:
                c_calls[getattr(arg, "__name__", "?")] += 1

        before_l = launches.snapshot()
        before_t = collections.Counter(self.triton_runs)
        profiler = None
        if self.is_cuda:
            from torch.profiler import ProfilerActivity, profile

            # CUDA synchronisation records on: which streams the work went to, and what ordered it
            # back to the caller's stream, decide `unsynchronized_output` (streams.py)
            cfg = streams.profiler_config(torch)
            profiler = profile(activities=[ProfilerActivity.CUDA], **({"experimental_config": cfg} if cfg else {}))
            if getattr(self, "_marker", None) is None:  # allocated (and synchronized) outside the records
                self._marker = (torch.zeros(1, device=self.device), torch.zeros(1, device=self.device))
                self.sync()
        with contextlib.ExitStack() as st:
            if profiler is not None:
                st.enter_context(profiler)
                self._stream_marker()  # names the caller's stream in the records
            with Mode():
                sys.setprofile(prof)
                try:
                    with torch.no_grad():
                        out = self.model(*args)
                finally:
                    sys.setprofile(None)
            if profiler is not None:
                self._stream_marker()  # the end of forward: later synchronisation is the harness's
            self.sync()
        kernels = None
        stream_summary = None
        if profiler is not None:
            kernels = sorted({e.name for e in profiler.events() if str(getattr(e, "device_type", "")).endswith("CUDA")})
            stream_summary = self._stream_summary(profiler, cfg is not None)
        t_now = collections.Counter(self.triton_runs)
        t_now.subtract(before_t)
        launched = launches.since(before_l)
        return out, {"ops": dict(ops), "launches": dict(launched), "ext_calls": dict(c_calls),
                     "triton_runs": dict(+t_now), "kernels": kernels, "streams": stream_summary}

    def _stream_marker(self) -> None:
        """A 4-byte copy on the caller's (current) stream, outside the dispatch mode."""
        self._marker[1].copy_(self._marker[0])

    def _stream_summary(self, profiler, sync_records: bool) -> dict:
        """The profiler's records of streams and synchronisation, summarised (streams.py)."""
        if not sync_records:
            return {"caller": None, "why": "this torch's profiler has no CUDA synchronisation records"}
        path = os.path.join(os.getcwd(), ".instrumented-trace.json")
        try:
            profiler.export_chrome_trace(path)
            with open(path) as f:
                events = json.load(f).get("traceEvents") or []
            return streams.summarize(events)
        except Exception as e:  # noqa: BLE001 - no records: the judge notes it and keeps the race check
            return {"caller": None, "why": f"the profiler's trace could not be read: {type(e).__name__}: {str(e)[:200]}"}
        finally:
            with contextlib.suppress(OSError):
                os.unlink(path)

    # -- integrity screen -------------------------------------------------------------------------------
    def take_snapshot(self) -> None:
        torch = self.torch
        refs = []

        def add(owner, names):
            for n in names:
                if hasattr(owner, n):
                    refs.append((owner, n, inspect.getattr_static(owner, n)))

        add(time, ["perf_counter", "perf_counter_ns", "time", "monotonic"])
        add(torch, ["allclose", "equal", "isnan", "isinf", "where", "zeros_like", "full", "empty"])
        add(torch.Tensor, ["copy_", "clone", "data_ptr", "untyped_storage", "__torch_function__"])
        add(torch.nn.Module, ["__call__", "_call_impl", "to"])
        if self.is_cuda:
            add(torch.cuda, ["synchronize", "Event", "current_stream"])
        add(launches, ["record", "snapshot", "since"])
        self.snapshot = refs

    def integrity(self) -> list[list[str]]:
        """(rule, detail) pairs: functions rebound or global hooks installed since before the
        candidate was imported. A screen, not the boundary: the judge's own functions are out of reach."""
        torch = self.torch
        bad = []
        for owner, name, orig in self.snapshot:
            if inspect.getattr_static(owner, name, None) is not orig:
                bad.append(["patching", f"{getattr(owner, '__name__', type(owner).__name__)}.{name} was replaced at run time"])
        from torch.nn.modules import module as nn_module

        for d in ("_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks",
                  "_global_backward_pre_hooks", "_global_module_registration_hooks"):
            if getattr(nn_module, d, None):
                bad.append(["hooks", f"a global module hook is installed ({d})"])
        for fn, what in (("_len_torch_function_stack", "a TorchFunctionMode"), ("_len_torch_dispatch_stack", "a TorchDispatchMode")):
            f = getattr(torch._C, fn, None)
            if f is not None and f() > 0:
                bad.append(["hooks", f"{what} is active"])
        return bad


def _alloc_counts(torch, device) -> dict:
    """The CUDA caching allocator's counts of driver allocations, frees and retries (diagnostics)."""
    try:
        st = torch.cuda.memory_stats(device)
    except Exception:  # noqa: BLE001 - diagnostics only
        return {}
    return {f"alloc_{k}": int(st.get(k, 0)) for k in ("num_device_alloc", "num_device_free", "num_alloc_retries")}


def _same_bits(a, b) -> bool:
    """Bitwise equality (NaN equals NaN: an unwritten output is not "late", only unwritten)."""
    import torch

    return bool(torch.equal(a.detach().reshape(-1).contiguous().view(torch.uint8),
                            b.detach().reshape(-1).contiguous().view(torch.uint8)))


def _is_build_error(e: BaseException) -> bool:
    name = type(e).__name__
    if name in ("CcCompileError", "NvrtcCompileError", "CompilationError", "CompileException", "BuildFailed"):
        return True
    msg = str(e)
    if isinstance(e, (OSError, ImportError)) and "undefined symbol" in msg:
        return True
    return isinstance(e, (RuntimeError, OSError, ImportError)) and (
        "Error building extension" in msg or "error: " in msg and ("nvcc" in msg or "ninja" in msg or ".cu" in msg or ".cpp" in msg))


def _cuda_context_broken(torch) -> bool:
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return False
    except Exception:  # noqa: BLE001
        return True


def warm_dispatch(torch, device: str):
    """The first use of a dispatch mode imports Dynamo (1.2 s of a core on the CI machine): paid
    before any phase's clock runs, here or, for processes forked from it, in the starter
    (zygote.py, on the CPU). Returns the small tensor it used."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class _Warm(TorchDispatchMode):
        def __torch_dispatch__(self, func, types_, a=(), kw=None):
            return func(*a, **(kw or {}))

    x = torch.ones(8, device=device)
    with _Warm():
        torch.empty_like(x).copy_(x)
    if device == "cuda":
        torch.cuda.synchronize()
    return x


def main() -> None:
    fd, device = int(sys.argv[1]), sys.argv[2]
    # the GPU's quiet lock and its turnstile (quiet.py), held shared around this start's GPU
    # work, then closed: nothing of the candidate is loaded while this process holds them
    lock_fd = int(sys.argv[3]) if len(sys.argv) > 3 else None
    turn_fd = int(sys.argv[4]) if len(sys.argv) > 4 else None
    ch = Channel(socket.socket(fileno=fd))
    faulthandler.enable()  # on SIGSEGV the Python stack goes to the log the judge quotes
    t0 = time.perf_counter()
    sandbox = json.loads(os.environ.get("KMOSAIC_SANDBOX") or "{}")
    parts: dict[str, float] = {}
    try:
        # when the machine runs out of memory, the kernel's OOM killer takes this process first,
        # not its judge: a candidate that exhausts the host's memory is the one that dies, and its
        # death is its own runtime_error (a lost judge would be the verifier's infra_error)
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass
    if device != "cuda":
        # before torch allocates anything (and before any candidate code could undo it)
        parts["heap_kept"] = keep_freed_memory()
    try:
        from . import quiet

        import torch

        parts["import_s"] = round(time.perf_counter() - t0, 3)
        t = time.perf_counter()
        # pay lazy initialisation (dispatch modes, the profiler, CuPy) before any phase clock runs:
        # CUPTI's first start alone takes seconds. What needs no GPU comes first, outside the lock.
        from torch.utils import cpp_extension  # noqa: F401

        if device == "cuda":
            try:
                import cupy  # noqa: F401
            except ImportError:
                pass
        runner = Runner(ch, device)
        runner.install_build_hooks()
        parts["imports_s"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        # Only the parts that disturb a kernel timed on the same GPU hold the lock (measured on the
        # H200 with four starts at once, benchmarks/start_interference.py): making the CUDA context
        # (0.3-0.8 s; the timed kernel's slowest tenth 18 % slower) and CUPTI's first start
        # (0.08 s; its median 13 % slower). The first kernels and dispatch modes (about 5 s, host
        # work: its median and tail unchanged) run outside it, so a judge waits for a start's
        # short GPU steps, not the whole start. quiet.shared lets a waiting judge go first.
        waited = 0.0
        t = time.perf_counter()
        with quiet.shared(lock_fd, turn_fd) as got:
            waited += time.perf_counter() - t
            t = time.perf_counter()
            if device == "cuda":
                torch.cuda.init()
                torch.zeros(1, device="cuda").add_(1)
                torch.cuda.synchronize()
            parts["context_s"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        x = warm_dispatch(torch, device)
        parts["warm_s"] = round(time.perf_counter() - t, 3)
        if device == "cuda":
            from torch.profiler import ProfilerActivity, profile

            cfg = streams.profiler_config(torch)
            t = time.perf_counter()
            with quiet.shared(lock_fd, turn_fd) as got2:
                waited += time.perf_counter() - t
                t = time.perf_counter()
                with profile(activities=[ProfilerActivity.CUDA], **({"experimental_config": cfg} if cfg else {})) as p:
                    (x + 1).sum().item()
                p.events()
                torch.cuda.synchronize()
                parts["profiler_s"] = round(time.perf_counter() - t, 3)
            got = got and got2
        parts["gpu_wait_s"] = round(waited, 3)
        parts["gpu_lock"] = got
        for f in (lock_fd, turn_fd):
            if f is not None:
                os.close(f)
        runner.take_snapshot()
    except BaseException as e:  # noqa: BLE001 - the judge decides what a failed start means
        ch.send_json({"event": "ready", "ok": False, "sandbox": sandbox, "error": f"{type(e).__name__}: {e}",
                      "log": _exc_text(e)})
        os._exit(3)
    ch.send_json({"event": "ready", "ok": True, "sandbox": sandbox, "pid": os.getpid(),
                  "startup_s": round(time.perf_counter() - t0, 3), "startup_parts": parts})
    spin_s = 0.0  # set by a timed call that asks for polling (TimingConfig.spin_wait): for the next call
    while True:
        try:
            msg, fds = ch.recv_pickle(spin_s=spin_s)
        except ChannelClosed:
            break
        spin = msg.get("spin_ms") if msg.get("op") == "call" else None
        spin_s = min(float(spin), 1000.0) / 1e3 if isinstance(spin, (int, float)) and spin > 0 else 0.0
        op = msg.get("op")
        if op == "exit":
            break
        if op == "load":
            msg["_fds"] = fds
            reply = runner.load(msg)
        elif op == "bind":
            reply = runner.bind(msg, fds)
        elif op == "unbind":
            reply = runner.unbind(msg)
        elif op == "call":
            reply = runner.call(msg)
        else:
            reply = {"event": "error", "status": "runtime_error", "kind": "protocol", "message": f"unknown op {op!r}"}
        try:
            ch.send_json(reply)
        except ChannelClosed:
            break
    sys.stdout.flush()
    # skip interpreter teardown: candidate threads or CUDA libraries must not hang the exit
    os._exit(0)


if __name__ == "__main__":
    main()
