"""Decontamination by behaviour: does a task compute the same function as a KernelBench problem?

The lexical screen (:mod:`~kernelmosaic.task.decontam`) compares op names, so ``F.softsign(x)``
and ``x / (1 + torch.abs(x))`` look unrelated to it. This module runs the code instead:

1. **Shrink.** Every integer literal above :data:`SIZE` (16) in the source becomes 16
   (``batch_size = 4096``, ``torch.randn(B, 8192)``, ``nn.Linear(1024, 2752)``, ``(768,)``...),
   so every size a task derives from them stays consistent and the probe is tiny. Small
   integers (kernel sizes, dims, heads, strides) stay as written. A module that cannot run at
   16 (a CNN that pools 16 pixels away) is tried at 32, then 64 (:data:`SIZES`); one whose
   literals are tied by arithmetic (``Linear(1024, 3072)`` then ``.view(b, t, 3, 8, d // 8)``)
   gets every size divided by one power of two instead, which keeps the ties.
2. **Probe.** Each module is built and run in float64 (the dtype a task names is a rounding
   choice, not a different function) on shared probe inputs: its float inputs are replaced by
   values that depend only on (input position, shape, variant), and its parameters by values
   that depend only on (parameter position, shape). Two modules with the same input shapes
   therefore see the same inputs, and two modules whose parameters are laid out alike get the
   same weights. Integer and bool inputs are drawn by the module's own ``get_inputs`` after the
   same seed. Two value variants: signed (``3 * randn``) and positive (uniform in [0.05, 2]),
   so functions that differ only on one side of zero, or that need a positive domain, are told
   apart. A module with one float input (or several of one shape: a loss, a binary op) is also
   run at ranks 1-4 (``(16,)*r``) up to its own rank, when it accepts them, which is how an elementwise task at rank 3 meets a KernelBench
   problem at rank 2 (the second look then compares them at the task's own shape).
3. **Compare.** Outputs are flattened and concatenated (trivial reshapes, squeezes and
   tuple-vs-tensor do not matter) and compared within ``rtol=1e-4``, ``atol=1e-6 * scale``;
   non-finite values must sit in the same places. An output that is mostly non-finite or
   constant proves nothing and is not compared.

A task is **same** as a problem when, on the task's own (shrunk) input shapes, both value
variants that say anything agree: at that shape the two are one function, whatever the
task's original shape and dtype. It is **near** when they agree only on another shared probe
(e.g. an RMSNorm over the last dim and KernelBench's over dim 1 coincide on rank-2 inputs).
``same`` drops a task; ``near`` is evidence for the reviewer.

Reference code is trusted task code, not candidates, but it can still be huge or hang: each
module runs in a worker process with an address-space limit (``RLIMIT_AS``) and a per-module
timeout; a worker that dies or hangs is killed and the module is recorded as not probed.
"""

from __future__ import annotations

import ast
import json
import math
import os
import select
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


SIZE = 16          # every int literal above this becomes this
SIZES = (16, 32, 64)  # tried in turn: a module that cannot run at 16 (a CNN that pools 16 px away) gets 32, then 64
RANKS = (1, 2, 3, 4)
SEED = 20261201
VARIANTS = ("signed", "positive")
KEEP = 2048        # output values kept per probe (evenly spaced, the same indices for the same length)
MAX_INPUT_ELEMS = 1 << 21   # per input tensor after shrinking
RATIO_MAX_ELEMS = 1 << 18   # per input tensor in the confirming probe
RTOL, ATOL = 1e-4, 1e-6
TIMEOUT_S = 30.0
MEMORY_BYTES = 6 << 30
PROBE_VERSION = 1


# -- shrinking ---------------------------------------------------------------------------------
class _Shrink(ast.NodeTransformer):
    def __init__(self, size: int, factor: int | None = None):
        self.size = size
        self.factor = factor

    def visit_BinOp(self, node):
        # 2 ** 31 stays: shrinking the exponent of a power would make numbers larger
        if isinstance(node.op, ast.Pow):
            node.left = self.visit(node.left)
            return node
        return self.generic_visit(node)

    def visit_Constant(self, node):
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool) and v > self.size:
            new = self.size if self.factor is None else max(2, round(v / self.factor))
            return ast.copy_location(ast.Constant(new), node)
        return node


