"""The context authority policy of mozaiks 0.2.0 through the CLI: each variable's authority in
``matrix --format json``, the graph compiler's refusal located at the rule with the runtime's
message and a fix, triggers that never write, and the policy's own load failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

ORCH = """
schema_version: mozaiks.orchestrator.v1
workflow_name: W
workflow_startup_mode: AgentDriven
"""
AGENTS = """
agents:
  - name: Reviewer
    system_message: Review the request.
    structured_outputs_required: false
"""
CONTRACT = """
definitions:
  approved:
    type: boolean
    authority_class: derived_information
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: Reviewer, match: {regex: "approved"}}
  review_complete:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: Reviewer, match: {contains: "ready"}}
  done:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: Reviewer, match: {equals: "DONE"}}
agents:
  Reviewer: {variables: [approved, review_complete, done]}
"""
RULES = """
transition_rules:
  - source_agent: Reviewer
    target_agent: terminate
    transition_type: condition
    condition_type: context_equals
    condition_key: approved
    condition_value: true
  - source_agent: Reviewer
    target_agent: terminate
    transition_type: condition
    condition_type: context_expression
    context_expression: "${review_complete} == True and ${done}"
"""


def _root(workspace: WriteWorkspace, contract: str = CONTRACT, rules: str = RULES) -> Path:
    return workspace(
        {
            "workflows/W/context_variables.yaml": contract,
            "workflows/W/transition_graph.yaml": rules,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["matrix", *args, "--format", "json"])
    return json.loads(capsys.readouterr().out)


def test_matrix_json_gives_each_variable_its_authority(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _json(capsys, str(_root(workspace)))
    auth = {v["name"]: v.get("authority") for v in doc["variables"]}
    # mozaiks 0.2.0, mozaiksai/core/workflow/context/authority.py infer_context_authority
    assert auth["approved"]["authority_class"] == "derived_information"
    assert auth["approved"]["writer_ids"] == ["agent_text"]
    assert auth["approved"]["routing"] is True
    assert auth["approved"]["why"]["authority_class"] == "declared"
    # a name ending _complete is closed routing state: deterministic writers only
    assert auth["review_complete"]["authority_class"] == "closed_writer_routing_state"
    assert auth["review_complete"]["writer_ids"] == [
        "deterministic_tool",
        "lifecycle_tool",
        "structured_output",
    ]
    # an exact equals trigger is a sentinel: deterministic
    assert auth["done"]["writer_ids"] == [
        "deterministic_tool",
        "lifecycle_tool",
        "sentinel_text_trigger",
        "structured_output",
    ]
    assert auth["done"]["persisted"] is True and auth["done"]["model_visible"] is True
    assert doc["refused"] == {
        "reason": "W context authority contract mismatch: routing context variable "
        "'approved' has no authorized deterministic writer",
        "file": "workflows/W/transition_graph.yaml",
        "line": 2,
        "column": 5,
        "outcome": "compile_fails",
        "stage": "graph",
    }
    # what can still be resolved is still shown
    assert {v["name"]: v["value"] for v in doc["variables"]}["done"] is False


def test_check_locates_the_compile_refusal_and_the_triggers_that_never_write(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    assert main(["check", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "workflows/W/transition_graph.yaml:2:5: REFUSED: runtime mozaiks-0.2.0 would not "
        "compile this workflow's graph (graph compile)"
    )
    compile_line = next(x for x in out if "WorkflowGraphCompileError" in x)
    assert compile_line.startswith(
        "workflows/W/transition_graph.yaml:6:20: transition_rules[0].condition_key: routing "
        "context variable 'approved' has no authorized deterministic writer"
    )
    assert "fix: give it a deterministic writer: an agent_text trigger with an exact " in (
        compile_line
    )
    silent = [x for x in out if "never writes" in x]
    assert [x.split(": ")[0] for x in silent] == [
        "workflows/W/context_variables.yaml:9:11",
        "workflows/W/context_variables.yaml:16:11",
    ]
    assert all(": warning: " in x for x in silent)
    # the older runtime has no authority policy
    assert main(["check", str(root), "--runtime", "mozaiks-2026-01"]) == 0
    assert "WorkflowGraphCompileError" not in capsys.readouterr().out


def test_an_equals_trigger_makes_the_graph_compile(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    fixed = CONTRACT.replace('match: {regex: "approved"}', 'match: {equals: "APPROVED"}')
    doc = _json(capsys, str(_root(workspace, fixed)))
    approved = {v["name"]: v for v in doc["variables"]}["approved"]["authority"]
    assert approved["writer_ids"] == ["agent_text", "sentinel_text_trigger"]
    assert doc["refused"] is None


@pytest.mark.parametrize(
    ("definition", "stage", "reason"),
    [
        (
            # mozaiks 0.2.0, authority.py _validate_replay_contract
            "  limit:\n    type: integer\n    persisted: true\n"
            "    source: {type: config, env_var: LIMIT}\n",
            "authority",
            "W context authority contract mismatch: persisted context variable 'limit' is "
            "not replayable",
        ),
        (
            # adapter.py set -> authority.py require_can_write: _clean_key("_x") == ""
            "  _hidden:\n    type: string\n    source: {type: state, default: x}\n",
            "context",
            "context_authority.empty_key",
        ),
        (
            "  bound:\n    type: object\n    authority_class: mutable_workflow_state\n"
            "    source: {type: runtime}\n",
            "authority",
            "runtime context 'bound' must be immutable_runtime_authority",
        ),
    ],
)
def test_the_policy_fails_the_load_at_its_stage(
    workspace: WriteWorkspace,
    capsys: pytest.CaptureFixture[str],
    definition: str,
    stage: str,
    reason: str,
) -> None:
    root = _root(
        workspace, "definitions:\n" + definition + "agents: {}\n", "transition_rules: []\n"
    )
    doc = _json(capsys, str(root))
    assert doc["refused"]["stage"] == stage
    assert doc["refused"]["reason"].startswith(reason)
    assert main(["check", str(root)]) == 1
    named = {"authority": "authority policy", "context": "context load"}[stage]
    assert f"would not load this workflow ({named})" in capsys.readouterr().out


def test_diff_names_the_verdict_and_its_stage_on_each_side(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import shutil

    head = _root(workspace)
    base = tmp_path / "base"
    shutil.copytree(head, base)
    fixed = CONTRACT.replace('match: {regex: "approved"}', 'match: {equals: "APPROVED"}')
    (base / "workflows/W/context_variables.yaml").write_text(fixed, encoding="utf-8")
    main(["diff", str(head), "--base", str(base), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    (wf,) = doc["workflows"]
    assert wf["refused"]["before"] is None
    assert wf["refused"]["after"]["stage"] == "graph"
    main(["diff", str(head), "--base", str(base)])
    out = capsys.readouterr().out
    assert " verdict: REFUSED at graph compile: W context authority contract mismatch" in out
    assert "(base: loads)" in out


def test_trigger_shows_the_writes_the_authority_refuses(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    main(["trigger", str(root), "--agent", "Reviewer", "ready and approved", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    outcomes = {c["variable"]: c["outcome"] for c in doc["checked"]}
    # both triggers match, and the policy refuses both writes (derived.py drops them)
    assert outcomes["approved"] == "refused by authority"
    assert outcomes["review_complete"] == "refused by authority"
    assert doc["changes"] == []
    main(["trigger", str(root), "--agent", "Reviewer", "DONE", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert [(c["variable"], c["new"]) for c in doc["changes"]] == [("done", True)]


def test_a_regex_trigger_sets_true_under_the_release(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = """
definitions:
  picked:
    type: string
    source:
      type: state
      triggers:
        - {type: agent_text, agent: Reviewer, match: {regex: "PICK: (\\\\w+)"}}
