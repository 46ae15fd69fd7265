"""Fixtures for driving the real app: a copy of the demo workspace, the app, bounded waits."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.cli.workspace_args import demo_path
from flowctx_tui.loader import LoadResult
from tests.conftest import until

#: a fixed clock keeps the status line (and so snapshots) the same on every run
FIXED_NOW = datetime(2025, 1, 2, 3, 4, 5)

MakeApp = Callable[..., FlowctxApp]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A private copy of the bundled demo workspace (tests edit it)."""
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    return root


@pytest.fixture
def make_app() -> MakeApp:
    """``make_app(root, workflow=..., **app_options)``: the app on a session with an empty
    process environment, so the tester's own variables never leak in."""

    def make(root: Path, workflow: str = "AppGenerator", **options: Any) -> FlowctxApp:
        options.setdefault("watch", False)
        options.setdefault("clock", lambda: FIXED_NOW)
        options.setdefault("cursor_blink", False)
        env = options.pop("env", {})
        return FlowctxApp(open_session(root, env=env), workflow, **options)

    return make


#: the tests here say "wait for"; it is the shared bounded wait
wait_for = until


async def reloaded(pilot: Any, since: LoadResult | None = None, timeout: float = 5.0) -> None:
    """Wait until the app shows a load newer than ``since`` (default: any load at all).

    Each applied reload is a new ``LoadResult`` in ``app.result``: waiting on the app's own
    state, not on a counter kept for tests.
    """
    app = pilot.app
    what = "the first load" if since is None else "another reload"
    await wait_for(pilot, lambda: app.result is not None and app.result is not since, what, timeout)
    await pilot.pause()


def cell(app: FlowctxApp, name: str, column: str) -> str:
    """The text of a matrix cell as the user sees it."""
    value = app.matrix_view.table.get_cell(name, column)
    return getattr(value, "plain", str(value))


def detail_text(app: FlowctxApp) -> str:
    from textual.widgets import Static

    body = app.query_one("#detail-body", Static)
    return str(body.render())