def shrink_source(source: str, size: int = SIZE, factor: int | None = None) -> str:
    """The source with every integer literal above ``size`` set to ``size`` (or, with ``factor``,
    divided by it: the confirming probe keeps the sizes' ratios, so ``kthvalue(x, 204)`` over
    2048 stays a 10th-percentile and does not become a max)."""
    tree = _Shrink(size, factor).visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


# -- in the worker -------------------------------------------------------------------------------
def _canonical(shape, slot: int, variant: int, torch):
    g = torch.Generator().manual_seed(SEED + 7919 * slot + 104729 * variant)
    if variant == 0:
        return torch.randn(shape, generator=g, dtype=torch.float64) * 3.0
    return torch.rand(shape, generator=g, dtype=torch.float64) * 1.95 + 0.05


def _param_values(shape, slot: int, torch):
    """Deterministic weights by (position, shape): fan-in scaled for matrices and kernels,
    in [0.5, 1.5] for vectors (scales and biases both stay sane)."""
    g = torch.Generator().manual_seed(SEED + 31337 + 7919 * slot)
    if len(shape) >= 2:
        fan_in = 1
        for d in shape[1:]:
            fan_in *= d
        return (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1) / max(1, fan_in) ** 0.5
    return torch.rand(shape, generator=g, dtype=torch.float64) + 0.5


def _flatten_out(out, torch) -> list:
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flatten_out(o, torch)]
    if isinstance(out, dict):
        return [t for k in sorted(out, key=str) for t in _flatten_out(out[k], torch)]
    if isinstance(out, (int, float, bool)):
        return [torch.tensor(float(out))]
    return []


def _input_key(args, torch) -> list:
    """What makes two probes the same: shapes and kinds; int/bool values; other arguments."""
    import hashlib

    key = []
    for a in args:
        if isinstance(a, torch.Tensor):
            if a.is_floating_point():
                key.append(["f", list(a.shape)])
            else:
                h = hashlib.sha256(a.detach().cpu().contiguous().numpy().tobytes()).hexdigest()[:12]
                key.append([str(a.dtype).replace("torch.", ""), list(a.shape), h])
        else:
            key.append(["v", repr(a)[:80]])
    return key


def probe_module(source: str, workdir: str, tag: str) -> dict:
    """Probe at the first size in :data:`SIZES` the module runs at (the errors of the others kept)."""
    tried = []
    for size in SIZES:
        res = _probe_at(source, workdir, tag, size)
        if res["probes"]:
            res["size"] = size
            if tried:
                res["smaller_sizes_failed"] = tried
            return res
        tried.append(f"{size}: {res.get('error')}")
    # sizes tied by arithmetic in literals (Linear(1024, 3072) then .view(b, t, 3, 8, d // 8)) break
    # when every size becomes 16; dividing them all by one factor keeps such ties
    conf = confirm_module(source, workdir, tag)
    if conf["probes"]:
        conf["smaller_sizes_failed"] = tried
        return conf
    tried.append(f"sizes / {conf.get('factor', '?')}: {conf.get('error')}")
    res["error"] = "; ".join(f"at {t}" for t in tried)
    return res


def _ratio_factor(source: str) -> int:
    """The smallest power of two that brings every input of the full-size task (shapes read on
    the meta device: nothing is allocated) under :data:`RATIO_MAX_ELEMS` elements."""
    import torch

    g: dict = {"__name__": "kmosaic_probe_meta", "__builtins__": __builtins__}
    exec(compile(source, "<meta>", "exec"), g)  # noqa: S102 - trusted reference code, in a sandboxed worker
    with torch.device("meta"):
        shapes = [tuple(a.shape) for a in g["get_inputs"]() if isinstance(a, torch.Tensor)]
    for k in range(1, 24):
        f = 2 ** k
        sizes = [math.prod(d if d <= SIZE else max(2, round(d / f)) for d in shp) for shp in shapes]
        if all(n <= RATIO_MAX_ELEMS for n in sizes):
            return f
    raise ValueError(f"inputs too large to shrink: {shapes}")


def confirm_module(source: str, workdir: str, tag: str) -> dict:
    """The confirming probe of a task: sizes divided by one factor, its own shape only."""
    try:
        f = _ratio_factor(source)
    except BaseException as e:  # noqa: BLE001
        return {"error": f"meta shapes: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}", "probes": []}
    res = _probe_at(source, workdir, tag, SIZE, factor=f, ranks=False)
    res["factor"] = f
    return res


