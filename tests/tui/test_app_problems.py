"""Problems at a glance: warnings counted like ``flowctx check``, marked rows, launch notes and
messages that say what is wrong (never "stale" when nothing loaded, never a made-up 0:0)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static, TextArea

from flowctx_tui.cli import main
from flowctx_tui.screens.launch import LaunchScreen
from tests.tui.conftest import MakeApp, cell, detail_text, reloaded, wait_for

#: the files the runtime discovers and loads workflow W by (a bare contract is a warning too)
DISCOVERED = {
    "workflows/W/orchestrator.yaml": """
        schema_version: mozaiks.orchestrator.v1
        workflow_name: W
        workflow_startup_mode: AgentDriven
        """,
    "workflows/W/agents.yaml": """
        agents:
          - {name: A, system_message: x, structured_outputs_required: false}
        """,
}
#: a coercion that fails, a config default the mozaiks runtime never applies (env_var is
#: declared) and an optional file that is missing: three warnings, no error
WARNINGS = {
    **DISCOVERED,
    "workflows/W/context_variables.yaml": """
        definitions:
          max_build_iterations:
            type: integer
            source: {type: config, env_var: MAX_BUILD_ITERATIONS, default: 3}
          notes:
            type: string
            source: {type: file, path: data/notes.md, format: text, default: none yet}
          greeting: {type: string, source: {type: state, default: hi}}
        agents:
          A: {variables: [max_build_iterations, notes, greeting]}
        """,
    "flowctx.yaml": """
        env:
          MAX_BUILD_ITERATIONS: "abc"
        """,
}


def status_text(app) -> str:
    return str(app.query_one("#status", Static).render())


def banner_text(app) -> str:
    return str(app.query_one("#problems", Static).render())


def check_summary(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, int]:
    capsys.readouterr()
    main(["check", *args])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    found = re.search(r"(\d+) error\(s\), (\d+) warning\(s\)", last)
    assert found, last
    return int(found.group(1)), int(found.group(2))


def status_counts(app) -> tuple[int, int]:
    found = re.search(r"(\d+) errors?, (\d+) warnings?", status_text(app))
    assert found, status_text(app)
    return int(found.group(1)), int(found.group(2))


async def test_warnings_count_mark_their_rows_and_next_problem_reaches_them(
    workspace, make_app: MakeApp
):
    root = workspace(WARNINGS)
    app = make_app(root, "W")
    async with app.run_test(size=(160, 30)) as pilot:
        await reloaded(pilot)
        assert "0 errors, 3 warnings" in status_text(app)
        # the two rows are marked where the eye goes: their status
        assert cell(app, "max_build_iterations", "status") == "resolved !"
        assert cell(app, "notes", "status") == "default !"
        assert cell(app, "greeting", "status") == "default"
        assert "2 marked !" in str(app.query_one("#matrix-count", Static).render())
        # the cursor starts on the first row; n goes to the next problem and wraps
        await pilot.press("n")
        assert app.matrix_view.highlighted.name == "notes"
        assert "data/notes.md: file not found" in detail_text(app)
        await pilot.press("n")
        assert app.matrix_view.highlighted.name == "max_build_iterations"
        detail = detail_text(app)
        # said under the title, before the value, not only at the bottom of the pane
        assert detail.index("! cannot coerce 'abc' to integer") < detail.index("Value")
        await pilot.press("p")
        assert app.matrix_view.highlighted.name == "notes"
        # x lists them, located
        await pilot.press("x")
        banner = banner_text(app)
        assert "warning: definitions.max_build_iterations.source.env_var: cannot coerce" in banner
        assert "definitions.notes.source.path: data/notes.md: file not found" in banner
        assert (
            "definitions.max_build_iterations.source.default: default 3 ignored: env_var "
            "MAX_BUILD_ITERATIONS is declared" in banner
        )


async def test_status_line_counts_what_check_counts(
    workspace, demo: Path, make_app: MakeApp, capsys: pytest.CaptureFixture[str]
):
    """Same inputs (the process env), same figures: the demo and a workspace with warnings."""
    env = dict(os.environ)
    for root, workflow in ((demo, "AppGenerator"), (workspace(WARNINGS), "W")):
        app = make_app(root, workflow, env=env)
        async with app.run_test(size=(160, 30)) as pilot:
            await reloaded(pilot)
            shown = status_counts(app)
        assert shown == check_summary(capsys, str(root), "-w", workflow), root
    assert shown == (0, 3)


async def test_a_required_config_left_unset_is_an_error_in_both(
    workspace, make_app: MakeApp, capsys: pytest.CaptureFixture[str]
):
    root = workspace(
        {
            **DISCOVERED,
            "workflows/W/context_variables.yaml": """
            definitions:
              token_url:
                type: string
                source: {type: config, env_var: FLOWCTX_TEST_UNSET_URL, required: true}
            agents:
              A: {variables: [token_url]}
            """,
        }
    )
    env = {k: v for k, v in os.environ.items() if k != "FLOWCTX_TEST_UNSET_URL"}
    app = make_app(root, "W", env=env)
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert status_counts(app) == (1, 0)
    assert check_summary(capsys, str(root), "-w", "W") == (1, 0)


async def test_dropped_launch_values_are_said_and_counted(workspace, make_app: MakeApp):
    root = workspace(WARNINGS)
    app = make_app(root, "W")
    notes: list[str] = []
    async with app.run_test(size=(160, 30)) as pilot:
        await reloaded(pilot)
        first = app.result
        app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the launch editor")
        app.screen.query_one("#launch-text", TextArea).text = '{"zzz": 1, "greeting": "hello"}'
        await pilot.press("ctrl+s")
        await reloaded(pilot, since=first)
        assert any("launch value 'zzz' dropped: not a declared variable" in n for n in notes)
        assert "0 errors, 4 warnings" in status_text(app)
        # the kept one is the app's, and provenance says so
        assert cell(app, "greeting", "value") == "hello"
        app.matrix_view.select("greeting")
        await pilot.pause()
        assert "launch value (app)" in detail_text(app)
        await pilot.press("x")
        assert "launch values from app: warning: launch value 'zzz' dropped" in banner_text(app)
        # said once: a reload with the same launch values does not repeat it
        notes.clear()
        second = app.result
        app.reload()
        await reloaded(pilot, since=second)
        assert not [n for n in notes if "zzz" in n]


async def test_a_workflow_that_never_loaded_is_not_called_stale(workspace, make_app: MakeApp):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": "definitions: [unclosed\n",
            "flowctx.yaml": "env:\n  A: 1\n",
        }
    )
    app = make_app(root, "W")
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert app.state == "error"
        banner = banner_text(app)
        assert "stale" not in banner and "last good" not in banner
        assert "cannot load this workflow, so nothing is shown yet" in banner
        assert "context_variables.yaml:" in banner
        assert "not loaded" in status_text(app)
        assert app.matrix_view.table.row_count == 0


async def test_a_removed_workflow_folder_is_named_with_its_path(demo: Path, make_app: MakeApp):
    app = make_app(demo, "Approvals")
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        folder = demo / "workflows" / "Approvals"
        moved = demo / "Approvals.bak"
        shutil.move(folder, moved)
        app.reload()
        await wait_for(pilot, lambda: app.state == "stale", "stale after the folder went")
        banner = banner_text(app)
        assert f"the workflow folder {folder} was removed or moved" in banner
        assert "workflows/Approvals: " in banner
        assert ":0:0" not in banner and "has no context_variables.yaml" not in banner
        shutil.move(moved, folder)
        app.reload()
        await wait_for(pilot, lambda: app.state == "live", "live when it is back")


async def test_the_status_line_counts_what_the_workspace_ignores(
    demo: Path, tmp_path: Path, make_app: MakeApp, capsys: pytest.CaptureFixture[str]
):
    """flowctx.yaml's ``checks:`` applies to the app as to check: fewer warnings, N ignored."""
    root = tmp_path / "ws"
    shutil.copytree(demo, root)
    profile = root / "flowctx.yaml"
    profile.write_text(profile.read_text() + "\nchecks:\n  authority.silent-trigger: ignore\n")
    app = make_app(root, "AppGenerator", env=dict(os.environ))
    async with app.run_test(size=(160, 30)) as pilot:
        await reloaded(pilot)
        shown = status_counts(app)
        text = status_text(app)
    assert shown == check_summary(capsys, str(root), "-w", "AppGenerator")
    assert "2 ignored" in text, text
