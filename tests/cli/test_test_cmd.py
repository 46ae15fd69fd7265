"""``flowctx test`` through ``main()``: every expectation kind passing and failing, each exit
code, located errors for invalid files, JUnit read back by a real XML parser, SARIF against
its schema, coverage and MC/DC on conditions with known answers, witnesses re-checked by
running them as cases, and secrets never printed."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from flowctx_tui.cli import main

CONTRACT = """
definitions:
  approved:
    type: boolean
    source:
      type: state
      default: false
      triggers:
        - {type: agent_text, agent: RouterAgent, match: {equals: APPROVED}}
  retries:
    type: integer
    source:
      type: state
      default: 0
      triggers:
        - {type: agent_text, agent: RouterAgent, match: {equals: RETRY}}
  max_retries:
    type: integer
    source: {type: config, env_var: MAX_RETRIES}
  region:
    type: string
    source: {type: config, env_var: REGION}
  openai_api_key:
    type: string
    source: {type: config, env_var: OPENAI_API_KEY}
agents:
  RouterAgent:
    variables: [approved, max_retries]
  ReviewerAgent:
    variables: [max_retries, openai_api_key]
  EscalationAgent:
    variables: []
"""

GRAPH = """
transition_rules:
  - source_agent: RouterAgent
    target_agent: ReviewerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${approved} and ${retries} < 3"
  - source_agent: RouterAgent
    target_agent: EscalationAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${retries} >= 3"
  - source_agent: RouterAgent
    target_agent: ArchiveAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${retries} > 5 and ${retries} < 4"
  - source_agent: RouterAgent
    target_agent: user
    transition_type: after_turn
"""

SECRET = "sk-test-0123456789abcdef"
#: the workflow files mozaiks 0.2.0 needs to load a workflow
ORCHESTRATOR = (
    "schema_version: mozaiks.orchestrator.v1\nworkflow_name: {name}\n"
    "workflow_startup_mode: UserDriven\n"
)


def agents_yaml(*names: str) -> str:
    return "agents:\n" + "".join(
        f"  - {{name: {n}, system_message: {n}., structured_outputs_required: false}}\n"
        for n in names
    )


def _workspace(workspace, tests: str | dict[str, str], *, graph: str = GRAPH) -> Path:
    files = {
        "flowctx.yaml": f"env:\n  OPENAI_API_KEY: {SECRET}\n  MAX_RETRIES: '3'\n",
        "workflows/Approvals/context_variables.yaml": CONTRACT,
        "workflows/Approvals/transition_graph.yaml": graph,
        "workflows/Approvals/orchestrator.yaml": ORCHESTRATOR.format(name="Approvals"),
        "workflows/Approvals/agents.yaml": agents_yaml(
            "RouterAgent", "ReviewerAgent", "EscalationAgent", "ArchiveAgent"
        ),
    }
    if isinstance(tests, str):
        tests = {"approvals.yaml": tests}
    for name, text in tests.items():
        files[f".flowctx/tests/{name}"] = text
    return workspace(files)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["test", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


PASSING = """
workflow: Approvals
cases:
  - name: approved goes to review
    context: {approved: true}
    expect:
      route: {from: RouterAgent, to: ReviewerAgent}
      values: {max_retries: 3, region: null}
      refused: false
      problems: {errors: 0}
      prompt: {agent: RouterAgent, contains: "APPROVED: true"}
  - name: three retries escalate
    context: {retries: 3}
    expect:
      route: {from: RouterAgent, rule: 2}
  - name: the environment sets the limit
    env: {MAX_RETRIES: 7}
    expect:
      values: {max_retries: 7}
      prompt: {agent: RouterAgent, contains: ["MAX_RETRIES: 7"], not_contains: "MAX_RETRIES: 3"}
  - name: nothing else reverts to the user
    expect:
      route: {from: RouterAgent, rule: 4}
"""


def test_every_expectation_kind_passes_and_exits_0(workspace, capsys) -> None:
    root = _workspace(workspace, PASSING)
    code, out, _ = run(capsys, str(root))
    assert code == 0, out
    assert out.count("PASS ") == 4
    assert "4 passed, 0 failed (4 cases in 1 files)" in out
    assert SECRET not in out


FAILING = """
workflow: Approvals
cases:
  - name: wrong route
    context: {approved: false}
    expect:
      route: {from: RouterAgent, to: ReviewerAgent}
  - name: wrong value
    expect:
      values: {max_retries: 4}
  - name: wrong refusal
    expect:
      refused: true
  - name: wrong problem count
    expect:
      problems: {errors: 2}
  - name: wrong prompt
    expect:
      prompt: {agent: RouterAgent, contains: "APPROVED: yes"}
  - name: wrong rule
    expect:
      route: {from: RouterAgent, rule: 1}
  - name: the run does not end here
    expect:
      route: {from: RouterAgent, ends: true}
