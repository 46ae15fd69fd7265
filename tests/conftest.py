"""Shared fixtures and helpers: real workspaces written to ``tmp_path``, bounded waits for the
app driven through Pilot."""

from __future__ import annotations

import json
import os
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

WriteWorkspace = Callable[[dict[str, Any]], Path]

# node (and flowctx, which predicts it) reads its default locale and zone from the environment:
# the suite runs in C.UTF-8 at UTC whatever the developer's shell says (tests that need another
# set their own for one process)
for _name in ("LC_ALL", "LC_MESSAGES", "TZ"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


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


async def until(
    pilot: Any, predicate: Callable[[], object], what: str, timeout: float = 5.0
) -> None:
    """Let the app run until ``predicate()`` holds; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await pilot.pause(0.01)
    await pilot.pause()


async def settle(
    pilot: Any, busy: Callable[[], object] = lambda: False, timeout: float = 5.0
) -> None:
    """Wait (bounded) until the app's workers are done and ``busy()`` is false twice in a row
    (a finished worker may post the message that starts the next one)."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        if busy():
            quiet = 0
            await pilot.pause(0.02)
            continue
        quiet += 1
        if quiet >= 2:
            return
    raise AssertionError(f"the app did not settle within {timeout}s")


@pytest.fixture(autouse=True)
def _unpinned_clock() -> Iterator[None]:
    """A command that pinned the clock (--now, now:) does not pin it for the next test."""
    yield
    from flowctx_core.base import clock

    clock.pin(None)


@pytest.fixture(autouse=True)
def _own_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test reads and writes its own user settings file (the app writes the theme
    there), never the developer's: ``$FLOWCTX_CONFIG`` names a file in a fresh folder, which
    subprocesses (tmux, serve, lsp) inherit."""
    folder = tmp_path_factory.mktemp("settings")
    monkeypatch.setenv("FLOWCTX_CONFIG", str(folder / "config.yaml"))
    yield folder / "config.yaml"
