"""State triggers: each trigger type, matching rules, changes with their location, ui_hidden."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.runtime.triggers import Message, TriggerResult, simulate
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - type: agent_text
          agent: InterviewAgent
          match: {equals: INTERVIEW_COMPLETE}
          ui_hidden: true
  plan_approved:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: user_text, match: {contains: approve the plan}}
  selected_pattern_id:
    type: string
    source:
      type: state
      triggers:
        - {type: agent_text, agent: PatternAgent, match: {regex: 'PATTERN:\\s*([a-z_]+)'}}
  saw_error:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: PatternAgent, match: {regex: 'errors? found'}}
  deploy_choice:
    type: string
    source:
      type: state
      default: preview
      triggers:
        - {type: ui_response, tool: confirm_deploy, response_key: decision.target, ui_hidden: true}
  last_card:
    type: object
    source:
      type: state
      triggers:
        - {type: ui_response, tool: show_card}
  mood:
    type: string
    source:
      type: state
      default: calm
      triggers:
        - {type: user_text, match: {equals: stop, contains: angry}}
        - {type: user_text, match: {contains: stop}}
agents:
  InterviewAgent: {variables: [interview_complete]}
  PatternAgent: {variables: [selected_pattern_id]}
"""


@pytest.fixture
def wf(workspace: WriteWorkspace) -> WorkflowSnapshot:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    snap = open_session(root, env={}).load("W")
    assert snap.diagnostics == (), [d.format() for d in snap.diagnostics]
    return snap


STATE: dict[str, Any] = {
    "interview_complete": False,
    "plan_approved": False,
    "selected_pattern_id": None,
    "saw_error": False,
    "deploy_choice": "preview",
    "last_card": None,
    "mood": "calm",
}


def _changes(result: TriggerResult) -> dict[str, Any]:
    return {c.variable: c.new for c in result.changes}


@pytest.mark.parametrize(
    "text", ["INTERVIEW_COMPLETE", "interview_complete", "  Interview_Complete \n"]
)
def test_agent_text_equals_ignores_case_and_surrounding_space(
    wf: WorkflowSnapshot, text: str
) -> None:
    result = simulate(wf, STATE, Message("agent", text, agent="InterviewAgent"))
    assert _changes(result) == {"interview_complete": True}
    assert result.state["interview_complete"] is True
    assert result.state["plan_approved"] is False


def test_equals_is_not_contains(wf: WorkflowSnapshot) -> None:
    msg = Message("agent", "INTERVIEW_COMPLETE now", agent="InterviewAgent")
    result = simulate(wf, STATE, msg)
    assert result.changes == ()
    outcome = {c.variable: c.outcome for c in result.checked}
    assert outcome["interview_complete"] == "no match"


def test_agent_text_only_listens_to_its_agent(wf: WorkflowSnapshot) -> None:
    result = simulate(wf, STATE, Message("agent", "INTERVIEW_COMPLETE", agent="PlannerAgent"))
    assert result.changes == ()
    assert {c.variable: c.outcome for c in result.checked}["interview_complete"] == "other sender"
    user = simulate(wf, STATE, Message("user", "INTERVIEW_COMPLETE"))
    assert "interview_complete" not in _changes(user)


def test_regex_search_ignores_case_and_sets_the_first_group(workspace: WriteWorkspace) -> None:
    # the documented capture; mozaiks 0.2.0 sets true (derived.py builds value=True)
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    msg = Message("agent", "I suggest pattern: Feedback_Loop here", agent="PatternAgent")
    spec = open_session(root, env={}, runtime="spec").load("W")
    assert _changes(simulate(spec, STATE, msg)) == {"selected_pattern_id": "Feedback_Loop"}
    shipped = open_session(root, env={}).load("W")
    assert _changes(simulate(shipped, STATE, msg)) == {"selected_pattern_id": True}


def test_a_regex_without_groups_sets_true(wf: WorkflowSnapshot) -> None:
    msg = Message("agent", "2 ERRORS FOUND in the plan", agent="PatternAgent")
    result = simulate(wf, STATE, msg)
    assert _changes(result) == {"saw_error": True}
    assert result.changes[0].trigger == "agent_text from PatternAgent, regex /errors? found/"


def test_user_text_contains_ignores_case(wf: WorkflowSnapshot) -> None:
    result = simulate(wf, STATE, Message("user", "OK, I Approve The Plan!"))
    assert _changes(result) == {"plan_approved": True}
    assert result.hidden == ()
    agent = simulate(wf, STATE, Message("agent", "approve the plan", agent="InterviewAgent"))
    assert "plan_approved" not in _changes(agent)


def test_a_match_tries_equals_then_contains(wf: WorkflowSnapshot) -> None:
    assert _changes(simulate(wf, STATE, Message("user", "so angry")))["mood"] is True


def test_the_first_firing_trigger_of_a_variable_wins(wf: WorkflowSnapshot) -> None:
    result = simulate(wf, STATE, Message("user", "STOP"))
    assert [c.trigger for c in result.changes] == ["user_text, equals 'stop' or contains 'angry'"]
    mood = [c.outcome for c in result.checked if c.variable == "mood"]
    assert mood == ["fired", "shadowed"]


def test_ui_response_sets_the_value_at_the_dotted_key(wf: WorkflowSnapshot) -> None:
    response = {"decision": {"target": "production", "by": "dana"}}
    result = simulate(wf, STATE, Message("ui_response", tool="confirm_deploy", response=response))
    assert [(c.variable, c.old, c.new) for c in result.changes] == [
        ("deploy_choice", "preview", "production")
    ]
    assert result.hidden == ("confirm_deploy response",)


def test_ui_response_of_another_tool_or_without_the_key_changes_nothing(
    wf: WorkflowSnapshot,
) -> None:
    other = simulate(wf, STATE, Message("ui_response", tool="other", response={"decision": {}}))
    assert other.changes == ()
    missing = simulate(wf, STATE, Message("ui_response", tool="confirm_deploy", response={}))
    assert missing.changes == ()
    outcome = {c.variable: c.outcome for c in missing.checked}
    assert outcome["deploy_choice"] == "missing key"


def test_ui_response_without_a_key_sets_the_whole_response(wf: WorkflowSnapshot) -> None:
    card = {"title": "Hi", "buttons": ["ok"]}
    result = simulate(wf, STATE, Message("ui_response", tool="show_card", response=card))
    assert _changes(result) == {"last_card": card}


def test_a_change_names_its_trigger_and_where_it_is_declared(wf: WorkflowSnapshot) -> None:
    result = simulate(wf, STATE, Message("agent", "interview_complete", agent="InterviewAgent"))
    (change,) = result.changes
    assert change.variable == "interview_complete"
    assert (change.old, change.new) == (False, True)
    assert change.trigger == (
        "agent_text from InterviewAgent, equals 'INTERVIEW_COMPLETE', ui_hidden"
    )
    assert change.loc == "workflows/W/context_variables.yaml:8:11"
    assert change.ui_hidden
    assert result.hidden == ("interview_complete",)


def test_state_starts_from_the_matrix(workspace: WriteWorkspace) -> None:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    session = open_session(root, env={})
    matrix = session.matrix("W", launch={"deploy_choice": "staging"})
    response = {"decision": {"target": "production"}}
    result = simulate(
        session.load("W"),
        matrix.values,
        Message("ui_response", tool="confirm_deploy", response=response),
    )
    assert [(c.old, c.new) for c in result.changes] == [("staging", "production")]
    assert result.state["database_schema_available"] is False
