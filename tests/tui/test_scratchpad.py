"""The condition scratchpad, driven through Pilot on real workspaces under tmp_path."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from flowctx_core.session import Session, open_session
from flowctx_tui.widgets.explain_tree import ExplainTree
from flowctx_tui.widgets.json_editor import JsonEditor
from flowctx_tui.widgets.scratchpad import Scratchpad, caret_lines
from tests.conftest import settle as settle_app
from tests.tui.conftest import reloaded

TOKEN = "tok-51f0c2d9e8a7"
CONTRACT = """
definitions:
  service_auth:
    type: string
    description: secret because its env var looks secret
    source: {type: config, env_var: SERVICE_API_TOKEN}
  environment:
    type: string
    source: {type: config, env_var: DEPLOY_ENVIRONMENT, default: staging}
  interview_complete:
    type: boolean
    source: {type: state, default: true}
  retry_limit:
    type: integer
    source: {type: state, default: 3}
agents:
  ReviewAgent: {variables: [service_auth, environment, interview_complete, retry_limit]}
"""


def make_session(workspace: Any) -> Session:
    root = workspace({"workflows/Review/context_variables.yaml": CONTRACT})
    return open_session(root, env={"SERVICE_API_TOKEN": TOKEN, "DEPLOY_ENVIRONMENT": "production"})


class PadApp(App[None]):
    """The smallest app that hosts the scratchpad the way FlowctxApp does."""

    def __init__(self, session: Session, workflow: str) -> None:
        super().__init__()
        self.session = session
        self.workflow = workflow

    def compose(self) -> ComposeResult:
        yield Scratchpad(id="scratchpad-view")

    def on_mount(self) -> None:
        matrix = self.session.matrix(self.workflow)
        self.query_one(Scratchpad).update_workspace(
            self.session, self.workflow, matrix, env_overrides={}, launch={}
        )


async def settle(pilot: Pilot[Any], timeout: float = 5.0) -> Scratchpad:
    """Wait (bounded) until every edit is parsed and the latest inputs are evaluated."""
    pad = pilot.app.query_one(Scratchpad)
    await settle_app(pilot, lambda: pad.pending, timeout)
    return pad


def result_text(pad: Scratchpad) -> str:
    return str(pad.query_one("#sp-result", Static).render())


def explain_lines(pad: Scratchpad) -> list[str]:
    return pad.query_one("#sp-explain", ExplainTree).labels()


def editor(pad: Scratchpad, name: str) -> JsonEditor:
    return pad.query_one(f"#sp-{name}", JsonEditor)


async def type_expression(pilot: Pilot[Any], text: str, *, keys: bool = False) -> None:
    """Enter ``text`` in the expression input: key by key, or (faster) as one change."""
    field = pilot.app.query_one(Scratchpad).expression_input
    field.focus()
    field.value = ""
    if keys:
        await pilot.press(*text)
    else:
        field.insert_text_at_cursor(text)
    await pilot.pause()


@pytest.fixture
def session(workspace: Any) -> Session:
    return make_session(workspace)


async def test_typing_a_condition_shows_the_result_and_its_explain(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        assert "type a condition" in result_text(pad)
        editor(pad, "data").set_text('{"userApproval": true, "retryCount": 1}')
        await type_expression(pilot, "data.userApproval === true && data.retryCount < 3")
        pad = await settle(pilot)
        assert result_text(pad) == "✔ true"
        lines = explain_lines(pad)
        assert lines[0].startswith("true  data.userApproval === true && data.retryCount < 3")
        assert any(line.strip().startswith("true (got 1)  data.retryCount < 3") for line in lines)

        editor(pad, "data").set_text('{"userApproval": false, "retryCount": 1}')
        pad = await settle(pilot)
        assert result_text(pad).startswith("✘ false")
        assert any(
            line.strip().startswith("false (got false)  data.userApproval === true")
            for line in explain_lines(pad)
        )


async def test_an_error_shows_a_caret_under_the_offending_span(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        # a free name is a ReferenceError only when evaluated (MemberJunction short-circuits)
        text = "dta.x && data.userApproval === true"
        await type_expression(pilot, text)
        pad = await settle(pilot)
        first, shown, marker = result_text(pad).splitlines()
        assert first == "error: dta is not defined"
        assert shown == text
        assert marker.index("^") == text.index("dta")
        assert marker.strip() == "^~~"

        await type_expression(pilot, "data.x === ")
        pad = await settle(pilot)
        first, shown, marker = result_text(pad).splitlines()
        assert first == "error: Unexpected token ')'"  # the ")" MemberJunction appends
        assert marker.index("^") == len("data.x === ")


def test_the_caret_stays_visible_in_a_long_expression() -> None:
    text = "data.a === 1 && " * 10 + "nope"
    shown, marker = caret_lines(text, text.index("nope"), len(text), 40)
    assert len(shown) == 40
    assert shown[marker.index("^") :].startswith("nope")


async def test_switching_the_dialect_evaluates_again(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        await type_expression(pilot, "${interview_complete} == True")
        pad = await settle(pilot)
        assert result_text(pad).startswith("error:")  # not mj syntax
        pad.query_one("#sp-dialect", Select).value = "ag2"
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")
        assert any("${interview_complete}" in line for line in explain_lines(pad))
        pad.query_one("#sp-dialect", Select).value = "python"
        pad = await settle(pilot)
        assert result_text(pad).startswith("error: Syntax error")


async def test_invalid_json_keeps_the_last_valid_value_and_says_where(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = pilot.app.query_one(Scratchpad)
        data = editor(pad, "data")
        data.set_text('{"retryCount": 1}')
        await type_expression(pilot, "data.retryCount < 3")
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")

        data.set_text('{"retryCount": 5,\n  "x": }')
        pad = await settle(pilot)
        status = str(data.query_one(".json-status", Static).render())
        assert "using last valid data (line 2, col 8: Expecting value)" in status
        assert data.has_class("-invalid")
        assert data.text_area.error_at == (1, 7)  # the line and column are marked in the text
        assert result_text(pad).startswith("✔ true")  # still retryCount 1
        assert data.value == {"retryCount": 1}

        data.text_area.focus()
        await pilot.press("ctrl+g")
        assert data.text_area.selection.start == (1, 7)

        data.set_text('{"retryCount": 5}')
        pad = await settle(pilot)
        assert result_text(pad).startswith("✘ false")
        assert str(data.query_one(".json-status", Static).render()) == ""
        assert data.text_area.error_at is None


async def test_a_large_document_is_parsed_without_blocking(session: Session) -> None:
    items = [json.dumps({"id": n, "name": f"item {n}", "tags": ["a", "b"]}) for n in range(20_000)]
    text = '{"items": [\n' + ",\n".join(items) + "\n]}"
    assert len(text) > 1_000_000
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = pilot.app.query_one(Scratchpad)
        editor(pad, "data").set_text(text)
        await type_expression(pilot, "data.items.length === 20000")
        pad = await settle(pilot, timeout=20)
        assert result_text(pad).startswith("✔ true")


async def test_context_starts_masked_but_evaluates_with_the_real_secret(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        context = editor(pad, "context")
        shown = json.loads(context.text)
        assert (
            shown.items()
            >= {
                "service_auth": "***",
                "environment": "production",
                "interview_complete": True,
                "retry_limit": 3,
            }.items()
        )
        assert TOKEN not in context.text

        await type_expression(pilot, f"context.service_auth === '{TOKEN}'")
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")
        await type_expression(pilot, "context.service_auth !== 'x'")
        pad = await settle(pilot)
        why = "(secret: env SERVICE_API_TOKEN looks secret)"
        assert f"true (got *** {why})  context.service_auth !== 'x'" in explain_lines(pad)[0]
        assert not any(TOKEN in line for line in explain_lines(pad))

        # an edit next to the masked secret leaves the secret's real value in use
        shown["environment"] = "staging"
        context.set_text(json.dumps(shown, indent=2))
        await type_expression(
            pilot, f"context.service_auth === '{TOKEN}' && context.environment === 'staging'"
        )
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")
        assert pad.scenario.context_overrides == {"environment": "staging"}

        pad.expression_input.focus()
        await pilot.press("ctrl+r")  # reset to the resolved variables
        pad = await settle(pilot)
        assert result_text(pad).startswith("✘ false")
        assert json.loads(context.text)["environment"] == "production"
        assert pad.scenario.context_overrides == {}


async def test_reveal_shows_secrets_in_the_context_editor(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        pad.reveal = True
        pad = await settle(pilot)
        assert json.loads(editor(pad, "context").text)["service_auth"] == TOKEN
        await type_expression(pilot, "context.service_auth === 'x'")
        pad = await settle(pilot)
        assert any(TOKEN in line for line in explain_lines(pad))
        pad.reveal = False
        pad = await settle(pilot)
        assert TOKEN not in editor(pad, "context").text
        assert not any(TOKEN in line for line in explain_lines(pad))


async def test_completion_offers_paths_and_tab_accepts(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = pilot.app.query_one(Scratchpad)
        editor(pad, "data").set_text('{"userApproval": true, "user": {"name": "Ada"}}')
        pad = await settle(pilot)
        await type_expression(pilot, "data.u", keys=True)
        await pilot.pause()
        offered = str(pad.query_one("#sp-completions", Static).render())
        assert offered.startswith("tab data.userApproval  data.user")
        await pilot.press("tab")
        assert pad.expression_input.value == "data.userApproval"
        assert pad.expression_input.cursor_position == len("data.userApproval")

        pad.query_one("#sp-dialect", Select).value = "ag2"
        await type_expression(pilot, "${inter", keys=True)
        await pilot.press("tab")
        assert pad.expression_input.value == "${interview_complete}"
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")


async def test_history_recall_with_up_and_down(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = pilot.app.query_one(Scratchpad)
        for text in ("data.a === 1", "data.b === 2", "data.c === 3"):
            await type_expression(pilot, text)
            await pilot.press("enter")
        assert pad.scenario.history == ("data.a === 1", "data.b === 2", "data.c === 3")
        await pilot.press("up")
        assert pad.expression_input.value == "data.b === 2"
        await pilot.press("up", "up", "up")
        assert pad.expression_input.value == "data.a === 1"
        await pilot.press("down")
        assert pad.expression_input.value == "data.b === 2"
        pad = await settle(pilot)
        assert result_text(pad).startswith("✘ false")  # a recalled expression is evaluated


async def test_scenarios_round_trip_and_never_hold_a_secret(session: Session) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        editor(pad, "data").set_text(json.dumps({"userApproval": True, "pasted": TOKEN}))
        editor(pad, "payload").set_text('{"status": "pending"}')
        editor(pad, "stepResult").set_text('{"step": "Success"}')
        editor(pad, "flowContext").set_text('{"stepCount": 2}')
        editor(pad, "tools").set_text('["submit_plan"]')
        context = json.loads(editor(pad, "context").text)
        context["environment"] = "staging"
        editor(pad, "context").set_text(json.dumps(context))
        expression = (
            f"context.service_auth === '{TOKEN}' && data.userApproval "
            "&& context.environment === 'staging' && payload.status === 'pending'"
        )
        await type_expression(pilot, expression)
        await pilot.press("enter")
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")

        pad.query_one("#sp-scenario-name", Input).value = "staging approval"
        pad.expression_input.focus()
        await pilot.press("ctrl+s")
        path = session.root / ".flowctx/scenarios/Review/staging approval.json"
        assert path.is_file()
        text = path.read_text(encoding="utf-8")
        assert TOKEN not in text
        saved = json.loads(text)
        assert saved["context"] == {"environment": "staging"}
        assert saved["toolsCalled"] == ["submit_plan"]
        assert saved["dialect"] == "mj"
        status = str(pad.query_one("#sp-scenario-status", Static).render())
        assert "saved .flowctx/scenarios/Review/staging approval.json" in status

        # wipe the inputs, then load the scenario back
        await pilot.press("ctrl+r")
        for name in ("data", "payload", "stepResult", "flowContext"):
            editor(pad, name).set_text("{}")
        editor(pad, "tools").set_text("[]")
        await type_expression(pilot, "data.other")
        pad = await settle(pilot)
        assert not result_text(pad).startswith("✔ true")

        pad.query_one("#sp-load", Select).value = "staging approval"
        pad = await settle(pilot)
        assert pad.expression_input.value == expression.replace(TOKEN, "***")
        assert json.loads(editor(pad, "payload").text) == {"status": "pending"}
        assert json.loads(editor(pad, "tools").text) == ["submit_plan"]
        assert pad.scenario.tools_called == ("submit_plan",)
        assert json.loads(editor(pad, "context").text)["environment"] == "staging"
        assert pad.scenario.history[-1] == expression.replace(TOKEN, "***")
        # the masked secret in the context means "the resolved value": it still matches
        await type_expression(pilot, f"context.service_auth === '{TOKEN}'")
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")


async def test_a_broken_scenario_file_is_reported_not_raised(session: Session) -> None:
    folder = session.root / ".flowctx/scenarios/Review"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text('{"data": {"a": 1,}}', encoding="utf-8")
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        pad.query_one("#sp-load", Select).value = "broken"
        await pilot.pause()
        status = str(pad.query_one("#sp-scenario-status", Static).render())
        assert status.startswith(".flowctx/scenarios/Review/broken.json:1:18: invalid JSON")


async def test_the_real_app_hosts_the_scratchpad(tmp_path: Path) -> None:
    from flowctx_tui.app import FlowctxApp
    from flowctx_tui.cli.workspace_args import demo_path

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    session = open_session(root, env={})
    app = FlowctxApp(session, "Approvals", watch=False, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = time.monotonic() + 10
        while app.result is None and time.monotonic() < deadline:
            await pilot.pause(0.02)
        await pilot.press("2")
        pad = app.query_one("#scratchpad-view", Scratchpad)
        assert pad.workflow == "Approvals"
        await type_expression(pilot, "context.environment === 'production'")
        pad = await settle(pilot)
        assert result_text(pad).startswith("✔ true")
        # the demo's URI password is masked in the context editor
        assert "demo-pass" not in editor(pad, "context").text


async def test_explain_masks_each_secret_value_alone_and_says_why_as_the_cli_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One secret in the context no longer masks every context value in the app, which knows
    the workflow's variables; both say why a value is masked."""
    from flowctx_tui.app import FlowctxApp
    from flowctx_tui.cli import main
    from flowctx_tui.cli.workspace_args import demo_path

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    app = FlowctxApp(open_session(root, env={}), "AppGenerator", watch=False, cursor_blink=False)
    expr = "context.max_build_iterations > 3 && context.openai_api_key.length > 3"
    async with app.run_test(size=(160, 40)) as pilot:
        await reloaded(pilot, timeout=10)
        assert app.result is not None
        key = app.result.matrix.row("openai_api_key").value
        assert key and app.result.matrix.row("openai_api_key").secret
        await pilot.press("2")
        await type_expression(pilot, expr)
        pad = await settle(pilot)
        shown = [line.strip() for line in explain_lines(pad)]
    assert "true (got 5)  context.max_build_iterations > 3" in shown
    assert (
        "true (got *** (secret: derived from context.openai_api_key))"
        "  context.openai_api_key.length > 3"
    ) in shown
    assert not any(key in line for line in shown)

    # `flowctx eval` does not know the workflow: every `context` value is masked there, and the
    # reason says so; the derived-from reason reads the same in both
    context = json.dumps({"max_build_iterations": 5, "openai_api_key": key})
    capsys.readouterr()
    main(["eval", expr, "--context", context, "--explain"])
    cli = capsys.readouterr().out
    assert "context.max_build_iterations > 3 -> true (got *** (secret: read from context" in cli
    assert (
        "context.openai_api_key.length > 3 -> true "
        "(got *** (secret: derived from context.openai_api_key))"
    ) in cli
    assert key not in cli


