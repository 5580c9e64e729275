"""Shape variants: the task's reference with the integers that set its input sizes changed.

A kernel checked only on the task's one shape can bake that shape in: a fixed row length, a
grid that drops the remainder modulo its block size, a vector load that assumes a multiple of
4. So the judge runs the candidate once more on other shapes, and the reference decides which
shapes are valid: a variant whose reference raises, or whose output changes kind, is skipped,
not held against the candidate.

What is varied (a *site*), all found on the source's AST, never by running it:

- module-level int constants (``N = 4096``, ``N = 2048 * 2``);
- the int elements of module-level tuples and lists (``input_shape = (4096,)`` → ``input_shape[0]``);
- tuple-unpacked names (``batch, dim = 16, 4096``);
- int literals in the size arguments of tensor factories in ``get_inputs``
  (``torch.rand(batch_size, 3, 224, 224)`` → ``get_inputs@L12:C30``), never their values
  (``torch.randint(0, 10, (n,))``: only ``(n,)`` is a size).

A module-level name is varied only when ``get_inputs`` is all that uses it, directly or through
other module-level assignments (``input_shape = (num_classes,)``). A name that ``Model``,
``get_init_inputs`` or any other code also reads sets the model's structure as well, and the
candidate's model is built once, from the original values. Values below 4 (channels of 3, a
dim index of 1) are left alone.

The modes:

- ``grow``: the first site grown by a quarter (kept a multiple of 4 if it was one), so that a
  baked-in size leaves elements unwritten, which the poison shows;
- ``prime``: every site halved and taken down to a prime (4096 → 2039, 257 → 127, 16 → 7):
  an odd size that no power of two up to 128 divides, so a kernel that drops a remainder or
  assumes alignment is wrong there, on buffers no larger than the task's own;
- ``halve``: every site halved (the earlier second variant, kept for comparison).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

MODES = ("grow", "prime", "halve")
# the variants the judge applies, in order: grown first (a baked-in size then leaves poisoned,
# unwritten elements, a clear mismatch, before a smaller shape could overrun its buffers)
JUDGE_MODES = ("grow", "prime")
MIN_SIZE = 4
# no tensor dimension is larger; an int above it is not a size (and the prime search stays fast)
MAX_SIZE = 1 << 40
# the most reference runs one mode may spend finding which sites the reference accepts
MAX_TRIES = 10

# tensor factories whose positional int arguments (or one tuple/list argument) are a size
_SIZE_ARGS = {"randn", "rand", "zeros", "ones", "empty"}
# factories whose size is one tuple/list argument, among value arguments
_SIZE_TUPLE = {"randint", "full", "normal"}


def _int_value(e) -> int | None:
    """Literal ints and their + - * // << ** combinations (``2048 * 2``, ``1 << 20``), nothing else."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.LShift, ast.Pow)):
        a, b = _int_value(e.left), _int_value(e.right)
        if a is None or b is None or (isinstance(e.op, ast.FloorDiv) and b == 0):
            return None
        if isinstance(e.op, (ast.LShift, ast.Pow)) and not 0 <= b <= 64:
            return None  # not a size, and 10 ** 10 ** 10 must not hang the judge
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.FloorDiv: lambda: a // b,
               ast.LShift: lambda: a << b, ast.Pow: lambda: a ** b}
        return ops[type(e.op)]()
    return None


