"""Secret-leak audit of the app, through Pilot.

The workspace and secrets of the CLI audit (env-sourced config, the profile, launch values,
URI passwords in the environment, a contract default, a launch value and the fallbacks file, a
seeded secret key), plus an environment override and a secret typed into the scratchpad's
context. Every view is visited: the matrix with the detail of every row, the environment
override and launch screens, the scratchpad (context editor, explain, a saved scenario), the
routes of both routing styles. After each step the whole screen is scanned; screenshots are
saved (``app.save_screenshot`` and the app's own F8 action) and every file written, and every
log record (DEBUG and up), is scanned too. Nothing may show a fragment of a secret, except the
screen the user asked to reveal (and that screen's F8 screenshot must still be masked).

Textual's own log (``App.log``) goes to the devtools console only, which is not running here,
so there is nothing of it to capture.
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, Tree

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.widgets.json_editor import JsonEditor
from tests.conftest import settle
from tests.reliability.test_secret_audit_cli import (
    LAUNCH,
    SECRETS,
    audit_workspace,
    fragments,
    snapshot,
)
from tests.tui.conftest import FIXED_NOW, reloaded, wait_for

OVERRIDE = "uriOVRpw-4b8f2d6a9e1c7035"
TYPED = "typed-ctx-9e2b6d4f1a8c3057"
ALL = {**SECRETS, "override": OVERRIDE, "typed": TYPED}
ENV = {
    "OPENAI_API_KEY": SECRETS["env"],
    "SERVICE_URL": f"https://svc:{SECRETS['uri_env']}@svc.example/api",
}


def leaks(text: str, ignore: frozenset[str] = frozenset()) -> list[str]:
    return sorted(
        name
        for name, secret in ALL.items()
        if name not in ignore and any(f in text for f in fragments(secret))
    )


def screen_text(app: FlowctxApp) -> str:
    """Every character on the screen (what ``export_screenshot`` draws, as plain text)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


class Audit:
    def __init__(self, app: FlowctxApp) -> None:
        self.app = app
        self.seen: dict[str, list[str]] = {}
        self.screens = 0

    def scan(self, where: str, ignore: frozenset[str] = frozenset()) -> str:
        text = screen_text(self.app)
        self.screens += 1
        found = leaks(text, ignore)
        if found:
            self.seen[where] = found
        return text


def expand_all(app: FlowctxApp) -> None:
    for tree in app.query(Tree):
        tree.root.expand_all()


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return audit_workspace(tmp_path / "ws")