def extra_module(source: str, workdir: str, tag: str, shapes: list[list[int]]) -> dict:
    """A problem run on other modules' input shapes (its inputs: floats of one shape), at the first size it builds at."""
    res: dict = {"probes": [], "error": "no size"}
    for size in SIZES:
        res = _probe_at(source, workdir, tag, size, extra_shapes=shapes)
        if res["probes"] or not str(res.get("error", "")).startswith("build"):
            return res
    return res


def _probe_at(source: str, workdir: str, tag: str, size: int, factor: int | None = None, ranks: bool = True,
              extra_shapes: list | None = None) -> dict:
    """Build and run one module on its probes; outputs go to ``workdir`` as .npy files."""
    import numpy as np
    import torch

    res: dict = {"probes": []}
    try:
        small = shrink_source(source, size, factor)
    except SyntaxError as e:
        return {"error": f"syntax error: {e.msg}", "probes": []}
    g: dict = {"__name__": "kmosaic_probe", "__builtins__": __builtins__}
    torch.set_default_dtype(torch.float64)
    try:
        torch.manual_seed(SEED)
        exec(compile(small, f"<{tag}>", "exec"), g)  # noqa: S102 - trusted reference code, in a sandboxed worker
        for k, v in list(g.items()):  # the task's named dtype becomes float64 (see the module docstring)
            if isinstance(v, torch.dtype) and v.is_floating_point:
                g[k] = torch.float64
        torch.manual_seed(SEED)
        init = list(g["get_init_inputs"]())
        torch.manual_seed(SEED)
        inputs = list(g["get_inputs"]())
        for a in inputs:
            if isinstance(a, torch.Tensor) and a.numel() > MAX_INPUT_ELEMS:
                return {"error": f"an input still has {a.numel()} elements after shrinking", "probes": []}
        torch.manual_seed(SEED)
        model = g["Model"](*init)
        model = model.to(torch.float64) if isinstance(model, torch.nn.Module) else model
        params = list(model.parameters()) if isinstance(model, torch.nn.Module) else []
        with torch.no_grad():
            for i, p in enumerate(params):
                if p.is_floating_point():
                    p.copy_(_param_values(tuple(p.shape), i, torch))
        res["params"] = [list(p.shape) for p in params]
    except BaseException as e:  # noqa: BLE001 - any failure of a reference is a finding, not a crash
        return {"error": f"build: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}", "probes": []}

    def canon(args, variant, slot_base=0):
        out = []
        for i, a in enumerate(args):
            if isinstance(a, torch.Tensor) and a.is_floating_point():
                out.append(_canonical(tuple(a.shape), slot_base + i, variant, torch))
            elif isinstance(a, torch.Tensor):
                out.append(a.clone())
            else:
                out.append(a)
        return out

    def run(args):
        torch.manual_seed(SEED)  # dropout and other randomness in forward draw alike in every module
        with torch.no_grad():
            return model(*args)

    own_key = _input_key(inputs, torch)
    shapes_to_try = [("own", inputs)]
    floats = [a for a in inputs if isinstance(a, torch.Tensor) and a.is_floating_point()]
    # one float input, or several of one shape (a loss's predictions and targets, a binary op):
    # such modules can be asked about other shapes
    uniform = bool(inputs) and len(floats) == len(inputs) and len({tuple(a.shape) for a in floats}) == 1
    if extra_shapes is not None:
        if not uniform:
            return {"error": "other shapes are tried only on modules whose inputs are floats of one shape", "probes": []}
        shapes_to_try = [("extra", [torch.empty(tuple(shp), dtype=torch.float64)] * len(inputs)) for shp in extra_shapes]
    elif ranks and uniform:
        for r in RANKS:
            if r > floats[0].dim():  # higher ranks only cost time: two modules meet at the lower one
                break
            shp = (size,) * r
            if tuple(floats[0].shape) != shp:
                shapes_to_try.append((f"rank{r}", [torch.empty(shp, dtype=torch.float64)] * len(inputs)))
    res["own_key"] = json.dumps(own_key)
    n = 0
    for label, args in shapes_to_try:
        key = json.dumps(_input_key(args, torch))
        for v, vname in enumerate(VARIANTS):
            try:
                out = run(canon(args, v))
                ts = _flatten_out(out, torch)
                if not ts:
                    raise TypeError("forward returned no tensor")
                flat = torch.cat([t.detach().to(torch.float64).reshape(-1) for t in ts])
            except BaseException as e:  # noqa: BLE001
                if label == "own" and extra_shapes is None:  # without its own shape nothing says what the module computes
                    for pr in res["probes"]:
                        os.unlink(pr["file"])
                    msg = str(e).splitlines()[0][:200] if str(e) else ""
                    return {"error": f"forward ({vname} probe): {type(e).__name__}: {msg}", "probes": []}
                break  # this rank does not suit the module; the other variant would fail alike
            numel = flat.numel()
            if numel > KEEP:
                flat = flat[torch.linspace(0, numel - 1, KEEP, dtype=torch.float64).round().long()]
            arr = flat.numpy()
            fin = np.isfinite(arr)
            finite = float(fin.mean()) if arr.size else 0.0
            spread = float(arr[fin].max() - arr[fin].min()) if fin.any() else 0.0
            scale = float(np.abs(arr[fin]).max()) if fin.any() else 0.0
            # one number (a loss, a full reduction) is not "constant": it is compared as it is
            degenerate = finite < 0.5 or (arr.size > 1 and spread <= 1e-9 * max(1.0, scale))
            path = os.path.join(workdir, f"{tag}_{size}_{n}.npy")
            np.save(path, arr)
            n += 1
            res["probes"].append({"label": label, "key": key, "variant": vname, "numel": numel, "file": path,
                                  "out_shapes": [list(t.shape) for t in ts], "finite": round(finite, 4),
                                  "degenerate": degenerate})
    return res


