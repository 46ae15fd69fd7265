"""Loading flow.yaml, transition_graph.yaml and handoffs.yaml: models and located problems."""

from __future__ import annotations

from core.routing import load_routes
from core.workspace import load_workflow

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
    assert msg.startswith("workflows/W/transition_graph.yaml:3:")
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
