"""Mozaiks transition_graph.yaml: ordered rules, first match wins, else terminate."""

from __future__ import annotations

import pytest

from flowctx_core.model.workspace import load_workflow
from flowctx_core.routing import json_equal, load_routes, route_transitions
from flowctx_core.routing.model import TransitionGraphFile

CONTRACT = "definitions: {}\nagents: {}\n"


@pytest.fixture
def graph(workspace):
    def make(text: str) -> TransitionGraphFile:
        root = workspace(
            {
                "workflows/W/context_variables.yaml": CONTRACT,
                "workflows/W/transition_graph.yaml": text,
            }
        )
        routes = load_routes(load_workflow(root, "W"))
        assert routes.transitions is not None, routes.diagnostics
        return routes.transitions

    return make


RULES = """
transitions:
  - source: InterviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: true
    target: {type: AgentTarget, agent: PlannerAgent}
  - source: InterviewAgent
    transition_type: condition
    condition_type: tool_called
    tool_name: submit_plan
    target: ReviewAgent
  - source: InterviewAgent
    transition_type: condition
    condition_type: context_expression
    condition: "${attempts} >= 3 and len(${answers}) == 0"
    target: {type: TerminateTarget}
  - source: PlannerAgent
    transition_type: after_turn
    target: {type: RevertToUserTarget}
  - source: InterviewAgent
    transition_type: after_turn
    target: {type: StayTarget}
"""

BASE = {"interview_complete": False, "attempts": 0, "answers": ["a"]}


def test_context_equals_match_wins_and_later_rules_are_skipped(graph):
    decision = route_transitions(
        graph(RULES), "InterviewAgent", {**BASE, "interview_complete": True}
    )
    assert decision.kind == "transition_graph"
    assert decision.winner.target == "PlannerAgent"
    assert [c.outcome for c in decision.candidates] == ["true", "skipped", "skipped", "skipped"]
    assert decision.reason == "rule 1 (line 2) is the first rule that matches: its condition holds"
    assert not decision.ended


def test_context_equals_is_type_aware(graph):
    # 1 is not True in JSON: a runtime comparing values must not match
    decision = route_transitions(graph(RULES), "InterviewAgent", {**BASE, "interview_complete": 1})
    assert decision.candidates[0].outcome == "false"
    assert json_equal(1, 1.0) and not json_equal(True, 1) and not json_equal(0, False)
    assert json_equal({"a": [1, True]}, {"a": [1.0, True]})
    assert not json_equal({"a": [1]}, {"a": [True]})
    assert not json_equal("1", 1) and json_equal(None, None)


def test_context_equals_missing_key_reads_as_none(graph):
    context = {k: v for k, v in BASE.items() if k != "interview_complete"}
    decision = route_transitions(graph(RULES), "InterviewAgent", context)
    first = decision.candidates[0]
    assert first.outcome == "false"
    assert first.note == "'interview_complete' is not in context (reads as None)"


def test_tool_called_holds_when_the_scenario_called_it(graph):
    g = graph(RULES)
    called = route_transitions(g, "InterviewAgent", BASE, tools_called=("submit_plan",))
    assert called.winner.target == "ReviewAgent"
    assert called.winner.note.startswith("tools called in this scenario: submit_plan")
    not_called = route_transitions(g, "InterviewAgent", BASE, tools_called=("other",))
    assert not_called.candidates[1].outcome == "false"


def test_context_expression_in_the_mozaiks_dialect(graph):
    decision = route_transitions(
        graph(RULES), "InterviewAgent", {**BASE, "attempts": 3, "answers": []}
    )
    assert [c.outcome for c in decision.candidates[:3]] == ["false", "false", "true"]
    assert decision.winner.target == "terminate"
    assert decision.ended
    assert decision.winner.dialect == "mozaiks"


def test_after_turn_always_holds_as_a_last_resort(graph):
    decision = route_transitions(graph(RULES), "InterviewAgent", BASE)
    assert [c.outcome for c in decision.candidates] == ["false", "false", "false", "always"]
    # StayTarget keeps the same agent speaking
    assert decision.winner.target == "InterviewAgent"
    assert decision.reason == (
        "rule 4 (line 21) is the first rule that matches: after_turn always holds"
    )
    user = route_transitions(graph(RULES), "PlannerAgent", BASE)
    assert user.winner.target == "user"


