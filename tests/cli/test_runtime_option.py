"""``--runtime NAME`` on every command, and the profile named in every output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import COMMANDS, main
from tests.conftest import WriteWorkspace

CONTRACT = """definitions:
  context_aware:
    type: boolean
    source: {type: config, env_var: CONTEXT_AWARE, default: true}
  broken:
    type: object
    source: {type: external, retry: 2}
agents:
  A: {variables: [context_aware, broken]}
"""

OLDER = """definitions:
  - name: flag
    type: boolean
    source: {type: state, default: true, transitions: []}
agents:
  - agent: A
    variables: [flag]
"""


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONTEXT_AWARE", raising=False)


def _root(workspace: WriteWorkspace) -> Path:
    return workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/Old/context_variables.yaml": OLDER,
        }
    )


def test_matrix_json_names_the_runtime_and_the_refusal(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["matrix", str(_root(workspace)), "-w", "W", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1
    assert doc["runtime"] == "mozaiks 0.2.0 (2026-10)"
    assert doc["refused"] == {
        "reason": "definitions.broken.source.retry: Input should be a valid dictionary (the "
        "runtime's context model; runtime mozaiks-0.2.0)",
        "file": "workflows/W/context_variables.yaml",
        "line": 7,
        "column": 37,
        "outcome": "refused",
        "stage": "workflow_manager",
    }
    rows = {r["name"]: r for r in doc["variables"]}
    # every row that can still be resolved is shown
    assert rows["context_aware"]["value"] is None
    assert "documented: falls back to the default" in rows["context_aware"]["origin"]
    assert all(e["runtime"] == doc["runtime"] for e in doc["errors"])


def test_the_table_puts_the_refusal_first(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["matrix", str(_root(workspace)), "-w", "W"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("REFUSED: the runtime would not load this workflow's context:")
    assert "runtime: mozaiks 0.2.0 (2026-10)" in lines


def test_runtime_spec_shows_the_documented_default(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["matrix", str(_root(workspace)), "-w", "W", "--format", "json", "--runtime", "spec"]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["refused"] is None
    assert doc["runtime"].startswith("spec (documentation ")
    rows = {r["name"]: r for r in doc["variables"]}
    assert (rows["context_aware"]["value"], rows["context_aware"]["origin"]) == (True, "default")


def test_the_older_runtime_accepts_its_own_workflows(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    code = main(["check", str(root), "-w", "Old", "--runtime", "mozaiks-2026-01"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    # its discovery wanted orchestrator.yaml or tools.yaml too: the bare folder is said so
    assert out[-1].startswith(
        "ok: 1 workflow(s), 0 error(s), 2 warning(s) [runtime mozaiks-2026-01"
    )
    assert "the runtime will not discover 'Old': its folder has no orchestrator.yaml or " in out[0]
    assert "transitions: unknown field; ignored by runtime mozaiks-2026-01" in out[1]
    code = main(["check", str(root), "-w", "Old"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[0] == (
        "workflows/Old/context_variables.yaml:1:1: REFUSED: runtime mozaiks-0.2.0 "
        "would not load this "
        "workflow's context"
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_takes_the_option_and_refuses_an_unknown_name(
    command: str, workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "--runtime NAME" in capsys.readouterr().out


def test_an_unknown_runtime_is_a_usage_error(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(_root(workspace))
    for argv in (["check", root, "--runtime", "mozaik"], ["matrix", root, "--runtime", "mozaik"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "unknown runtime 'mozaik' (did you mean 'mozaiks'?)" in err
