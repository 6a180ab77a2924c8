"""Module-level imports form no cycle in fevga/, renderers/ and bot/, and the engine and renderers
do not hide one behind a function-local import."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLEAN = ("fevga", "renderers")


def _modules(package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``package``."""
    out: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module loads (function bodies and ``if TYPE_CHECKING`` blocks left out)."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            todo.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
    return found


def import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Edges module -> modules of ``packages`` it imports at module level."""
    modules: dict[str, Path] = {}
    for package in packages:
        modules.update(_modules(package))
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        for node in _top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                subs = [f"{base}.{alias.name}" for alias in node.names]
                # ``from pkg import mod`` loads only the submodule; any other name comes from pkg itself.
                targets = subs if all(sub in modules for sub in subs) else [base, *subs]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_engine_and_renderers_have_no_import_cycle() -> None:
    graph = import_graph(CLEAN)
    assert "fevga.cli" in graph and "fevga.jsonlines" in graph["fevga.cli"]  # the graph is really built
    assert cycles(graph) == []


def test_bot_has_no_import_cycle_either() -> None:
    found = cycles(import_graph(("fevga", "renderers", "bot")))
    print("import cycles:", found)
    assert found == []


def _local_first_party_imports(package: str) -> list[str]:
    """``file:line`` of imports of fevga/renderers/relative modules made inside functions or classes."""
    out: list[str] = []
    for path in _modules(package).values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = set(map(id, _top_level_imports(tree)))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in top:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            first_party = isinstance(node, ast.ImportFrom) and node.level > 0
            if first_party or any(n.split(".")[0] in CLEAN for n in names):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return out


def test_no_function_local_imports_dodge_a_cycle_in_the_engine_or_renderers() -> None:
    assert [found for package in CLEAN for found in _local_first_party_imports(package)] == []
