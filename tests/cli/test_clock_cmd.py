"""The clock on the command line: ``--now`` on eval and the workspace commands, ``now:`` in
flowctx.yaml, and node's time zone from TZ; every result that read the clock says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main

FLOW = """
agent: F
steps:
  - {name: Start, type: Action, starting: true}
  - {name: Late, type: Action}
  - {name: Early, type: Action}
paths:
  - from: Start
    to: Late
    priority: 20
    condition: "new Date().getUTCHours() >= 17"
  - from: Start
    to: Early
    priority: 10
    condition: "/^AB/.test(payload.code)"
"""
CONTRACT = """
definitions:
  x:
    type: boolean
    source: {type: state, default: false}
agents:
  A: {variables: [x]}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_now_pins_the_instant_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "eval", "new Date().getUTCHours() === 9", "--now", "2026-12-01T09:00:00Z"
    )
    assert (code, err) == (0, "")
    assert out == "true\nwarning: depends on the time: evaluated at 2026-12-01T09:00:00Z\n"
    code, out, _ = run(
        capsys, "eval", "new Date().getUTCHours() === 9", "--now", "2026-12-01T10:00+01:00"
    )
    assert code == 0  # an offset names the same instant


def test_eval_json_and_explain_carry_the_clock(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "eval", "Date.now() > payload.created", "--payload", '{"created": 0}',
        "--now", "2026-12-01T09:00:00Z", "--format", "json", "--explain",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["value"] is True
    assert data["clock"] == "2026-12-01T09:00:00Z"
    assert data["warnings"] == ["depends on the time: evaluated at 2026-12-01T09:00:00Z"]
    assert data["explain"]["warnings"] == data["warnings"]
    # a condition that does not read the clock has no clock
    _, out, _ = run(capsys, "eval", "1 < 2", "--format", "json", "--now", "2026-12-01")
    assert json.loads(out)["clock"] is None


def test_eval_without_now_states_the_current_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "typeof Date() === 'string'")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "true"
    assert lines[1].startswith("warning: depends on the time: evaluated at ")
    assert "(the current time; pin the instant with --now" in lines[1]


def test_a_bad_now_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "eval", "Date.now() > 0", "--now", "next tuesday")
    assert (code, out) == (2, "")
    assert err.strip() == (
        "flowctx: --now: 'next tuesday' is not an ISO 8601 instant (expected e.g. "
        "2026-12-01T09:00:00Z)"
    )
    code, _, err = run(capsys, "eval", "1", "--now", "2026-02-30T00:00:00Z")
    assert code == 2 and "is not a valid instant" in err


def test_local_time_follows_tz_as_node_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    code, out, _ = run(
        capsys, "eval", "new Date().getHours() === 4 && new Date().getTimezoneOffset() === 300",
        "--now", "2026-12-01T09:00:00Z",
    )  # fmt: skip
    assert code == 0, out
    monkeypatch.delenv("TZ")
    code, out, _ = run(
        capsys, "eval", "new Date().getHours() === 9", "--now", "2026-12-01T09:00:00Z"
    )
    assert code == 0, out  # without TZ node runs in UTC