def test_expression_error_is_reported_and_does_not_hold(graph):
    context = {"interview_complete": False, "answers": []}  # attempts missing: None >= 3
    decision = route_transitions(graph(RULES), "InterviewAgent", context)
    third = decision.candidates[2]
    assert third.outcome == "error"
    assert third.error_message == "'>=' not supported between instances of 'NoneType' and 'int'"
    assert "${attempts} is not in context: the Mozaiks evaluator reads it as None" in third.note
    assert decision.winner.outcome == "always"


def test_nothing_matched_terminates(graph):
    g = graph(
        """
transitions:
  - source: A
    transition_type: condition
    condition_type: context_equals
    condition_key: ready
    condition_value: yes please
    target: B
"""
    )
    decision = route_transitions(g, "A", {"ready": "no"})
    assert decision.winner is None
    assert decision.reason == "no_transition_matched"
    assert decision.ended


def test_context_values_masked_unless_revealed(graph):
    g = graph(
        """
transitions:
  - source: A
    transition_type: condition
    condition_type: context_equals
    condition_key: stage
    condition_value: done
    target: B
  - source: A
    transition_type: condition
    condition_type: context_expression
    condition: "${region} == 'eu-north'"
    target: C
"""
    )
    context = {"stage": "drafting-secretly", "region": "eu-north"}
    decision = route_transitions(g, "A", context, secret_names={"stage", "region"})
    lines = [line for c in decision.candidates for line in c.explain_lines()]
    assert "drafting-secretly" not in "\n".join(lines)
    assert "  + ${stage} -> *** (secret: marked secret)" in lines
    assert "+ ${region} == 'eu-north' -> True (got *** (secret: marked secret))" in lines
    revealed = [line for c in decision.candidates for line in c.explain_lines(reveal=True)]
    assert "  + ${stage} -> 'drafting-secretly'" in revealed
    # names not marked secret are shown
    shown = route_transitions(g, "A", context, secret_names=set())
    assert "  + ${stage} -> 'drafting-secretly'" in shown.candidates[0].explain_lines()


# --- the transition_rules: shape, with the Mozaiks network runtime's semantics ---------------

REAL = """
transition_rules:
  - source_agent: user
    target_agent: InterviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: false
    transition_target: AgentTarget
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${interview_complete} == True and len(${answers}) > 0"
    transition_target: AgentTarget
  - source_agent: InterviewAgent
    target_agent: terminate
    transition_type: condition
    condition_type: tool_called
    tool_name: give_up
    transition_target: TerminateTarget
    termination_reason: workflow_failed
  - source_agent: InterviewAgent
    target_agent: user
    transition_type: after_turn
    transition_target: RevertToUserTarget
  - source_agent: PlannerAgent
    target_agent: ReviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: review_requested
"""


def test_real_rules_first_match_wins_with_their_own_key_in_the_reason(graph):
    g = graph(REAL)
    done = route_transitions(g, "InterviewAgent", {"interview_complete": True, "answers": ["a"]})
    assert [c.outcome for c in done.candidates] == ["true", "skipped", "skipped"]
    assert done.winner.target == "PlannerAgent" and not done.ended
    assert done.reason == ("rule 1 (line 9) is the first rule that matches: its condition holds")
    # after_turn to the user pauses the run for the human; it does not end it
    waiting = route_transitions(g, "InterviewAgent", {"interview_complete": False, "answers": []})
    assert [c.outcome for c in waiting.candidates] == ["false", "false", "always"]
    assert waiting.winner.target == "user" and not waiting.ended


def test_real_terminate_names_the_termination_reason(graph):
    decision = route_transitions(
        graph(REAL),
        "InterviewAgent",
        {"interview_complete": False, "answers": []},
        tools_called=("give_up",),
    )
    assert decision.winner.target == "terminate" and decision.ended
    assert decision.reason == (
        "rule 2 (line 15) is the first rule that matches: its condition holds; "
        "the run ends (workflow_failed)"
    )


def test_real_context_equals_is_the_runtimes_python_equality(graph):
    # AG2's ContextEquals is context.get(key) == value: 0 == False holds there
    decision = route_transitions(graph(REAL), "user", {"interview_complete": 0})
    first = decision.candidates[0]
    assert first.outcome == "true" and decision.winner.target == "InterviewAgent"
    assert first.note.startswith(
        "the runtime compares with Python ==, where True == 1 and False == 0"
    )
    # the brief's shape keeps JSON equality: the same comparison does not hold there
    brief = route_transitions(graph(RULES), "InterviewAgent", {**BASE, "interview_complete": 1})
    assert brief.candidates[0].outcome == "false"


