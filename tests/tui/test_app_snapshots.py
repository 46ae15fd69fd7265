"""Snapshots of each main view at 80x24 and 160x48 (pytest-textual-snapshot).

Deterministic: a fixed clock, no cursor blink, no file watcher, a private copy of the demo.
Regenerate with ``python -m pytest tests/tui/test_app_snapshots.py --snapshot-update`` and look
at the pictures before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import settle, until
from tests.tui.conftest import MakeApp

SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
CONTRACT = "workflows/AppGenerator/context_variables.yaml"
CONDITION = "context.max_build_iterations > 3 && context.enable_preview_deploys === true"


async def loaded(pilot: Any) -> None:
    await until(pilot, lambda: pilot.app.result is not None, "the first load", timeout=10)


@SIZES
def test_matrix(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        await loaded(pilot)
        await pilot.press("down", "down")

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@SIZES
def test_detail(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        await loaded(pilot)
        pilot.app.matrix_view.select("concept_api_endpoints")
        await pilot.pause()

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@SIZES
def test_scratchpad(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        app = pilot.app
        await loaded(pilot)
        await pilot.press("2")
        await until(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
        pad = app.query_one("#scratchpad-view")
        # a condition over the workflow's values, with its explain tree (secrets masked)
        app.query_one("#sp-expr").value = CONDITION
        await until(pilot, lambda: pad.result is not None and not pad.pending, "the result")

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@SIZES
def test_routes(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        app = pilot.app
        await loaded(pilot)
        await pilot.press("3")
        await until(pilot, lambda: app.query("#routes-view"), "the routes view")
        view = app.query_one("#routes-view")
        await until(pilot, lambda: view.outcome is not None and not view.pending, "routes")
        # where the focus first lands depends on whether the step list was filled yet (it
        # is drawn tinted); the picture is of the view with its step selector focused
        selector = view.query_one("#rv-source")
        selector.focus()
        await until(
            pilot,
            lambda: app.focused is not None and selector in app.focused.ancestors_with_self,
            "the step selector focused",
        )
        await settle(pilot)

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)


@SIZES
def test_error_state(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        app = pilot.app
        await loaded(pilot)
        path = demo / CONTRACT
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("  llm_model:\n", "  llm_model: [unclosed\n", 1))
        app.reload({path})
        await until(pilot, lambda: app.state == "stale", "the stale state")

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)
