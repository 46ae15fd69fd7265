"""MemberJunction getValidPaths over real flow.yaml files."""

from __future__ import annotations

import json

import pytest

from flowctx_core.expressions.pathcontext import build_path_context
from flowctx_core.model.workspace import load_workflow
from flowctx_core.routing import load_routes, route_flow
from flowctx_core.routing.model import FlowFile

CONTRACT = "definitions: {}\nagents: {}\n"


@pytest.fixture
def flow_file(workspace):
    def make(text: str) -> FlowFile:
        root = workspace(
            {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/flow.yaml": text}
        )
        routes = load_routes(load_workflow(root, "W"))
        assert routes.flow is not None, routes.diagnostics
        return routes.flow

    return make


def ctx(**kwargs):
    return build_path_context(**kwargs)


STEPS = """
steps:
  - {name: Start, type: Action, starting: true}
  - {name: A, type: Action}
  - {name: B, type: Prompt}
  - {name: C, type: Sub-Agent}
"""


def test_priority_descending_and_stable_for_ties(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 1}
  - {from: Start, to: B, priority: 5}
  - {from: Start, to: C, priority: 5}
  - {from: A, to: B, priority: 99}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    # B and C tie at 5: file order is kept; the path from A is not a candidate
    assert [c.target for c in decision.candidates] == ["B", "C", "A"]
    assert [c.priority for c in decision.candidates] == [5, 5, 1]
    assert decision.winner.target == "B"
    assert decision.kind == "flow" and decision.source == "Start" and not decision.ended


def test_empty_or_null_condition_is_always_valid(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 3, condition: "data.go === true"}
  - {from: Start, to: B, priority: 2, condition: ""}
  - {from: Start, to: C, priority: 1}
"""
    )
    decision = route_flow(flow, "Start", ctx(data={"go": False}))
    assert [c.outcome for c in decision.candidates] == ["false", "always", "always"]
    assert decision.winner.target == "B"
    assert "no condition" in decision.reason


def test_erroring_condition_is_skipped_and_reported(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 9, condition: "data.items.length > 0"}
  - {from: Start, to: B, priority: 1, condition: "true"}
"""
    )
    decision = route_flow(flow, "Start", ctx(data={}))
    first = decision.candidates[0]
    assert first.outcome == "error"
    assert first.error is not None and first.error_message
    assert "skipped" in first.note
    assert decision.winner.target == "B"
    assert "1 condition(s) failed and were skipped" in decision.reason


def test_first_valid_path_wins_and_later_paths_are_still_evaluated(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 3, condition: "payload.score > 90"}
  - {from: Start, to: B, priority: 2, condition: "payload.score > 50"}
  - {from: Start, to: C, priority: 1, condition: "payload.score > 10"}
"""
    )
    decision = route_flow(flow, "Start", ctx(payload={"score": 60}))
    assert [c.outcome for c in decision.candidates] == ["false", "true", "true"]
    assert decision.winner.target == "B"
    assert decision.winner.note == "chosen"
    assert decision.reason.startswith("first valid path, priority 2, condition is true")


def test_inactive_destination_is_passed_over(flow_file):
    flow = flow_file(
        """
steps:
  - {name: Start, type: Action, starting: true}
  - {name: Old, type: Action, status: Disabled}
  - {name: Later, type: Action, status: Pending}
  - {name: New, type: Action}
paths:
  - {from: Start, to: Old, priority: 3}
  - {from: Start, to: Later, priority: 2}
  - {from: Start, to: New, priority: 1}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    assert decision.winner.target == "New"
    assert "passed over inactive 'Old' (Disabled), 'Later' (Pending)" in decision.reason
    assert decision.candidates[0].note == "passed over: destination is Disabled"


def test_only_inactive_destinations_end_the_flow(flow_file):
    flow = flow_file(
        """
steps:
  - {name: Start, type: Action, starting: true}
  - {name: Old, type: Action, status: Disabled}
paths:
  - {from: Start, to: Old}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    assert decision.winner is None and decision.ended
    assert "inactive 'Old' (Disabled)" in decision.reason


def test_missing_destination_fails_the_run(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: Ghost, priority: 2}
  - {from: Start, to: A, priority: 1}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    assert decision.winner is None
    assert decision.failed and decision.ended
    assert "'Ghost', which does not exist: the run fails" in decision.reason


def test_no_valid_path_ends_the_flow_without_fallback(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, condition: "data.retryCount < 3"}
"""
    )
    decision = route_flow(flow, "Start", ctx(data={"retryCount": 3}))
    assert decision.winner is None and decision.ended and not decision.failed
    assert decision.reason == "no valid path: the flow ends"


