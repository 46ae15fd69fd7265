"""Loading flow.yaml, transition_graph.yaml and handoffs.yaml: models and located problems."""

from __future__ import annotations

from flowctx_core.model.workspace import load_workflow
from flowctx_core.routing import load_routes

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source: {type: state, default: false}
agents:
  InterviewAgent: {variables: [interview_complete]}
  PlannerAgent: {variables: []}
"""


def _routes(workspace, files: dict[str, str]):
    tree = {"workflows/W/context_variables.yaml": CONTRACT}
    tree.update({f"workflows/W/{name}": text for name, text in files.items()})
    root = workspace(tree)
    return load_routes(load_workflow(root, "W"))


def _messages(routes) -> list[str]:
    return [d.format() for d in routes.diagnostics]


def test_no_routing_files_is_empty(workspace):
    routes = _routes(workspace, {})
    assert routes.empty
    assert routes.diagnostics == ()


def test_flow_loads_steps_and_paths_with_defaults(workspace):
    routes = _routes(
        workspace,
        {
            "flow.yaml": """
            agent: ApprovalFlow
            steps:
              - {name: Validate, type: Action, starting: true}
              - {name: Approved, type: Prompt, status: Disabled}
            paths:
              - from: Validate
                to: Approved
                condition: "data.userApproval === true"
            """
        },
    )
    flow = routes.flow
    assert flow is not None and routes.diagnostics == ()
    assert flow.agent == "ApprovalFlow"
    assert flow.step_names == ("Validate", "Approved")
    assert flow.step("Approved").status == "Disabled"
    assert flow.step("Validate").status == "Active"
    path = flow.paths[0].model
    assert (path.from_, path.to, path.priority) == ("Validate", "Approved", 0)
    assert flow.paths[0].loc.file == "workflows/W/flow.yaml"
    assert flow.paths[0].loc.line == 6


def test_flow_unknown_fields_bad_enums_and_types_are_located(workspace):
    routes = _routes(
        workspace,
        {
            "flow.yaml": """
            steps:
              - name: Validate
                type: Actoin
                starting: true
              - {name: Done, type: Action, stauts: Active}
            paths:
              - {from: Validate, to: Done, priority: "10"}
              - {from: Validate, to: Done, condtion: "x"}
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/flow.yaml:3:11: steps[0].type: 'Actoin' is not allowed "
        "(did you mean 'Action'?); expected 'Action', 'Sub-Agent', 'Prompt', 'ForEach' or 'While'",
        "workflows/W/flow.yaml:5:32: steps[1].stauts: unknown field 'stauts' "
        "(did you mean 'status'?)",
        "workflows/W/flow.yaml:7:42: paths[0].priority: Input should be a valid integer",
        "workflows/W/flow.yaml:8:32: paths[1].condtion: unknown field 'condtion' "
        "(did you mean 'condition'?)",
    ]
    # the bad entries stay in place (as invalid) so routing can show them
    assert [e.valid for e in routes.flow.paths] == [False, False]


