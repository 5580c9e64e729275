"""Task generators: single operators, fusion chains and small architecture blocks.

Every generator is a function ``(ctx, batch) -> Built`` that makes the same structural choices
for the same seed, whatever the batch. The pool writer builds each task at batch 1 and 2, fits
the estimated eager time as a line in the batch, and solves for the batch that lands the task in
the timing window (an H200 cost model: HBM bandwidth, matmul/conv peaks per dtype, a launch
gap per kernel). ``scale="small"`` aims at microseconds instead, for CPU tests.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from . import blocks, catalog
from .catalog import ESIZE, TORCH_DTYPE, Ctx, Op, T

DTYPES = ("fp32", "fp16", "bf16")
GENERATORS = ("single", "fusion", "block")

# H200 eager, effective (not peak): what torch's own kernels reach on big shapes.
BW = 3.0e12
PEAK = {
    "mm": {"fp32": 45e12, "fp16": 550e12, "bf16": 550e12},  # fp32 matmul stays off TF32 by default
    "conv": {"fp32": 90e12, "fp16": 250e12, "bf16": 250e12},  # cuDNN allows TF32 for fp32 convs
    "attn": {"fp32": 25e12, "fp16": 300e12, "bf16": 300e12},
    "sort": {"fp32": 1.2e11, "fp16": 1.5e11, "bf16": 1.5e11},  # element*log2(n) per second
}
KERNEL_GAP_S = 8e-6
TARGET_MS = {"h200": (1.5, 7.0), "small": (0.0005, 0.002)}  # wide: the model is a guess, the window is 1-15 ms
MAX_TENSOR_BYTES = {"h200": 3 << 30, "small": 4 << 20}


@dataclass
class Built:
    name: str  # a short slug of what it computes
    category: str
    ops: list[str]
    init: list[str]
    fwd: list[str]
    inputs: list[tuple[str, str, tuple]]  # (forward arg, get_inputs expression, shape)
    out: T
    flops: float
    eager_bytes: float
    est_s: float  # estimated eager seconds on the H200
    param_bytes: float = 0.0
    doc: str = ""
    returns: str = "x"
    extra: dict = field(default_factory=dict)


def op_seconds(o: Op, dtype: str) -> float:
    mem = o.bytes / BW
    if o.cost == "mem":
        work = mem
    elif o.cost == "scan":
        work = o.bytes / (BW / 3)
    elif o.cost == "serial":
        work = max(mem, o.flops / PEAK["mm"][dtype] * 4)
    else:
        work = max(mem, o.flops / PEAK[o.cost][dtype])
    return work + KERNEL_GAP_S * o.kernels


def combine(name: str, category: str, x: tuple[str, str, tuple], ops: list[Op], dtype: str, doc: str = "") -> Built:
    inputs = [x]
    seen = {x[0]}
    for o in ops:
        for nm, expr in o.inputs:
            if nm not in seen:
                seen.add(nm)
                inputs.append((nm, expr, ()))
    names = [n for o in ops for n in (o.ops or [o.name])]
    return Built(name=name, category=category, ops=names, init=[ln for o in ops for ln in o.init],
                 fwd=[ln for o in ops for ln in o.fwd], inputs=inputs, out=ops[-1].out,
                 flops=sum(o.flops for o in ops), eager_bytes=sum(o.bytes for o in ops),
                 est_s=sum(op_seconds(o, dtype) for o in ops), doc=doc or " -> ".join(names))


# -- input shapes (batch excluded) -----------------------------------------------------------------
def base_shape(kind: str, c: Ctx) -> tuple:
    if kind == "2d":
        return (c.pick([1024, 2048, 4096, 8192, 16384, 32768], [32, 64, 128, 256]),)
    if kind == "seq":
        return (c.pick([128, 256, 512, 1024, 2048]), c.pick([256, 512, 768, 1024, 2048])) if not c.small else \
            (c.pick([8, 16, 32]), c.pick([16, 32, 64]))
    if kind == "c1":
        return (c.pick([8, 16, 32, 64, 128], [3, 4, 8]), c.pick([1024, 2048, 4096, 16384], [32, 64, 128]))
    if kind == "c2":
        hw = c.pick([28, 32, 56, 64, 112, 128, 224, 256], [8, 12, 16, 24])
        return (c.pick([3, 8, 16, 32, 64, 128], [3, 4, 8]), hw, hw if c.rng.random() < 0.8 else hw // 2)
    if kind == "c3":
        hw = c.pick([16, 32, 48, 64], [6, 8, 12])
        return (c.pick([3, 4, 8, 16, 32], [2, 3, 4]), c.pick([8, 16, 24, 32], [4, 6, 8]), hw, hw)
    raise ValueError(kind)


def _x(kind: str, c: Ctx, batch: int) -> tuple[T, tuple[str, str, tuple]]:
    shape = (batch,) + base_shape(kind, c)
    t = T(shape, kind)
    return t, ("x", catalog._randn(shape), shape)


def _kinds_for(fn, c: Ctx, batch: int) -> list[str]:
    """Input kinds the op accepts (tried on a throwaway context so the real draws stay put)."""
    ok = []
    for kind in catalog.KINDS:
        probe = Ctx(random.Random(c.rng.random()), c.dtype, c.small)
        t, _ = _x(kind, probe, batch)
        if fn(t, probe) is not None:
            ok.append(kind)
    return ok


# -- generators ------------------------------------------------------------------------------------
SINGLE_OPS = [n for n, (cat, _) in catalog.REGISTRY.items() if n not in ("embedding", "residual")]


SINGLE_CATEGORIES = sorted({cat for n, (cat, _) in catalog.REGISTRY.items() if n in SINGLE_OPS})


def gen_single(c: Ctx, batch: int) -> Built | None:
    # a category first, then an op in it: the forty unary ops must not crowd out the rest
    if c.rng.random() < 0.4:
        return blocks.special_single(c, batch)
    cat = c.pick(SINGLE_CATEGORIES)
    name = c.pick([n for n in SINGLE_OPS if catalog.REGISTRY[n][0] == cat])
    first = _first_op(name, c, batch)
    if first is None:
        return None
    o, x = first
    return combine(o.name, o.category, x, [o], c.dtype)


def _first_op(name: str, c: Ctx, batch: int) -> tuple[Op, tuple] | None:
    """The op applied to a fresh input of a layout it accepts."""
    _, fn = catalog.REGISTRY[name]
    kinds = _kinds_for(fn, c, batch)
    if not kinds:
        return None
    t, x = _x(c.pick(kinds), c, batch)
    o = fn(t, c)
    return None if o is None else (o, x)


def gen_fusion(c: Ctx, batch: int) -> Built | None:
    n_ops = c.pick([2, 2, 3, 3, 3, 4, 4, 5, 6])
    ops: list[Op] = []
    if c.rng.random() < 0.8:
        first = _first_op(c.pick(catalog.HEADS), c, batch)
        if first is None:
            return None
        o, x = first
        ops.append(o)
        t = o.out
    else:
        t, x = _x(c.pick(list(catalog.KINDS)), c, batch)
    t = extend_chain(c, t, ops, n_ops, clashes=("y", "idx"))
    if len(ops) < 2:
        return None
    names = [n for o in ops for n in (o.ops or [o.name])]
    return combine("_".join(names[:6]), "fusion", x, ops, c.dtype)


def extend_chain(c: Ctx, t: T, ops: list[Op], n_ops: int, clashes: tuple[str, ...] | None, wrap=None) -> T:
    """Append fusable ops to ``ops`` (up to ``n_ops``, 40 draws) from the tensor ``t``; the chain's
    last output. An op whose second input has a name in ``clashes`` that an earlier op already
    uses is skipped (``None``: any name). ``wrap`` rewrites each op as it is added. v1 and v2 draw
    in the same order, so v1's pool is unchanged."""
    tries = 0
    while len(ops) < n_ops and tries < 40:
        tries += 1
        name = c.pick(catalog.FUSABLE)
        if ops and ops[-1].name == name:
            continue
        _, fn = catalog.REGISTRY[name]
        if t.kind == "int":
            break
        o = fn(t, c)
        if o is None or (o.out.kind == "int" and len(ops) < n_ops - 1):
            continue
        extra = {nm for nm, _ in o.inputs}
        used = {nm for op_ in ops for nm, _ in op_.inputs}
        if extra & used & (set(clashes) if clashes is not None else extra):
            continue  # one second input of each (such) name per task
        if "y" in extra:
            # a second input of the current shape: give it its own get_inputs entry
            o.inputs = [("y", catalog._randn(t.shape))]
        ops.append(wrap(o) if wrap else o)
        t = o.out
    return t