@dataclass
class Site:
    """One integer that sets an input size: ``label`` names it in the verdict (``N``,
    ``input_shape[0]``, ``get_inputs@L12:C30``); ``path`` finds its node again in a fresh parse."""

    label: str
    value: int
    path: tuple


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own(node):
    """The nodes of ``node``'s own scope: its body, not the bodies of functions or classes in it."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, _SCOPES):
            yield from _own(child)


def _free_names(node, bound: frozenset = frozenset()) -> set[str]:
    """The names ``node`` reads from the module: a method's local ``batch_size, c, h, w =
    x.size()`` is not the module's ``batch_size``. Decorators, defaults and bases are read in
    the enclosing scope; a ``global`` declaration makes a name the module's again."""
    out: set[str] = set()
    if isinstance(node, _SCOPES):
        outer = list(getattr(node, "decorator_list", [])) + list(getattr(node, "bases", []))
        if not isinstance(node, ast.ClassDef):
            outer += [d for d in node.args.defaults + node.args.kw_defaults if d is not None]
        for e in outer:
            out |= _free_names(e, bound)
        own = list(_own(node))
        local = {n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        local |= {n.name for n in own if isinstance(n, _SCOPES[:2] + (ast.ClassDef,))}
        if not isinstance(node, ast.ClassDef):
            a = node.args
            local |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs} | {x.arg for x in (a.vararg, a.kwarg) if x}
        local -= {n for g in own if isinstance(g, (ast.Global, ast.Nonlocal)) for n in g.names}
        inner = bound | local
        body = node.body if isinstance(node.body, list) else [node.body]
        for stmt in body:
            # a class body's names are not visible in its methods
            out |= _free_names(stmt, bound if isinstance(node, ast.ClassDef) and isinstance(stmt, _SCOPES) else inner)
        return out
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
        out.add(node.id)
    for child in ast.iter_child_nodes(node):
        out |= _free_names(child, bound)
    return out


def _node_at(tree, path: tuple):
    node = tree
    for step in path:
        node = getattr(node, step) if isinstance(step, str) else node[step]
    return node


def _set_at(tree, path: tuple, new) -> None:
    parent = _node_at(tree, path[:-1])
    if isinstance(path[-1], str):
        setattr(parent, path[-1], new)
    else:
        parent[path[-1]] = new


def _elements(value, path: tuple, label: str):
    """(label, path, expr) for an int expression, or for each int element of a (nested) tuple/list."""
    if _int_value(value) is not None:
        yield label, path, value
    elif isinstance(value, (ast.Tuple, ast.List)):
        for i, e in enumerate(value.elts):
            yield from _elements(e, path + ("elts", i), f"{label}[{i}]")


def _assigned(stmt) -> list[tuple[str, tuple, ast.AST]]:
    """(name, path within the statement, value expr) for each name a module-level assignment
    binds: ``a = v``, ``a, b = v1, v2`` (element by element), ``a: int = v``."""
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        return [(stmt.target.id, ("value",), stmt.value)]
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return []
    tgt, val = stmt.targets[0], stmt.value
    if isinstance(tgt, ast.Name):
        return [(tgt.id, ("value",), val)]
    if isinstance(tgt, (ast.Tuple, ast.List)) and isinstance(val, (ast.Tuple, ast.List)) and len(tgt.elts) == len(val.elts) \
            and all(isinstance(t, ast.Name) for t in tgt.elts):
        return [(t.id, ("value", "elts", i), v) for i, (t, v) in enumerate(zip(tgt.elts, val.elts))]
    return []


def _factory(call: ast.Call) -> str | None:
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    return name if name in _SIZE_ARGS or name in _SIZE_TUPLE else None