def test_flow_duplicate_step_names_reported(workspace):
    routes = _routes(
        workspace,
        {
            "flow.yaml": """
            steps:
              - {name: A, type: Action, starting: true}
              - {name: A, type: Prompt}
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/flow.yaml:3:12: steps[1].name: duplicate step name 'A' (first at line 2); "
        "paths could not tell the two apart"
    ]


def test_yaml_syntax_error_is_located_and_file_is_skipped(workspace):
    routes = _routes(
        workspace,
        {"transition_graph.yaml": "transitions:\n  - source: [A\n    target: B\n"},
    )
    assert routes.transitions is None
    (msg,) = _messages(routes)
    # at the '[' left open, not at the next line where the parser gave up
    assert msg.startswith("workflows/W/transition_graph.yaml:2:13: YAML syntax error: this '['")
    assert "YAML syntax error" in msg


def test_transition_rules_validated_each_with_did_you_mean(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transitions:
              - source: InterviewAgent
                transition_type: condition
                condition_type: context_equal
                condition_key: interview_complete
                condition_value: true
                target: {type: AgentTarget, agnet: PlannerAgent}
              - source: InterviewAgent
                transition_type: condition
                condition_type: context_equals
                target: {type: AgentTarget}
              - source: InterviewAgent
                transition_type: after_turn
                target: PlannerAgent
            transitoins: []
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:4:21: transitions[0].condition_type: "
        "'context_equal' is not allowed (did you mean 'context_equals'?); "
        "expected 'context_equals', 'context_expression' or 'tool_called'",
        "workflows/W/transition_graph.yaml:7:33: transitions[0].target.agnet: "
        "unknown field 'agnet' (did you mean 'agent'?)",
        "workflows/W/transition_graph.yaml:10:5: transitions[1].condition_type: "
        "a context_equals rule needs 'condition_key'",
        "workflows/W/transition_graph.yaml:10:5: transitions[1].condition_type: "
        "a context_equals rule needs 'condition_value'",
        "workflows/W/transition_graph.yaml:11:5: transitions[1].target: "
        "an AgentTarget needs 'agent'",
        "workflows/W/transition_graph.yaml:15:1: transitoins: unknown field 'transitoins' "
        "(did you mean 'transitions'?)",
    ]
    rules = routes.transitions.rules
    assert [r.valid for r in rules] == [False, True, True]
    # a bare string target is an AgentTarget
    assert rules[2].model.target.type == "AgentTarget"
    assert rules[2].model.target.agent == "PlannerAgent"


def test_handoffs_accept_real_mozaiks_fields_and_flag_missing_condition(workspace):
    routes = _routes(
        workspace,
        {
            "handoffs.yaml": """
            handoff_rules:
              - source_agent: user
                target_agent: InterviewAgent
                handoff_type: condition
                condition_type: expression
                condition: ${interview_complete} == False
                condition_scope: pre
                transition_target: AgentTarget
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                handoff_type: condition
                condition_scope: null
              - source_agent: InterviewAgent
                target_agent: user
                handoff_type: after_wrk
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/handoffs.yaml:11:5: handoff_rules[1].handoff_type: "
        "a condition handoff needs 'condition'",
        "workflows/W/handoffs.yaml:15:19: handoff_rules[2].handoff_type: 'after_wrk' is not "
        "allowed (did you mean 'after_work'?); expected 'condition' or 'after_work'",
    ]
    first = routes.handoffs.rules[0].model
    assert first.is_expression and first.condition_scope == "pre"


def test_top_level_must_be_a_mapping_with_a_list(workspace):
    routes = _routes(
        workspace,
        {"handoffs.yaml": "- a\n- b\n", "transition_graph.yaml": "transitions: {a: 1}\n"},
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:1:1: transitions: 'transitions' must be a list, "
        "found a mapping",
        "workflows/W/handoffs.yaml:1:1: the file must be a mapping with 'handoff_rules', "
        "found a list",
    ]


# --- transition_graph.yaml, the shape the Mozaiks runtime reads -----------------------------

# written from mozaiksai/core/workflow/declarative/contracts.py (TransitionRuleSpec) and the
# rules real Mozaiks workflows ship: explicit target_agent, informational transition_target
REAL_GRAPH = """
transition_rules:
  - source_agent: user
    target_agent: InterviewAgent
    transition_type: condition
    condition_type: Context_Equals
    condition_key: interview_complete
    condition_value: false
    transition_target: AgentTarget
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: ${interview_complete} == True
    transition_target: AgentTarget
  - source_agent: PlannerAgent
    target_agent: terminate
    transition_type: after_turn
    transition_target: TerminateTarget
    termination_reason: workflow_complete
  - source_agent: UserProxy
    target_agent: User
    transition_type: condition
    condition_type: tool_called
    tool_name: ask_again
"""


def test_real_transition_rules_load_into_the_same_rules(workspace):
    routes = _routes(workspace, {"transition_graph.yaml": REAL_GRAPH})
    assert routes.diagnostics == ()
    graph = routes.transitions
    assert graph.shape == "transition_rules"
    first, second, third, fourth = (e.model for e in graph.rules)
    # condition_type is case-insensitive at run time
    assert (first.source, first.condition_type, first.condition_value) == (
        "user",
        "context_equals",
        False,
    )
    assert (first.target.type, first.target.agent) == ("AgentTarget", "InterviewAgent")
    # context_expression's text is the rule's condition, under its own key
    assert second.condition == "${interview_complete} == True"
    assert second.key("condition") == "context_expression"
    assert third.target.type == "TerminateTarget"
    assert third.termination_reason == "workflow_complete"
    # the user aliases are the human on both ends
    # only 'user' is the human to mozaiks 0.2.0's compiler: UserProxy is an agent id; a target
    # 'User' is the human (compared lower-cased)
    assert fourth.source == "UserProxy" and fourth.target.type == "RevertToUserTarget"
    assert graph.rules[1].loc.line == 9


def test_real_shape_rejects_unknown_and_removed_keys_with_its_own_hints(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: expression
                condition: ${interview_complete} == True
                condition_scope: pre
              - source: InterviewAgent
                target_agent: PlannerAgent
                transition_type: after_turn
                description: the brief's key
                trasition_target: AgentTarget
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:5:21: transition_rules[0].condition_type: "
        "condition_type 'expression' is a handoffs.yaml type; transition_graph.yaml routing is "
        "deterministic: use context_equals, context_expression (with context_expression:) or "
        "tool_called, and let a tool or structured output set the context first",
        "workflows/W/transition_graph.yaml:6:5: transition_rules[0].condition: unknown field "
        "'condition': removed from transition rules; write condition_type: context_expression "
        'with context_expression: "${...}" (or context_equals with condition_key/'
        "condition_value)",
        "workflows/W/transition_graph.yaml:7:5: transition_rules[0].condition_scope: unknown "
        "field 'condition_scope': it belongs to handoffs.yaml; a transition rule is checked "
        "after its source agent's turn",
        "workflows/W/transition_graph.yaml:8:5: transition_rules[1]: missing required field "
        "'source_agent'",
        "workflows/W/transition_graph.yaml:8:5: transition_rules[1].source: unknown field "
        "'source': transition_rules: entries name it 'source_agent'",
        "workflows/W/transition_graph.yaml:11:5: transition_rules[1].description: unknown field "
        "'description': transition_rules entries have none (the runtime's schema forbids extra "
        "keys); use a YAML comment",
        "workflows/W/transition_graph.yaml:12:5: transition_rules[1].trasition_target: unknown "
        "field 'trasition_target' (did you mean 'transition_target'?)",
    ]
    assert [e.valid for e in routes.transitions.rules] == [False, False]


def test_brief_shape_points_real_keys_back_to_its_own(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transitions:
              - source_agent: InterviewAgent
                source: InterviewAgent
                transition_type: after_turn
                target: PlannerAgent
                termination_reason: workflow_complete
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:2:5: transitions[0].source_agent: unknown field "
        "'source_agent': that is the transition_rules: spelling; under transitions: write "
        "'source'",
        "workflows/W/transition_graph.yaml:6:5: transitions[0].termination_reason: unknown "
        "field 'termination_reason'",
    ]


def test_real_shape_refuses_what_the_runtime_refuses(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: after_turn
                condition_key: interview_complete
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: context_equals
                context_expression: ${interview_complete}
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
              - source_agent: PlannerAgent
                target_agent: user
                transition_type: after_turn
                transition_target: TerminateTarget
                termination_reason: workflow_failed
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:5:5: transition_rules[0].condition_key: an "
        "after_turn rule must not declare condition fields (condition_key); the runtime "
        "refuses it",
        "workflows/W/transition_graph.yaml:9:5: transition_rules[1].condition_type: a "
        "context_equals rule needs 'condition_key'",
        "workflows/W/transition_graph.yaml:10:5: transition_rules[1].context_expression: a "
        "context_equals rule must not declare 'context_expression'; the runtime refuses it",
        "workflows/W/transition_graph.yaml:13:5: transition_rules[2].transition_type: a "
        "condition rule needs 'condition_type' (one of context_equals, context_expression, "
        "tool_called)",
        "workflows/W/transition_graph.yaml:17:5: transition_rules[3].transition_target: a "
        "TerminateTarget rule needs target_agent: terminate; the runtime refuses it",
        "workflows/W/transition_graph.yaml:18:5: transition_rules[3].termination_reason: "
        "termination_reason needs target_agent: terminate",
    ]
    # the rules stay valid models, with their problems attached for routing to show
    assert [bool(e.problems) for e in routes.transitions.rules] == [True, True, True, True]


def test_real_shape_warns_about_what_the_runtime_accepts_silently(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: context_equals
                condition_key: interview_complete
                transition_target: RevertToUserTarget
              - source_agent: InterviewAgent
                target_agent: user
                transition_type: after_turn
                transition_target: RevertToUsr
              - source_agent: PlannerAgent
                target_agent: user
                transition_type: condition
                condition_type: context_equals
                condition_key: plan
                condition_value: null
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:6:5: warning: transition_rules[0].condition_key: no "
        "condition_value: the rule matches while 'interview_complete' is None or not in context",
        "workflows/W/transition_graph.yaml:7:5: warning: transition_rules[0].transition_target: "
        "transition_target says RevertToUserTarget but target_agent 'PlannerAgent' makes it "
        "AgentTarget; the runtime routes by target_agent",
        "workflows/W/transition_graph.yaml:11:5: warning: transition_rules[1].transition_target:"
        " 'RevertToUsr' is not an AG2 target name (did you mean 'RevertToUserTarget'?); the "
        "runtime routes by target_agent",
        "workflows/W/transition_graph.yaml:16:5: warning: transition_rules[2].condition_key: "
        "condition_value is null: the rule matches while 'plan' is None or not in context",
    ]
    # warnings do not make a rule broken
    assert all(not e.problems for e in routes.transitions.rules)


def test_a_file_mixing_both_shapes_is_an_error_and_keeps_the_first(workspace):
    routes = _routes(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: after_turn
            transitions:
              - source: InterviewAgent
                transition_type: after_turn
                target: ReviewAgent
            """
        },
    )
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:5:1: transitions: this file mixes two shapes: "
        "'transition_rules' (line 1) is the Mozaiks runtime's shape (source_agent, "
        "target_agent), 'transitions' is flowctx's shape (source, target); use one per file "
        "(the rules under 'transitions' are ignored)"
    ]
    graph = routes.transitions
    assert graph.shape == "transition_rules"
    assert [e.model.target.agent for e in graph.rules] == ["PlannerAgent"]


def test_empty_graph_names_both_shapes(workspace):
    routes = _routes(workspace, {"transition_graph.yaml": "transitoin_rules: []\n"})
    assert _messages(routes) == [
        "workflows/W/transition_graph.yaml:1:1: transitoin_rules: unknown field "
        "'transitoin_rules' (did you mean 'transition_rules'?)"
    ]
    empty = _routes(workspace, {"transition_graph.yaml": "# nothing yet\n"})
    assert _messages(empty) == [
        "workflows/W/transition_graph.yaml:1:1: file is empty; expected 'transitions' or "
        "'transition_rules'"
    ]
