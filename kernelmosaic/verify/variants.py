"""Shape variants: the task's reference with its input-only size constants changed."""

from __future__ import annotations


def shape_variant_source(source: str, mode: str = "halve") -> tuple[str, dict] | None:
    """The reference source with its input-only int constants changed, or None.

    ``halve``: every such constant (>= 4) halved. ``grow``: the first one grown by a quarter
    (kept a multiple of 4 if it was one): a kernel with a baked-in size then leaves the
    extra elements unwritten, which the poison shows.
    """
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    consts: dict[str, ast.Assign] = {}
    protected: set[str] = set()
    input_names: set[str] = set()
    def int_value(e):
        # literal ints and their + - * // combinations (N = 2048 * 2), nothing else
        if isinstance(e, ast.Constant) and type(e.value) is int:
            return e.value
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = int_value(e.left), int_value(e.right)
            if a is None or b is None or (isinstance(e.op, ast.FloorDiv) and b == 0):
                return None
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.FloorDiv: a // b if b else 0}[type(e.op)]
        return None

    values: dict[str, int] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and int_value(node.value) is not None):
            consts[node.targets[0].id] = node
            values[node.targets[0].id] = int_value(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if node.name == "get_inputs":
                input_names |= names
            else:
                protected |= names
        elif isinstance(node, ast.Assign):  # derived constants (dim2 = dim * 2) pin their inputs
            protected |= {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    changed = {}
    for name, node in consts.items():
        v = values[name]
        if name in input_names and name not in protected and v >= 4:
            if mode == "halve":
                new = v // 2
            else:
                new = v + max(1, v // 4)
                if v % 4 == 0:
                    new = (new + 3) // 4 * 4
            node.value = ast.Constant(new)
            changed[name] = new
            if mode == "grow":
                break
    if not changed:
        return None
    return ast.unparse(tree), changed
