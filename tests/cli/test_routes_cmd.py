"""``flowctx routes`` end to end over real workspaces: text, JSON, exit codes, masking."""

from __future__ import annotations

import json

import pytest

from flowctx_tui.cli import main

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  api_base:
    type: string
    source: {type: config, env_var: API_BASE, default: "https://svc.internal"}
agents:
  InterviewAgent: {variables: [interview_complete]}
  PlannerAgent: {variables: [interview_complete]}
"""

FLOW = """
agent: ApprovalFlow
steps:
  - {name: Validate, type: Action, starting: true}
  - {name: Approved, type: Action}
  - {name: Rejected, type: Action}
paths:
  - from: Validate
    to: Rejected
    priority: 20
    condition: "context.apiKey !== 'sk-live-0123456789' || payload.amount > 1000"
  - from: Validate
    to: Approved
    priority: 10
    condition: "data.userApproval === true"
"""

GRAPH = """
transitions:
  - source: InterviewAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: true
    target: PlannerAgent
  - source: InterviewAgent
    transition_type: condition
    condition_type: tool_called
    tool_name: give_up
    target: {type: TerminateTarget}
"""


@pytest.fixture
def root(workspace):
    return workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/flow.yaml": FLOW,
            "workflows/W/transition_graph.yaml": GRAPH,
        }
    )


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["routes", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


SECRET = "sk-live-0123456789"


def test_flow_text_lists_candidates_explain_and_winner(root, capsys):
    context = json.dumps({"apiKey": SECRET})
    code, out, err = run(
        capsys,
        root, "--workflow", "W", "--from", "Validate",
        "--context", context, "--payload", '{"amount": 50}', "--data", '{"userApproval": true}',
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "W: MemberJunction flow (workflows/W/flow.yaml), from step 'Validate'"
    assert lines[1] == "   1. → Rejected  priority 20  [false]  (workflows/W/flow.yaml:7:5)"
    assert " * 2. → Approved  priority 10  [true]  (workflows/W/flow.yaml:11:5)" in lines
    assert "           + payload.amount > 1000 -> false (got 50)" in lines
    assert "         + data.userApproval === true -> true (got true)" in lines
    assert lines[-1] == "winner: Approved (first valid path, priority 10, condition is true)"
    # the secret is in the condition text the author wrote, but never as a shown value
    assert "(got *** (secret: key looks secret))" in out
    assert f'"{SECRET}"' not in out


def test_reveal_shows_context_values(root, capsys):
    context = json.dumps({"apiKey": "other"})
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "Validate", "--context", context, "--reveal"
    )
    assert code == 0
    assert '(got "other")' in out


def test_json_output_and_masking(root, capsys):
    context = json.dumps({"apiKey": "nope-" + SECRET})
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "Validate", "--context", context, "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["workflow"] == "W" and doc["source"] == "Validate"
    (decision,) = doc["decisions"]
    assert decision["winner"] == "Rejected" and decision["kind"] == "flow"
    assert decision["candidates"][0]["outcome"] == "true"
    assert decision["candidates"][1]["outcome"] == "false"
    assert "nope-" not in out
    revealed = main(
        ["routes", str(root), "-w", "W", "--from", "Validate", "--context", context,
         "--format", "json", "--reveal"]
    )  # fmt: skip
    assert revealed == 0
    assert "nope-" in capsys.readouterr().out


def test_no_valid_path_exits_1(root, capsys):
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "Validate",
        "--context", json.dumps({"apiKey": SECRET}), "--payload", '{"amount": 5}',
    )  # fmt: skip
    assert code == 1
    assert out.splitlines()[-1] == "no route: no valid path: the flow ends"


def test_transition_graph_tool_called_and_no_match(root, capsys):
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "InterviewAgent", "--tool-called", "give_up"
    )
    assert code == 0
    assert out.splitlines()[-1] == (
        "winner: terminate (rule 2 (line 8) is the first rule that matches: its condition holds)"
    )
    code, out, _ = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 1
    assert out.splitlines()[-1] == "no route: no_transition_matched"
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "InterviewAgent",
        "--context", '{"interview_complete": true}',
    )  # fmt: skip
    assert code == 0 and out.splitlines()[-1].startswith("winner: PlannerAgent")


def test_unknown_source_exits_2_with_known_sources(root, capsys):
    code, out, err = run(capsys, root, "-w", "W", "--from", "Validat")
    assert code == 2 and out == ""
    assert err.strip() == (
        "flowctx: no step or agent of the name given to --from has routes in workflow 'W' "
        "(did you mean 'Validate'?); known: Validate, Approved, Rejected, InterviewAgent"
    )


def test_bad_json_argument_is_a_message_not_a_traceback(root, capsys):
    code, _, err = run(capsys, root, "-w", "W", "--from", "Validate", "--data", "{oops")
    assert code == 2
    assert err.startswith("flowctx: --data:1:2: invalid JSON for --data")
    code, _, err = run(capsys, root, "-w", "W", "--from", "Validate", "--data", "[1]")
    assert code == 2 and "--data must be a JSON object" in err


def test_workflow_without_routing_files(workspace, capsys):
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    code, _, err = run(capsys, root, "-w", "W", "--from", "A")
    assert code == 2
    assert "has no routing file" in err


def test_broken_routing_file_problems_are_printed(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": GRAPH + "  - source: X\n    bogus: 1\n",
        }
    )
    code, _, err = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 1
    assert "workflows/W/transition_graph.yaml:14:5: transitions[2].bogus: unknown field" in err


REAL_GRAPH = """
transition_rules:
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: ${interview_complete} == True
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
"""


def test_runtime_shaped_transition_rules(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": REAL_GRAPH,
        }
    )
    code, out, err = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[1] == "   1. → PlannerAgent  [false]  (workflows/W/transition_graph.yaml:2:5)"
    assert lines[-1] == (
        "winner: user (rule 3 (line 15) is the first rule that matches: after_turn always holds)"
    )
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "InterviewAgent", "--tool-called", "give_up",
        "--format", "json",
    )  # fmt: skip
    assert code == 0
    (decision,) = json.loads(out)["decisions"]
    assert decision["winner"] == "terminate" and decision["ended"] is True
    assert decision["reason"].endswith("; the run ends (workflow_failed)")


def test_a_speaker_with_no_rule_ends_the_run(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": REAL_GRAPH,
        }
    )
    # no rule leaves the user: the graph's default target ends the run, which is no error
    code, out, err = run(capsys, root, "-w", "W", "--from", "user")
    assert (code, err) == (0, "")
    assert out.strip() == (
        "W: no rule leaves 'user' in transition_graph.yaml: the run ends "
        "(TerminateTarget, reason no_transition_matched)"
    )
    code, out, _ = run(capsys, root, "-w", "W", "--from", "User", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["decisions"] == []
    assert doc["terminates"]["reason"] == "no_transition_matched"
    assert doc["runtime"] == "mozaiks 0.2.0 (2026-10)"
    # a name that is neither the human nor an agent of the contract is still a likely typo
    code, _, err = run(capsys, root, "-w", "W", "--from", "InterviewAgnet")
    assert code == 2 and "did you mean 'InterviewAgent'?" in err


def test_runtime_shaped_unknown_key_is_printed(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": REAL_GRAPH + "    descripton: back to the user\n",
        }
    )
    code, out, err = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 1
    assert err == (
        "workflows/W/transition_graph.yaml:18:5: transition_rules[2].descripton: unknown field "
        "'descripton'\n"
    )
    # the broken rule is shown in place, not routed past
    assert "[error]" in out and out.splitlines()[-1] == "no route: no_transition_matched"


def test_from_matches_ignoring_case(root, capsys):
    code, out, err = run(capsys, root, "-w", "W", "--from", "interviewAGENT")
    assert code == 1 and err == ""
    assert out.splitlines()[0] == (
        "W: Mozaiks transition graph (workflows/W/transition_graph.yaml), from agent "
        "'InterviewAgent'"
    )
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "VALIDATE", "--data", '{"userApproval": true}',
        "--context", json.dumps({"apiKey": SECRET}), "--format", "json",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert doc["source"] == "Validate" and doc["decisions"][0]["winner"] == "Approved"


USER_GRAPH = """
transition_rules:
  - source_agent: UserProxy
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: true
  - source_agent: user
    target_agent: InterviewAgent
    transition_type: after_turn
  - source_agent: InterviewAgent
    target_agent: user
    transition_type: after_turn
