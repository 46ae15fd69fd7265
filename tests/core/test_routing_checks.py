"""``flowctx check`` routing problems, each as file:line:col: message."""

from __future__ import annotations

from flowctx_core.check import check_workspace
from flowctx_core.session import open_session

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  attempts:
    type: integer
    source: {type: state, default: 0}
agents:
  InterviewAgent: {variables: [interview_complete, attempts]}
  PlannerAgent: {variables: [interview_complete]}
"""


def _problems(workspace, files: dict[str, str], only: str) -> list[str]:
    tree = {"workflows/W/context_variables.yaml": CONTRACT}
    tree.update({f"workflows/W/{name}": text for name, text in files.items()})
    root = workspace(tree)
    session = open_session(root, env={})
    return [d.format() for d in check_workspace(session) if d.file == f"workflows/W/{only}"]


def test_clean_routing_files_have_no_problems(workspace):
    files = {
        "flow.yaml": """
        steps:
          - {name: Validate, type: Action, starting: true}
          - {name: Approved, type: Action}
        paths:
          - {from: Validate, to: Approved, condition: "data.userApproval === true"}
        """,
        "transition_graph.yaml": """
        transitions:
          - source: InterviewAgent
            transition_type: condition
            condition_type: context_expression
            condition: "${interview_complete} and ${database_schema_available}"
            target: PlannerAgent
          - source: PlannerAgent
            transition_type: after_turn
            target: {type: RevertToUserTarget}
        """,
        "handoffs.yaml": """
        handoff_rules:
          - source_agent: user
            target_agent: InterviewAgent
            handoff_type: after_work
        """,
    }
    for name in files:
        assert _problems(workspace, files, name) == []


def test_flow_condition_that_does_not_parse(workspace):
    problems = _problems(
        workspace,
        {
            "flow.yaml": """
            steps:
              - {name: A, type: Action, starting: true}
              - {name: B, type: Action}
            paths:
              - from: A
                to: B
                condition: "data.x ==="
            """
        },
        "flow.yaml",
    )
    assert problems == [
        "workflows/W/flow.yaml:7:16: paths[0].condition: condition does not parse: "
        "Unexpected token ')' (at character 11)"
    ]


def test_flow_reads_a_name_path_conditions_cannot_see(workspace):
    problems = _problems(
        workspace,
        {
            "flow.yaml": """
            steps:
              - {name: A, type: Action, starting: true}
              - {name: B, type: Action}
            paths:
              - {from: A, to: B, condition: "dta.ok === true"}
            """
        },
        "flow.yaml",
    )
    assert problems == [
        "workflows/W/flow.yaml:5:33: paths[0].condition: the condition reads 'dta', which a "
        "path condition cannot see (did you mean 'data'?); it can read payload, stepResult, "
        "flowContext, data, context"
    ]


def test_flow_paths_to_missing_steps_and_starting_steps(workspace):
    problems = _problems(
        workspace,
        {
            "flow.yaml": """
            steps:
              - {name: Validate, type: Action, starting: true}
              - {name: Approved, type: Action, starting: true}
            paths:
              - {from: Validte, to: Approved}
              - {from: Validate, to: Rejected}
            """
        },
        "flow.yaml",
    )
    assert problems == [
        "workflows/W/flow.yaml:3:36: steps[1].starting: more than one starting step "
        "('Validate', 'Approved'); a flow has exactly one",
        "workflows/W/flow.yaml:5:12: paths[0].from: no step named 'Validte' "
        "(did you mean 'Validate'?)",
        "workflows/W/flow.yaml:6:26: paths[1].to: no step named 'Rejected'",
    ]


def test_flow_without_a_starting_step(workspace):
    problems = _problems(
        workspace,
        {"flow.yaml": "steps:\n  - {name: A, type: Action}\npaths: []\n"},
        "flow.yaml",
    )
    assert problems == [
        "workflows/W/flow.yaml:1:1: steps: no starting step: mark exactly one step with "
        "'starting: true'"
    ]


def test_transition_expression_problems_and_undeclared_names(workspace):
    problems = _problems(
        workspace,
        {
            "transition_graph.yaml": """
            transitions:
              - source: InterviewAgent
                transition_type: condition
                condition_type: context_expression
                condition: "${interview_complet} == True"
                target: PlannerAgent
              - source: InterviewAgent
                transition_type: condition
                condition_type: context_expression
                condition: "${attempts} + 1 > 3"
                target: PlannerAgent
              - source: InterviewAgent
                transition_type: condition
                condition_type: context_equals
                condition_key: atempts
                condition_value: 3
                target: PlannerAgent
            """
        },
        "transition_graph.yaml",
    )
    assert problems == [
        "workflows/W/transition_graph.yaml:5:16: transitions[0].condition: "
        "'interview_complet' is not declared in workflows/W/context_variables.yaml "
        "(did you mean 'interview_complete'?); the Mozaiks evaluator reads it as None",
        "workflows/W/transition_graph.yaml:10:16: transitions[1].condition: the Mozaiks runtime "
        "cannot compile this rule: unsupported context_expression syntax: BinOp; arithmetic is "
        "not in its allowlist (the graph does not compile (WorkflowGraphCompileError), so the "
        "workflow does not start) (at character 1)",
        "workflows/W/transition_graph.yaml:15:20: transitions[2].condition_key: 'atempts' is not "
        "declared in workflows/W/context_variables.yaml (did you mean 'attempts'?); "
        "the runtime fails with a missing context variable",
    ]


def test_unknown_agents_are_warnings(workspace):
    problems = _problems(
        workspace,
        {
            "transition_graph.yaml": """
            transitions:
              - source: InterviewAgnt
                transition_type: after_turn
                target: {type: AgentTarget, agent: Reviewer}
              - source: user
                transition_type: after_turn
                target: {type: TerminateTarget}
            """
        },
        "transition_graph.yaml",
    )
    assert problems == [
        "workflows/W/transition_graph.yaml:2:13: warning: transitions[0].source: source agent "
        "'InterviewAgnt' is not an agent of workflows/W/context_variables.yaml "
        "(did you mean 'InterviewAgent'?)",
        "workflows/W/transition_graph.yaml:4:40: warning: transitions[0].target.agent: target "
        "agent 'Reviewer' is not an agent of workflows/W/context_variables.yaml",
    ]


def test_handoff_expression_checks_and_llm_conditions_untouched(workspace):
    problems = _problems(
        workspace,
        {
            "handoffs.yaml": """
            handoff_rules:
              - source_agent: InterviewAgent
                target_agent: Planner
                handoff_type: condition
                condition: "${ready} == True"
                condition_scope: pre
              - source_agent: InterviewAgent
                target_agent: user
                handoff_type: condition
                condition_type: llm
                condition: "When the user (politely) asks to stop =="
              - source_agent: InterviewAgent
                target_agent: user
                handoff_type: condition
                condition_type: expression
                condition: "${attempts} >"
            """
        },
        "handoffs.yaml",
    )
    assert problems == [
        "workflows/W/handoffs.yaml:3:19: warning: handoff_rules[0].target_agent: target agent "
        "'Planner' is not an agent of workflows/W/context_variables.yaml "
        "(did you mean 'PlannerAgent'?)",
        "workflows/W/handoffs.yaml:5:16: handoff_rules[0].condition: 'ready' is not declared "
        "in workflows/W/context_variables.yaml; the runtime fails with a missing context "
        "variable",
        "workflows/W/handoffs.yaml:16:16: handoff_rules[2].condition: AG2 ContextExpression "
        "refuses this condition: invalid syntax (<unknown>, line 1) (at character 14); "
        "HandoffManager "
        "logs 'Context condition build failed' and the workflow runs without this handoff",
    ]


def test_unknown_fields_and_yaml_errors_reach_check(workspace):
    problems = _problems(
        workspace,
        {"handoffs.yaml": "handoff_rules:\n  - source_agent: A\n    target_agnt: B\n"},
        "handoffs.yaml",
    )
    assert problems == [
        "workflows/W/handoffs.yaml:2:5: handoff_rules[0]: missing required field 'handoff_type'",
        "workflows/W/handoffs.yaml:2:5: handoff_rules[0]: missing required field 'target_agent'",
        "workflows/W/handoffs.yaml:3:5: handoff_rules[0].target_agnt: unknown field "
        "'target_agnt' (did you mean 'target_agent'?)",
    ]
    broken = _problems(workspace, {"flow.yaml": "steps: [\n"}, "flow.yaml")
    # at the '[' the file ends inside, not on the line after the end
    assert broken == [
        "workflows/W/flow.yaml:1:8: YAML syntax error: this '[' is not closed (the file ends "
        "inside it)"
    ]


def test_clean_real_shape_files_have_no_problems(workspace):
    files = {
        "transition_graph.yaml": """
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
            context_expression: ${interview_complete} and not ${attempts} > 3
            transition_target: AgentTarget
          - source_agent: PlannerAgent
            target_agent: terminate
            transition_type: after_turn
            transition_target: TerminateTarget
        """,
        "handoffs.yaml": """
        handoff_rules:
        - source_agent: InterviewAgent
          target_agent: PlannerAgent
          handoff_type: condition
          condition_type: expression
          condition_scope: null
          condition: ${interview_complete} == true
          transition_target: AgentTarget
        - source_agent: PlannerAgent
          target_agent: User
          handoff_type: after_work
          condition_type: null
          condition_scope: null
          condition: null
          transition_target: RevertToUserTarget
        """,
    }
    for name in files:
        assert _problems(workspace, files, name) == []


def test_real_shape_problems_point_at_its_own_keys(workspace):
    problems = _problems(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgnt
                target_agent: Planner
                transition_type: condition
                condition_type: context_expression
                context_expression: "!${interview_complet} & ${attempts} > 3"
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: context_equals
                condition_key: atempts
                condition_value: 3
            """
        },
        "transition_graph.yaml",
    )
    assert problems == [
        "workflows/W/transition_graph.yaml:2:19: warning: transition_rules[0].source_agent: "
        "source agent 'InterviewAgnt' is not an agent of workflows/W/context_variables.yaml "
        "(did you mean 'InterviewAgent'?)",
        "workflows/W/transition_graph.yaml:3:19: warning: transition_rules[0].target_agent: "
        "target agent 'Planner' is not an agent of workflows/W/context_variables.yaml "
        "(did you mean 'PlannerAgent'?)",
        # the rule's line:col, with why the Mozaiks runtime will not start the workflow
        "workflows/W/transition_graph.yaml:6:25: transition_rules[0].context_expression: "
        "the Mozaiks runtime cannot compile this rule: invalid syntax (<unknown>, line 1); the "
        "Mozaiks evaluator has no '!': write not (the graph does not compile "
        "(WorkflowGraphCompileError), so the workflow does not start) (at character 1)",
        "workflows/W/transition_graph.yaml:11:20: transition_rules[1].condition_key: 'atempts' "
        "is not declared in workflows/W/context_variables.yaml (did you mean 'attempts'?); the "
        "runtime refuses to start the workflow (unknown routing context variable)",
    ]


