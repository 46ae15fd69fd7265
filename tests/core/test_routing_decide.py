"""``decide``: the scope assembled from resolved variables and the user's scenario."""

from __future__ import annotations

import json

from flowctx_core.routing import load_routes, sources
from flowctx_core.session import open_session

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  region:
    type: string
    source: {type: config, env_var: APP_REGION, default: eu-west}
  service_token:
    type: string
    source: {type: config, env_var: SERVICE_TOKEN}
agents:
  InterviewAgent: {variables: [interview_complete, region]}
  PlannerAgent: {variables: [interview_complete]}
"""

FLOW = """
steps:
  - {name: Validate, type: Action, starting: true}
  - {name: Approved, type: Action}
  - {name: Rejected, type: Action}
  - {name: Audit, type: Action}
paths:
  - {from: Validate, to: Audit, priority: 30, condition: "context.region === 'us-east'"}
  - {from: Validate, to: Approved, priority: 20, condition: "data.userApproval === true"}
  - {from: Validate, to: Rejected, priority: 10,
     condition: "flowContext.currentStepId === 'Validate' && flowContext.stepCount === 1"}
"""

GRAPH = """
transitions:
  - source: InterviewAgent
    transition_type: condition
    condition_type: context_expression
    condition: "${interview_complete} and ${region} == 'eu-west'"
    target: PlannerAgent
  - source: InterviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: service_token
    condition_value: let-me-in
    target: {type: TerminateTarget}
  - source: InterviewAgent
    transition_type: after_turn
    target: {type: RevertToUserTarget}
