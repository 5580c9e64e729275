"""mosaic-v2 generators: a KernelBench-like balance, a structural template key, honest docstrings.

v1 (:mod:`~kernelmosaic.curate.generate`) stays as shipped. v2 reuses its catalog, blocks and
sizing, and changes what is drawn:

- **fusion chains** get the largest share (KernelBench's level 2 is about 40% of it) and three
  wirings: a plain chain, a chain whose head output is added back at the end (``residual``),
  and a chain gated by the sigmoid of the head output (``gate``);
- **fp32** is drawn for 60% of the tasks (KernelBench is all fp32), fp16 and bf16 share the rest;
- **single ops that KernelBench level 1 has** (ReLU, Softsign, Swish, the norms, plain matmuls,
  convolutions, pooling, the standard losses, ...) are not drawn at all, so decontamination has
  little left to drop;
- every task records a **template**: a hash of its op structure (the wiring and the op list,
  with shape-only variants such as a conv's stride merged), never of shapes or dtype, so the
  number of distinct templates counts distinct structures;
- every docstring is built from the same op list that renders the code: a title, then
  ``Ops: a, b, c``; a gated MLP is named for the activation it really gates with (SwiGLU only
  with SiLU; v1 called every gated MLP "SwiGLU-style", whatever its activation).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import asdict, dataclass

from . import blocks, catalog
from .catalog import Ctx, Op
from .generate import DTYPES, Built, _first_op, _slug, _x, combine, extend_chain, render, size_task, task_meta

VERSION = "v2"
MIX_V2 = {"single": 0.25, "fusion": 0.50, "block": 0.25}
# fp32 first: KernelBench is all fp32; the half types keep the set useful for tensor-core kernels
DTYPE_WEIGHTS = {"fp32": 0.6, "fp16": 0.2, "bf16": 0.2}
WIRINGS = ("chain", "residual", "gate")

# Ops a single-op task must not be: each is a KernelBench level-1 problem (or a near copy of one)
# at some shape. Names are the catalog's op names (Op.name), checked after the op is built.
KB_L1_SINGLE = {
    "relu", "gelu", "gelu_tanh", "silu", "selu", "elu", "leaky_relu", "hardsigmoid", "hardtanh", "softplus",
    "softsign", "sigmoid", "tanh", "scale", "l2_normalize", "rms_norm", "layer_norm", "batch_norm", "group_norm",
    "instance_norm", "softmax", "log_softmax", "reduce_sum", "reduce_mean", "reduce_amax", "reduce_amin", "argmax",
    "argmin", "scan_cumsum", "scan_cumprod", "scan_cumsum_rev", "linear", "matmul_t", "bmm", "sdpa", "sdpa_causal",
    "topk", "kthvalue",
}
KB_L1_PREFIXES = ("conv", "max_pool", "avg_pool")
# special singles (their own inputs) by Built.name prefix: the losses, attention and matmuls KernelBench has
# (nll of a log-softmax is cross-entropy spelled out)
KB_L1_SPECIAL = ("loss_mse", "loss_cross_entropy", "loss_nll", "loss_smooth_l1", "loss_huber", "loss_kl_div", "loss_triplet",
                 "loss_hinge", "mm", "bmm", "tall_skinny", "matmul_4d", "matmul_broadcast", "einsum_bhqd")
# What the lexical screen (score >= 0.75) drops anyway, measured on a 2,600-task v2 pool before
# these lists existed: 325 drops, 223 of them blocks (inverted-residual 72, CNN stem 58, ResNet
# basic/bottleneck 56, GRU stacks 36, all against KernelBench L3 models) and 78 singles. Drawing
# them only to drop them would skew the balance after decontamination.
LEXICAL_SINGLE = {"baddbmm", "channel_scale", "reciprocal_soft", "swish_beta", "reduce_mean_abs", "softmax_channel",
                  "square"}
LEXICAL_BLOCKS = ("resnet_", "inverted_residual", "conv_stem", "gru_")
GLU_NAMES = {"silu": "SwiGLU", "gelu": "GeGLU", "gelu_tanh": "GeGLU (tanh approximation)", "relu": "ReGLU"}


# -- the template key --------------------------------------------------------------------------------
def _structural(op: str) -> str:
    """A conv's stride or dilation changes its shapes, not its structure."""
    for suffix in ("_strided", "_dilated"):
        if op.startswith("conv") and op.endswith(suffix):
            return op[: -len(suffix)]
    return op


def template_key(ops: list[str], wiring: str) -> str:
    """A hash of the op structure: the wiring and the op list (structural names), nothing else."""
    key = wiring + ":" + ",".join(_structural(o) for o in ops)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def docstring(title: str, ops: list[str]) -> str:
    return f"{title}. Ops: {', '.join(ops)}"


