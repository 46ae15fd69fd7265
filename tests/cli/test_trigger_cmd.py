"""``flowctx trigger``: one message against a workflow's state triggers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: InterviewAgent, match: {contains: next}, ui_hidden: true}
  plan_approved:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: user_text, match: {equals: approved}}
  session_token:
    type: string
    source:
      type: state
      default: tok-initial
      triggers:
        - {type: ui_response, tool: login, response_key: auth.token}
agents:
  InterviewAgent: {variables: [interview_complete]}
"""


def _root(workspace: WriteWorkspace) -> Path:
    return workspace({"workflows/W/context_variables.yaml": CONTRACT})


def test_agent_message_prints_the_change_and_what_is_hidden(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    # the documented contract: under mozaiks 0.2.0 the authority policy refuses this write
    # (interview_complete is routing state by its name; tests/cli/test_authority_policy.py)
    args = ["trigger", str(root), "--runtime", "spec"]
    assert main([*args, "--agent", "InterviewAgent", "OK, NEXT step"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "W: agent InterviewAgent says 'OK, NEXT step'",
        "  interview_complete: false -> true",
        "      by agent_text from InterviewAgent, contains 'next', ui_hidden "
        "(workflows/W/context_variables.yaml:8:11)",
        "checked 3 trigger(s): 1 fired",
        "  not fired: plan_approved user_text, equals 'approved' "
        "(workflows/W/context_variables.yaml:15:11): other sender",
        "  not fired: session_token ui_response from login, response_key auth.token "
        "(workflows/W/context_variables.yaml:22:11): other tool",
        "hidden from the UI: 'OK, NEXT step'",
    ]


def test_user_message(workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trigger", str(_root(workspace)), "--user", " Approved "]) == 0
    out = capsys.readouterr().out
    assert "  plan_approved: false -> true" in out
    assert "hidden from the UI" not in out


def test_ui_response_masks_secret_values_unless_revealed(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    response = tmp_path / "login.json"
    response.write_text(json.dumps({"auth": {"token": "tok-fresh"}}), encoding="utf-8")
    # the documented contract: mozaiks 0.2.0 refuses the write (a token is immutable runtime
    # authority), which would leave nothing to mask
    spec = ["--runtime", "spec"]
    assert main(["trigger", str(root), *spec, "--ui-response", "login", f"@{response}"]) == 0
    out = capsys.readouterr().out
    assert '  session_token: "***" -> "***"' in out
    assert "tok-" not in out
    args = [
        "trigger",
        str(root),
        *spec,
        "--ui-response",
        "login",
        '{"auth": {"token": "tok-fresh"}}',
    ]
    assert main([*args, "--reveal", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["changes"] == [
        {
            "variable": "session_token",
            "old": "tok-initial",
            "new": "tok-fresh",
            "trigger": "ui_response from login, response_key auth.token",
            "location": "workflows/W/context_variables.yaml:22:11",
            "ui_hidden": False,
        }
    ]


def test_state_starts_from_launch_values(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    launch = json.dumps({"plan_approved": True})
    assert main(["trigger", str(root), "--user", "approved", "--launch", launch]) == 0
    assert "  plan_approved: true -> true  (unchanged)" in capsys.readouterr().out


def test_an_unknown_agent_gets_a_hint(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["trigger", str(_root(workspace)), "--agent", "InterviewAgnt", "next"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "note: 'InterviewAgnt' is not an agent of W (did you mean 'InterviewAgent'?)"
    )
    assert "0 fired" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give exactly one message"),
        (["--user", "a", "--agent", "X", "b"], "(got --agent, --user)"),
        (["--ui-response", "login", "{oops"], "invalid JSON for --ui-response JSON"),
        (["--user", "a", "--launch", "[1]"], "--launch must be a JSON object"),
        (["--user", "a", "--workflow", "Nope"], "no workflow named 'Nope'"),
    ],
)
def test_bad_arguments_exit_2(
    workspace: WriteWorkspace,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    assert main(["trigger", str(_root(workspace)), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_on_the_bundled_demo(capsys: pytest.CaptureFixture[str]) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    args = ["trigger", str(demo_path()), "-w", "AppGenerator", "--agent", "PatternAgent"]
    assert main([*args, "Use PATTERN: star", "--runtime", "spec"]) == 0
    assert '  selected_pattern_id: null -> "star"' in capsys.readouterr().out
    # mozaiks 0.2.0: a rule routes on it, and a regex trigger may not write routing state
    assert main([*args, "Use PATTERN: star"]) == 0
    out = capsys.readouterr().out
    assert "0 fired" in out and "refused by authority" in out
