"""The detail pane's content: definition as written, masking, triggers, provenance."""

from __future__ import annotations

from flowctx_core.model.matrix import Loc, Row, TraceStep
from flowctx_tui.widgets.detail import definition_lines, mask_definition_line, render_row
from tests.tui.conftest import detail_text

LINES = (
    "definitions:",
    "  api_key:",
    "    type: string",
    "    # the key is read from the environment",
    "    source:",
    "      type: config",
    "      env_var: SERVICE_API_KEY",
    "      default: sk-live-123",
    "",
    "  next_one: {type: string, source: {type: state}}",
)


def secret_row(value: str = "sk-live-123") -> Row:
    return Row(
        "api_key",
        "string",
        "config",
        "default",
        value,
        "default",
        trace=(TraceStep("env", "missing", "env SERVICE_API_KEY is not set"),),
        loc=Loc("wf/context_variables.yaml", 2, 3),
        secret=True,
        definition={"type": "string", "source": {"type": "config", "default": value}},
    )


def test_definition_lines_stop_at_the_next_definition():
    lines = definition_lines(secret_row(), LINES, "wf/context_variables.yaml")
    assert lines[0] == "  api_key:"
    assert lines[-1] == "      default: sk-live-123"
    assert "    # the key is read from the environment" in lines
    assert definition_lines(secret_row(), LINES, "other.yaml") == []


def test_masking_of_definition_lines():
    assert mask_definition_line("      default: sk-live-123", secret_row=True).endswith("***")
    assert mask_definition_line("      default: fine", secret_row=False).endswith("fine")
    assert mask_definition_line("      password: hunter2", secret_row=False).endswith("***")
    assert "pw" not in mask_definition_line("  url: https://u:pw@h/x", secret_row=False)


def test_rendered_detail_masks_secrets_unless_revealed():
    masked = str(
        render_row(
            secret_row(),
            reveal=False,
            contract_lines=LINES,
            contract_file="wf/context_variables.yaml",
        )
    )
    assert "sk-live-123" not in masked
    assert "wf/context_variables.yaml:2:3" in masked
    assert "env SERVICE_API_KEY is not set" in masked
    revealed = str(
        render_row(
            secret_row(),
            reveal=True,
            contract_lines=LINES,
            contract_file="wf/context_variables.yaml",
        )
    )
    assert "sk-live-123" in revealed


def test_runtime_rows_and_state_triggers():
    runtime = Row("database_schema_available", "boolean", "runtime", "resolved", False, "runtime")
    assert "injected by the runtime" in str(render_row(runtime, reveal=False))
    state = Row(
        "done",
        "boolean",
        "state",
        "default",
        False,
        "default",
        definition={
            "source": {
                "type": "state",
                "triggers": [
                    {"type": "agent_text", "agent": "A", "match": {"contains": "DONE"}},
                    {"type": "ui_response", "tool": "confirm", "response_key": "ok"},
                ],
            }
        },
    )
    text = str(render_row(state, reveal=False))
    assert "agent_text from A matching contains 'DONE'" in text
    assert "ui_response when tool confirm completes sets response.ok" in text


def test_flow_style_definitions_mask_secret_entries() -> None:
    # a secret variable written on one line keeps its default out of the Definition section
    line = '    source: {type: config, default: "tok-live-987", env_var: TOKEN}'
    shown = mask_definition_line(line, secret_row=True)
    assert "tok-live-987" not in shown and "env_var: TOKEN" in shown
    assert "hunter2" not in mask_definition_line("  x: [1, {password: hunter2}]", secret_row=False)
    assert mask_definition_line(
        "  source: {type: config, default: fine}", secret_row=False
    ).endswith("default: fine}")


async def test_at_200_columns_the_definition_wraps_under_its_own_indentation(tmp_path) -> None:
    import shutil

    from textual.geometry import Region

    from flowctx_core.session import open_session
    from flowctx_tui.app import FlowctxApp
    from flowctx_tui.cli.workspace_args import demo_path
    from tests.tui.conftest import reloaded, wait_for

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    app = FlowctxApp(open_session(root, env={}), "AppGenerator", watch=False, cursor_blink=False)
    async with app.run_test(size=(200, 50)) as pilot:
        await reloaded(pilot)
        body = app.query_one("#detail-body")

        def definition() -> list[str]:
            """The Definition block's lines as the pane draws them."""
            size = body.size
            lines = [s.text.rstrip() for s in body.render_lines(Region(0, 0, *size))]
            start = next(i for i, s in enumerate(lines) if s.startswith("Definition"))
            end = next(i for i, s in enumerate(lines) if s.startswith("Agents"))
            return lines[start + 1 : end]

        await wait_for(pilot, lambda: "Definition" in detail_text(app), "the detail")
        await pilot.pause()
        wide = definition()
        # the long description is wrapped, and its second half stays under its key
        assert "    description: Shown in greetings; no env_var, so the default" in wide
        assert "      is always used." in wide
        assert all(line.startswith("  ") for line in wide), wide
        # the text itself is whole: copied or read, it is the line as written
        assert "no env_var, so the default is always used." in detail_text(app)
        # narrower, the wrap follows the pane's width
        await pilot.resize_terminal(160, 50)
        await wait_for(pilot, lambda: definition() != wide, "the re-wrap")
        assert all(line.startswith("  ") for line in definition()), definition()
