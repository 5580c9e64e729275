"""The operator catalog: each entry turns an input tensor spec into code and a cost.

An op function gets the incoming tensor (:class:`T`), a :class:`Ctx` (random source, dtype,
scale, unique attribute names) and returns an :class:`Op`: lines for ``__init__`` and
``forward`` (the running value is always ``x``), the output spec, and its estimated FLOPs and
bytes. Ops that cannot take the incoming tensor return ``None``; that is the shape inference
that keeps every fusion chain valid.

Costs are estimates for sizing only (the H200 measures the truth): bytes are every tensor the
op's eager kernels read and write, FLOPs count multiply-adds as two.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable

ESIZE = {"fp32": 4, "fp16": 2, "bf16": 2}
TORCH_DTYPE = {"fp32": "torch.float32", "fp16": "torch.float16", "bf16": "torch.bfloat16"}
KINDS = ("2d", "seq", "c1", "c2", "c3")


@dataclass(frozen=True)
class T:
    """A tensor flowing through forward: its shape (dim 0 is the batch) and layout kind."""

    shape: tuple
    kind: str  # 2d (N,D) | seq (N,T,D) | c1 (N,C,L) | c2 (N,C,H,W) | c3 (N,C,D,H,W)

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


@dataclass
class Op:
    name: str
    category: str
    init: list[str]
    fwd: list[str]
    out: T
    flops: float
    bytes: float
    cost: str = "mem"  # mem | mm | conv | serial: which roofline the estimate uses
    kernels: int = 1
    inputs: list[tuple[str, str]] = field(default_factory=list)  # extra forward args: (name, get_inputs expr)
    ops: list[str] = field(default_factory=list)  # the op names it stands for (default [name])


@dataclass
class Ctx:
    rng: random.Random
    dtype: str
    small: bool
    counter: dict = field(default_factory=dict)

    @property
    def es(self) -> int:
        return ESIZE[self.dtype]

    def attr(self, base: str) -> str:
        i = self.counter.get(base, 0)
        self.counter[base] = i + 1
        return f"{base}{i}" if i else base

    def pick(self, big: list, small: list | None = None):
        return self.rng.choice(small if (self.small and small is not None) else big)

    def rnd(self, lo: float, hi: float, nd: int = 2) -> float:
        return round(self.rng.uniform(lo, hi), nd)


REGISTRY: dict[str, tuple[str, Callable]] = {}


def op(category: str, name: str | None = None):
    def deco(fn):
        REGISTRY[name or fn.__name__.lstrip("_")] = (category, fn)
        return fn
    return deco


def _ew(t: T, es: int, reads: int = 1) -> float:
    return t.numel * es * (reads + 1)


# -- elementwise and activations ---------------------------------------------------------------
# name: (expression in x, category, flops per element, eager kernels)
UNARY = {
    "relu": ("torch.relu(x)", "activation", 1, 1),
    "gelu": ("F.gelu(x)", "activation", 8, 1),
    "gelu_tanh": ("F.gelu(x, approximate='tanh')", "activation", 10, 1),
    "silu": ("F.silu(x)", "activation", 4, 1),
    "mish": ("F.mish(x)", "activation", 8, 1),
    "elu": ("F.elu(x, alpha={a})", "activation", 4, 1),
    "selu": ("F.selu(x)", "activation", 4, 1),
    "celu": ("F.celu(x, alpha={a})", "activation", 4, 1),
    "leaky_relu": ("F.leaky_relu(x, negative_slope={s})", "activation", 2, 1),
    "hardswish": ("F.hardswish(x)", "activation", 4, 1),
    "hardsigmoid": ("F.hardsigmoid(x)", "activation", 3, 1),
    "hardtanh": ("F.hardtanh(x, min_val=-{a}, max_val={a})", "activation", 2, 1),
    "relu6": ("F.relu6(x)", "activation", 2, 1),
    "softplus": ("F.softplus(x, beta={a})", "activation", 4, 1),
    "softsign": ("F.softsign(x)", "activation", 3, 1),
    "sigmoid": ("torch.sigmoid(x)", "activation", 4, 1),
    "tanh": ("torch.tanh(x)", "activation", 4, 1),
    "logsigmoid": ("F.logsigmoid(x)", "activation", 5, 1),
    "tanhshrink": ("F.tanhshrink(x)", "activation", 5, 1),
    "softshrink": ("F.softshrink(x, lambd={s})", "activation", 2, 1),
    "hardshrink": ("F.hardshrink(x, lambd={s})", "activation", 2, 1),
    "swish_beta": ("x * torch.sigmoid({a} * x)", "activation", 5, 3),
    "exp_neg_sq": ("torch.exp(-x * x)", "elementwise", 3, 3),
    "log1p_abs": ("torch.log1p(x.abs())", "elementwise", 3, 2),
    "sqrt_abs": ("torch.sqrt(x.abs() + {s})", "elementwise", 3, 3),
    "rsqrt_sq": ("torch.rsqrt(x * x + 1.0)", "elementwise", 4, 3),
    "sin": ("torch.sin(x)", "elementwise", 4, 1),
    "cos": ("torch.cos(x)", "elementwise", 4, 1),
    "atan": ("torch.atan(x)", "elementwise", 6, 1),
    "erf": ("torch.erf(x)", "elementwise", 6, 1),
    "abs": ("torch.abs(x)", "elementwise", 1, 1),
    "square": ("x * x", "elementwise", 1, 1),
    "cube": ("x * x * x", "elementwise", 2, 2),
    "clamp": ("torch.clamp(x, min=-{a}, max={a})", "elementwise", 2, 1),
    "scale": ("x * {a}", "elementwise", 1, 1),
    "shift": ("x + {s}", "elementwise", 1, 1),
    "reciprocal_soft": ("1.0 / (1.0 + x.abs())", "elementwise", 3, 3),
    "sign_sqrt": ("torch.sign(x) * torch.sqrt(x.abs())", "elementwise", 3, 4),
    "frac_sin": ("torch.sin({a} * x) * x", "elementwise", 6, 3),
}


def _unary(name: str):
    expr, cat, fl, k = UNARY[name]

    def fn(t: T, c: Ctx) -> Op:
        e = expr.format(a=c.rnd(0.5, 3.0), s=c.rnd(0.05, 0.6))
        return Op(name, cat, [], [f"x = {e}"], t, fl * t.numel, _ew(t, c.es) * k, kernels=k)
    return fn


for _n in UNARY:
    REGISTRY[_n] = (UNARY[_n][1], _unary(_n))


@op("elementwise")
def add_input(t: T, c: Ctx) -> Op:
    fn = c.pick(["x + y", "x * y", "torch.maximum(x, y)", "torch.minimum(x, y)", "x - y", "torch.addcmul(x, x, y, value=0.5)",
                 "torch.lerp(x, y, 0.3)", "torch.where(x > y, x, y * 0.5)"])
    return Op("binary_" + _binname(fn), "elementwise", [], [f"x = {fn}"], t, 2 * t.numel, _ew(t, c.es, 2),
              inputs=[("y", _randn(t.shape))])


def _binname(expr: str) -> str:
    for key, n in (("maximum", "max"), ("minimum", "min"), ("addcmul", "addcmul"), ("lerp", "lerp"), ("where", "where"),
                   ("+", "add"), ("*", "mul"), ("-", "sub")):
        if key in expr:
            return n
    return "op"


@op("elementwise")
def bias_add(t: T, c: Ctx) -> Op:
    a = c.attr("bias")
    shape = _channel_shape(t)
    return Op("bias_add", "elementwise", [f"self.{a} = nn.Parameter(torch.randn{shape} * 0.02)"], [f"x = x + self.{a}"],
              t, t.numel, _ew(t, c.es))


@op("elementwise")
def channel_scale(t: T, c: Ctx) -> Op:
    a = c.attr("scale")
    shape = _channel_shape(t)
    return Op("channel_scale", "elementwise", [f"self.{a} = nn.Parameter(torch.rand{shape} + 0.5)"], [f"x = x * self.{a}"],
              t, t.numel, _ew(t, c.es))


def _channel_shape(t: T) -> str:
    if t.kind in ("2d", "seq"):
        return f"({t.shape[-1]},)"
    return "(" + ", ".join([str(t.shape[1])] + ["1"] * (len(t.shape) - 2)) + ")"


def _randn(shape: tuple, batch_var: bool = True) -> str:
    dims = ["batch_size"] + [str(s) for s in shape[1:]] if batch_var else [str(s) for s in shape]
    return f"torch.randn({', '.join(dims)}, dtype=dtype)"


# -- reductions and scans ------------------------------------------------------------------------
def _red_dim(t: T, c: Ctx) -> tuple[int | tuple, T]:
    if t.kind == "2d":
        return 1, T((t.shape[0],), "vec")
    if t.kind == "seq":
        d = c.pick([1, 2])
        s = list(t.shape)
        s.pop(d)
        return d, T(tuple(s), "2d")
    if t.kind in ("c1", "c2", "c3"):
        if c.rng.random() < 0.5:
            dims = tuple(range(2, len(t.shape)))
            return dims, T(t.shape[:2], "2d")
        s = list(t.shape)
        s.pop(1)
        kind = {"c1": "2d", "c2": "seq", "c3": "c2x"}[t.kind]
        return 1, T(tuple(s), kind)
    return None, None


REDUCE = {"sum": "torch.sum(x, dim={d})", "mean": "torch.mean(x, dim={d})", "amax": "torch.amax(x, dim={d})",
          "amin": "torch.amin(x, dim={d})", "l2norm": "torch.linalg.vector_norm(x, dim={d})",
          "var": "torch.var(x, dim={d})", "std": "torch.std(x, dim={d})", "logsumexp": "torch.logsumexp(x, dim={d})",
          "mean_abs": "torch.mean(x.abs(), dim={d})"}

for _n, _e in REDUCE.items():
    def _mk(name=_n, expr=_e):
        def fn(t: T, c: Ctx) -> Op | None:
            d, out = _red_dim(t, c)
            if d is None or out.kind == "c2x":
                return None
            k = 2 if name in ("var", "std", "logsumexp", "mean_abs") else 1
            return Op(f"reduce_{name}", "reduction", [], [f"x = {expr.format(d=d)}"], out, 2 * t.numel,
                      t.numel * c.es * k + out.numel * c.es, kernels=k)
        return fn
    REGISTRY[f"reduce_{_n}"] = ("reduction", _mk())


@op("reduction")
def argmax(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    fn = c.pick(["argmax", "argmin"])
    s = t.shape[:-1]
    return Op(fn, "reduction", [], [f"x = torch.{fn}(x, dim=-1)"], T(s, "int"), t.numel, t.numel * c.es + math.prod(s) * 8)


SCANS = {"cumsum": "torch.cumsum(x, dim={d})", "cumsum_rev": "torch.flip(torch.cumsum(torch.flip(x, [{d}]), dim={d}), [{d}])",
         "cummax": "torch.cummax(x, dim={d}).values", "logcumsumexp": "torch.logcumsumexp(x, dim={d})",
         "cumprod": "torch.cumprod(1.0 + 0.01 * x, dim={d})"}

for _n, _e in SCANS.items():
    def _mk(name=_n, expr=_e):
        def fn(t: T, c: Ctx) -> Op | None:
            if t.kind not in ("2d", "seq") or t.shape[-1] > 8192:
                return None
            k = {"cumsum_rev": 3, "cumprod": 3}.get(name, 1)
            return Op(f"scan_{name}", "scan", [], [f"x = {expr.format(d=len(t.shape) - 1)}"], t, 2 * t.numel,
                      _ew(t, c.es) * k, cost="scan", kernels=k)
        return fn
    REGISTRY[f"scan_{_n}"] = ("scan", _mk())


# -- normalizations ---------------------------------------------------------------------------------
@op("normalization")
def layer_norm(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    a = c.attr("ln")
    return Op("layer_norm", "normalization", [f"self.{a} = nn.LayerNorm({t.shape[-1]}, eps={c.pick(['1e-5', '1e-6'])})"],
              [f"x = self.{a}(x)"], t, 8 * t.numel, _ew(t, c.es))


@op("normalization")
def rms_norm(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    a = c.attr("rms_weight")
    return Op("rms_norm", "normalization", [f"self.{a} = nn.Parameter(torch.ones({t.shape[-1]}) + 0.1 * torch.randn({t.shape[-1]}))"],
              [f"x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.{a}"], t, 5 * t.numel,
              _ew(t, c.es) * 4, kernels=5)


@op("normalization")
def l2_normalize(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    return Op("l2_normalize", "normalization", [], ["x = F.normalize(x, p=2.0, dim=-1)"], t, 4 * t.numel, _ew(t, c.es) * 2, kernels=3)


@op("normalization")
def batch_norm(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    a = c.attr("bn")
    return Op("batch_norm", "normalization", [f"self.{a} = nn.BatchNorm{t.kind[1]}d({t.shape[1]})"], [f"x = self.{a}(x)"],
              t, 6 * t.numel, _ew(t, c.es) * 2, kernels=2)


@op("normalization")
def group_norm(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    ch = t.shape[1]
    groups = [g for g in (2, 4, 8, 16, 32) if ch % g == 0 and g < ch]
    if not groups:
        return None
    a = c.attr("gn")
    return Op("group_norm", "normalization", [f"self.{a} = nn.GroupNorm({c.pick(groups)}, {ch})"], [f"x = self.{a}(x)"],
              t, 8 * t.numel, _ew(t, c.es) * 2, kernels=2)


@op("normalization")
def instance_norm(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    a = c.attr("inorm")
    return Op("instance_norm", "normalization", [f"self.{a} = nn.InstanceNorm{t.kind[1]}d({t.shape[1]}, affine=True)"],
              [f"x = self.{a}(x)"], t, 8 * t.numel, _ew(t, c.es) * 2, kernels=2)


# -- the softmax family ---------------------------------------------------------------------------
SOFTMAX = {"softmax": "torch.softmax(x, dim=-1)", "log_softmax": "torch.log_softmax(x, dim=-1)",
           "softmin": "F.softmin(x, dim=-1)", "softmax_temp": "torch.softmax(x / {a}, dim=-1)",
           "softmax_channel": "torch.softmax(x, dim=1)", "sparsemax_like": "torch.relu(x - x.mean(dim=-1, keepdim=True)) / x.shape[-1]"}

for _n, _e in SOFTMAX.items():
    def _mk(name=_n, expr=_e):
        def fn(t: T, c: Ctx) -> Op | None:
            if name == "softmax_channel":
                if t.kind not in ("c1", "c2", "c3", "seq"):
                    return None
            elif t.kind not in ("2d", "seq"):
                return None
            k = 2 if name in ("softmax_temp", "sparsemax_like") else 1
            return Op(name, "softmax", [], [f"x = {expr.format(a=c.rnd(0.5, 4.0))}"], t, 5 * t.numel, _ew(t, c.es) * k, kernels=k)
        return fn
    REGISTRY[_n] = ("softmax", _mk())


# -- matmul variants ---------------------------------------------------------------------------
@op("matmul")
def linear(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    k = t.shape[-1]
    n = c.pick([256, 512, 1024, 2048, 4096, 8192], [8, 16, 32, 64])
    a = c.attr("fc")
    bias = c.pick(["True", "False"])
    rows = t.numel // k
    return Op("linear", "matmul", [f"self.{a} = nn.Linear({k}, {n}, bias={bias})"], [f"x = self.{a}(x)"],
              T(t.shape[:-1] + (n,), t.kind), 2 * rows * k * n, (rows * (k + n) + k * n) * c.es, cost="mm")


def _weight(c: Ctx, name: str, shape: tuple, scale: float) -> str:
    return f"self.{name} = nn.Parameter(torch.randn({', '.join(map(str, shape))}) * {scale:.4g})"


@op("matmul")
def matmul_weight_t(t: T, c: Ctx) -> Op | None:
    """x @ W.T with a raw weight: the transposed-operand variant."""
    if t.kind not in ("2d", "seq"):
        return None
    k = t.shape[-1]
    n = c.pick([256, 1024, 2048, 4096], [8, 16, 32])
    a = c.attr("weight")
    rows = t.numel // k
    return Op("matmul_t", "matmul", [_weight(c, a, (n, k), 1 / math.sqrt(k))], [f"x = torch.matmul(x, self.{a}.t())"],
              T(t.shape[:-1] + (n,), t.kind), 2 * rows * k * n, (rows * (k + n) + k * n) * c.es, cost="mm")


@op("matmul")
def bmm_input(t: T, c: Ctx) -> Op | None:
    """Batched matmul against a second input: (N, T, D) @ (N, D, E)."""
    if t.kind != "seq":
        return None
    n, tt, d = t.shape
    e = c.pick([64, 128, 256, 512], [8, 16])
    out = T((n, tt, e), "seq")
    return Op("bmm", "matmul", [], ["x = torch.bmm(x, w)"], out, 2 * n * tt * d * e, (t.numel + n * d * e + out.numel) * c.es,
              cost="mm", inputs=[("w", f"torch.randn(batch_size, {d}, {e}, dtype=dtype) / {math.sqrt(d):.4g}")])


@op("matmul")
def bilinear_gram(t: T, c: Ctx) -> Op | None:
    """x @ x^T per batch (a Gram matrix)."""
    if t.kind != "seq":
        return None
    n, tt, d = t.shape
    if tt > 2048:
        return None
    out = T((n, tt, tt), "seq")
    return Op("gram", "matmul", [], [f"x = torch.matmul(x, x.transpose(-1, -2)) / {d}"], out, 2 * n * tt * tt * d,
              (t.numel + out.numel * 2) * c.es, cost="mm", kernels=2)


# -- convolutions --------------------------------------------------------------------------------
def _conv_out(size: int, k: int, s: int, p: int, d: int = 1) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _convt_out(size: int, k: int, s: int, p: int, op_: int = 0) -> int:
    return (size - 1) * s - 2 * p + k + op_


@op("convolution")
def conv(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    nd = int(t.kind[1])
    cin = t.shape[1]
    variant = c.pick(["plain", "plain", "strided", "dilated", "grouped", "depthwise", "pointwise"])
    k = c.pick([3, 5] if nd < 3 else [3], [3])
    s, p, dil, groups = 1, k // 2, 1, 1
    cout = c.pick([16, 32, 64, 128, 256], [4, 8, 16])
    if variant == "strided":
        s = 2
    elif variant == "dilated":
        dil = 2
        p = k - 1
    elif variant == "grouped":
        groups = c.pick([g for g in (2, 4, 8) if cin % g == 0] or [1])
        cout = max(groups, cout // groups * groups)
    elif variant == "depthwise":
        groups, cout = cin, cin * c.pick([1, 1, 2])
        k = c.pick([3, 5, 7] if nd < 3 else [3])
        p = k // 2
    elif variant == "pointwise":
        k, p = 1, 0
    sp = [_conv_out(x, k, s, p, dil) for x in t.shape[2:]]
    if min(sp) < 1:
        return None
    a = c.attr("conv")
    out = T((t.shape[0], cout) + tuple(sp), t.kind)
    flops = 2 * out.numel * (cin // groups) * k**nd
    name = {"plain": f"conv{nd}d", "strided": f"conv{nd}d_strided", "dilated": f"conv{nd}d_dilated",
            "grouped": f"conv{nd}d_grouped", "depthwise": f"conv{nd}d_depthwise", "pointwise": f"conv{nd}d_pointwise"}[variant]
    args = f"{cin}, {cout}, kernel_size={k}, stride={s}, padding={p}" + (f", dilation={dil}" if dil > 1 else "") + \
        (f", groups={groups}" if groups > 1 else "") + (", bias=False" if c.rng.random() < 0.3 else "")
    cost = "conv" if variant not in ("depthwise",) else "mem"
    return Op(name, "convolution", [f"self.{a} = nn.Conv{nd}d({args})"], [f"x = self.{a}(x)"], out, flops,
              (t.numel + out.numel) * c.es * (2 if variant == "depthwise" else 1), cost=cost)


@op("convolution")
def conv_transpose(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    nd = int(t.kind[1])
    cin = t.shape[1]
    k, s = c.pick([(3, 2), (4, 2), (3, 1), (2, 2)] if nd < 3 else [(3, 2), (2, 2), (3, 1)])
    p = 1 if k >= 3 else 0
    op_ = 1 if (k == 3 and s == 2) else 0
    cout = c.pick([16, 32, 64, 128], [4, 8])
    sp = [_convt_out(x, k, s, p, op_) for x in t.shape[2:]]
    a = c.attr("deconv")
    out = T((t.shape[0], cout) + tuple(sp), t.kind)
    flops = 2 * t.numel // cin * cin * cout * k**nd
    args = f"{cin}, {cout}, kernel_size={k}, stride={s}, padding={p}" + (f", output_padding={op_}" if op_ else "")
    return Op(f"conv_transpose{nd}d", "convolution", [f"self.{a} = nn.ConvTranspose{nd}d({args})"], [f"x = self.{a}(x)"],
              out, flops, (t.numel + out.numel) * c.es, cost="conv")


# -- pooling -------------------------------------------------------------------------------------
@op("pooling")
def pool(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    nd = int(t.kind[1])
    kind = c.pick(["max", "avg", "max", "avg", "lp"] if nd < 3 else ["max", "avg"])
    k, s = c.pick([(2, 2), (3, 2), (3, 1), (4, 4)] if nd < 3 else [(2, 2), (3, 2)])
    p = 1 if (k == 3) else 0
    sp = [_conv_out(x, k, s, p) for x in t.shape[2:]]
    if min(sp) < 1:
        return None
    out = T(t.shape[:2] + tuple(sp), t.kind)
    if kind == "lp":
        code = f"x = F.lp_pool{nd}d(x, norm_type=2, kernel_size={k}, stride={s})"
        sp = [_conv_out(x, k, s, 0) for x in t.shape[2:]]
        if min(sp) < 1:
            return None
        out = T(t.shape[:2] + tuple(sp), t.kind)
    else:
        code = f"x = F.{kind}_pool{nd}d(x, kernel_size={k}, stride={s}, padding={p})"
    return Op(f"{kind}_pool{nd}d", "pooling", [], [code], out, t.numel * k, (t.numel + out.numel) * c.es, kernels=1 if kind != "lp" else 4)


@op("pooling")
def adaptive_pool(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("c1", "c2", "c3"):
        return None
    nd = int(t.kind[1])
    kind = c.pick(["avg", "max"])
    o = c.pick([1, 2, 4, 7])
    if o > min(t.shape[2:]):
        return None
    out = T(t.shape[:2] + (o,) * nd, t.kind)
    return Op(f"adaptive_{kind}_pool{nd}d", "pooling", [], [f"x = F.adaptive_{kind}_pool{nd}d(x, {o})"], out, t.numel,
              (t.numel + out.numel) * c.es)


# -- attention -------------------------------------------------------------------------------------
@op("attention")
def sdpa_self(t: T, c: Ctx) -> Op | None:
    """Multi-head self-attention over a (N, T, D) value with no projections."""
    if t.kind != "seq":
        return None
    n, tt, d = t.shape
    heads = c.pick([h for h in (1, 2, 4, 8, 16) if d % h == 0 and d // h in (16, 32, 64, 128)] or [0])
    if not heads or tt > 8192:
        return None
    causal = c.pick([True, False])
    lines = [f"q = x.view(x.shape[0], x.shape[1], {heads}, {d // heads}).transpose(1, 2)",
             f"x = F.scaled_dot_product_attention(q, q, q, is_causal={causal})",
             "x = x.transpose(1, 2).reshape(x.shape[0], -1, " + str(d) + ")"]
    flops = 4 * n * tt * tt * d * (0.5 if causal else 1)
    return Op("sdpa" + ("_causal" if causal else ""), "attention", [], lines, t, flops, 4 * t.numel * c.es, cost="attn", kernels=3)


# -- gather / scatter / indexing ----------------------------------------------------------------------
@op("indexing")
def gather_cols(t: T, c: Ctx) -> Op | None:
    if t.kind != "2d":
        return None
    n, d = t.shape
    m = c.pick([d // 2, d, d * 2])
    return Op("gather", "indexing", [], ["x = torch.gather(x, 1, idx)"], T((n, m), "2d"), n * m, (n * m * (8 + 2 * c.es)),
              inputs=[("idx", f"torch.randint(0, {d}, (batch_size, {m}))")])


@op("indexing")
def index_select_rows(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq"):
        return None
    d = t.shape[-1]
    m = c.pick([d // 4, d // 2, d])
    if m < 1:
        return None
    return Op("index_select", "indexing", [], [f"x = torch.index_select(x, {len(t.shape) - 1}, idx)"],
              T(t.shape[:-1] + (m,), t.kind), t.numel // d * m, (t.numel // d * m * 2 * c.es + 8 * m),
              inputs=[("idx", f"torch.randint(0, {d}, ({m},), dtype=torch.long)")])


@op("indexing")
def scatter_add_rows(t: T, c: Ctx) -> Op | None:
    if t.kind != "2d":
        return None
    n, d = t.shape
    buckets = c.pick([d // 4, d // 2, d])
    if buckets < 1:
        return None
    code = [f"x = torch.zeros(x.shape[0], {buckets}, dtype=x.dtype, device=x.device).scatter_add_(1, idx, x)"]
    return Op("scatter_add", "indexing", [], code, T((n, buckets), "2d"), t.numel, t.numel * (2 * c.es + 8),
              inputs=[("idx", f"torch.randint(0, {buckets}, (batch_size, {d}))")], kernels=2)


@op("indexing")
def masked_fill(t: T, c: Ctx) -> Op | None:
    return Op("masked_fill", "indexing", [], ["x = x.masked_fill(x < {:.2f}, 0.0)".format(c.rnd(-0.5, 0.5))], t, t.numel,
              _ew(t, c.es) * 1.5, kernels=2)


@op("indexing")
def embedding(t: T, c: Ctx) -> Op | None:
    """Never applies to a running tensor: embeddings take integer ids, so blocks.embedding builds
    them as single tasks. The entry stays because the fusion generator draws from this registry's
    order, and the shipped pool was generated with it (tests pin that pool)."""
    return None


# -- sort and top-k ------------------------------------------------------------------------------------
@op("sort")
def sort_values(t: T, c: Ctx) -> Op | None:
    if t.kind not in ("2d", "seq") or t.shape[-1] > 16384:
        return None
    fn = c.pick(["sort", "sort_desc", "topk", "kthvalue", "median", "msort_rows"])
    d = t.shape[-1]
    if fn == "sort":
        return Op("sort", "sort", [], ["x = torch.sort(x, dim=-1).values"], t, t.numel * math.log2(d), _ew(t, c.es) * 2, cost="sort")
    if fn == "sort_desc":
        return Op("sort", "sort", [], ["x = torch.sort(x, dim=-1, descending=True).values"], t, t.numel * math.log2(d),
                  _ew(t, c.es) * 2, cost="sort")
    if fn == "topk":
        k = c.pick([1, 4, 8, 16, 64, 128])
        if k >= d:
            return None
        return Op("topk", "sort", [], [f"x = torch.topk(x, {k}, dim=-1).values"], T(t.shape[:-1] + (k,), t.kind),
                  t.numel * math.log2(k + 1), t.numel * c.es, cost="sort")
    if fn == "kthvalue":
        k = max(1, d // c.pick([2, 4, 10]))
        return Op("kthvalue", "sort", [], [f"x = torch.kthvalue(x, {k}, dim=-1).values"], T(t.shape[:-1], "vec" if t.kind == "2d" else "2d"),
                  t.numel * math.log2(d), t.numel * c.es * 2, cost="sort")
    if fn == "median":
        return Op("median", "sort", [], ["x = torch.median(x, dim=-1).values"], T(t.shape[:-1], "vec" if t.kind == "2d" else "2d"),
                  t.numel * math.log2(d), t.numel * c.es * 2, cost="sort")
    return Op("sort", "sort", [], ["x = torch.sort(x, dim=0).values"], t, t.numel * math.log2(max(2, t.shape[0])),
              _ew(t, c.es) * 2, cost="sort")


# -- the tail of a chain: ops that only make sense after others ----------------------------------------
@op("elementwise")
def residual(t: T, c: Ctx) -> Op | None:
    """Never applies in a chain (the block generators add residuals, which need the block's
    input); kept for the registry order, like :func:`embedding`."""
    return None


FUSABLE = [n for n, (cat, _) in REGISTRY.items() if cat in ("activation", "elementwise", "normalization", "softmax",
                                                            "reduction", "pooling", "scan", "indexing", "sort")]
HEADS = ["linear", "matmul_weight_t", "conv", "conv_transpose", "bmm_input", "sdpa_self", "bilinear_gram"]