"""


def test_each_failing_kind_says_expected_and_got_and_exits_1(workspace, capsys) -> None:
    root = _workspace(workspace, FAILING)
    code, out, _ = run(capsys, str(root))
    assert code == 1, out
    assert out.count("FAIL ") == 7
    assert "0 passed, 7 failed" in out
    # the route failure shows the expected rule's explain tree: which part was false
    assert (
        "route (.flowctx/tests/approvals.yaml:6:7): expected from RouterAgent to ReviewerAgent"
        in out
    )
    assert "got to user" in out
    assert "+ ${approved} -> False" in out
    assert "values (.flowctx/tests/approvals.yaml:9:16): expected max_retries = 4" in out
    assert "got max_retries = 3 (from config: env MAX_RETRIES (flowctx.yaml))" in out
    assert "expected refused" in out and "got not refused" in out
    assert "expected 2 errors" in out
    assert "missing 'APPROVED: yes'" in out
    assert "expected from RouterAgent: the run ends" in out


def test_a_secret_is_compared_but_never_printed(workspace, capsys) -> None:
    tests = f"""
workflow: Approvals
cases:
  - name: right secret
    expect:
      values: {{openai_api_key: "{SECRET}"}}
  - name: wrong secret
    expect:
      values: {{openai_api_key: "sk-wrong-value-000000"}}
      prompt: {{agent: ReviewerAgent, contains: "{SECRET[:12]}"}}