async def test_the_clock_field_pins_the_instant_and_the_result_says_so(
    session: Session, tmp_path: Path
) -> None:
    async with PadApp(session, "Review").run_test(size=(120, 30)) as pilot:
        await type_expression(pilot, "new Date().getUTCHours() >= 17")
        pad = await settle(pilot)
        # no pinned instant: the current time, and the result says which and that it is
        assert "depends on the time: evaluated at" in result_text(pad)
        assert "(current time)" in result_text(pad)

        clock = pad.query_one("#sp-clock", Input)
        clock.focus()
        await pilot.press(*"2026-12-01T09:00:00Z")
        pad = await settle(pilot)
        assert result_text(pad).splitlines() == [
            "✘ false",
            "depends on the time: evaluated at 2026-12-01T09:00:00Z",
        ]
        assert pad.result is not None and pad.result.clock == "2026-12-01T09:00:00Z"

        clock.value = "2026-12-01T18:30:00Z"
        pad = await settle(pilot)
        assert result_text(pad).startswith(
            "✔ true\ndepends on the time: evaluated at 2026-12-01T18:30:00Z"
        )

        # a value that is not an instant is marked, and the last valid one stays in force
        clock.value = "tomorrow"
        pad = await settle(pilot)
        assert clock.has_class("-invalid")
        assert "not an ISO 8601 instant" in str(clock.tooltip)
        assert "evaluated at 2026-12-01T18:30:00Z" in result_text(pad)

        # the instant is saved with the scenario and comes back with it
        clock.value = "2026-12-01T18:30:00Z"
        pad.query_one("#sp-scenario-name", Input).value = "evening"
        pad.action_save_scenario()
        await pilot.pause()
        saved = json.loads(
            (session.root / ".flowctx" / "scenarios" / "Review" / "evening.json").read_text()
        )
        assert saved["now"] == "2026-12-01T18:30:00Z"
        clock.value = ""
        pad = await settle(pilot)
        assert pad.load_scenario("evening")
        pad = await settle(pilot)
        assert clock.value == "2026-12-01T18:30:00Z"
        assert result_text(pad).startswith("✔ true")
