"""No import cycle in flowctx_core, type-checking imports and imports inside functions included.

The ``layers`` contract in pyproject.toml orders the floors; this proves the stronger property
that no two modules (or floors) import each other, even through annotations only, which is what
lets the contract hold without ignored imports.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parents[2]


def _graph(package: str) -> grimp.ImportGraph:
    # grimp counts `if TYPE_CHECKING:` imports unless told otherwise; say so explicitly
    return grimp.build_graph(package, exclude_type_checking_imports=False)


def _edges(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {m: set() for m in graph.modules}
    for module in graph.modules:
        out[module] |= graph.find_modules_directly_imported_by(module)
    return out


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def floor(module: str) -> str:
    """``flowctx_core.model.matrix`` -> ``model``; root modules are floors of their own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


@pytest.mark.parametrize("package", ["flowctx_core", "flowctx_tui"])
def test_no_module_is_in_an_import_cycle(package: str) -> None:
    assert cycles(_edges(_graph(package))) == []


def test_no_two_floors_import_each_other() -> None:
    graph = _graph("flowctx_core")
    floors: dict[str, set[str]] = {}
    for module, imported in _edges(graph).items():
        floors.setdefault(floor(module), set()).update(
            floor(i) for i in imported if floor(i) != floor(module)
        )
    assert cycles(floors) == []


def test_the_detector_finds_a_cycle_through_a_type_checking_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a package shaped like the circle this test guards against: a result type named only in
    # an annotation, by a module the result's own module builds on
    pkg = tmp_path / "circlepkg"
    (pkg / "model").mkdir(parents=True)
    (pkg / "buildctx").mkdir()
    for init in (pkg, pkg / "model", pkg / "buildctx"):
        (init / "__init__.py").write_text("")
    (pkg / "model" / "matrix.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from circlepkg.buildctx.projection import Projection\n"
        "class TraceStep: ...\n"
    )
    (pkg / "buildctx" / "projection.py").write_text(
        "from circlepkg.model.matrix import TraceStep\nclass Projection: ...\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    found = cycles(_edges(_graph("circlepkg")))
    assert found == [["circlepkg.buildctx.projection", "circlepkg.model.matrix"]]


def test_the_layers_contract_counts_type_checking_imports() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert "exclude_type_checking_imports" not in config
    layers = [c for c in config["contracts"] if c["type"] == "layers"]
    assert len(layers) == 1 and len(config["contracts"]) >= 4
    assert "ignore_imports" not in layers[0]
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(config['contracts'])} kept, 0 broken." in result.stdout