async def test_no_view_screenshot_file_or_log_shows_a_secret(
    ws: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    shots = tmp_path / "shots"
    shots.mkdir()
    before = snapshot(tmp_path)
    app = FlowctxApp(
        open_session(ws, env=ENV),
        "Agents",
        watch=False,
        clock=lambda: FIXED_NOW,
        screenshot_dir=shots,
        cursor_blink=False,
    )
    audit = Audit(app)
    async with app.run_test(size=(160, 50)) as pilot:
        await reloaded(pilot)
        first = app.result
        app.launch = json.loads(LAUNCH)
        app.set_env_override("SERVICE_URL", f"https://svc:{OVERRIDE}@svc.example/api")
        await reloaded(pilot, since=first)

        # the matrix, and the detail of every row
        audit.scan("matrix")
        app.save_screenshot("matrix.svg", str(shots))
        rows = [r.name for r in app.good.matrix.rows]  # type: ignore[union-attr]
        assert {"openai_api_key", "service_url", "account", "callback_url"} <= set(rows)
        for name in rows:
            app.matrix_view.select(name)
            await pilot.pause()
            audit.scan(f"detail of {name}")
        app.matrix_view.select("openai_api_key")
        await pilot.pause()
        app.save_screenshot("detail.svg", str(shots))

        # the environment override screen of a secret variable, and the launch screen
        await pilot.press("e")
        await pilot.pause()
        audit.scan("env override screen")
        await pilot.press("escape")
        app.matrix_view.select("service_url")
        await pilot.press("e")
        await pilot.pause()
        audit.scan("env override screen (overridden URI)")
        await pilot.press("escape")
        await pilot.press("l")
        await pilot.pause()
        audit.scan("launch screen")
        app.save_screenshot("launch.svg", str(shots))
        # applied as shown, the masked values keep the real ones they hide
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(app.screen_stack) == 1, app.screen_stack
        assert app.launch == json.loads(LAUNCH)

        # the scratchpad: the context editor, a condition over secrets, a typed secret
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#scratchpad-view"), "the scratchpad")
        pad: Any = app.query_one("#scratchpad-view")
        await settle(pilot)
        audit.scan("scratchpad")
        context = pad.query_one("#sp-context", JsonEditor)
        typed = json.loads(context.text)
        typed["session_apikey"] = TYPED
        context.set_text(json.dumps(typed))
        await wait_for(pilot, lambda: not pad.pending, "the context parse")
        field = pad.expression_input
        field.focus()
        field.value = ""
        field.insert_text_at_cursor(
            "JSON.stringify(context).length > 0 && context.openai_api_key !== context.service_url"
            " && context.session_apikey.slice(2) !== context.account.api_key"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: not pad.pending, "the evaluation")
        expand_all(app)
        await pilot.pause()
        # the context editor shows what the user typed; nothing else may show it
        text = audit.scan("scratchpad with explain", ignore=frozenset({"typed"}))
        assert text.count(TYPED) <= 1, "the typed secret shows outside the user's own text"
        explained = "\n".join(pad.query_one("#sp-explain").labels())
        assert "context.session_apikey.slice(2)" in explained
        assert leaks(explained) == [], explained
        pad.query_one("#sp-scenario-name", Input).value = "audit"
        field.focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        scenario = ws / ".flowctx" / "scenarios" / "Agents" / "audit.json"
        assert scenario.is_file()
        app.save_screenshot("scratchpad.svg", str(shots))

        # the routes view: Mozaiks transitions from Planner, then a flow from Start
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.query("#routes-view"), "the routes view")
        routes: Any = app.query_one("#routes-view")
        await settle(pilot)
        routes.select_source("Planner")
        await settle(pilot)
        expand_all(app)
        await pilot.pause()
        audit.scan("routes from Planner")
        app.save_screenshot("routes.svg", str(shots))
        app.switch_workflow("Flow")
        await reloaded(pilot, since=app.result)
        await settle(pilot)
        routes.select_source("Start")
        await settle(pilot)
        expand_all(app)
        await pilot.pause()
        audit.scan("routes from Start (flow)")

        # revealing is the user's choice for the screen it is asked on: it shows the secrets,
        # and the app's own screenshot of that screen still masks them
        app.switch_workflow("Agents")
        await reloaded(pilot, since=app.result)
        await pilot.press("f2")
        await pilot.pause()
        app.matrix_view.select("openai_api_key")
        # the table's whole width, so the revealed values are long enough to be seen
        await pilot.press("d")
        await pilot.press("r")
        await pilot.pause()
        revealed = leaks(screen_text(app))
        assert {"env", "override", "launch"} <= set(revealed), revealed
        await pilot.press("f8")
        await wait_for(pilot, lambda: len(list(shots.glob("flowctx-*.svg"))) == 1, "F8")
        assert app.reveal, "the reveal comes back after the masked screenshot"
        await pilot.press("f3")  # another view: reveal ends
        await pilot.pause()
        assert not app.reveal
        audit.scan("scratchpad after reveal", ignore=frozenset({"typed"}))

    assert audit.seen == {}, json.dumps(audit.seen, indent=1)
    assert audit.screens >= len(rows) + 9
    assert leaks(caplog.text) == [], "a log record carries a secret"
    written = {k: v for k, v in snapshot(tmp_path).items() if before.get(k) != v}
    assert len([k for k in written if k.endswith(".svg")]) == 6
    assert any(k.endswith("audit.json") for k in written)
    for name, content in written.items():
        assert leaks(content.decode("utf-8", "replace")) == [], f"{name} holds a secret"