def gen_block(c: Ctx, batch: int) -> Built | None:
    return blocks.block(c, batch)


GEN = {"single": gen_single, "fusion": gen_fusion, "block": gen_block}


# -- sizing and source -----------------------------------------------------------------------------
def _build(gen: str, seed: int, dtype: str, small: bool, batch: int, table: dict | None = None) -> Built | None:
    c = Ctx(random.Random(seed), dtype, small)
    try:
        return (table or GEN)[gen](c, batch)
    except (ValueError, ZeroDivisionError, IndexError):
        return None


def _input_bytes(b: Built, dtype: str) -> float:
    tot = 0
    for _, expr, shape in b.inputs:
        if shape:
            tot = max(tot, math.prod(shape) * ESIZE[dtype])
    return max(tot, b.out.numel * ESIZE[dtype])


def size_task(gen: str, seed: int, dtype: str, scale: str, table: dict | None = None) -> Built | None:
    """Build one task at the batch that puts its estimated eager time inside the target.
    ``table`` maps generator names to functions (default: the v1 generators, :data:`GEN`)."""
    small = scale == "small"
    b1 = _build(gen, seed, dtype, small, 1, table)
    b2 = _build(gen, seed, dtype, small, 2, table)
    if b1 is None or b2 is None or b1.ops != b2.ops:
        return None
    lo, hi = TARGET_MS[scale]
    target = math.exp(random.Random(seed ^ 0x9E3779B9).uniform(math.log(lo), math.log(hi))) / 1e3
    per = b2.est_s - b1.est_s
    fixed = b1.est_s - per
    if per <= 0:
        return None
    batch = max(1, int(round((target - fixed) / per)))
    # the biggest tensor stays within memory the checks and four timing copies can hold
    per_bytes = max(1.0, _input_bytes(b2, dtype) - _input_bytes(b1, dtype))
    batch = max(1, min(batch, int(MAX_TENSOR_BYTES[scale] // per_bytes)))
    if small:
        batch = min(batch, 16)
    built = _build(gen, seed, dtype, small, batch, table)
    if built is None or built.ops != b1.ops:
        return None
    if not small and not (0.4 * lo / 1e3 <= built.est_s <= 2.5 * hi / 1e3):
        return None  # cannot reach the window (too big at batch 1, or capped by memory)
    built.extra["batch"] = batch
    return built


HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def render(b: Built, dtype: str) -> str:
    args = ", ".join(nm for nm, _, _ in b.inputs)
    init = b.init + (["self.to(dtype)"] if b.init else [])
    lines = [HEADER, f"dtype = {TORCH_DTYPE[dtype]}", "", "",
             "class Model(nn.Module):", f'    """{b.doc} ({dtype})."""', "",
             "    def __init__(self):", "        super().__init__()"]
    lines += [f"        {ln}" for ln in init]
    lines += ["", f"    def forward(self, {args}):"]
    lines += [f"        {ln}" for ln in b.fwd]
    lines += [f"        return {b.returns}", "", "", f"batch_size = {b.extra['batch']}", "", "",
              "def get_inputs():", "    return [" + ", ".join(expr for _, expr, _ in b.inputs) + "]", "", "",
              "def get_init_inputs():", "    return []", ""]
    return "\n".join(lines)


def min_bytes(b: Built, dtype: str) -> int:
    """Inputs and output, each once (parameters are added by the filters' measurement)."""
    tot = b.out.numel * (8 if b.out.kind == "int" else ESIZE[dtype])
    for nm, expr, shape in b.inputs:
        if shape:
            tot += math.prod(shape) * ESIZE[dtype]
    return int(tot)


def make_task(gen: str, seed: int, dtype: str, scale: str) -> tuple[str, dict] | None:
    b = size_task(gen, seed, dtype, scale)
    if b is None:
        return None
    return render(b, dtype), task_meta(b, gen, seed, dtype, scale)


def task_meta(b: Built, gen: str, seed: int, dtype: str, scale: str) -> dict:
    """A generated task's manifest record (v2 adds its keys after these)."""
    return {
        "category": b.category, "ops": b.ops, "dtypes": [dtype], "generator": gen, "seed": seed, "scale": scale,
        "shapes": {nm: list(shape) for nm, _, shape in b.inputs if shape},
        "out_shape": list(b.out.shape), "batch": b.extra["batch"],
        "flops": int(b.flops), "bytes": min_bytes(b, dtype), "eager_bytes": int(b.eager_bytes),
        "est_ms": round(b.est_s * 1e3, 4), "slug": b.name,
    }


# -- the pool ------------------------------------------------------------------------------------------
MIX = {"single": 0.45, "fusion": 0.35, "block": 0.20}


VERSIONS = ("v1", "v2")


def generate_pool(out_dir, n: int, *, scale: str = "h200", seed: int = 0, mix: dict | None = None,
                  dtypes: tuple = DTYPES, progress=None, version: str = "v1") -> list[dict]:
    """Write ``n`` tasks into a task set at ``out_dir`` (tasks/*.py + manifest.jsonl).

    ``version="v2"`` runs the mosaic-v2 generators (:mod:`~kernelmosaic.curate.generate_v2`);
    v1 stays byte-for-byte what shipped mosaic-v1 was built from."""
    from .taskset import TaskSet

    if scale not in TARGET_MS:
        raise ValueError(f"scale must be one of {', '.join(TARGET_MS)}, not {scale!r}")
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {', '.join(VERSIONS)}, not {version!r}")
    if version == "v2":
        from .generate_v2 import generate_pool_v2

        return generate_pool_v2(out_dir, n, scale=scale, seed=seed, mix=mix, dtypes=dtypes, progress=progress)
    mix = mix or MIX
    ts = TaskSet.create(out_dir, meta={"kind": "pool", "scale": scale, "seed": seed, "mix": mix})
    rng = random.Random(seed)
    gens = list(mix)
    weights = [mix[g] for g in gens]
    records = []
    attempts = 0
    i = 0
    while len(records) < n:
        attempts += 1
        if attempts > 50 * n + 100:
            raise RuntimeError(f"only {len(records)} of {n} tasks could be generated")
        gen = rng.choices(gens, weights)[0]
        dtype = dtypes[len(records) % len(dtypes)] if rng.random() < 0.5 else rng.choice(dtypes)
        task_seed = seed * 1_000_003 + attempts
        made = make_task(gen, task_seed, dtype, scale)
        if made is None:
            continue
        src, meta = made
        name = f"{gen}_{i:05d}_{_slug(meta['slug'])}_{dtype}"
        i += 1
        rec = ts.add(name, src, meta)
        records.append(rec)
        if progress:
            progress(len(records), n)
    return records


def _slug(s: str) -> str:
    s = "".join(ch if ch.isalnum() else "_" for ch in s.lower())
    while "__" in s:
        s = s.replace("__", "_")
    return s.strip("_")[:48]
