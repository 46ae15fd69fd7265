"""The runtime profile in the app: shown in the status line, switched from the palette, and a
workflow the runtime refuses is marked refused while its rows stay on screen."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import MakeApp, cell, reloaded, wait_for
from tests.tui.test_app_actions import palette_shows


def status(app) -> str:
    return str(app.query_one("#status").render())


async def test_the_palette_switches_the_runtime_and_the_rows_follow(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert "runtime mozaiks" in status(app)
        assert cell(app, "llm_model", "value") == "null"
        before = app.result
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Runtime: spec")
        await wait_for(pilot, lambda: palette_shows(app, "Runtime: spec"), "the hit")
        await pilot.press("enter")
        await reloaded(pilot, since=before)
        # the documented contract falls back to the default
        await wait_for(pilot, lambda: cell(app, "llm_model", "value") == "gpt-4o-mini", "spec")
        assert "runtime spec" in status(app)
        # the session itself was replaced: later reloads keep resolving with spec
        assert app.session.runtime.name == "spec"
        assert app.good is not None and app.good.matrix.runtime.startswith("spec (")


async def test_a_refused_workflow_is_marked_and_its_rows_stay(demo: Path, make_app: MakeApp):
    contract = demo / "workflows" / "AppGenerator" / "context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    # a value the runtime's typed model refuses: the whole context fails to load
    contract.write_text(text.replace("retry: {attempts: 2}", "retry: 2"), encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=(140, 30)) as pilot:
        await reloaded(pilot)
        assert "REFUSED by the runtime" in status(app)
        # every row that can still be resolved is shown
        assert cell(app, "factory_name", "value") == "Mozaiks App Factory"
        refused = app.good.matrix.refused if app.good else None
        assert refused is not None and refused.line > 0
        assert "github_repo_status.source.retry" in refused.reason
