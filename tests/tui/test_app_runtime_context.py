"""A runtime context has one verdict however it is given: the app's Launch dialog takes it in a
box of its own, ``flowctx app`` takes the launch options ``check`` takes, and a launch value for
a runtime source never passes for one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import TextArea

from flowctx_tui.cli import build_parser, main
from flowctx_tui.screens.launch import LaunchScreen
from tests.tui.conftest import MakeApp, cell, reloaded, wait_for

CONTRACT = """
definitions:
  run_build_binding:
    type: object
    source: {type: runtime, required: true}
  note:
    type: string
    source: {type: state, default: hi}
agents: {}
"""
FILES = {
    "workflows/W/context_variables.yaml": CONTRACT,
    "workflows/W/orchestrator.yaml": (
        "schema_version: mozaiks.orchestrator.v1\nworkflow_name: W\n"
        "workflow_startup_mode: AgentDriven\n"
    ),
    "workflows/W/agents.yaml": (
        "agents:\n  - {name: A, system_message: Hello., structured_outputs_required: false}\n"
    ),
}
FIX = "supply it as runtime context: --runtime-context NAME=VALUE"


@pytest.fixture
def root(workspace: Any) -> Path:
    return workspace(FILES)


def test_check_gives_one_verdict_with_the_fix(root: Path, capsys) -> None:
    code = main(["check", str(root), "--launch", '{"run_build_binding": {"target": "x"}}'])
    out = capsys.readouterr().out
    assert code == 1
    # the row and the refusal agree: missing, whatever the launch values say
    assert "Required runtime context 'run_build_binding' is missing for 'W'" in out
    assert FIX in out and "a launch value is not one" in out
    assert "0 error(s)" not in out
    code = main(["matrix", str(root), "--launch", '{"run_build_binding": {"target": "x"}}'])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("run_build_binding"))
    assert " error " in row and "resolved" not in row
    # given as runtime context, it resolves and the workflow loads
    code = main(["check", str(root), "--runtime-context", 'run_build_binding={"target": "x"}'])
    out = capsys.readouterr().out
    assert code == 0 and "REFUSED" not in out


def _app_args(root: Path, *extra: str) -> Any:
    _, parser = build_parser("app")
    return parser.parse_args([str(root), *extra])


async def test_flowctx_app_takes_the_launch_options(root: Path) -> None:
    from flowctx_tui.cli.app_cmd import build_app

    app = build_app(
        _app_args(
            root,
            "--runtime-context",
            'run_build_binding={"target": "x"}',
            "--env",
            "SOME_FLAG=1",
            "--launch",
            '{"app_id": "app-1"}',
        )
    )
    assert app.launch == {
        "app_id": "app-1",
        "$runtime_context": {"run_build_binding": {"target": "x"}},
    }
    assert app.env_overrides == {"SOME_FLAG": "1"}
    app.watching = False
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert cell(app, "run_build_binding", "status").startswith("resolved")


async def test_the_launch_dialog_takes_the_runtime_context(root: Path, make_app: MakeApp) -> None:
    app = make_app(root, "W")
    async with app.run_test(size=(100, 40)) as pilot:
        await reloaded(pilot)
        assert cell(app, "run_build_binding", "status").startswith("error")
        # a launch value is not a runtime context: the row stays in error
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        app.screen.query_one("#launch-text", TextArea).text = '{"run_build_binding": {"t": 1}}'
        before = app.result
        await pilot.press("ctrl+s")
        await reloaded(pilot, before)
        assert cell(app, "run_build_binding", "status").startswith("error")
        # the runtime context box: the row resolves
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        app.screen.query_one("#launch-text", TextArea).text = "{}"
        app.screen.query_one("#launch-runtime", TextArea).text = '{"run_build_binding": {"t": 1}}'
        before = app.result
        await pilot.press("ctrl+s")
        await reloaded(pilot, before)
        assert app.launch == {"$runtime_context": {"run_build_binding": {"t": 1}}}
        assert cell(app, "run_build_binding", "status").startswith("resolved")
        # reopened, the dialog shows it back in its own box, and a bad one is refused
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        runtime = app.screen.query_one("#launch-runtime", TextArea)
        assert '"run_build_binding"' in runtime.text
        assert "$runtime_context" not in app.screen.query_one("#launch-text", TextArea).text
        runtime.text = "[1]"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, LaunchScreen)
        assert "the runtime context must be a JSON object" in str(
            app.screen.query_one("#launch-error").render()
        )
