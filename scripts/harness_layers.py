"""An import-linter contract type for the container side (pyproject.toml, `harness_layers`): the layers
contract, over the imports the harness's modules make of each other.

Inside a sandbox the harness is a folder of scripts (/opt/sandbox/harness), so its modules import
each other as top-level modules (`import pid1`), which import-linter's graph takes for third-party
packages: a plain layers contract over sandbox.harness would see none of those imports and pass
whatever they were. This one first adds each such import as the package import it stands for
(sandbox/harness/runner.py's `import pid1` as sandbox.harness.runner -> sandbox.harness.pid1), then
checks the layers as import-linter does, exhaustive included (docs/architecture.md "Dependency
direction")."""
from __future__ import annotations

import ast
from pathlib import Path

import grimp
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import ContractCheck

ROOT = Path(__file__).resolve().parent.parent


def sibling_imports(folder: Path) -> list[tuple[str, str, int, str]]:
    """(importer, imported, line number, line) for every import, at any depth of a module, of a
    module of the same folder by its top-level name."""
    names = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    found = []
    for path in sorted(folder.glob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [node.module]
            else:
                continue
            for target in targets:
                if target in names and target != path.stem:
                    found.append((path.stem, target, node.lineno, lines[node.lineno - 1].strip()))
    return found


class HarnessLayers(LayersContract):
    """A layers contract whose container is a folder of scripts importing each other by bare names."""

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        for container in self.containers:  # type: ignore[attr-defined]
            package = str(container)
            folder = ROOT.joinpath(*package.split("."))
            for importer, imported, line, text in sibling_imports(folder):
                graph.add_import(importer=f"{package}.{importer}", imported=f"{package}.{imported}",
                                 line_number=line, line_contents=text)
        return super().check(graph, verbose)