def test_step_with_no_paths_ends_the_flow(flow_file):
    flow = flow_file(STEPS + "paths: []\n")
    decision = route_flow(flow, "C", ctx())
    assert decision.candidates == () and decision.ended
    assert decision.reason == "no path leaves 'C': the flow ends"


def test_prd_conditions_over_every_part_of_the_path_context(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 50, condition: "context.environment === 'production'"}
  - {from: Start, to: B, priority: 40,
     condition: "data.retryCount < 3 && payload.status === 'pending'"}
  - {from: Start, to: C, priority: 30, condition: "stepResult.step === 'Retry'"}
  - {from: Start, to: A, priority: 20, condition: "flowContext.completedSteps.includes('Start')"}
  - {from: Start, to: B, priority: 10, condition: "data.userApproval === true"}
"""
    )
    scope = ctx(
        payload={"status": "pending"},
        step_result={"step": "Retry"},
        flow_context={
            "currentStepId": "Start",
            "completedSteps": ["Start"],
            "executionPath": ["Start"],
            "stepCount": 1,
        },
        data={"retryCount": 2, "userApproval": True},
        context={"environment": "staging"},
    )
    decision = route_flow(flow, "Start", scope)
    assert [c.outcome for c in decision.candidates] == ["false", "true", "true", "true", "true"]
    assert decision.winner.priority == 40


def test_data_and_context_default_to_empty_objects(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 2, condition: "data.flag === true"}
  - {from: Start, to: B, priority: 1, condition: "Object.keys(context).length === 0"}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    assert [c.outcome for c in decision.candidates] == ["false", "true"]
    assert decision.winner.target == "B"


def test_invalid_path_entry_is_shown_in_place_as_an_error(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, priority: 5, conditon: "true"}
  - {from: Start, to: B, priority: 1}
"""
    )
    decision = route_flow(flow, "Start", ctx())
    bad = decision.candidates[0]
    assert bad.outcome == "error" and bad.target == "A"
    assert "unknown field 'conditon'" in bad.error_message
    assert decision.winner.target == "B"


def test_why_did_the_flow_go_to_rejected_when_user_approval_was_true(flow_file):
    """A higher-priority path to Rejected fires first; its explain says why."""
    flow = flow_file(
        """
agent: ApprovalFlow
steps:
  - {name: Validate, type: Action, starting: true}
  - {name: Approved, type: Action}
  - {name: Rejected, type: Action}
paths:
  - from: Validate
    to: Rejected
    priority: 20
    description: reject big orders without a manager
    condition: "payload.amount > 1000 && !data.managerApproved"
  - from: Validate
    to: Approved
    priority: 10
    condition: "data.userApproval === true"
"""
    )
    scope = ctx(payload={"amount": 5000}, data={"userApproval": True})
    decision = route_flow(flow, "Validate", scope)
    assert decision.winner.target == "Rejected"
    assert [c.outcome for c in decision.candidates] == ["true", "true"]
    # the Approved path held too, but priority 20 came first
    assert decision.candidates[1].target == "Approved"
    explained = decision.winner.explain_lines()
    assert explained == [
        "+ payload.amount > 1000 && !data.managerApproved -> true",
        "  + payload.amount > 1000 -> true (got 5000)",
        "  + !data.managerApproved -> true",
        "    + data.managerApproved -> undefined",
    ]
    assert "payload.amount > 1000" in decision.winner.condition
    tree = decision.to_json()["candidates"][0]["explain"]
    assert json.dumps(tree)  # serialisable as it is
    assert [c["display"] for c in tree["children"]] == ["true (got 5000)", "true"]


def test_context_values_are_masked_in_explain_unless_revealed(flow_file):
    flow = flow_file(
        STEPS
        + """
paths:
  - {from: Start, to: A, condition: "context.apiRegion === 'eu-west' && data.n > 1"}
"""
    )
    decision = route_flow(flow, "Start", ctx(data={"n": 2}, context={"apiRegion": "eu-west"}))
    shown = decision.winner.explain_lines()
    why = "(got *** (secret: context may hold API keys))"
    assert f"  + context.apiRegion === 'eu-west' -> true {why}" in shown
    assert "  + data.n > 1 -> true (got 2)" in shown
    masked = decision.to_json()["candidates"][0]["explain"]
    assert masked["children"][0]["display"] == f"true {why}"
    assert '\\"eu-west\\"' not in json.dumps(decision.to_json())
    revealed = decision.winner.explain_lines(reveal=True)
    assert "  + context.apiRegion === 'eu-west' -> true (got \"eu-west\")" in revealed
    unmasked = decision.to_json(reveal=True)["candidates"][0]["explain"]
    assert unmasked["children"][0]["display"] == 'true (got "eu-west")'
