"""The core is UI-free: nothing under core/ imports textual, directly or through its imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"


def core_files() -> list[Path]:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 10, "the core package was not found"
    return files


def textual_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "textual"]
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[0] == "textual"
        ):
            found.append(str(node.module))
    return found


def test_no_core_file_imports_textual() -> None:
    offenders = {
        str(p.relative_to(CORE.parent)): names
        for p in core_files()
        if (names := textual_imports(p))
    }
    assert offenders == {}


def test_the_scan_would_see_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import os\nimport textual.app\nfrom textual.widgets import Tree\n")
    assert textual_imports(sample) == ["textual.app", "textual.widgets"]


def test_importing_every_core_module_does_not_load_textual() -> None:
    modules = [
        ".".join(("flowctx_core", *p.relative_to(CORE).with_suffix("").parts)).removesuffix(
            ".__init__"
        )
        for p in core_files()
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "loaded = sorted(n for n in sys.modules if n == 'textual' or n.startswith('textual.'))\n"
        "print(len(sys.modules), loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=CORE.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("[]")