def test_real_missing_values_read_as_none(graph):
    g = graph(REAL)
    # no condition_value: the rule matches while the key is absent (None)
    review = route_transitions(g, "PlannerAgent", {})
    assert review.winner.target == "ReviewAgent"
    assert review.winner.note.startswith("'review_requested' is not in context (reads as None)")
    # an expression reads an absent variable as None instead of failing
    decision = route_transitions(g, "InterviewAgent", {"answers": ["a"]})
    expression = decision.candidates[0]
    assert expression.outcome == "false" and expression.error is None
    assert expression.note == (
        "${interview_complete} is not in context: the Mozaiks evaluator reads it as None"
    )
    assert "  + ${interview_complete} == True -> False (got None)" in (
        expression.explain_lines(reveal=True)
    )
    assert decision.winner.target == "user"


def test_only_user_is_the_human_in_real_rules(graph):
    g = graph(REAL)
    for spelling in ("user", "User", " USER "):
        decision = route_transitions(g, spelling, {"interview_complete": False})
        assert decision.winner.target == "InterviewAgent", spelling
    # mozaiks 0.2.0 knows no other alias: UserProxy is an agent id no rule leaves
    for spelling in ("UserProxy", "user_proxy"):
        decision = route_transitions(g, spelling, {"interview_complete": False})
        assert decision.winner is None and decision.candidates == (), spelling


def test_real_rule_the_runtime_refuses_shows_as_an_error_and_routing_goes_on(graph):
    g = graph(
        """
transition_rules:
  - source_agent: A
    target_agent: B
    transition_type: after_turn
    condition_key: ready
  - source_agent: A
    target_agent: C
    transition_type: after_turn
"""
    )
    decision = route_transitions(g, "A", {"ready": True})
    broken, fallback = decision.candidates
    assert broken.outcome == "error"
    assert broken.error_message == (
        "an after_turn rule must not declare condition fields (condition_key); "
        "the runtime refuses it"
    )
    assert decision.winner is fallback and fallback.target == "C"


NOT_TEXT = """
transition_rules:
  - source_agent: PlannerAgent
    target_agent: ReviewAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: yes
  - source_agent: ReviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: 1
    condition_value: 2
  - source_agent: ReviewAgent
    target_agent: user
    transition_type: condition
    condition_type: tool_called
    tool_name: 7
"""


def test_real_fields_that_yaml_reads_as_other_values_are_their_text(graph):
    # the runtime reads context_expression, condition_key and tool_name with str(): `yes` (a
    # YAML boolean) is the expression True, `1` the key "1", `7` the tool "7"
    g = graph(NOT_TEXT)
    assert [r.model.condition for r in g.rules][:1] == ["True"]
    assert route_transitions(g, "PlannerAgent", {}).winner.target == "ReviewAgent"
    assert route_transitions(g, "ReviewAgent", {"1": 2}).winner.target == "PlannerAgent"
    called = route_transitions(g, "ReviewAgent", {}, tools_called=("7",))
    assert called.winner.target == "user"


NULL_TEXT = """
transition_rules:
  - source_agent: PlannerAgent
    target_agent: ReviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: "null"
    condition_value: 1
  - source_agent: ReviewAgent
    target_agent: PlannerAgent
    transition_type: after_turn
    transition_target: false
"""


def test_real_null_text_and_false_targets_read_as_the_graph_compiler_reads_them(graph):
    from flowctx_core.routing.model import rule_problems

    g = graph(NULL_TEXT)
    # the runtime's model takes the text null, its graph compiler reads it as no key
    (problem,) = rule_problems(g.rules[0].model)
    assert problem[0] == "condition_key" and "reads 'null' as no value" in problem[1]
    # `transition_target: false` declares no target (str(value or "") is empty)
    assert g.rules[1].model.declared_target is None and rule_problems(g.rules[1].model) == []


def test_real_termination_reason_needs_terminate_in_lower_case(graph):
    from flowctx_core.routing.model import rule_problems
    from flowctx_core.routing.model.transition_graph import rule_fixes

    text = """
transition_rules:
  - source_agent: PlannerAgent
    target_agent: Terminate
    transition_type: after_turn
    termination_reason: workflow_failed
"""
    rule = graph(text).rules[0].model
    # `Terminate` ends a run, but the runtime's model compares the text with a reason given
    assert rule.target.type == "TerminateTarget"
    ((key, said),) = rule_problems(rule)
    assert key == "termination_reason" and "'Terminate' is refused" in said
    fix, field = rule_fixes(rule)["termination_reason"]
    assert (fix.old, fix.new, field) == ("Terminate", "terminate", "target_agent")