"""
    root = _workspace(workspace, tests)
    for fmt in ("text", "json", "junit", "sarif"):
        code, out, err = run(capsys, str(root), "--format", fmt)
        # judging a guess at the key would tell whether it was right: both are withheld,
        # and a withheld verdict does not move the exit status
        assert code == 0
        assert SECRET not in out + err and SECRET[:12] not in out + err
        assert "sk-wrong-value-000000" not in out + err
    code, out, _ = run(capsys, str(root))
    assert "WITHHELD Approvals: right secret" in out
    assert "WITHHELD Approvals: wrong secret" in out
    assert (
        "values (.flowctx/tests/approvals.yaml:5:16): withheld: reads secret `openai_api_key`"
        in out
    )
    assert "0 passed, 0 failed, 2 withheld" in out
    code, out, _ = run(capsys, str(root), "--reveal")
    assert code == 1
    assert SECRET not in out and SECRET[:12] not in out
    assert "PASS  Approvals: right secret" in out
    assert "expected openai_api_key = ***" in out and "got openai_api_key = ***" in out


@pytest.mark.parametrize(
    ("text", "located"),
    [
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n      rute: {from: A, to: B}\n",
            ".flowctx/tests/approvals.yaml:5:7: cases[0].expect.rute: unknown field 'rute' "
            "(did you mean 'route'?)",
        ),
        (
            "workflow: Aprovals\ncases:\n  - name: x\n    expect: {refused: false}\n",
            ".flowctx/tests/approvals.yaml:1:1: workflow: no workflow named 'Aprovals' "
            "(did you mean 'Approvals'?)",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      route: {from: RoutrAgent, to: B}\n",
            ".flowctx/tests/approvals.yaml:5:21: cases[0].expect.route.from: no step or agent "
            "named 'RoutrAgent' has routes in Approvals (did you mean 'RouterAgent'?)",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      values: {max_retrys: 3}\n",
            ".flowctx/tests/approvals.yaml:5:16: cases[0].expect.values.max_retrys: no variable "
            "named 'max_retrys' in Approvals (did you mean 'max_retries'?)",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      route: {from: RouterAgent, to: Reviewer}\n",
            "cases[0].expect.route.to: no rule from 'RouterAgent' goes to 'Reviewer'",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      prompt: {agent: Nobody, contains: a}\n",
            "cases[0].expect.prompt.agent: no agent named 'Nobody' in Approvals",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      route: {from: RouterAgent, rule: 9}\n",
            "'RouterAgent' has 4 rule(s); rule 9 does not exist",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect: {}\n",
            "'expect' names nothing to check",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    expect:\n"
            "      route: {from: RouterAgent, to: A, rule: 1}\n",
            "exactly one of 'to', 'rule' or 'ends'",
        ),
        (
            "workflow: [Approvals\n",
            ".flowctx/tests/approvals.yaml:1:11: YAML syntax error: this '[' is not closed",
        ),
        (
            "workflow: Approvals\ncases:\n  - name: x\n    scenario: nope\n"
            "    expect: {refused: false}\n",
            "cases[0].scenario: scenario: no scenario named 'nope'",
        ),
    ],
)
def test_an_invalid_file_is_located_and_exits_2(workspace, capsys, text, located) -> None:
    root = _workspace(workspace, text)
    code, out, err = run(capsys, str(root))
    assert code == 2, out + err
    assert located in out, out
    assert "Traceback" not in out + err


def test_a_workflow_file_given_to_file_is_named_as_not_a_test_file(workspace, capsys) -> None:
    # a newcomer's mistake: --file pointed at the contract instead of a test file
    root = _workspace(workspace, PASSING)
    contract = root / "workflows" / "Approvals" / "context_variables.yaml"
    code, out, err = run(capsys, str(root), "--file", str(contract))
    assert code == 2, out + err
    problems = [line for line in out.splitlines() if ": " in line and "passed" not in line]
    assert problems == [
        "workflows/Approvals/context_variables.yaml:1:1: not a test file: a workflow's "
        "context_variables.yaml has no 'workflow' or 'cases' (its keys: definitions, agents); "
        "a test file names its workflow and lists its cases"
    ], out
    assert "unknown field" not in out and "Traceback" not in out + err
    # the summary agrees with the exit status: not a bare "0 passed, 0 failed"
    assert out.splitlines()[-1] == (
        "0 passed, 0 failed, 1 test file problem(s) in 1 file(s) (0 cases in 0 files)"
    ), out


def test_no_test_files_is_a_usage_error(workspace, capsys) -> None:
    root = _workspace(workspace, {})
    code, _, err = run(capsys, str(root))
    assert code == 2
    assert "no test files (.flowctx/tests/*.yaml)" in err


def test_k_and_w_select_cases(workspace, capsys) -> None:
    root = _workspace(workspace, PASSING)
    code, out, _ = run(capsys, str(root), "-k", "RETRIES")
    assert code == 0
    assert "three retries escalate" in out and "approved goes to review" not in out
    assert "1 passed, 0 failed" in out
    code, _, err = run(capsys, str(root), "-w", "Nope")
    assert code == 2 and "no workflow named 'Nope'" in err
    # a -k that selects nothing says so, instead of a bare "0 passed, 0 failed", and exits 2
    # (a mistyped -k in CI must not pass)
    code, out, err = run(capsys, str(root), "-k", "RETIRES")
    assert code == 2
    assert "0 passed, 0 failed" in out
    assert err == "flowctx: -k: no test case's name holds 'RETIRES' (any case)\n"


def test_junit_is_read_back_by_an_xml_parser(workspace, capsys) -> None:
    root = _workspace(workspace, {"a.yaml": PASSING, "b.yaml": FAILING.replace("approvals", "b")})
    code, out, _ = run(capsys, str(root), "--format", "junit")
    assert code == 1
    tree = ET.fromstring(out.split("\n", 1)[1])
    assert tree.tag == "testsuites"
    assert (tree.get("tests"), tree.get("failures"), tree.get("errors")) == ("11", "7", "0")
    suites = {s.get("name"): s for s in tree.iter("testsuite")}
    assert set(suites) == {".flowctx/tests/a.yaml", ".flowctx/tests/b.yaml"}
    failures = suites[".flowctx/tests/b.yaml"].findall("testcase/failure")
    assert len(failures) == 7
    wrong_value = next(c for c in suites[".flowctx/tests/b.yaml"] if c.get("name") == "wrong value")
    assert wrong_value.find("failure").get("message") == (  # type: ignore[union-attr]
        "values: expected max_retries = 4, got max_retries = 3 (from config: env MAX_RETRIES "
        "(flowctx.yaml))"
    )


def test_sarif_validates_against_the_schema_and_locates_failures_and_uncovered_rules(
    workspace, capsys
) -> None:
    root = _workspace(workspace, FAILING)
    code, out, _ = run(capsys, str(root), "--format", "sarif", "--coverage")
    assert code == 1
    doc = json.loads(out)
    schema = json.loads(
        (Path(__file__).parents[1] / "fixtures" / "sarif-schema-2.1.0.json").read_text()
    )
    jsonschema.validate(doc, schema)
    results = doc["runs"][0]["results"]
    failed = [r for r in results if r["ruleId"] == "test-failed"]
    assert len(failed) == 7
    region = failed[0]["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"] == ".flowctx/tests/approvals.yaml"
    assert region["region"] == {"startLine": 6, "startColumn": 7}
    uncovered = [r for r in results if r["ruleId"] == "rule-uncovered"]
    # only the after_turn rule wins in these cases: the three conditional rules are uncovered
    assert {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in uncovered} == {
        2,
        7,
        12,
    }
    assert all(r["level"] == "note" for r in uncovered)


MCDC_GRAPH = """
transition_rules:
  - source_agent: A
    target_agent: B
    transition_type: condition
    condition_type: context_expression
    context_expression: "${x} and ${y}"
  - source_agent: A
    target_agent: user
    transition_type: after_turn
