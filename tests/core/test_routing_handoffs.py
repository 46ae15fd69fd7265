"""Legacy handoffs.yaml: pre-reply expressions, model-decided conditions, after_work."""

from __future__ import annotations

import pytest

from core.routing import load_routes, route_handoffs
from core.routing.model import HandoffsFile
from core.workspace import load_workflow

CONTRACT = "definitions: {}\nagents: {}\n"

RULES = """
handoff_rules:
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    handoff_type: condition
    condition: "When the user has answered every question"
    condition_type: string_llm
  - source_agent: InterviewAgent
    target_agent: ReviewAgent
    handoff_type: condition
    condition: "${plan_ready} == True"
    condition_scope: post
  - source_agent: InterviewAgent
    target_agent: user
    handoff_type: after_work
  - source_agent: InterviewAgent
    target_agent: terminate
    handoff_type: condition
    condition_type: expression
    condition: "${cancelled} == True"
    condition_scope: pre
"""


@pytest.fixture
def handoffs(workspace):
    def make(text: str = RULES) -> HandoffsFile:
        root = workspace(
            {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/handoffs.yaml": text}
        )
        routes = load_routes(load_workflow(root, "W"))
        assert routes.handoffs is not None, routes.diagnostics
        return routes.handoffs

    return make


def test_pre_expression_is_checked_first_and_wins(handoffs):
    decision = route_handoffs(handoffs(), "InterviewAgent", {"cancelled": True, "plan_ready": True})
    # evaluation order: pre expression, then the model's choices, then post, then after_work
    assert [c.index for c in decision.candidates] == [3, 0, 1, 2]
    assert [c.outcome for c in decision.candidates] == ["true", "skipped", "skipped", "skipped"]
    assert decision.winner.target == "terminate"
    assert decision.ended
    assert decision.reason == "handoff_rules[3] holds before the LLM runs"
    assert decision.winner.note.startswith("scope pre: checked before the LLM runs")


def test_llm_condition_is_listed_not_evaluated(handoffs):
    decision = route_handoffs(
        handoffs(), "InterviewAgent", {"cancelled": False, "plan_ready": True}
    )
    assert [c.outcome for c in decision.candidates] == ["false", "not evaluable", "true", "skipped"]
    llm = decision.candidates[1]
    assert llm.dialect is None and llm.explain is None
    assert llm.note == "decided by the model: cannot be evaluated"
    assert decision.winner.target == "ReviewAgent"
    assert decision.reason == (
        "handoff_rules[1] holds after the agent's work, unless the model first hands off to "
        "PlannerAgent"
    )


def test_after_work_applies_when_nothing_else_holds(handoffs):
    decision = route_handoffs(
        handoffs(), "InterviewAgent", {"cancelled": False, "plan_ready": False}
    )
    assert decision.winner.target == "user"
    assert decision.winner.outcome == "always"
    assert decision.reason.startswith("handoff_rules[2] (after_work) applies")


def test_dollar_brace_makes_an_expression_without_a_type(handoffs):
    decision = route_handoffs(
        handoffs(), "InterviewAgent", {"cancelled": False, "plan_ready": True}
    )
    untyped = decision.candidates[2]
    assert untyped.index == 1 and untyped.dialect == "ag2"
    # every name is secret by default, but a boolean only says whether the rule matched
    assert untyped.explain_lines() == ["+ ${plan_ready} == True -> True (got True)"]


def test_missing_variable_is_an_error_that_does_not_hold(handoffs):
    decision = route_handoffs(handoffs(), "InterviewAgent", {"plan_ready": False})
    pre = decision.candidates[0]
    assert pre.outcome == "error"
    assert pre.error_message == "Missing context variable: 'cancelled'"
    assert decision.winner.target == "user"


def test_no_rule_applies_names_the_model_choices(handoffs):
    h = handoffs(
        """
handoff_rules:
  - source_agent: A
    target_agent: B
    handoff_type: condition
    condition: "When the user says stop"
    condition_type: llm
"""
    )
    decision = route_handoffs(h, "A", {})
    assert decision.winner is None
    assert decision.reason == "no handoff rule applies unless the model hands off to B"
    assert not decision.ended