def _workspace(workspace: Any, profile: str | None = None) -> Path:
    files = {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/flow.yaml": FLOW}
    if profile is not None:
        files["flowctx.yaml"] = profile
    root: Path = workspace(files)
    return root


def test_routes_now_decides_a_clock_condition(
    workspace: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(workspace)
    args = ["routes", str(root), "-w", "W", "--from", "Start", "--payload", '{"code": "ABX"}']
    code, out, _ = run(capsys, *args, "--now", "2026-12-01T09:00:00Z")
    assert code == 0
    assert out.splitlines()[-1] == (
        "winner: Early (first valid path, priority 10, condition is true)"
    )
    assert "! warning: depends on the time: evaluated at 2026-12-01T09:00:00Z" in out
    code, out, _ = run(capsys, *args, "--now", "2026-12-01T18:00:00Z")
    assert out.splitlines()[-1].startswith("winner: Late")


def test_flowctx_yaml_now_pins_the_workspace_and_now_overrides_it(
    workspace: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(workspace, "now: 2026-12-01T18:00:00Z\n")
    args = ["routes", str(root), "-w", "W", "--from", "Start", "--payload", '{"code": "ABX"}']
    code, out, _ = run(capsys, *args)
    assert code == 0 and out.splitlines()[-1].startswith("winner: Late")
    assert "evaluated at 2026-12-01T18:00:00Z" in out
    _, out, _ = run(capsys, *args, "--now", "2026-12-01T09:00:00Z")
    assert out.splitlines()[-1].startswith("winner: Early")


def test_a_bad_now_in_flowctx_yaml_is_a_located_problem(
    workspace: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(workspace, "now: soon\n")
    code, out, _ = run(capsys, "check", str(root))
    assert code == 1
    assert "flowctx.yaml:1:6" in out
    assert "'soon' is not an ISO 8601 instant" in out


def test_a_saved_scenario_s_now_decides_the_graph_unless_now_is_given(
    workspace: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(workspace)
    saved = root / ".flowctx" / "scenarios" / "W" / "evening.json"
    saved.parent.mkdir(parents=True)
    saved.write_text(
        json.dumps(
            {
                "format": "flowctx-scenario/1",
                "workflow": "W",
                "now": "2026-12-01T18:00:00Z",
                "payload": {"code": "ABX"},
            }
        )
    )
    args = ["graph", str(root), "-w", "W", "--scenario", "evening", "--format", "text"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "clock: depends on the time: evaluated at 2026-12-01T18:00:00Z" in out
    late = next(line for line in out.splitlines() if "→ Late" in line)
    assert late.startswith("│★") and late.rstrip("┝━┓ ").endswith("true")
    _, out, _ = run(capsys, *args, "--now", "2026-12-01T09:00:00Z")
    assert "clock: depends on the time: evaluated at 2026-12-01T09:00:00Z" in out
    early = next(line for line in out.splitlines() if "→ Early" in line)
    assert early.startswith("│★")


@pytest.mark.parametrize(
    ("instant", "said"),
    [
        ("9999-12-31T23:59:59-23:59", "out of range: in UTC it falls outside the years"),
        ("0001-01-01T00:00:00+00:01", "out of range: in UTC it falls outside the years"),
        ("2026-12-01T09:00:00+99:99", "has the offset +99:99, which is no time zone"),
        ("2026-12-01T09:00:00-24:00", "has the offset -24:00, which is no time zone"),
    ],
)
def test_an_out_of_range_clock_is_a_message_never_a_traceback(
    workspace: Any, capsys: pytest.CaptureFixture[str], instant: str, said: str
) -> None:
    root = _workspace(workspace)
    tests = root / ".flowctx" / "tests" / "clock.yaml"
    tests.parent.mkdir(parents=True)
    tests.write_text(
        "workflow: W\ncases:\n  - name: late\n"
        f"    now: '{instant}'\n    expect:\n      route: {{from: Start, to: Late}}\n"
    )
    for argv in (
        ["routes", str(root), "-w", "W", "--from", "Start"],
        ["graph", str(root), "-w", "W"],
        ["test", str(root)],
        ["eval", "Date.now() > 0"],
    ):
        code, out, err = run(capsys, *argv, "--now", instant)
        assert code == 2, (argv, out, err)
        assert err.startswith(f"flowctx: --now: '{instant}' ")
        assert said in err and "Traceback" not in out + err
    # in a test case: located at its key, the other cases still run
    code, out, err = run(capsys, "test", str(root))
    assert code == 2 and "Traceback" not in out + err
    assert f".flowctx/tests/clock.yaml:4:10: cases[0].now: '{instant}' " in out
    assert said in out
    # in flowctx.yaml: a located problem
    (root / "flowctx.yaml").write_text(f"now: '{instant}'\n")
    code, out, err = run(capsys, "check", str(root))
    assert "flowctx.yaml:1:6" in out and said in out and "Traceback" not in out + err
    code, out, err = run(capsys, "routes", str(root), "-w", "W", "--from", "Start")
    assert "Traceback" not in out + err and code in (0, 1, 2)
