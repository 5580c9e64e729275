"""The layers of docs/architecture.md, checked on the source: the import graph between the
packages of ``kernelmosaic`` has no cycle, and no arrow runs up the layers.

Every import counts: at module level, inside functions, and under TYPE_CHECKING.
"""

import ast
import sys
from collections import defaultdict
from pathlib import Path

from conftest import ROOT

PKG = ROOT / "kernelmosaic"

# bottom to top; a package may import only from its own layer's root modules and below.
# "" is the root package's own modules (vocab, _json, _card, __init__).
LAYERS = ["", "task", "verify", "curate", "guidance", "data", "agent", "scale", "train", "bench", "ablate", "cli"]


def _package_of(path: Path) -> str:
    rel = path.relative_to(PKG).parts
    return "" if len(rel) == 1 else rel[0]


def _targets(path: Path):
    """(package, line) for every kernelmosaic import in the file."""
    rel = path.relative_to(PKG).parts
    mod = ["kernelmosaic", *rel[:-1]] + ([] if rel[-1] == "__init__.py" else [rel[-1][:-3]])
    base = mod if rel[-1] == "__init__.py" else mod[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base[: len(base) - node.level + 1] + (node.module.split(".") if node.module else [])
            else:
                parts = (node.module or "").split(".")
            if parts[0] != "kernelmosaic":
                continue
            if len(parts) == 1:  # from kernelmosaic import x: a subpackage, or a root module's name
                for a in node.names:
                    yield (a.name if (PKG / a.name).is_dir() else ""), node.lineno
            else:
                yield (parts[1] if (PKG / parts[1]).is_dir() else ""), node.lineno
        elif isinstance(node, ast.Import):
            for a in node.names:
                p = a.name.split(".")
                if p[0] == "kernelmosaic":
                    yield (p[1] if len(p) > 1 and (PKG / p[1]).is_dir() else ""), node.lineno


def import_graph() -> dict[str, dict[str, list[str]]]:
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for f in sorted(PKG.rglob("*.py")):
        src = _package_of(f)
        for tgt, line in _targets(f):
            if tgt != src:
                graph[src][tgt].append(f"{f.relative_to(ROOT)}:{line}")
    return graph


def test_every_package_has_a_layer():
    packages = {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(LAYERS) - {""}, "add the new package to LAYERS and docs/architecture.md"


def test_no_import_runs_up_the_layers():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = [f"{src or 'kernelmosaic'} -> {tgt} ({', '.join(where[:3])})"
              for src, targets in import_graph().items() for tgt, where in targets.items() if rank[tgt] > rank[src]]
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_no_cycle_between_packages():
    graph = {src: set(t) for src, t in import_graph().items()}
    seen, stack, cycles = set(), [], []

    def visit(n):
        if n in stack:
            cycles.append(stack[stack.index(n):] + [n])
            return
        if n in seen:
            return
        seen.add(n)
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            visit(m)
        stack.pop()

    for n in sorted(graph):
        visit(n)
    assert not cycles, "import cycles between packages: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_graph_sees_the_known_arrows():
    """The graph sees function-level and relative imports (a check that cannot fail proves nothing)."""
    g = import_graph()
    assert "agent" in g["scale"] and "verify" in g["curate"]  # known arrows, both downward
    assert "scale" not in g.get("agent", {}), "agent must not import scale (the controller is above it)"


def test_the_task_core_is_stdlib_only():
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for f in (PKG / "task").glob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and not node.level and node.module else []
            for n in names:
                top = n.split(".")[0]
                if top not in stdlib and top != "kernelmosaic":
                    bad.append(f"{f.name}: {n}")
            if isinstance(node, ast.ImportFrom) and node.level and node.level > 1 and node.module not in ("vocab", "_json"):
                bad.append(f"{f.name}: {'.' * node.level}{node.module}")
    assert not bad, bad


def test_architecture_doc_names_the_layers():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    for name in LAYERS[1:]:
        assert f"`{name}`" in doc, name
