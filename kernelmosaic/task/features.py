"""What a task computes, read from its source: the op sequence and a normalized token form.

Both our tasks and KernelBench problems go through the same extractor, so dedup and
decontamination never trust generator metadata. ``op_sequence`` walks ``forward`` in order and
names every compute call: modules through their constructor in ``__init__`` (``self.conv =
nn.Conv2d(...)`` makes ``self.conv(x)`` a ``conv2d``; ``nn.Sequential`` is expanded), functional
and method calls through a table of aliases (``F.relu``, ``torch.relu``, ``nn.ReLU`` and
``x.relu()`` are all ``relu``), and arithmetic operators by name. Pure layout calls (``view``,
``permute``, ``contiguous``...) are left out: they move no data that a kernel would.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from collections import Counter

LAYOUT = {"view", "reshape", "permute", "transpose", "contiguous", "size", "unsqueeze", "squeeze", "flatten", "to",
          "float", "half", "bfloat16", "expand", "expand_as", "view_as", "chunk", "split", "unbind", "t", "dim",
          "numel", "type", "detach", "clone", "shape", "range", "len", "super", "int", "float", "tuple", "list",
          "zeros_like", "zeros", "ones", "ones_like", "empty", "empty_like", "full", "full_like", "device", "item",
          "cpu", "cuda", "narrow", "movedim", "unflatten", "new_zeros", "new_ones", "new_empty", "arange", "isinstance",
          "getattr", "enumerate", "zip", "print", "append", "stack", "cat", "tensor", "randn", "rand", "randint",
          "ones_", "fill_", "parameters"}

ALIASES = {
    "linear": "linear", "addmm": "linear", "mm": "matmul", "bmm": "matmul", "matmul": "matmul", "einsum": "matmul",
    "baddbmm": "matmul", "addbmm": "matmul", "tensordot": "matmul", "mv": "matmul", "dot": "matmul",
    "relu": "relu", "relu_": "relu", "gelu": "gelu", "silu": "silu", "swish": "silu", "mish": "mish", "elu": "elu",
    "selu": "selu", "celu": "celu", "leakyrelu": "leaky_relu", "leaky_relu": "leaky_relu", "hardswish": "hardswish",
    "hardsigmoid": "hardsigmoid", "hardtanh": "hardtanh", "relu6": "relu6", "softplus": "softplus",
    "softsign": "softsign", "sigmoid": "sigmoid", "tanh": "tanh", "logsigmoid": "logsigmoid", "tanhshrink": "tanhshrink",
    "softshrink": "softshrink", "hardshrink": "hardshrink", "prelu": "prelu", "glu": "glu",
    "softmax": "softmax", "log_softmax": "log_softmax", "logsoftmax": "log_softmax", "softmin": "softmin",
    "layernorm": "layer_norm", "layer_norm": "layer_norm", "rmsnorm": "rms_norm", "rms_norm": "rms_norm",
    "groupnorm": "group_norm", "group_norm": "group_norm", "batchnorm": "batch_norm", "batch_norm": "batch_norm",
    "instancenorm": "instance_norm", "instance_norm": "instance_norm", "normalize": "l2_normalize",
    "localresponsenorm": "local_response_norm",
    "sum": "sum", "mean": "mean", "max": "amax", "min": "amin", "amax": "amax", "amin": "amin", "prod": "prod", "var": "var", "std": "std",
    "logsumexp": "logsumexp", "argmax": "argmax", "argmin": "argmin", "norm": "norm", "vector_norm": "norm",
    "cumsum": "cumsum", "cumprod": "cumprod", "cummax": "cummax", "cummin": "cummin", "logcumsumexp": "logcumsumexp",
    "sort": "sort", "topk": "topk", "kthvalue": "kthvalue", "median": "median", "argsort": "sort", "msort": "sort",
    "gather": "gather", "scatter": "scatter", "scatter_add": "scatter_add", "scatter_add_": "scatter_add",
    "index_select": "index_select", "index_add": "index_add", "index_add_": "index_add", "masked_fill": "masked_fill",
    "embedding": "embedding", "embeddingbag": "embedding_bag", "embedding_bag": "embedding_bag", "take_along_dim": "gather",
    "where": "where", "clamp": "clamp", "clip": "clamp", "clamp_min": "clamp", "clamp_max": "clamp", "abs": "abs",
    "exp": "exp", "log": "log", "log1p": "log1p", "sqrt": "sqrt", "rsqrt": "rsqrt", "sin": "sin", "cos": "cos",
    "atan": "atan", "erf": "erf", "sign": "sign", "pow": "pow", "square": "pow", "reciprocal": "reciprocal",
    "maximum": "maximum", "minimum": "minimum", "lerp": "lerp", "addcmul": "addcmul", "flip": "flip", "tril": "tril",
    "triu": "triu", "diag": "diag", "add": "add", "mul": "mul", "sub": "sub", "div": "div", "neg": "neg",
    "scaled_dot_product_attention": "sdpa", "multiheadattention": "sdpa",
    "mse_loss": "mse_loss", "mseloss": "mse_loss", "l1_loss": "l1_loss", "l1loss": "l1_loss",
    "smooth_l1_loss": "smooth_l1_loss", "smoothl1loss": "smooth_l1_loss", "huber_loss": "huber_loss",
    "huberloss": "huber_loss", "cross_entropy": "cross_entropy", "crossentropyloss": "cross_entropy",
    "nll_loss": "nll_loss", "nllloss": "nll_loss", "kl_div": "kl_div", "kldivloss": "kl_div",
    "binary_cross_entropy_with_logits": "bce_logits", "bcewithlogitsloss": "bce_logits",
    "binary_cross_entropy": "bce", "cosine_similarity": "cosine_similarity", "triplet_margin_loss": "triplet_margin_loss",
    "tripletmarginloss": "triplet_margin_loss", "margin_ranking_loss": "margin_ranking_loss",
    "hinge_embedding_loss": "hinge_loss", "soft_margin_loss": "soft_margin_loss", "poisson_nll_loss": "poisson_nll_loss",
    "cosine_embedding_loss": "cosine_embedding_loss",
    "lstm": "lstm", "gru": "gru", "rnn": "rnn", "lstmcell": "lstm_cell", "grucell": "gru_cell", "rnncell": "rnn_cell",
    "dropout": "dropout", "dropout2d": "dropout", "dropout3d": "dropout", "identity": "identity",
    "adaptive_avg_pool1d": "adaptive_avg_pool1d", "adaptive_avg_pool2d": "adaptive_avg_pool2d",
    "adaptive_avg_pool3d": "adaptive_avg_pool3d", "adaptive_max_pool1d": "adaptive_max_pool1d",
    "adaptive_max_pool2d": "adaptive_max_pool2d", "adaptive_max_pool3d": "adaptive_max_pool3d",
    "pixel_shuffle": "pixel_shuffle", "interpolate": "interpolate", "upsample": "interpolate", "pad": "pad",
}
_NORM_DIM = re.compile(r"^(batch_norm|instance_norm)[123]d$")


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return s.lower()


def canon(name: str) -> str | None:
    """The canonical op for a call or module class name, None for layout-only calls."""
    if name in LAYOUT or name.startswith("_"):
        return None
    low = name.lower()
    if low in ALIASES:
        return ALIASES[low]
    # module classes: Conv2d -> conv2d, ConvTranspose3d -> conv_transpose3d, MaxPool2d -> max_pool2d
    s = snake(name).replace("conv_transpose", "conv_transpose")
    m = re.match(r"^conv(_transpose)?([123])d$", s.replace("convtranspose", "conv_transpose"))
    if m:
        return f"conv{m.group(1) or ''}{m.group(2)}d"
    m = re.match(r"^(max|avg|lp)_?pool([123])d$", s.replace("_pool", "pool"))
    if m:
        return f"{m.group(1)}_pool{m.group(2)}d"
    m = re.match(r"^adaptive_?(avg|max)_?pool([123])d$", s)
    if m:
        return f"adaptive_{m.group(1)}_pool{m.group(2)}d"
    m = _NORM_DIM.match(s)
    if m:
        return m.group(1)
    if s.replace("_", "") in ALIASES:
        return ALIASES[s.replace("_", "")]
    for k in ("batchnorm", "instancenorm"):
        if s.replace("_", "").startswith(k):
            return ALIASES[k]
    return s


def _call_name(f: ast.AST) -> str | None:
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def _self_attr(f: ast.AST) -> str | None:
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
        return f.attr
    if isinstance(f, ast.Subscript):  # self.layers[i](x)
        return _self_attr(f.value)
    return None


def _module_ops(value: ast.AST, local: dict | None = None) -> list[str]:
    """The ops a constructor in __init__ stands for (nn.Sequential and lists expanded;
    ``local`` holds the lists built earlier in __init__, for ``nn.Sequential(*layers)``)."""
    local = local if local is not None else {}
    if isinstance(value, ast.Starred):
        value = value.value
    if isinstance(value, ast.Name):
        return list(local.get(value.id, []))
    if isinstance(value, ast.Call):
        name = _call_name(value.func)
        if name in ("Sequential", "ModuleList"):
            ops = []
            for a in value.args:
                if isinstance(a, (ast.List, ast.ListComp, ast.Tuple)):
                    elts = a.elts if not isinstance(a, ast.ListComp) else [a.elt]
                    for e in elts:
                        ops += _module_ops(e, local)
                else:
                    ops += _module_ops(a, local)
            return ops
        if name == "Parameter" or name is None:
            return []
        c = canon(name)
        return [c] if c else []
    if isinstance(value, (ast.List, ast.Tuple)):
        return [o for e in value.elts for o in _module_ops(e, local)]
    if isinstance(value, ast.ListComp):
        return _module_ops(value.elt, local)
    return []


BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.MatMult: "matmul", ast.Pow: "pow",
          ast.FloorDiv: "div", ast.Mod: "mod"}


class _Walker(ast.NodeVisitor):
    def __init__(self, modules: dict[str, list[str]], helpers: dict[str, ast.FunctionDef]):
        self.ops: list[str] = []
        self.modules = modules
        self.helpers = helpers
        self.depth = 0

    def visit_Call(self, node: ast.Call) -> None:
        # arguments are computed first: f(g(x)) is g then f
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)
        if isinstance(node.func, ast.Attribute):
            self.visit(node.func.value)
        attr = _self_attr(node.func)
        if attr is not None and attr in self.modules:
            self.ops += self.modules[attr]
            return
        name = _call_name(node.func)
        if name in self.helpers and self.depth < 3:
            self.depth += 1
            for st in self.helpers[name].body:
                self.visit(st)
            self.depth -= 1
            return
        if name and attr is None:
            c = canon(name)
            if c:
                self.ops.append(c)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if not any(isinstance(n, (ast.Name, ast.Attribute)) for n in ast.walk(node)):
            return  # constant arithmetic (16 * 5 * 5 in a view): no kernel
        self.visit(node.left)
        self.visit(node.right)
        self.ops.append(BINOPS.get(type(node.op), "binop"))

    def visit_Compare(self, node: ast.Compare) -> None:
        self.generic_visit(node)
        self.ops.append("compare")


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def op_sequence(source: str) -> list[str]:
    """Canonical ops of ``Model.forward`` in evaluation order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    classes = _classes(tree)
    model = classes.get("Model")
    if model is None:
        return []
    helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name not in ("get_inputs", "get_init_inputs")}
    modules: dict[str, list[str]] = {}
    methods = {n.name: n for n in model.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    if init is not None:
        local: dict[str, list[str]] = {}
        # source order, so a list is complete before nn.Sequential(*layers) reads it
        for node in sorted(ast.walk(init), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "extend")
                    and isinstance(node.func.value, ast.Name) and node.args):
                local.setdefault(node.func.value.id, []).extend(_module_ops(node.args[0], local))
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                local[node.targets[0].id] = _module_ops(node.value, local)
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    attr = _self_attr(t)
                    if attr:
                        v = node.value
                        # a custom submodule class of the same file: its forward's ops
                        if isinstance(v, ast.Call) and _call_name(v.func) in classes:
                            modules[attr] = _class_ops(classes[_call_name(v.func)], classes, helpers)
                        else:
                            modules[attr] = _module_ops(v, local)
    for name, fn in methods.items():
        if name not in ("__init__", "forward"):
            helpers[name] = fn
    fwd = methods.get("forward")
    if fwd is None:
        return []
    w = _Walker(modules, helpers)
    for st in fwd.body:
        w.visit(st)
    return w.ops