"""


def test_only_user_is_the_human_for_mozaiks_files(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": USER_GRAPH,
        }
    )
    header = "W: Mozaiks transition graph (workflows/W/transition_graph.yaml), from agent 'user'"
    for alias in ("user", "USER"):
        code, out, err = run(capsys, root, "-w", "W", "--from", alias)
        assert (code, err) == (0, ""), alias
        lines = out.splitlines()
        # mozaiks 0.2.0's compiler reads only 'user' as the human: the UserProxy rule is an
        # agent's, which the human never speaks as
        assert lines[0] == header and lines[-1].startswith("winner: InterviewAgent"), alias
        numbered = [line.split("  (")[0].strip() for line in lines if "→" in line]
        assert numbered == ["* 1. → InterviewAgent  [always]"]
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "UserProxy", "--context",
        '{"interview_complete": true}', "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    assert code == 0 and doc["source"] == "UserProxy"
    assert doc["decisions"][0]["winner"] == "PlannerAgent"
    # not an alias: the list of known sources, as for any unknown name
    code, out, err = run(capsys, root, "-w", "W", "--from", "human")
    assert code == 2 and out == ""
    assert err.strip().endswith("known: UserProxy, user, InterviewAgent")


def test_user_aliases_do_not_name_a_flow_step(workspace, capsys):
    flow = """
steps:
  - {name: User, type: Prompt, starting: true}
  - {name: Done, type: Action}