agents:
  Reviewer: {variables: [picked]}
"""
    root = _root(workspace, contract, "transition_rules: []\n")
    args = ["trigger", str(root), "--agent", "Reviewer", "PICK: red", "--format", "json"]
    main(args)
    changes = json.loads(capsys.readouterr().out)["changes"]
    # mozaiks 0.2.0, derived.py: every declared text trigger is built with value=True
    assert [(c["variable"], c["new"]) for c in changes] == [("picked", True)]
    main([*args, "--runtime", "spec"])
    changes = json.loads(capsys.readouterr().out)["changes"]
    assert [(c["variable"], c["new"]) for c in changes] == [("picked", "red")]


def test_a_condition_that_raises_fails_the_run(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = """
definitions:
  score:
    type: integer
    source: {type: state}
agents:
  Reviewer: {variables: [score]}
"""
    rules = """
transition_rules:
  - source_agent: Reviewer
    target_agent: Other
    transition_type: condition
    condition_type: context_expression
    context_expression: "${score} > 2"
  - source_agent: Reviewer
    target_agent: terminate
    transition_type: after_turn
"""
    root = _root(workspace, contract, rules)
    assert main(["routes", str(root), "--from", "Reviewer", "--format", "json"]) == 1
    (decision,) = json.loads(capsys.readouterr().out)["decisions"]
    # mozaiks 0.2.0: None > 2 raises TypeError out of the routing call; no later rule runs
    assert decision["failed"] is True and decision["winner"] is None
    assert decision["reason"] == (
        "rule 1's condition raises ('>' not supported between instances of "
        "'NoneType' and 'int'): the routing call raises and the run fails"
    )
    assert [c["outcome"] for c in decision["candidates"]] == ["error", "skipped"]


def test_task_batch_keys_are_routing_state_a_task_batch_writes(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = """
definitions:
  tasks_results: {type: array, source: {type: state}}
  tasks_status: {type: string, source: {type: state}}
  plan_output: {type: object, source: {type: state}}
  plan_state: {type: string, source: {type: state}}
agents:
  Reviewer: {variables: [tasks_results]}
"""
    root = _root(workspace, contract, "transition_rules: []\n")
    (root / "workflows/W/extended_orchestration").mkdir()
    (root / "workflows/W/extended_orchestration/task_batches.yaml").write_text(
        "conveyors:\n  - {id: tasks, decomposition_agent: Reviewer}\n"
        "batches:\n  - {id: plan, result: {context_key: plan_output, status_key: plan_state}}\n",
        encoding="utf-8",
    )
    doc = _json(capsys, str(root))
    auth = {v["name"]: v.get("authority") for v in doc["variables"]}
    # mozaiks 0.2.0, variables.py _task_batch_context_keys; a conveyor writes <id>_results
    # and <id>_status (task_batches.py TaskBatchConveyor.to_batch_spec)
    for key in ("tasks_results", "tasks_status", "plan_output", "plan_state"):
        assert auth[key]["authority_class"] == "closed_writer_routing_state", key
        assert "task_batch" in auth[key]["writer_ids"], key