def _class_ops(cls: ast.ClassDef, classes: dict, helpers: dict) -> list[str]:
    src = ast.unparse(ast.Module(body=[cls], type_ignores=[]))
    fake = src.replace(f"class {cls.name}", "class Model", 1)
    extra = "\n".join(ast.unparse(c) for n, c in classes.items() if n not in (cls.name, "Model"))
    return op_sequence(extra + "\n" + fake)


def normalized_tokens(source: str, numbers: bool = False) -> list[str]:
    """Model's code as tokens with local names blanked: equal for renamed copies. Literals are
    blanked too, or with ``numbers`` kept as integers rounded to a power of two (so 32 and 64
    channels differ, 1000 and 1024 do not)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    body = [n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name not in ("get_inputs", "get_init_inputs")]
    code = ast.unparse(ast.Module(body=body, type_ignores=[]))
    api = set(ALIASES) | LAYOUT | {"torch", "nn", "F", "self", "def", "return", "class", "for", "in", "if", "else", "dim", "keepdim"}
    out = []
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError):
        return []
    for t in toks:
        if t.type == tokenize.NUMBER:
            out.append(_bucket(t.string) if numbers else "N")
        elif t.type == tokenize.STRING:
            out.append("S")
        elif t.type == tokenize.NAME:
            out.append(t.string if (t.string in api or t.string[:1].isupper() or t.string.lower() in ALIASES) else "v")
        elif t.type == tokenize.OP:
            out.append(t.string)
    return out


def _bucket(lit: str) -> str:
    try:
        v = int(lit)
    except ValueError:
        return "F"
    return f"N{1 << max(0, round(math.log2(v)))}" if v > 0 else "N0"


def bigrams(tokens: list[str]) -> Counter:
    return Counter(zip(tokens, tokens[1:]))


def shape_signature(meta: dict) -> str:
    """Input shapes bucketed to powers of two, so 1000 vs 1024 counts as the same problem size."""
    shapes = meta.get("shapes") or {}
    parts = []
    for name in sorted(shapes):
        dims = [1 << max(0, round(math.log2(max(1, d)))) for d in shapes[name]]
        parts.append(f"{name}:{'x'.join(map(str, dims))}")
    return ";".join(parts)