paths:
  - {from: User, to: Done}
"""
    root = workspace(
        {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/flow.yaml": flow}
    )
    code, out, _ = run(capsys, root, "-w", "W", "--from", "user")
    assert code == 0 and out.splitlines()[-1].startswith("winner: Done")
    code, out, err = run(capsys, root, "-w", "W", "--from", "UserProxy")
    assert code == 2 and out == ""
    assert err.strip() == (
        "flowctx: no step or agent of the name given to --from has routes in workflow 'W' "
        "(did you mean 'User'?); known: User, Done"
    )


def test_a_name_matching_several_sources_by_case_is_refused(workspace, capsys):
    flow = """
steps:
  - {name: Review, type: Prompt, starting: true}
  - {name: review, type: Action}
paths:
  - {from: Review, to: review}
"""
    root = workspace(
        {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/flow.yaml": flow}
    )
    code, out, err = run(capsys, root, "-w", "W", "--from", "REVIEW")
    assert code == 2 and out == ""
    assert err.strip() == (
        "flowctx: --from matches several steps or agents in workflow 'W': Review, review; "
        "give the exact name"
    )
    code, out, _ = run(capsys, root, "-w", "W", "--from", "review")
    # an end step: the run ends there as written (the exit rule in --help)
    assert code == 0 and "from step 'review'" in out


UNCOMPILABLE = """
transition_rules:
  - source_agent: PlannerAgent
    target_agent: user
    transition_type: after_turn
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${interview_complete} & ${interview_complete}"
"""


def test_a_graph_the_runtime_cannot_compile_means_the_workflow_would_not_start(workspace, capsys):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": UNCOMPILABLE,
        }
    )
    # even from an agent whose own rules are fine: the whole graph is compiled at start
    code, out, _ = run(capsys, root, "-w", "W", "--from", "PlannerAgent")
    assert code == 1  # no route chosen
    lines = out.splitlines()
    assert lines[-1] == (
        "no route: the workflow would not start: transition_rules[1] (line 5) does not compile "
        "(WorkflowGraphCompileError): unsupported context_expression syntax: BinOp; '&' is not "
        "'and' here: write and"
    )
    assert "not evaluated: the workflow would not start" in out
    code, out, _ = run(capsys, root, "-w", "W", "--from", "InterviewAgent", "--format", "json")
    assert code == 1
    (decision,) = json.loads(out)["decisions"]
    assert decision["failed"] is True and decision["winner"] is None
    assert decision["candidates"][0]["outcome"] == "error"
    assert decision["candidates"][0]["dialect"] == "mozaiks"


def test_transition_expressions_read_a_missing_variable_as_none(workspace, capsys):
    graph = UNCOMPILABLE.replace(
        "${interview_complete} & ${interview_complete}", "${never_set} == None"
    )
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": graph,
        }
    )
    code, out, _ = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 0 and "winner: PlannerAgent" in out
    assert "${never_set} is not in context: the Mozaiks evaluator reads it as None" in out


def test_one_exit_rule_the_run_ends_is_0_nothing_matched_is_1(root, capsys):
    # a flow's end step: nothing leaves it, the run ends there as written
    code, out, _ = run(capsys, root, "-w", "W", "--from", "Approved")
    assert code == 0
    assert out.splitlines()[-1] == "no route: no path leaves 'Approved': the flow ends"
    # the human in a transition graph no rule leaves: the run ends too, the same status
    code, out, _ = run(capsys, root, "-w", "W", "--from", "user")
    assert code == 0 and "the run ends" in out
    # paths leave the step and none is taken: nothing matched
    context = json.dumps({"apiKey": SECRET})
    code, out, _ = run(
        capsys, root, "-w", "W", "--from", "Validate", "--payload", '{"amount": 1}',
        "--context", context,
    )  # fmt: skip
    assert code == 1 and out.splitlines()[-1] == "no route: no valid path: the flow ends"
    code, out, _ = run(capsys, root, "-w", "W", "--from", "InterviewAgent")
    assert code == 1 and out.splitlines()[-1] == "no route: no_transition_matched"


def test_the_exit_rule_is_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["routes", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 when a route is chosen, or when nothing leaves --from" in text
    assert "1 when paths or rules leave it and none is taken" in text


def test_a_routing_file_that_cannot_be_read_is_not_called_missing(workspace, capsys):
    # a broken transition_graph.yaml was followed by "has no routing file", which sent a
    # newcomer looking for a file that is there
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": "transition_rules:\n  - source_agent: [\n",
        }
    )
    for command in ("routes", "graph"):
        code = main([command, str(root), "-w", "W", "--from", "A"])
        err = capsys.readouterr().err
        assert code == 2, command
        lines = err.splitlines()
        assert lines[0].startswith("workflows/W/transition_graph.yaml:"), err
        assert lines[-1] == (
            "flowctx: workflow 'W' has no routing file flowctx could read (the error(s) above)"
        ), err
        assert "has no routing file (" not in err
