"""Legacy handoffs.yaml: pre-reply expressions, model-decided conditions, after_work."""

from __future__ import annotations

import pytest

from flowctx_core.model.workspace import load_workflow
from flowctx_core.routing import load_routes, route_handoffs
from flowctx_core.routing.model import HandoffsFile

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
    assert decision.reason == "rule 1 holds before the LLM runs"
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
        "rule 3 holds after the agent's work, unless the model first hands off to PlannerAgent"
    )


def test_after_work_applies_when_nothing_else_holds(handoffs):
    decision = route_handoffs(
        handoffs(), "InterviewAgent", {"cancelled": False, "plan_ready": False}
    )
    assert decision.winner.target == "user"
    assert decision.winner.outcome == "always"
    assert decision.reason.startswith("rule 4 (after_work) applies")


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


# --- what real Mozaiks handoffs.yaml files write, as the legacy HandoffManager reads it ------

# the shape of factory_app/app/workflows/AgentGenerator/handoffs.yaml: every key spelled out,
# explicit nulls, an informational transition_target
REAL = """
handoff_rules:
- source_agent: user
  target_agent: InterviewAgent
  handoff_type: condition
  condition_type: expression
  condition_scope: null
  condition: ${interview_complete} == false
  transition_target: AgentTarget
- source_agent: user
  target_agent: ContextVariablesAgent
  handoff_type: condition
  condition_type: Context_Expression
  condition_scope: Before_Reply
  condition: ${action_plan_acceptance} == "accepted"
  transition_target: AgentTarget
- source_agent: user
  target_agent: PatternAgent
  handoff_type: condition
  condition_type: string_llm
  condition_scope: null
  condition: When the user provides feedback about the plan.
  transition_target: AgentTarget
- source_agent: user
  target_agent: User
  handoff_type: after_work
  condition_type: null
  condition_scope: null
  condition: null
  transition_target: RevertToUserTarget
- source_agent: user
  target_agent: END
  handoff_type: after_work
  condition_type: null
  condition_scope: null
  condition: null
  transition_target: TerminateTarget
"""


def test_real_handoffs_load_clean(workspace):
    root = workspace(
        {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/handoffs.yaml": REAL}
    )
    routes = load_routes(load_workflow(root, "W"))
    assert routes.diagnostics == ()
    second = routes.handoffs.rules[1].model
    # aliases the runtime accepts, read case-insensitively
    assert second.is_expression and second.is_pre
    assert routes.handoffs.rules[4].model.target_label == "terminate"


def test_real_handoffs_route_with_the_runtimes_literals_and_aliases(handoffs):
    h = handoffs(REAL)
    decision = route_handoffs(
        h, "user", {"interview_complete": True, "action_plan_acceptance": "accepted"}
    )
    # before_reply is a pre scope: checked first; 'false' reads as False
    assert [c.index for c in decision.candidates] == [1, 2, 0, 3, 4]
    assert decision.winner.target == "ContextVariablesAgent"
    assert decision.reason == "rule 1 holds before the LLM runs"
    interview = route_handoffs(
        h, "user", {"interview_complete": False, "action_plan_acceptance": "pending"}
    )
    assert [c.outcome for c in interview.candidates[:3]] == ["false", "not evaluable", "true"]
    assert interview.winner.target == "InterviewAgent"
    assert interview.candidates[2].error is None


def test_only_the_last_after_work_counts(handoffs):
    decision = route_handoffs(
        handoffs(REAL), "user", {"interview_complete": True, "action_plan_acceptance": "no"}
    )
    assert [c.outcome for c in decision.candidates] == [
        "false",
        "not evaluable",
        "false",
        "skipped",
        "always",
    ]
    overridden = decision.candidates[3]
    assert overridden.target == "user"
    assert overridden.note == "overridden: the runtime keeps only the agent's last after_work rule"
    # END is one of the runtime's spellings of terminate
    assert decision.winner.target == "terminate" and decision.ended
    assert decision.reason == (
        "rule 5 (after_work) applies, unless the model first hands off to PatternAgent"
    )


def test_literals_are_rewritten_inside_strings_and_names_too(handoffs):
    # HandoffManager._normalize_expression_literals rewrites every word-bounded
    # true/false/null, whatever surrounds it, before AG2 sees the text
    h = handoffs(
        """
handoff_rules:
  - source_agent: A
    target_agent: B
    handoff_type: condition
    condition: "  ${mode} == 'null' and ${flag} != NULL  "
  - source_agent: A
    target_agent: C
    handoff_type: condition
    condition: ${true} and ${is_true}
"""
    )
    # the string literal now reads 'None', so a mode of "null" no longer matches
    missed = route_handoffs(h, "A", {"mode": "null", "flag": True, "True": False, "is_true": 1})
    assert missed.candidates[0].outcome == "false"
    assert "rewrites 'null' to 'None' inside the string 'null' too" in missed.candidates[0].note
    assert route_handoffs(h, "A", {"mode": "None", "flag": True}).winner.target == "B"
    # ${true} is looked up as the variable "True"; ${is_true} has no word boundary
    named = route_handoffs(h, "A", {"mode": "x", "flag": 1, "True": True, "is_true": True})
    assert named.winner.target == "C"
    assert "inside the variable name ${true} too" in named.candidates[1].note
    lowercase = route_handoffs(h, "A", {"mode": "x", "flag": 1, "true": True, "is_true": True})
    assert lowercase.candidates[1].error_message == "Missing context variable: 'True'"