"""

HANDOFFS = """
handoff_rules:
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    handoff_type: after_work
"""


def _session(workspace, env=None):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/flow.yaml": FLOW,
            "workflows/W/transition_graph.yaml": GRAPH,
            "workflows/W/handoffs.yaml": HANDOFFS,
        }
    )
    # the runtime reads APP_REGION only (a declared env var's default is never used)
    return open_session(root, env={"APP_REGION": "eu-west", **(env or {})})


def test_sources_list_steps_then_agents(workspace):
    session = _session(workspace)
    routes = load_routes(session.load("W"))
    assert sources(routes) == ["Validate", "Approved", "Rejected", "Audit", "InterviewAgent"]


def test_unknown_source_has_no_decision(workspace):
    assert _session(workspace).decide("W", "Nobody") == []


def test_flow_context_defaults_to_resolved_variables_and_the_step_just_run(workspace):
    session = _session(workspace)
    (decision,) = session.decide("W", "Validate")
    # region resolves to its default eu-west, so the Audit path is false; flowContext says
    # Validate just ran as step 1
    assert [c.outcome for c in decision.candidates] == ["false", "false", "true"]
    assert decision.winner.target == "Rejected"
    (approved,) = session.decide("W", "Validate", data={"userApproval": True})
    assert approved.winner.target == "Approved"
    (audit,) = session.decide("W", "Validate", context_overrides={"region": "us-east"})
    assert audit.winner.target == "Audit"
    (later,) = session.decide("W", "Validate", flow_context={"stepCount": 4})
    assert later.candidates[2].outcome == "false"
    # stepCount follows the completed steps the user gives
    (third,) = session.decide(
        "W", "Validate", flow_context={"completedSteps": ["A", "B", "Validate"]}
    )
    assert third.candidates[2].outcome == "false"
    (first,) = session.decide("W", "Validate", flow_context={"completedSteps": ["Validate"]})
    assert first.candidates[2].outcome == "true"


def test_env_overrides_reach_the_resolved_context(workspace):
    session = _session(workspace)
    (decision,) = session.decide("W", "Validate", env_overrides={"APP_REGION": "us-east"})
    assert decision.winner.target == "Audit"


def test_one_decision_per_mozaiks_file_with_rules(workspace):
    session = _session(workspace)
    graph, handoffs = session.decide(
        "W", "InterviewAgent", context_overrides={"interview_complete": True}
    )
    assert graph.kind == "transition_graph" and graph.winner.target == "PlannerAgent"
    # mozaiks 0.2.0 never opens handoffs.yaml: its decision is listed, marked, and routes nothing
    assert handoffs.kind == "handoffs" and handoffs.winner is None and not handoffs.ended
    assert (
        handoffs.unread
        == "runtime mozaiks-0.2.0 never reads handoffs.yaml: its rules route nothing"
    )
    assert {c.outcome for c in handoffs.candidates} == {"skipped"}
    default = session.decide("W", "InterviewAgent")[0]
    assert default.winner.target == "user"
    # a runtime that read handoffs.yaml still routes on it
    older = open_session(session.root, env={"APP_REGION": "eu-west"}, runtime="mozaiks-2026-01")
    _, read = older.decide("W", "InterviewAgent", context_overrides={"interview_complete": True})
    assert read.winner.target == "PlannerAgent" and not read.unread


def test_user_context_and_secret_variables_are_masked(workspace):
    session = _session(workspace, env={"SERVICE_TOKEN": "tok-123456"})
    graph, _ = session.decide(
        "W",
        "InterviewAgent",
        context_overrides={"interview_complete": True, "region": "eu-west"},
    )
    text = json.dumps(graph.to_json())
    assert "tok-123456" not in text
    lines = [line for c in graph.candidates for line in c.explain_lines()]
    # a value typed for a variable that is not secret is the user's own input, shown back
    assert "  + ${region} == 'eu-west' -> True (got 'eu-west')" in lines
    # the token rule is skipped (rule 1 matched); force it to be evaluated
    graph, _ = session.decide("W", "InterviewAgent", context_overrides={"region": "x"})
    token = graph.candidates[1]
    assert token.explain_lines() == [
        "+ ${service_token} == 'let-me-in' -> false",
        "  + ${service_token} -> *** (secret: key looks secret)",
    ]
    assert "tok-123456" not in json.dumps(graph.to_json())
    assert "tok-123456" in json.dumps(graph.to_json(reveal=True))


def test_removed_context_variables_are_gone_from_every_scope(workspace):
    session = _session(workspace)
    # the flow reads context.region: removed, the Audit path's comparison is false
    (kept,) = session.decide("W", "Validate", env_overrides={"APP_REGION": "us-east"})
    assert kept.winner.target == "Audit"
    (gone,) = session.decide(
        "W",
        "Validate",
        env_overrides={"APP_REGION": "us-east"},
        context_removed=["region"],
    )
    assert gone.candidates[0].outcome == "false" and gone.winner.target == "Rejected"
    # transition_graph.yaml: the Mozaiks evaluator reads a removed variable as None
    graph, _ = session.decide(
        "W",
        "InterviewAgent",
        context_overrides={"interview_complete": True},
        context_removed=("region",),
    )
    first = graph.candidates[0]
    assert first.outcome == "false"
    assert "${region} is not in context: the Mozaiks evaluator reads it as None" in first.note
    assert graph.winner.target == "user"


def test_an_edit_wins_over_a_removal_of_the_same_variable(workspace):
    session = _session(workspace)
    graph, _ = session.decide(
        "W",
        "InterviewAgent",
        context_overrides={"interview_complete": True, "region": "eu-west"},
        context_removed=("region", "interview_complete"),
    )
    assert graph.winner.target == "PlannerAgent"


def test_removed_variables_read_as_none_in_runtime_shaped_rules(workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: context_expression
                context_expression: ${interview_complete} == None
              - source_agent: InterviewAgent
                target_agent: user
                transition_type: after_turn
            """,
        }
    )
    session = open_session(root, env={})
    (kept,) = session.decide("W", "InterviewAgent")
    assert kept.winner.target == "user"
    (removed,) = session.decide("W", "InterviewAgent", context_removed={"interview_complete"})
    assert removed.winner.target == "PlannerAgent"
    assert removed.winner.note.startswith(
        "${interview_complete} is not in context: the Mozaiks evaluator reads it as None"
    )