def _worker(fd: int, memory_bytes: int | None = None) -> None:
    if memory_bytes:
        # set here, before torch is imported, rather than in a preexec_fn: the parent starts
        # workers from several threads, where preexec_fn is not safe
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    proto = os.fdopen(fd, "w", buffering=1)
    import torch

    torch.set_num_threads(1)
    proto.write(json.dumps({"event": "ready"}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        t = time.perf_counter()
        try:
            mode = req.get("mode", "probe")
            if mode == "confirm":
                res = confirm_module(req["source"], req["workdir"], req["tag"])
            elif mode == "extra":
                res = extra_module(req["source"], req["workdir"], req["tag"], req["shapes"])
            else:
                res = probe_module(req["source"], req["workdir"], req["tag"])
        except BaseException as e:  # noqa: BLE001 - e.g. MemoryError outside the guarded parts
            res = {"error": f"{type(e).__name__}: {str(e)[:200]}", "probes": []}
        res["tag"] = req["tag"]
        res["probe_s"] = round(time.perf_counter() - t, 3)
        proto.write(json.dumps(res) + "\n")
    os._exit(0)


# -- in the parent -------------------------------------------------------------------------------
class ProbeUnavailable(RuntimeError):
    """No probe worker could start (e.g. torch does not import): the check cannot run at all.
    Raised rather than recorded per module, so that a set is never marked as checked when
    nothing was probed."""


def _tail(log, chars: int = 600) -> str:
    """The end of the workers' log, for an error message: the log lives in the prober's scratch
    folder, which is gone once the error reaches the user."""
    try:
        log.flush()
        text = Path(log.name).read_text(errors="replace").strip()
    except (AttributeError, OSError, TypeError):
        return "its log could not be read"
    lines = text.splitlines()
    return (lines[-1] if lines else "its log is empty")[-chars:]


class _Worker:
    def __init__(self, log, memory_bytes: int):
        r, w = os.pipe()
        pkg_root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": pkg_root + os.pathsep + os.environ.get("PYTHONPATH", ""),
               "OMP_NUM_THREADS": "1", "CUDA_VISIBLE_DEVICES": ""}
        self.proc = subprocess.Popen([sys.executable, "-m", "kernelmosaic.curate.behaviour", "--worker", "--fd", str(w),
                                      "--memory-bytes", str(int(memory_bytes))],
                                     stdin=subprocess.PIPE, stdout=log, stderr=log, pass_fds=(w,), env=env, text=True,
                                     start_new_session=True)
        os.close(w)
        self.events = os.fdopen(r, "r")
        up, _, _ = select.select([self.events], [], [], 180)
        if not (up and self.events.readline()):
            self.kill()
            raise ProbeUnavailable(f"the probe worker did not start: {_tail(log)}")

    def ask(self, req: dict, timeout_s: float) -> dict:
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.kill()
            return {"error": "worker crash (process died)", "probes": []}
        ready, _, _ = select.select([self.events], [], [], timeout_s)
        line = self.events.readline() if ready else ""
        if not line:
            self.kill()
            return {"error": f"timeout after {timeout_s:.0f} s" if not ready else
                    "worker crash (process died: out of memory or a hard crash)", "probes": []}
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            self.kill()
            return {"error": "worker crash (its answer was cut short)", "probes": []}

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)  # its process group: what the module started dies with it
        except ProcessLookupError:
            pass
        self.proc.wait()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=20)
        except Exception:  # noqa: BLE001
            self.kill()