def test_handoffs_a_replaced_after_work_is_a_warning(workspace):
    problems = _problems(
        workspace,
        {
            "handoffs.yaml": """
            handoff_rules:
              - source_agent: PlannerAgent
                target_agent: user
                handoff_type: after_work
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                handoff_type: after_work
              - source_agent: PlannerAgent
                target_agent: END
                handoff_type: after_work
            """
        },
        "handoffs.yaml",
    )
    assert problems == [
        "workflows/W/handoffs.yaml:4:19: warning: handoff_rules[0].handoff_type: 'PlannerAgent' "
        "has a later after_work rule (line 10); the runtime keeps only the last, so this one "
        "never applies"
    ]


def test_engine_surprises_are_warnings_at_the_condition(workspace):
    handoffs = _problems(
        workspace,
        {
            "handoffs.yaml": """
            handoff_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                handoff_type: condition
                condition: "${interview_complete} == 'true' and len(${attempts}) and ${attempts}"
            """
        },
        "handoffs.yaml",
    )
    assert handoffs == [
        "workflows/W/handoffs.yaml:5:16: warning: handoff_rules[0].condition: ${attempts} is "
        "used both in len(${attempts}) and on its own: AG2 0.14.0 pastes only the len() use "
        "and leaves the other in the text, so this expression never evaluates",
        "workflows/W/handoffs.yaml:5:16: warning: handoff_rules[0].condition: HandoffManager "
        "rewrites 'true' to 'True' inside the string 'true' too",
    ]
    graph = _problems(
        workspace,
        {
            "transition_graph.yaml": """
            transition_rules:
              - source_agent: InterviewAgent
                target_agent: PlannerAgent
                transition_type: condition
                condition_type: context_expression
                context_expression: "${attempts} is 3"
            """
        },
        "transition_graph.yaml",
    )
    assert graph == [
        "workflows/W/transition_graph.yaml:6:25: warning: transition_rules[0].context_expression:"
        " 'is' compares identity, not value: two equal strings, lists or large numbers are "
        "usually not the same object; write == instead",
    ]