"""
MCDC_CONTRACT = """
definitions:
  x: {type: boolean, source: {type: state, default: false}}
  y: {type: boolean, source: {type: state, default: false}}
agents:
  A: {variables: [x, y]}
  B: {variables: []}
"""


def _mcdc(workspace, capsys, cases: list[dict[str, bool]]) -> dict:
    body = "\n".join(
        f"  - name: x={c['x']} y={c['y']}\n    context: {{x: {str(c['x']).lower()}, "
        f"y: {str(c['y']).lower()}}}\n    expect:\n      route: {{from: A, "
        f"to: {'B' if c['x'] and c['y'] else 'user'}}}"
        for c in cases
    )
    root = workspace(
        {
            "workflows/W/context_variables.yaml": MCDC_CONTRACT,
            "workflows/W/transition_graph.yaml": MCDC_GRAPH,
            "workflows/W/orchestrator.yaml": "workflow_name: W\n",
            ".flowctx/tests/t.yaml": f"workflow: W\ncases:\n{body}\n",
        }
    )
    code, out, _ = run(capsys, str(root), "--coverage", "--format", "json")
    assert code == 0, out
    return json.loads(out)["coverage"]


def test_mcdc_of_a_conjunction_needs_the_three_classic_cases(workspace, capsys) -> None:
    # x and y: TT -> true; FT and TF each flip one atom and the outcome; FF proves nothing
    both = _mcdc(workspace, capsys, [{"x": True, "y": True}, {"x": False, "y": False}])
    atoms = both["conditions"][0]["atoms"]
    # FF short-circuits: y is never evaluated, so x alone is seen false and nothing decides
    assert [(a["text"], a["seen_true"], a["seen_false"], a["decides"]) for a in atoms] == [
        ("${x}", True, True, True),
        ("${y}", True, False, False),
    ]
    assert both["summary"]["mcdc"] == {"covered": 1, "total": 2}


def test_mcdc_is_complete_with_tt_ft_tf(workspace, capsys) -> None:
    cov = _mcdc(
        workspace,
        capsys,
        [{"x": True, "y": True}, {"x": False, "y": True}, {"x": True, "y": False}],
    )
    atoms = cov["conditions"][0]["atoms"]
    assert [a["decides"] for a in atoms] == [True, True]
    assert cov["summary"] == {
        "rules": {"covered": 2, "total": 2},
        "conditions": {"covered": 2, "total": 2},
        "mcdc": {"covered": 2, "total": 2},
    }


def test_suggest_finds_a_witness_that_passes_when_pasted_and_proves_the_rest(
    workspace, capsys
) -> None:
    only_first = """
workflow: Approvals
cases:
  - name: approved goes to review
    context: {approved: true}
    expect:
      route: {from: RouterAgent, to: ReviewerAgent}
"""
    root = _workspace(workspace, only_first)
    code, out, _ = run(capsys, str(root), "--coverage", "--suggest", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["coverage"]["summary"]["rules"] == {"covered": 1, "total": 4}
    by_rule = {w["rule"]: w for w in doc["witnesses"]}
    assert by_rule[3]["found"] is False and by_rule[3]["proof"] is True
    assert "the condition can never hold" in by_rule[3]["reason"]
    found = [w for w in doc["witnesses"] if w["found"]]
    assert {w["rule"] for w in found} == {2, 4}
    # paste every suggested case into the file: each must pass as written
    pasted = only_first + textwrap.indent("\n".join(w["case"] for w in found), "  ") + "\n"
    (root / ".flowctx/tests/approvals.yaml").write_text(pasted)
    code, out, _ = run(capsys, str(root), "--coverage")
    assert code == 0, out
    assert "3 passed, 0 failed" in out
    assert "rules 3/4" in out


def test_an_after_turn_rule_written_first_is_still_tried_last(workspace, capsys) -> None:
    # mozaiks 0.2.0 tries every condition rule before any after_turn fallback, whatever the
    # file order: the condition below is reachable, and rule 1 is the condition
    graph = """
