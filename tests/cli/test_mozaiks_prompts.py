"""Agent prompts as mozaiks 0.2.0 renders them (agents/factory.py create_agents ->
context/context_utils.py apply_context_exposures), through ``flowctx prompt``: every listed
variable (build_context and model_visible: false included), each once, for the agents of
agents.yaml; the older runtime appends no block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  capability_packs:
    type: array
    source: {type: build_context}
  quiet:
    type: string
    model_visible: false
    source: {type: state, default: shh}
  note:
    type: string
    source: {type: state, default: hi}
agents:
  A: {variables: [note, capability_packs, note, quiet]}
  Ghost: {variables: [note]}
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


def _root(workspace: WriteWorkspace) -> Path:
    return workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )


def _prompt(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["prompt", *args, "--format", "json"])
    return json.loads(capsys.readouterr().out)


def test_every_listed_variable_once_for_the_agents_of_agents_yaml(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _prompt(capsys, str(_root(workspace)))
    # Ghost has a variable list but no agents.yaml entry: the runtime never creates it
    assert [a["agent"] for a in doc["agents"]] == ["A"]
    (agent,) = doc["agents"]
    assert agent["text"] == "NOTE: hi\nCAPABILITY_PACKS: None\nQUIET: shh"
    assert agent["withheld"] == []
    assert doc["refused"] is None


def test_the_older_runtime_appends_no_block(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    contract = CONTRACT.replace("build_context", "state")
    (root / "workflows/W/context_variables.yaml").write_text(contract, encoding="utf-8")
    doc = _prompt(capsys, str(root), "--runtime", "mozaiks-2026-01", "--agent", "A")
    (agent,) = doc["agents"]
    assert agent["lines"] == []
    assert "appends no variable block" in agent["withheld"][0]["reason"]


def test_prompt_states_the_verdict_of_check(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    (root / "workflows/W/agents.yaml").unlink()
    doc = _prompt(capsys, str(root))
    assert doc["agents"] == []
    assert doc["refused"]["stage"] == "agents"
    main(["prompt", str(root)])
    out = capsys.readouterr().out
    assert "REFUSED: runtime mozaiks-0.2.0 would not load this workflow (agents)" in out