def size_sites(source: str) -> list[Site]:
    """Every integer of ``source`` that sets an input size and nothing else, in source order
    (module-level ones first). Empty when the source does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    deps: dict[str, set[str]] = {}  # module-level name -> the names its value reads
    binds: dict[str, list[tuple[int, tuple, ast.AST]]] = {}
    protected_roots: set[str] = set()
    input_roots: set[str] = set()
    get_inputs = None
    for i, stmt in enumerate(tree.body):
        assigned = _assigned(stmt)
        if assigned:
            for name, path, val in assigned:
                deps.setdefault(name, set()).update(_names(val))
                binds.setdefault(name, []).append((i, path, val))
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        elif isinstance(stmt, ast.FunctionDef) and stmt.name == "get_inputs":
            get_inputs = (i, stmt)
            input_roots |= _free_names(stmt)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        else:
            # Model, get_init_inputs, helpers, any other statement: what they read sets more
            # than an input's size
            protected_roots |= _free_names(stmt)
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                protected_roots.add(stmt.target.id)  # N *= 2: bound twice, its value is not one literal

    def closure(roots: set[str]) -> set[str]:
        seen, todo = set(), [n for n in roots if n in deps]
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo.extend(d for d in deps[n] if d in deps)
        return seen

    free = closure(input_roots) - closure(protected_roots)
    sites: list[Site] = []
    for name in sorted(free, key=lambda n: binds[n][0][0]):
        if len(binds[name]) != 1:  # bound twice: which value counts is not ours to guess
            continue
        i, path, val = binds[name][0]
        for label, p, e in _elements(val, path, name):
            v = _int_value(e)
            if MIN_SIZE <= v <= MAX_SIZE:
                sites.append(Site(label, v, ("body", i) + p))
    sites.sort(key=lambda s: s.path)
    if get_inputs is not None:
        gi, fn = get_inputs
        lits = []
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call) or not _factory(node):
                continue
            name = _factory(node)
            args = [("args", k, a) for k, a in enumerate(node.args)] + \
                   [("keywords", k, kw.value) for k, kw in enumerate(node.keywords) if kw.arg == "size"]
            for where, k, a in args:
                tuple_arg = isinstance(a, (ast.Tuple, ast.List))
                if name in _SIZE_TUPLE and not tuple_arg and where == "args":
                    continue  # randint's bounds, full's fill value: values, not sizes
                elts = [(("elts", j), e) for j, e in enumerate(a.elts)] if tuple_arg else [((), a)]
                for sub, e in elts:
                    v = _int_value(e)
                    if v is not None and MIN_SIZE <= v <= MAX_SIZE:
                        lits.append((e.lineno, e.col_offset, v, node, where, k, sub))
        # the path to a literal inside get_inputs: found again by position in a fresh parse
        for ln, col, v, *_ in sorted(lits, key=lambda t: (t[0], t[1])):
            sites.append(Site(f"get_inputs@L{ln}:C{col}", v, ("literal", gi, ln, col)))
    return sites


def _literal(tree, gi: int, ln: int, col: int):
    for node in ast.walk(tree.body[gi]):
        if isinstance(node, ast.Call):
            for a in list(node.args) + [kw.value for kw in node.keywords]:
                for e in (a.elts if isinstance(a, (ast.Tuple, ast.List)) else [a]):
                    if getattr(e, "lineno", None) == ln and getattr(e, "col_offset", None) == col:
                        return node, e
    return None, None


def _replace_literal(tree, gi: int, ln: int, col: int, new: int) -> None:
    call, old = _literal(tree, gi, ln, col)
    if call is None:
        return
    for j, a in enumerate(call.args):
        if a is old:
            call.args[j] = ast.Constant(new)
            return
        if isinstance(a, (ast.Tuple, ast.List)) and old in a.elts:
            a.elts[a.elts.index(old)] = ast.Constant(new)
            return
    for kw in call.keywords:
        if kw.value is old:
            kw.value = ast.Constant(new)
            return
        if isinstance(kw.value, (ast.Tuple, ast.List)) and old in kw.value.elts:
            kw.value.elts[kw.value.elts.index(old)] = ast.Constant(new)
            return


def prime_at_most(n: int) -> int:
    """The largest prime <= n (n >= 2)."""
    def prime(k: int) -> bool:
        if k < 2:
            return False
        i = 2
        while i * i <= k:
            if k % i == 0:
                return False
            i += 1
        return True
    while n > 2 and not prime(n):
        n -= 1
    return n


def new_value(v: int, mode: str) -> int:
    if mode == "grow":
        new = v + max(1, v // 4)
        return (new + 3) // 4 * 4 if v % 4 == 0 else new
    if mode == "prime":
        return prime_at_most(max(3, v // 2))
    if mode == "halve":
        return v // 2
    raise ValueError(f"unknown shape-variant mode {mode!r}; one of {MODES}")


def apply_sites(source: str, sites: list[Site], mode: str) -> tuple[str, dict[str, int]]:
    """``source`` with each of ``sites`` changed by ``mode``; the changes by label."""
    tree = ast.parse(source)
    changed = {}
    for s in sites:
        new = new_value(s.value, mode)
        if s.path[0] == "literal":
            _replace_literal(tree, *s.path[1:], new)
        else:
            _set_at(tree, s.path, ast.Constant(new))
        changed[s.label] = new
    return ast.unparse(tree), changed


def shape_variant_source(source: str, mode: str = "halve") -> tuple[str, dict] | None:
    """The reference source with its input-size sites changed by ``mode``, or None when it has
    none: ``grow`` changes the first site, the other modes all of them."""
    sites = size_sites(source)
    if not sites:
        return None
    return apply_sites(source, sites[:1] if mode == "grow" else sites, mode)


@dataclass
class Chosen:
    """A variant the reference accepted: its source, the changes, what ``valid`` returned for
    it, and the sites left out because the reference refused them (``{"site", "value", "reason"}``)."""

    source: str
    changed: dict[str, int]
    case: object
    skipped: list[dict]


def choose_variant(source: str, mode: str, valid: Callable[[str], object], sites: list[Site] | None = None,
                   max_tries: int = MAX_TRIES, passthrough: tuple[type[BaseException], ...] = ()) -> tuple[Chosen | None, list[dict]]:
    """The variant of ``mode`` that the reference accepts, found by running it.

    ``valid(src)`` runs the reference on the variant's source and returns what it made (the
    inputs and the output, say), or raises ``ValueError``/any exception to refuse it. ``grow``
    tries the sites one at a time, in order, until one is accepted; the other modes first try
    all the sites together, then, if the reference refuses that, add the sites one by one and
    keep each that it still accepts (``torch.rand(b, 3, 224, 224)`` of a VGG: the 224s cannot
    change, the batch can). At most ``max_tries`` reference runs. Returns (the chosen variant or
    None, the refused sites with the reason). Exceptions of the ``passthrough`` types are no
    refusal of the shape (the judge's: a candidate charged with an out-of-memory) and propagate."""
    sites = list(size_sites(source) if sites is None else sites)
    refused: list[dict] = []
    tries = 0

    def attempt(subset):
        nonlocal tries
        tries += 1
        src, changed = apply_sites(source, subset, mode)
        try:
            return src, changed, valid(src), None
        except passthrough:
            raise
        except Exception as e:  # noqa: BLE001 - the reference's own refusal of a shape
            return src, changed, None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]

    def refuse(subset, reason):
        refused.append({"sites": {s.label: new_value(s.value, mode) for s in subset}, "reason": reason})

    if not sites:
        return None, refused
    if mode == "grow":
        for s in sites:
            if tries >= max_tries:
                break
            src, changed, case, why = attempt([s])
            if why is None:
                return Chosen(src, changed, case, refused), refused
            refuse([s], why)
        return None, refused
    src, changed, case, why = attempt(sites)
    if why is None:
        return Chosen(src, changed, case, refused), refused
    refuse(sites, why)
    if len(sites) == 1:
        return None, refused
    kept: list[Site] = []
    best = None
    for s in sites:
        if tries >= max_tries:
            refused.append({"sites": {t.label: new_value(t.value, mode) for t in sites[sites.index(s):]},
                            "reason": f"not tried: {max_tries} reference runs spent"})
            break
        src, changed, case, why = attempt(kept + [s])
        if why is None:
            kept.append(s)
            best = (src, changed, case)  # the previous best is dropped here: one case held at a time
        else:
            refuse([s], why)
    if best is None:
        return None, refused
    return Chosen(best[0], best[1], best[2], refused), refused