@dataclass
class Probed:
    """One module's probe outputs, held in memory for comparison."""

    name: str
    error: str | None = None
    own_key: str | None = None
    probes: list[dict] = field(default_factory=list)  # each with "values" (numpy array)
    probe_s: float = 0.0


class Prober:
    """``jobs`` worker processes kept across calls (starting one imports torch: seconds), their
    scratch folder and log. Use as a context manager; :func:`probe_all` makes a one-off one."""

    def __init__(self, jobs: int = 1, timeout_s: float = TIMEOUT_S, memory_bytes: int = MEMORY_BYTES):
        import threading

        self.jobs, self.timeout_s, self.memory_bytes = max(1, jobs), timeout_s, memory_bytes
        self._tmp = tempfile.TemporaryDirectory(prefix="kmosaic-probe-")
        self.wd = self._tmp.name
        self.log = open(os.path.join(self.wd, "worker.log"), "a")
        self.workers: list[_Worker | None] = [None] * self.jobs
        self._n = 0
        self._lock = threading.Lock()

    def __enter__(self) -> "Prober":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for w in self.workers:
            if w is not None:
                w.close()
        self.workers = [None] * self.jobs
        self.log.close()
        self._tmp.cleanup()

    def run(self, items: list[tuple], progress=None) -> dict[str, Probed]:
        """Probe every (name, source[, request fields]). The request fields pick another mode:
        ``{"mode": "confirm"}`` or ``{"mode": "extra", "shapes": [...]}``."""
        import threading

        import numpy as np

        results: dict[str, Probed] = {}
        queue = list(reversed(items))
        done = [0]
        failed: list[ProbeUnavailable] = []

        def lane(k: int):
            while True:
                with self._lock:
                    if not queue:
                        break
                    name, src, *more = queue.pop()
                    self._n += 1
                    tag = f"m{self._n}"
                w = self.workers[k]
                if w is None or not w.alive():
                    try:
                        w = self.workers[k] = _Worker(self.log, self.memory_bytes)
                    except ProbeUnavailable as e:
                        # not this module's fault: stop every lane and raise below, so that no
                        # module is recorded as "not probed" for a reason that is not its own
                        self.workers[k] = None
                        with self._lock:
                            failed.append(e)
                            queue.clear()
                        break
                r = w.ask({"source": src, "workdir": self.wd, "tag": tag, **(more[0] if more else {})}, self.timeout_s)
                p = Probed(name, error=r.get("error"), own_key=r.get("own_key"), probe_s=r.get("probe_s", 0.0))
                for pr in r.get("probes", []):
                    try:
                        pr["values"] = np.load(pr.pop("file"))
                    except (OSError, ValueError):
                        continue
                    p.probes.append(pr)
                for f in Path(self.wd).glob(f"{tag}_*.npy"):
                    f.unlink()
                with self._lock:
                    results[name] = p
                    done[0] += 1
                    if progress:
                        progress(done[0], len(items))

        threads = [threading.Thread(target=lane, args=(k,), daemon=True) for k in range(self.jobs)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if failed:
            raise failed[0]
        return results


def probe_all(items: list[tuple], *, jobs: int = 1, timeout_s: float = TIMEOUT_S,
              memory_bytes: int = MEMORY_BYTES, progress=None) -> dict[str, Probed]:
    """Probe every (name, source[, request fields]) with a :class:`Prober` of its own."""
    with Prober(jobs, timeout_s, memory_bytes) as pr:
        return pr.run(items, progress)


def same_values(a, b) -> tuple[bool, float]:
    """Equal within tolerance (non-finite values in the same places); the largest relative error."""
    import numpy as np

    if a.shape != b.shape:
        return False, float("inf")
    fa, fb = np.isfinite(a), np.isfinite(b)
    if not np.array_equal(fa, fb) or not np.array_equal(a[~fa], b[~fb], equal_nan=True):
        return False, float("inf")
    if not fa.any():
        return True, 0.0
    x, y = a[fa], b[fb]
    scale = max(1.0, float(np.abs(y).max()))
    err = np.abs(x - y)
    ok = bool((err <= ATOL * scale + RTOL * np.abs(y)).all())
    return ok, float(err.max() / scale)


def _by_key(p: Probed) -> dict[str, dict[str, dict]]:
    out: dict[str, dict[str, dict]] = {}
    for pr in p.probes:
        out.setdefault(pr["key"], {})[pr["variant"]] = pr
    return out


def _agree(mine: dict[str, dict], theirs: dict[str, dict]) -> tuple[bool | None, float, int]:
    """Over the value variants both ran: True if every informative one agrees (and there is one),
    False if one disagrees, None if none says anything; the largest error; variants compared."""
    worst, n = 0.0, 0
    for v, a in mine.items():
        b = theirs.get(v)
        if b is None or a["degenerate"] or b["degenerate"] or a["numel"] != b["numel"]:
            continue
        ok, err = same_values(a["values"], b["values"])
        n += 1
        worst = max(worst, err)
        if not ok:
            return False, worst, n
    return (True if n else None), worst, n


def _describe(key: str) -> str:
    parts = []
    for k in json.loads(key):
        parts.append(f"{k[0]}{tuple(k[1])}" if k[0] != "v" else k[1])
    return ", ".join(parts)


def match(task: Probed, problems: dict[str, Probed]) -> dict:
    """The behavioural verdict for one task against every probed problem.

    ``verdict``: same | near | different | not probed. ``kb``: the problem it matches (same or
    near) or, for ``different``, the closest one by relative error on the task's own probe."""
    if task.error or not task.probes:
        return {"verdict": "not probed", "error": task.error or "no probe ran"}
    mine = _by_key(task)
    own = mine.get(task.own_key, {})
    if own and all(p["degenerate"] for p in own.values()):
        return {"verdict": "not probed", "error": "its outputs on the probes are constant or non-finite"}
    same, near, closest, compared = [], [], (float("inf"), None), 0
    for pname, prob in problems.items():
        if not prob.probes:
            continue
        theirs = _by_key(prob)
        if own and task.own_key in theirs:
            ok, err, n = _agree(own, theirs[task.own_key])
            compared += ok is not None
            if ok:
                same.append((err, pname, task.own_key, n))
                continue
            if ok is False and err < closest[0]:
                closest = (err, pname)
        for key, vs in mine.items():
            if key == task.own_key or key not in theirs:
                continue
            ok, err, n = _agree(vs, theirs[key])
            if ok:
                near.append((err, pname, key, n))
                break
    if same:
        err, pname, key, n = min(same)
        return {"verdict": "same", "kb": pname, "probe": _describe(key), "max_rel_err": err, "variants": n,
                "also": sorted({p for _, p, _, _ in same} - {pname})[:5]}
    if near:
        err, pname, key, n = min(near)
        return {"verdict": "near", "kb": pname, "probe": _describe(key), "max_rel_err": err, "variants": n,
                "also": sorted({p for _, p, _, _ in near} - {pname})[:5]}
    # how many problems ran on the task's own shape: 0 means "different" rests on the rank probes alone
    out = {"verdict": "different", "compared_at_own_shape": compared}
    if closest[1] is not None:
        out.update({"closest": closest[1], "closest_rel_err": round(closest[0], 6)})
    return out


def confirm(rows: list[dict], tasks: dict[str, Probed], sources: dict[str, str], problems: dict[str, str],
            prober: Prober) -> int:
    """The second look at every ``same`` or ``near`` row: the task again with its sizes divided by
    one factor (ratios kept), and the problem run on exactly that input shape. Agreement there
    makes the row ``same`` (an elementwise task at an odd rank meets its problem); disagreement
    makes a ``same`` row ``near`` (the first probe collapsed sizes: ``kthvalue(k=204 of 2048)``
    became a max). A pair the second look cannot run keeps its verdict, marked unconfirmed.
    Rows are updated in place; returns how many changed verdict."""
    cand = [r for r in rows if r.get("verdict") in ("same", "near")]
    if not cand:
        return 0
    conf = prober.run([(r["name"], sources[r["name"]], {"mode": "confirm"}) for r in cand])
    want: dict[str, list] = {}
    pairs = []
    for r in cand:
        c = conf[r["name"]]
        key = json.loads(c.own_key) if c.own_key else None
        if c.error or not c.probes or not key or any(k[0] != "f" or k[1] != key[0][1] for k in key):
            r["confirmed"] = None
            r["confirm_note"] = "the second look could not run: " + (c.error or "the task's inputs are not floats of one shape")
            continue
        kbs = [r["kb"]] + [k for k in r.get("also", []) if r["verdict"] == "same"]
        for kb in kbs:
            if key[0][1] not in want.setdefault(kb, []):
                want[kb].append(key[0][1])
        pairs.append((r, c, kbs))
    extra = prober.run([(kb, problems[kb], {"mode": "extra", "shapes": shp}) for kb, shp in want.items()])
    changed = 0
    for r, c, kbs in pairs:
        mine = _by_key(c).get(c.own_key, {})
        verdict, detail = None, None
        for kb in kbs:
            theirs = _by_key(extra[kb]).get(c.own_key, {})
            ok, err, n = _agree(mine, theirs) if theirs else (None, 0.0, 0)
            if ok:
                verdict, detail = "same", (kb, err, n)
                break
            if ok is False and verdict is None:
                verdict, detail = "different", (kb, err, n)
        if verdict is None:
            r["confirmed"] = None
            r["confirm_note"] = f"{r['kb']} does not run on the task's shape {_describe(c.own_key)}"
            continue
        old = r["verdict"]
        if verdict == "same":
            kb, err, n = detail
            if old != "same":  # the evidence is now the second look itself
                r.update(probe=_describe(c.own_key), max_rel_err=err, variants=n)
            r.update(verdict="same", kb=kb, confirmed=True, confirm_probe=_describe(c.own_key), confirm_rel_err=err)
            r["confirm_note"] = f"also the same on {_describe(c.own_key)} (sizes divided by a common factor)"
        else:
            r["confirmed"] = False
            r["confirm_note"] = (f"differs from {detail[0]} on {_describe(c.own_key)} (sizes divided by a common "
                                 f"factor; rel. error {detail[1]:.2g}): it agreed only where shrinking made sizes equal")
            if old == "same":
                r["verdict"] = "near"
        changed += r["verdict"] != old
    return changed


def behavioural_check(items: list[tuple[str, str]], problems: list[tuple[str, str]], *, jobs: int = 1,
                      timeout_s: float = TIMEOUT_S, memory_bytes: int = MEMORY_BYTES, progress=None) -> tuple[list[dict], dict]:
    """Probe the problems and the tasks, match, then confirm the matches (:func:`confirm`). One
    row per task (in order) and a summary with the time each part took and which problems could
    not be probed."""
    t0 = time.perf_counter()
    total = len(items) + len(problems)
    prog = (lambda i, n: progress(i, total)) if progress else None
    prog2 = (lambda i, n: progress(len(problems) + i, total)) if progress else None
    with Prober(jobs, timeout_s, memory_bytes) as prober:
        kb = prober.run(problems, progress=prog)
        t_kb = time.perf_counter() - t0
        tasks = prober.run(items, progress=prog2)
        t_tasks = time.perf_counter() - t0 - t_kb
        rows = []
        for name, _ in items:
            row = {"name": name, **match(tasks[name], kb)}
            rows.append(row)
        t_match = time.perf_counter() - t0 - t_kb - t_tasks
        changed = confirm(rows, tasks, dict(items), dict(problems), prober)
    summary = {"problems": len(problems), "problems_probed": sum(1 for p in kb.values() if p.probes),
               "problems_not_probed": {k: p.error for k, p in kb.items() if not p.probes},
               "tasks": len(items), "tasks_probed": sum(1 for p in tasks.values() if p.probes),
               "problems_s": round(t_kb, 1), "tasks_s": round(t_tasks, 1), "matching_s": round(t_match, 1),
               "confirm_s": round(time.perf_counter() - t0 - t_kb - t_tasks - t_match, 1), "confirm_changed": changed,
               "sizes": list(SIZES), "ranks": list(RANKS), "variants": list(VARIANTS), "rtol": RTOL, "atol": ATOL,
               "probe_version": PROBE_VERSION}
    return rows, summary


def _main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=argparse.SUPPRESS)
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--fd", type=int)
    ap.add_argument("--memory-bytes", type=int, default=None)
    args = ap.parse_args()
    if args.worker:
        _worker(args.fd, args.memory_bytes)


if __name__ == "__main__":
    _main()
