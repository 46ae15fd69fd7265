"""Shared fixtures: real workspaces written to ``tmp_path``."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

WriteWorkspace = Callable[[dict[str, Any]], Path]


def write_tree(root: Path, files: dict[str, Any]) -> Path:
    """Write ``{relative path: content}``; str content is dedented, other content is JSON."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
        else:
            path.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> WriteWorkspace:
    """``workspace({...files...})`` writes a workspace under tmp_path and returns its root."""

    def make(files: dict[str, Any]) -> Path:
        root = tmp_path / "ws"
        root.mkdir(exist_ok=True)
        (root / "workflows").mkdir(exist_ok=True)
        return write_tree(root, files)

    return make