def output_problem(orig: list, new: list, orig_finite: list[bool] | None = None,
                   finite: Callable[[object], bool] | None = None) -> str | None:
    """Why the reference's outputs on a variant (``new``, flattened) cannot judge a candidate, or
    None. They must be of the same kind as on the task's shape (``orig``): as many, each of the
    same type, dtype and rank, none empty (an empty output passes any kernel) and, when
    ``finite`` is given and the original output was finite (``orig_finite``), finite too (a shape
    that makes the reference divide by zero is the shape's fault, not the candidate's). ``orig``
    may hold meta tensors: only their dtype, rank and size are read."""
    if len(new) != len(orig):
        return f"the reference returns {len(new)} outputs on this shape, {len(orig)} on the task's"
    for i, (o, n) in enumerate(zip(orig, new)):
        if type(o) is not type(n):
            return f"output {i} is a {type(n).__name__} on this shape, a {type(o).__name__} on the task's"
        if not hasattr(o, "dtype"):
            continue
        if o.dtype != n.dtype or o.dim() != n.dim():
            return f"output {i} is {n.dtype} of rank {n.dim()} on this shape, {o.dtype} of rank {o.dim()} on the task's"
        if n.numel() == 0 and o.numel() != 0:
            return f"output {i} is empty on this shape"
        if finite is not None and orig_finite and orig_finite[i] and not finite(n):
            return f"output {i} holds NaN or Inf on this shape, not on the task's"
    return None
