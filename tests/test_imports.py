"""No import circle in brainq/: each module builds only on those below it; and only the
command line (cli/, render.py) knows typer and rich.

Every import counts, those inside functions too (they only postpone a circle), but for those
under `if TYPE_CHECKING:`. `from brainq.extract import email` is an import of the module
`brainq.extract.email`, not of its package.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "brainq"


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    found: set[str] = set()

    class Imports(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    self.visit(child)
            else:
                self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(alias.name for alias in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            module = node.module or ""
            submodules = {f"{module}.{alias.name}" for alias in node.names} & set(known)
            found.update(submodules or {module})

    Imports().visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_round_about():
    known = modules()
    graph = {name: imported(path, known) & set(known) - {name} for name, path in known.items()}
    assert circles(graph) == []


def test_only_the_command_line_knows_typer_and_rich():
    """The core returns plain data that a script, the server or the MCP tools use as well."""
    known = modules()
    core = {name: path for name, path in known.items() if not name.startswith(("brainq.cli", "brainq.render"))}
    leaks = {name: [m for m in imported(path, known) if m.split(".")[0] in ("typer", "rich")] for name, path in core.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