transition_rules:
  - source_agent: RouterAgent
    target_agent: user
    transition_type: after_turn
  - source_agent: RouterAgent
    target_agent: ReviewerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${approved}"
"""
    root = _workspace(
        workspace,
        "workflow: Approvals\ncases:\n  - name: u\n    expect:\n"
        "      route: {from: RouterAgent, rule: 2}\n",
        graph=graph,
    )
    code, out, _ = run(capsys, str(root), "--suggest")
    assert code == 0, out
    assert "unreachable" not in out
    assert 'route: {from: "RouterAgent", rule: 1}  # to ReviewerAgent' in out


def test_the_demo_ships_tests_that_pass_with_one_rule_left_to_suggest(capsys) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    code, out, _ = run(capsys, str(demo_path()))
    assert code == 0, out
    assert "0 failed" in out
    assert "PASS  Triage: the runtime refuses to start Triage at graph compile" in out
    code, out, _ = run(capsys, str(demo_path()), "-w", "AppGenerator", "--coverage", "--suggest")
    assert code == 0, out
    suggestion = (
        "PatternAgent → WorkflowBundleBuilderAgent (rule 1): add this case (confirmed by "
        "routing it):"
    )
    assert suggestion in out
    assert out.count("add this case") == 1


def test_condition_expectations_use_the_scratchpads_scope(workspace, capsys) -> None:
    tests = """
workflow: Approvals
cases:
  - name: conditions in each dialect
    context: {retries: 2, openai_api_key: "***"}
    data: {amount: 12}
    expect:
      condition:
        - {expression: "context.retries === 2 && data.amount > 10", value: true}
        - {expression: "${retries} >= 3", dialect: mozaiks, value: false}
        - {expression: "context.openai_api_key.startsWith('sk-test')", value: true}
        - {expression: "data.amount.nope()", value: null}
  - name: a wrong verdict shows the explain tree
    expect:
      condition: {expression: "context.retries > 0", value: true}
"""
    root = _workspace(workspace, tests)
    code, out, _ = run(capsys, str(root))
    assert code == 1, out
    # the condition on the key is judged only when revealed; the others pass either way
    assert "WITHHELD Approvals: conditions in each dialect" in out
    assert "reads secret `context.openai_api_key`" in out
    code, out, _ = run(capsys, str(root), "--reveal")
    assert code == 1, out
    assert "PASS  Approvals: conditions in each dialect" in out
    assert (
        "condition (.flowctx/tests/approvals.yaml:14:7): expected context.retries > 0 (mj) -> true"
        in out
    )
    assert "got false" in out and "+ context.retries > 0 -> false (got 0)" in out
    assert SECRET not in out


def test_a_case_pins_the_clock_for_conditions_that_read_it(workspace, capsys) -> None:
    tests = """
workflow: Approvals
cases:
  - name: after nine
    now: 2026-12-01T09:30:00Z
    expect:
      condition: {expression: "new Date().getUTCHours() >= 9", value: true}
  - name: before nine
    now: "2026-12-01T08:30:00Z"
    expect:
      condition: {expression: "new Date().getUTCHours() >= 9", value: false}