def _excluded_single(b: Built) -> bool:
    if len(b.ops) == 1 and (b.ops[0] in KB_L1_SINGLE | LEXICAL_SINGLE or b.ops[0].startswith(KB_L1_PREFIXES)):
        return True
    if len(b.ops) == 1 and b.ops[0].startswith("adaptive_") and b.fwd[-1].endswith(", 1)"):
        return True  # an adaptive pool to one value is a mean/max over the last dims (L1/48, L1/49)
    return b.name == "sdpa" or b.name.startswith(KB_L1_SPECIAL + LEXICAL_BLOCKS)


# -- generators ----------------------------------------------------------------------------------------
def _honest(o: Op) -> Op:
    """The catalog's "grouped" conv falls back to groups=1 when no group count divides the
    channels; v2 names it for what it is (v1 keeps the old name: its pool is pinned)."""
    if o.name.endswith("_grouped") and not any("groups=" in ln for ln in o.init):
        o.name = o.name[: -len("_grouped")]
    return o


SINGLE_V2 = [n for n, (cat, _) in catalog.REGISTRY.items() if n not in ("embedding", "residual")]


def gen_single_v2(c: Ctx, batch: int) -> Built | None:
    """One op that KernelBench level 1 does not have (a few draws, then give up on this seed)."""
    for _ in range(8):
        if c.rng.random() < 0.4:
            b = blocks.special_single(c, batch)
        else:
            first = _first_op(c.pick(SINGLE_V2), c, batch)
            if first is None:
                continue
            o, x = first
            b = combine(o.name, o.category, x, [_honest(o)], c.dtype)
        if b is None or _excluded_single(b):
            continue
        if b.category == "loss" and "reduction=" not in "\n".join(b.fwd):
            # v1 names a reduction for the cosine and hinge losses, which reduce over the last dim whatever it says
            b.doc = b.doc.split(", reduction=")[0]
        b.extra["wiring"] = "single"
        b.doc = docstring(f"Single op ({b.category}): {b.doc}", b.ops)
        return b
    return None


def gen_fusion_v2(c: Ctx, batch: int) -> Built | None:
    """A chain like KernelBench level 2: usually a matmul/conv/attention head, then fusable ops;
    wired as a plain chain, a residual (the head's output added back) or a sigmoid gate."""
    n_ops = c.pick([2, 3, 3, 4, 4, 5, 6])
    wiring = c.pick(["chain", "chain", "residual", "gate"])
    ops: list[Op] = []
    has_head = c.rng.random() < 0.85
    if has_head:
        first = _first_op(c.pick(catalog.HEADS), c, batch)
        if first is None:
            return None
        o, x = first
        ops.append(_honest(o))
        t = o.out
    else:
        t, x = _x(c.pick(list(catalog.KINDS)), c, batch)
    anchor = t
    t = extend_chain(c, t, ops, n_ops, clashes=None, wrap=_honest)
    if len(ops) < 2:
        return None
    # the skip needs the chain to end where it started (dim 0 is the batch, the same in both)
    if wiring != "chain" and not (t.kind == anchor.kind and t.shape[1:] == anchor.shape[1:]):
        wiring = "chain"
    if wiring != "chain":
        # r is the head's output, or the input when the chain has no head
        ops[0].fwd = ops[0].fwd + ["r = x"] if has_head else ["r = x"] + ops[0].fwd
        ew = 3 * t.numel * c.es
        if wiring == "residual":
            ops.append(Op("residual_add", "elementwise", [], ["x = x + r"], t, t.numel, ew))
        else:
            ops.append(Op("sigmoid_gate", "elementwise", [], ["x = x * torch.sigmoid(r)"], t, 5 * t.numel, ew, kernels=2))
    names = [n for o in ops for n in (o.ops or [o.name])]
    b = combine("_".join(names[:6]), "fusion", x, ops, c.dtype)
    anchor_is = "the output of its first op" if has_head else "its input"
    title = {"chain": "Fusion chain",
             "residual": f"Fusion chain; {anchor_is} is added back at the end (residual_add)",
             "gate": f"Fusion chain; the result is gated by the sigmoid of {anchor_is} (sigmoid_gate)"}[wiring]
    b.doc = docstring(title, b.ops)
    b.extra["wiring"] = wiring
    return b


def gen_block_v2(c: Ctx, batch: int) -> Built | None:
    for _ in range(8):
        b = blocks.block(c, batch)
        if b is not None and not b.name.startswith(LEXICAL_BLOCKS):
            break
    else:
        return None
    title = b.doc
    if b.name == "gated_mlp":
        # the gate activation is the op between the up projections and the product
        act = b.ops[b.ops.index("mul") - 1]
        norm = b.ops[0] if b.ops[0] in ("layer_norm", "rms_norm") else "none"
        title = f"gated MLP block ({GLU_NAMES[act]}: {act}(gate projection) * up projection) with {norm} and a residual"
    title = title.replace(" with none and ", " with no norm and ")
    b.doc = docstring(title[:1].upper() + title[1:], b.ops)
    b.extra["wiring"] = "block:" + b.name
    return b


