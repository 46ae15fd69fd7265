"""Provenance names who gave each input: the process env, flowctx.yaml, an app override or a
launch value, in the Origin column, in the detail's trace and in ``flowctx matrix``."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from flowctx_tui.cli import main
from flowctx_tui.screens.env_override import EnvOverrideScreen
from flowctx_tui.screens.launch import LaunchScreen
from tests.tui.conftest import MakeApp, cell, detail_text, reloaded, wait_for

FILES = {
    "workflows/W/context_variables.yaml": """
        definitions:
          from_profile: {type: string, source: {type: config, env_var: FROM_PROFILE}}
          from_process: {type: string, source: {type: config, env_var: FROM_PROCESS}}
          deploy_environment: {type: string, source: {type: config, env_var: DEPLOY_ENVIRONMENT}}
          stage: {type: string, source: {type: state, default: draft}}
          mode: {type: string, source: {type: state, default: fast}}
        agents:
          A: {variables: [from_profile, from_process, deploy_environment, stage, mode]}
        """,
    "flowctx.yaml": """
        env:
          FROM_PROFILE: p
          DEPLOY_ENVIRONMENT: staging
        launch:
          stage: review
        """,
}


async def test_each_origin_names_who_gave_the_input(workspace, make_app: MakeApp):
    root = workspace(FILES)
    app = make_app(root, "W", env={"FROM_PROCESS": "q"})
    async with app.run_test(size=(220, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("d")  # the whole width for the table: origins shown whole
        await pilot.pause()
        assert cell(app, "from_profile", "origin") == "env FROM_PROFILE (flowctx.yaml)"
        assert cell(app, "from_process", "origin") == "env FROM_PROCESS (process env)"
        assert cell(app, "deploy_environment", "origin") == "env DEPLOY_ENVIRONMENT (flowctx.yaml)"
        assert cell(app, "stage", "origin") == "launch value (flowctx.yaml)"
        # an override made in the app reads as the app's, not as flowctx.yaml's
        app.matrix_view.select("deploy_environment")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EnvOverrideScreen), "the screen")
        assert app.screen.query_one("#env-name", Input).value == "DEPLOY_ENVIRONMENT"
        await pilot.press(*"prod", "enter")
        await wait_for(
            pilot, lambda: cell(app, "deploy_environment", "value") == "prod", "override"
        )
        assert cell(app, "deploy_environment", "origin") == "env DEPLOY_ENVIRONMENT (app override)"
        await pilot.press("d")  # the detail again: its heading and its trace say so too
        app.matrix_view.select("deploy_environment")
        await pilot.pause()
        detail = detail_text(app)
        assert detail.count("env DEPLOY_ENVIRONMENT (app override)") == 2  # heading and trace
        # a launch value given in the app
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the launch editor")
        app.screen.query_one("#launch-text", TextArea).text = '{"mode": "slow"}'
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: cell(app, "mode", "value") == "slow", "the launch value")
        app.matrix_view.select("mode")
        await pilot.pause()
        assert "launch value 'mode' (app)" in detail_text(app)
        assert cell(app, "stage", "origin").startswith("launch value (flowctx.yaml)")


def test_flowctx_matrix_names_them_too(
    workspace, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    root: Path = workspace(FILES)
    monkeypatch.setenv("FROM_PROCESS", "q")
    monkeypatch.setenv("COLUMNS", "200")
    main(
        [
            "matrix",
            str(root),
            "-w",
            "W",
            "--env",
            "DEPLOY_ENVIRONMENT=prod",
            "--launch",
            '{"mode": "slow"}',
        ]
    )
    out = capsys.readouterr().out
    assert "env FROM_PROFILE (flowctx.yaml)" in out
    assert "env FROM_PROCESS (process env)" in out
    assert "env DEPLOY_ENVIRONMENT (--env)" in out
    assert "launch value (flowctx.yaml)" in out
    assert "launch value (--launch)" in out