"""
    bad = (
        "workflow: Approvals\ncases:\n  - name: x\n    now: yesterday\n"
        "    expect: {refused: false}\n"
    )
    root = _workspace(workspace, {"a.yaml": tests, "b.yaml": bad})
    code, out, _ = run(capsys, str(root))
    assert "PASS  Approvals: after nine" in out and "PASS  Approvals: before nine" in out
    assert code == 2
    assert ".flowctx/tests/b.yaml:4:10: cases[0].now: 'yesterday' is not an ISO 8601 instant" in out


def test_test_and_scenario_files_linked_outside_the_workspace_are_not_read(
    workspace, capsys, tmp_path
) -> None:
    """A test file or a saved scenario that is a symbolic link to a file elsewhere (a
    credentials file shaped as YAML or JSON) is refused where it is, and none of its keys or
    values is printed."""
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (elsewhere / "creds.yaml").write_text("AKIA_OUTSIDE_KEY_NAME: s3cr3t-outside-value\n")
    (elsewhere / "creds.json").write_text(
        '{"env": {"AKIA_OUTSIDE_KEY_NAME": "s3cr3t-outside-value"}, "data": {"k": 1}}'
    )
    case = (
        "workflow: Approvals\ncases:\n  - name: from a scenario\n    scenario: stolen\n"
        "    expect: {refused: false}\n"
    )
    root = _workspace(workspace, {"case.yaml": case})
    (root / ".flowctx/tests/linked.yaml").symlink_to(elsewhere / "creds.yaml")
    scenarios = root / ".flowctx/scenarios/Approvals"
    scenarios.mkdir(parents=True)
    (scenarios / "stolen.json").symlink_to(elsewhere / "creds.json")
    for args in (
        [str(root)],
        [str(root), "--format", "json"],
        [str(root), "--file", str(root / ".flowctx/tests/linked.yaml")],
    ):
        code, out, err = run(capsys, *args)
        assert code == 2, out
        assert "AKIA_OUTSIDE_KEY_NAME" not in out + err and "s3cr3t" not in out + err
        assert "outside the workspace through a symbolic link" in out
    code, out, _ = run(capsys, str(root))
    assert ".flowctx/tests/linked.yaml: not read: it resolves outside the workspace" in out
    assert "cases[0].scenario: scenario: cannot read scenario: not read: it resolves outside" in out
    # the workspace's own commands do not read it either
    code, out, err = run_main(capsys, "graph", str(root), "-w", "Approvals", "--scenario", "stolen")
    assert "AKIA_OUTSIDE_KEY_NAME" not in out + err and "s3cr3t" not in out + err


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*args])
    out = capsys.readouterr()
    return code, out.out, out.err


SLOW_FLOW = """
agent: F
steps:
  - {name: Start, type: Action, starting: true}
  - {name: A, type: Action}
  - {name: B, type: Action}
  - {name: C, type: Action}
  - {name: End, type: Action}
paths:
"""


def test_suggest_seconds_bounds_the_whole_search(workspace, capsys) -> None:
    """Three rules whose searches never end on their own (a large product of values, each
    costly to route): the first spends the whole bound, and the others say they had none
    left, rather than each taking the bound again."""
    costly = (
        "Array.from({length: 3000}, (_, i) => i).filter(i => i === data.a + data.b + data.c)"
        ".length > 1"
    )
    flow = SLOW_FLOW + "".join(
        f'  - {{from: Start, to: {t}, priority: {p}, condition: "{costly}"}}\n'
        for t, p in (("A", 30), ("B", 20), ("C", 10))
    )
    flow += "  - {from: Start, to: End, priority: 0}\n"
    root = workspace(
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n  x: {type: boolean, source: {type: state, default: false}}\n"
                "agents:\n  A: {variables: [x]}\n"
            ),
            "workflows/W/flow.yaml": flow,
            ".flowctx/tests/w.yaml": (
                "workflow: W\ncases:\n  - name: the default\n"
                "    expect: {route: {from: Start, to: End}}\n"
            ),
        }
    )
    code, out, err = run(capsys, str(root), "--suggest", "--suggest-seconds", "0.5")
    assert code == 0, out + err
    gave_up = [line for line in out.splitlines() if "no witness found: gave up after" in line]
    assert len(gave_up) == 3, out
    assert "Start → A (rule 1)" in gave_up[0] and "gave up after 0 candidates" not in gave_up[0]
    for line in gave_up[1:]:
        assert "gave up after 0 candidates" in line, out


def test_a_tests_folder_linked_outside_is_one_problem_and_lists_nothing(
    workspace, capsys, tmp_path
) -> None:
    elsewhere = tmp_path / "dotfiles"
    elsewhere.mkdir()
    (elsewhere / "prod-db-password-hint.yaml").write_text("workflow: Approvals\ncases: []\n")
    root = _workspace(workspace, {})
    (root / ".flowctx").mkdir(exist_ok=True)
    (root / ".flowctx/tests").symlink_to(elsewhere, target_is_directory=True)
    (root / ".flowctx/scenarios").mkdir()
    (root / ".flowctx/scenarios/Approvals").symlink_to(elsewhere, target_is_directory=True)
    code, out, err = run(capsys, str(root))
    assert code == 2
    assert ".flowctx/tests: not read: it resolves outside the workspace" in out
    assert "prod-db-password-hint" not in out + err
    # the review lists every saved scenario by name: none from the linked folder
    code, out, err = run_main(capsys, "diff", str(root), "--base", str(root), "--format", "json")
    assert code == 0, err
    assert "prod-db-password-hint" not in out + err
