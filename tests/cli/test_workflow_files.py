"""The files as mozaiks 0.2.0's workflow manager reads them, through the CLI: discovery by
orchestrator.yaml, the strict orchestrator.yaml and agents.yaml models with located errors, no
agents without agents.yaml, and each verdict naming the stage of the runtime's start-up."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  note: {type: string, source: {type: state, default: hi}}
agents:
  A: {variables: [note, note]}
"""
ORCH = """
schema_version: mozaiks.orchestrator.v1
workflow_name: W
workflow_startup_mode: AgentDriven
"""
AGENTS = """
agents:
  - {name: A, system_message: Hello., structured_outputs_required: false}
"""


def _check(capsys: pytest.CaptureFixture[str], root: Any, *args: str) -> dict[str, Any]:
    main(["check", str(root), "--format", "json", *args])
    return json.loads(capsys.readouterr().out)


def test_a_complete_workflow_loads(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    assert _check(capsys, root)["refused"] == {}


@pytest.mark.parametrize(
    ("orchestrator", "where", "message"),
    [
        (
            ORCH.replace("schema_version: mozaiks.orchestrator.v1\n", ""),
            "workflows/W/orchestrator.yaml:1:1",
            "schema_version",
        ),
        (
            ORCH.replace("workflow_name: W", "workflow_name: Other"),
            "workflows/W/orchestrator.yaml:2:16",
            "Workflow 'W' has mismatched workflow_name 'Other' in orchestrator.yaml",
        ),
        (
            ORCH.replace("AgentDriven", "Eager"),
            "workflows/W/orchestrator.yaml:3:24",
            "AgentDriven",
        ),
        (ORCH + "colour: red\n", "workflows/W/orchestrator.yaml:4:1", "colour"),
    ],
)
def test_a_strict_orchestrator_refuses_the_workflow_at_the_workflow_manager(
    workspace: WriteWorkspace,
    capsys: pytest.CaptureFixture[str],
    orchestrator: str,
    where: str,
    message: str,
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/orchestrator.yaml": orchestrator,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    doc = _check(capsys, root)
    assert doc["refused"]["W"]["stage"] == "workflow_manager"
    assert doc["refused"]["W"]["reason"].startswith("Invalid orchestrator.yaml configuration")
    problem = next(p for p in doc["problems"] if p["code"] == "workflow-files")
    assert f"{problem['file']}:{problem['line']}:{problem['column']}" == where
    assert message in problem["message"]
    # matrix gives the same verdict, and still shows what resolves
    main(["matrix", str(root), "--format", "json"])
    matrix = json.loads(capsys.readouterr().out)
    assert matrix["refused"]["stage"] == "workflow_manager"
    assert matrix["variables"][0]["value"] == "hi"


def test_no_agents_yaml_means_no_agents(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/orchestrator.yaml": ORCH}
    )
    doc = _check(capsys, root)
    assert doc["refused"]["W"]["stage"] == "agents"
    # mozaiks 0.2.0, mozaiksai/core/workflow/orchestration_patterns.py
    assert doc["refused"]["W"]["reason"].startswith("No agents defined for workflow 'W'")
    (root / "workflows/W/agents.yaml").write_text(
        "agents:\n  - {name: A, system_message: Hi}\n", encoding="utf-8"
    )
    doc = _check(capsys, root)
    assert doc["refused"]["W"]["stage"] == "workflow_manager"
    problem = next(p for p in doc["problems"] if p["code"] == "workflow-files")
    assert (problem["file"], problem["line"], problem["column"]) == (
        "workflows/W/agents.yaml",
        2,
        5,
    )
    assert "structured_outputs_required" in problem["message"]
    assert not any("No agents defined" in p["message"] for p in doc["problems"])


def test_a_folder_without_orchestrator_beside_workflows_is_not_discovered(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
            "workflows/Bare/context_variables.yaml": CONTRACT,
            "workflows/Tools/tools.yaml": "tools: []\n",
        }
    )
    doc = _check(capsys, root)
    # a tools.yaml alone does not make a workflow (mozaiks 0.2.0, paths.py)
    assert doc["workflows"] == ["Bare", "W"]
    assert doc["refused"]["Bare"]["stage"] == "discovery"
    assert "W" not in doc["refused"]


def test_handoffs_yaml_is_shown_as_never_read_by_the_release(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
            "workflows/W/handoffs.yaml": (
                "handoff_rules:\n  - source_agent: A\n    target_agent: terminate\n"
                "    handoff_type: after_work\n    transition_target: TerminateTarget\n"
            ),
        }
    )
    doc = _check(capsys, root)
    warned = [p for p in doc["problems"] if "handoffs.yaml is never read" in p["message"]]
    assert [p["file"] for p in warned] == ["workflows/W/handoffs.yaml"]
    main(["routes", str(root), "--from", "A", "--format", "json"])
    decisions = json.loads(capsys.readouterr().out)["decisions"]
    assert decisions[0]["unread"] == (
        "runtime mozaiks-0.2.0 never reads handoffs.yaml: its rules route nothing"
    )
    # the older runtime read it
    main(["routes", str(root), "--from", "A", "--format", "json", "--runtime", "mozaiks-2026-01"])
    assert json.loads(capsys.readouterr().out)["decisions"][0]["unread"] is None
