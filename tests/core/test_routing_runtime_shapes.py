"""A workflow whose routing files use only the shapes the Mozaiks runtime itself reads.

``transition_graph.yaml`` as ``transition_rules:`` (mozaiksai/core/workflow/declarative/
contracts.py, TransitionRuleSpec) and ``handoffs.yaml`` spelled out as the AgentGenerator
workflow ships it (explicit nulls, transition_target). Written from those schemas, not copied.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_core.check import check_workspace
from flowctx_core.routing import load_routes, sources
from flowctx_core.session import Session, open_session

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  action_plan_acceptance:
    type: string
    source: {type: state, default: pending}
  revision_count:
    type: integer
    source: {type: state, default: 0}
  api_token:
    type: string
    source: {type: config, env_var: API_TOKEN}
agents:
  InterviewAgent: {variables: [interview_complete]}
  PatternAgent: {variables: [action_plan_acceptance, revision_count]}
  ReviewAgent: {variables: [action_plan_acceptance, api_token]}
"""

GRAPH = """
transition_rules:
  - source_agent: user
    target_agent: InterviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: false
    transition_target: AgentTarget
  - source_agent: user
    target_agent: PatternAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: ${action_plan_acceptance} != "accepted" and ${revision_count} < 3
    transition_target: AgentTarget
  - source_agent: InterviewAgent
    target_agent: PatternAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: true
    transition_target: AgentTarget
  - source_agent: InterviewAgent
    target_agent: user
    transition_type: after_turn
    transition_target: RevertToUserTarget
  - source_agent: PatternAgent
    target_agent: ReviewAgent
    transition_type: condition
    condition_type: tool_called
    tool_name: submit_action_plan
    transition_target: AgentTarget
  - source_agent: PatternAgent
    target_agent: user
    transition_type: after_turn
    transition_target: RevertToUserTarget
  - source_agent: ReviewAgent
    target_agent: terminate
    transition_type: condition
    condition_type: context_equals
    condition_key: api_token
    condition_value: tok-live-987654
    transition_target: TerminateTarget
    termination_reason: workflow_failed
  - source_agent: ReviewAgent
    target_agent: terminate
    transition_type: after_turn
    transition_target: TerminateTarget
    termination_reason: workflow_complete
"""

HANDOFFS = """
handoff_rules:
- source_agent: ReviewAgent
  target_agent: PatternAgent
  handoff_type: condition
  condition_type: expression
  condition_scope: pre
  condition: ${action_plan_acceptance} == "revise"
  transition_target: AgentTarget
- source_agent: ReviewAgent
  target_agent: terminate
  handoff_type: after_work
  condition_type: null
  condition_scope: null
  condition: null
  transition_target: TerminateTarget
"""


@pytest.fixture
def runtime_shaped(workspace) -> Path:
    """A workspace with one workflow, routed only by runtime-shaped files."""
    return workspace(
        {
            "workflows/Planner/context_variables.yaml": CONTRACT,
            "workflows/Planner/transition_graph.yaml": GRAPH,
            "workflows/Planner/handoffs.yaml": HANDOFFS,
        }
    )


def _session(root: Path, token: str = "tok-dev-123456") -> Session:
    return open_session(root, env={"API_TOKEN": token})


def test_runtime_shaped_workflow_checks_clean(runtime_shaped):
    session = _session(runtime_shaped)
    # mozaiks 0.2.0 refuses one rule: api_token is immutable runtime authority by its name
    # (authority.py), so no deterministic writer may set it and the graph does not compile
    problems = [d.format() for d in check_workspace(session)]
    # and, as the folder has no orchestrator.yaml, the runtime would not discover it at all
    assert len(problems) == 2
    assert problems[0].startswith(
        "workflows/Planner/context_variables.yaml:1:1: warning: the runtime will not discover "
        "'Planner'"
    )
    assert problems[1].startswith(
        "workflows/Planner/transition_graph.yaml:40:20: transition_rules[6].condition_key: "
        "routing context variable 'api_token' has no authorized deterministic writer"
    )
    routes = load_routes(session.load("Planner"))
    assert routes.transitions.shape == "transition_rules"
    assert sources(routes) == ["user", "InterviewAgent", "PatternAgent", "ReviewAgent"]


def test_a_conversation_routes_step_by_step(runtime_shaped):
    session = _session(runtime_shaped)
    (start,) = session.decide("Planner", "user")
    assert start.winner.target == "InterviewAgent"
    (interview,) = session.decide(
        "Planner", "InterviewAgent", context_overrides={"interview_complete": True}
    )
    assert interview.winner.target == "PatternAgent"
    (pattern,) = session.decide("Planner", "PatternAgent", tools_called=("submit_action_plan",))
    assert pattern.winner.target == "ReviewAgent"
    # back from the user with the plan not accepted yet: the expression rule
    (revise,) = session.decide("Planner", "user", context_overrides={"interview_complete": True})
    assert revise.winner.target == "PatternAgent"
    assert revise.reason == "rule 2 (line 9) is the first rule that matches: its condition holds"
    (accepted,) = session.decide(
        "Planner",
        "user",
        context_overrides={"interview_complete": True, "action_plan_acceptance": "accepted"},
    )
    assert accepted.winner is None and accepted.reason == "no_transition_matched"
    assert accepted.ended


def test_both_runtime_files_decide_for_the_same_agent(runtime_shaped):
    session = _session(runtime_shaped)
    graph, handoffs = session.decide("Planner", "ReviewAgent")
    assert graph.winner.target == "terminate"
    assert graph.reason.endswith("the run ends (workflow_complete)")
    # mozaiks 0.2.0 never opens handoffs.yaml: nothing there routes
    assert handoffs.winner is None and not handoffs.ended and handoffs.unread
    older = open_session(
        runtime_shaped, env={"API_TOKEN": "tok-dev-123456"}, runtime="mozaiks-2026-01"
    )
    assert older.decide("Planner", "ReviewAgent")[1].winner.target == "terminate"
    revise = older.decide(
        "Planner", "ReviewAgent", context_overrides={"action_plan_acceptance": "revise"}
    )[1]
    assert revise.winner.target == "PatternAgent"


def test_secret_context_stays_masked_in_runtime_shaped_decisions(runtime_shaped):
    session = _session(runtime_shaped, token="tok-live-987654")
    graph, _ = session.decide("Planner", "ReviewAgent")
    assert graph.winner.index == 6 and graph.reason.endswith("(workflow_failed)")
    shown = json.dumps([graph.to_json()])
    # the value is the author's text in the condition; as a read value it is masked
    assert graph.candidates[0].explain_lines() == [
        "+ ${api_token} == 'tok-live-987654' -> true",
        "  + ${api_token} -> *** (secret: key looks secret)",
    ]
    assert shown.count("tok-live-987654") == 2  # condition text and explain node text only