GEN_V2 = {"single": gen_single_v2, "fusion": gen_fusion_v2, "block": gen_block_v2}


# -- tasks and the pool -------------------------------------------------------------------------------
def render_v2(b: Built, dtype: str) -> str:
    """v1's layout, with the docstring on two lines: the title, then the op list."""
    src = render(b, dtype)
    title, ops = b.doc.split(". Ops: ")
    one_line = f'    """{b.doc} ({dtype})."""'
    if one_line not in src:
        raise RuntimeError("render() no longer writes the docstring on one line; render_v2 must follow it")
    return src.replace(one_line, f'    """{title} ({dtype}).\n\n    Ops: {ops}\n    """')


def make_task_v2(gen: str, seed: int, dtype: str, scale: str) -> tuple[str, dict] | None:
    b = size_task(gen, seed, dtype, scale, table=GEN_V2)
    if b is None:
        return None
    wiring = b.extra["wiring"]
    meta = {**task_meta(b, gen, seed, dtype, scale), "version": VERSION, "wiring": wiring, "template": template_key(b.ops, wiring)}
    return render_v2(b, dtype), meta


def generate_pool_v2(out_dir, n: int, *, scale: str = "h200", seed: int = 0, mix: dict | None = None,
                     dtypes: tuple = DTYPES, progress=None) -> list[dict]:
    """Write ``n`` v2 tasks into a task set at ``out_dir``; deterministic in (code, seed, n)."""
    from .taskset import TaskSet

    mix = mix or MIX_V2
    ts = TaskSet.create(out_dir, meta={"kind": "pool", "version": VERSION, "scale": scale, "seed": seed, "mix": mix})
    rng = random.Random(seed ^ 0x5EED2)
    gens = [g for g in mix if mix[g] > 0]
    gweights = [mix[g] for g in gens]
    dts = list(dtypes)
    dweights = [DTYPE_WEIGHTS.get(d, 0.2) for d in dts]
    records: list[dict] = []
    attempts = 0
    while len(records) < n:
        attempts += 1
        if attempts > 50 * n + 100:
            raise RuntimeError(f"only {len(records)} of {n} tasks could be generated")
        gen = rng.choices(gens, gweights)[0]
        dtype = rng.choices(dts, dweights)[0]
        made = make_task_v2(gen, seed * 1_000_003 + attempts, dtype, scale)
        if made is None:
            continue
        src, meta = made
        name = f"v2_{gen}_{len(records):05d}_{_slug(meta['slug'])}_{dtype}"
        records.append(ts.add(name, src, meta))
        if progress:
            progress(len(records), n)
    return records


# -- the balance --------------------------------------------------------------------------------------
# issue 18's targets for mosaic-v2: the one place they are written (Balance.meets, the set's report)
TARGETS = {"n": 2000, "fusion_pct": 35.0, "fp32_pct": 50.0, "templates": 400}


@dataclass(frozen=True)
class Balance:
    tasks: int
    fusion: int
    fp32: int
    templates: int
    fusion_pct: float
    fp32_pct: float
    by_generator: dict
    by_dtype: dict
    by_wiring: dict

    def meets(self) -> list[str]:
        """The targets (``TARGETS``) this balance misses (empty when it meets them all)."""
        n, fusion_pct, fp32_pct, templates = (TARGETS[k] for k in ("n", "fusion_pct", "fp32_pct", "templates"))
        miss = []
        if self.tasks < n:
            miss.append(f"{self.tasks} tasks < {n}")
        if self.fusion_pct < fusion_pct:
            miss.append(f"fusion {self.fusion_pct}% < {fusion_pct}%")
        if self.fp32_pct < fp32_pct:
            miss.append(f"fp32 {self.fp32_pct}% < {fp32_pct}%")
        if self.templates < templates:
            miss.append(f"{self.templates} templates < {templates}")
        return miss

    def to_dict(self) -> dict:
        return asdict(self)


def balance(records: list[dict]) -> Balance:
    """Fusion and fp32 shares and distinct templates of manifest records (v2 records carry
    ``template``; a record without one gets it from its ops, as a chain)."""
    n = len(records)
    fusion = sum(1 for r in records if r.get("generator") == "fusion")
    fp32 = sum(1 for r in records if r.get("dtypes") == ["fp32"])
    templates = {r.get("template") or template_key(r.get("ops", []), r.get("wiring", "chain")) for r in records}
    pct = (lambda k: round(100.0 * k / n, 1) if n else 0.0)
    return Balance(tasks=n, fusion=fusion, fp32=fp32, templates=len(templates), fusion_pct=pct(fusion), fp32_pct=pct(fp32),
                   by_generator=dict(Counter(r.get("generator") for r in records).most_common()),
                   by_dtype=dict(Counter(",".join(r.get("dtypes", [])) for r in records).most_common()),
                   by_wiring=dict(Counter(str(r.get("wiring")).split(":")[0] for r in records).most_common()))
