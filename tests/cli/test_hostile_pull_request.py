"""A hostile pull request against ``flowctx test`` and ``flowctx diff``, as CI runs them: a real
git repository whose head commit adds test cases that try to read the runner's secrets, and an
environment holding secrets. Nothing of a secret, not even one bit, may reach any output.

The bit check is the strong one: every command is run twice, under two secrets that differ in
every probed bit, and must print the same thing both times (apart from the secret-free parts
that are the same anyway). An output that told one verdict computed from a secret would differ.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.conftest import write_tree
from tests.diff_repo import git

#: two keys of one length whose characters differ in every probed bit (and so in every verdict)
KEY_A = "sk-live-AAAAAAAA"
KEY_B = "sk-live-~~~~~~~~"
TOKEN_A = "ci-deploy-0000-1111"
TOKEN_B = "ci-deploy-zzzz-yyyy"
PASSWORD_A = "Hx7pass"
PASSWORD_B = "Qz9word"
PROBED = range(8, 12)  # the characters probed bit by bit

ORCHESTRATOR = (
    "schema_version: mozaiks.orchestrator.v1\nworkflow_name: {name}\n"
    "workflow_startup_mode: UserDriven\n"
)
AGENTS = "agents:\n" + "".join(
    f"  - {{name: {n}, system_message: {n}., structured_outputs_required: false}}\n"
    for n in ("Planner", "Reviewer")
)
CONTRACT = """
definitions:
  region: {type: string, source: {type: config, default: "eu"}}
  openai_api_key: {type: string, source: {type: config, env_var: OPENAI_API_KEY}}
  deploy: {type: string, source: {type: config, env_var: CI_DEPLOY_TOKEN}}
  database: {type: string, source: {type: config, env_var: DATABASE_URL}}
agents:
  Planner: {variables: [region]}
  Reviewer: {variables: [region, database]}
"""
GRAPH = """
transition_rules:
  - source_agent: Planner
    target_agent: Reviewer
    transition_type: condition
    condition_type: context_expression
    context_expression: "${region} == 'eu'"
  - source_agent: Planner
    target_agent: user
    transition_type: after_turn
"""
REFUND_CONTRACT = """
definitions:
  limit: {type: integer, source: {type: config, default: "100"}}
  openai_api_key: {type: string, source: {type: config, env_var: OPENAI_API_KEY}}
agents:
  RefundAgent: {variables: [limit]}
"""
FLOW = """
agent: RefundFlow
steps:
  - {name: Check, type: Action, starting: true}
  - {name: Pay, type: Action}
  - {name: Deny, type: Action}
paths:
  - {from: Check, to: Pay, priority: 10, condition: "data.approved === true"}
  - {from: Check, to: Deny, priority: 0}
"""


def _bit(i: int, b: int) -> str:
    return f"(context.openai_api_key.charCodeAt({i}) & {2**b}) !== 0"


def _pull_request(outside: Path) -> dict[str, str]:
    """The files the pull request adds or changes."""
    contract = CONTRACT.replace(
        "agents:",
        "  notes:\n"
        "    type: string\n"
        f"    source: {{type: file, path: {outside.as_posix()}, format: text}}\n"
        # a guess written as a plain default: masked where it equals a secret, it would say so
        "  guess:\n"
        "    type: string\n"
        f"    source: {{type: config, default: '{KEY_A}'}}\n"
        "  guess_url:\n"
        "    type: string\n"
        f"    source: {{type: config, default: 'postgres://u:{PASSWORD_A}@db.internal/app'}}\n"
        # a secret read as an integer: the launch fails when it is not one
        "  pin:\n"
        "    type: integer\n"
        "    source: {type: config, env_var: CI_SIGNING_PIN}\n"
        # a runner's secret under a name that looks like nothing: read from the environment
        "  job:\n"
        "    type: string\n"
        "    source: {type: config, env_var: CI_JOB_JWT}\n"
        # a record looked up with the key: found (or not) tells whether the guess was right
        "  owner:\n"
        "    type: string\n"
        "    source:\n"
        "      type: data_reference\n"
        "      database_name: default\n"
        "      collection: keys\n"
        "      query_template: {key: '{{openai_api_key}}'}\n"
        "      fields: [owner]\n"
        "agents:",
    ).replace("Planner: {variables: [region]}", "Planner: {variables: [region, owner]}")
    # the Mozaiks graph: a rule that compares the key outright, and one that reads a bit
    graph = GRAPH.replace(
        "transition_rules:",
        "transition_rules:\n"
        "  - source_agent: Planner\n"
        "    target_agent: Reviewer\n"
        "    transition_type: condition\n"
        "    condition_type: context_equals\n"
        "    condition_key: openai_api_key\n"
        f"    condition_value: {KEY_A}\n",
    )
    flow = FLOW.replace(
        '"data.approved === true"', f'"data.approved === true && {_bit(PROBED[0], 0)}"'
    )
    cases = [
        # finding 1: the case's env turns outside reads on, and the failure line would quote
        "  - name: widen\n"
        "    env: {CONTEXT_FILE_ALLOW_OUTSIDE_ROOT: 'true'}\n"
        "    expect:\n"
        "      values: {notes: x}\n",
        "  - name: a database of the file's choosing\n"
        "    env: {FLOWCTX_MONGO_URI: 'mongodb://evil.example.invalid/x'}\n"
        "    expect: {refused: false}\n",
    ]
    for i in PROBED:
        for b in range(7):
            cases.append(
                f"  - name: bit {i}.{b}\n"
                "    expect:\n"
                f'      condition: {{expression: "{_bit(i, b)}", value: true}}\n'
            )
    # the same oracle ANDed with a probe that passes (finding 4's shape), in every dialect
    cases += [
        "  - name: anded\n"
        "    context: {region: eu}\n"
        "    expect:\n"
        "      condition:\n"
        f"        - {{expression: \"context.region === 'eu' && {_bit(9, 3)}\", value: true}}\n"
        "        - {expression: \"${openai_api_key} == 'sk-live-AAAAAAAA'\", "
        "dialect: mozaiks, value: true}\n"
        "        - {expression: \"context.deploy.startswith('ci-deploy-0')\", dialect: python, "
        "value: true}\n",
        f"  - name: the key outright\n    expect:\n      values: {{openai_api_key: {KEY_A}}}\n",
        "  - name: a URI password by prefix\n"
        "    expect:\n"
        "      prompt: {agent: Reviewer, contains: 'u:Hx'}\n",
        "  - name: a URI password by absence\n"
        "    expect:\n"
        "      prompt: {agent: Reviewer, not_contains: 'Hx7'}\n",
        "  - name: does it load\n    expect: {refused: false}\n",
        "  - name: an innocent name\n"
        "    expect:\n"
        "      values: {job: x}\n"
        '      condition: {expression: "context.job.length > 10", value: true}\n',
        "  - name: the record the key finds\n"
        "    expect:\n"
        "      values: {owner: alice-owner}\n"
        "      condition: {expression: \"context.owner === 'alice-owner'\", value: true}\n"
        "      prompt: {agent: Planner, contains: alice-owner}\n",
        # a condition that reads no secret, failing: its explain shows the case's own value,
        # which was masked exactly when it equalled the key
        "  - name: an explain that compares\n"
        f"    payload: {{guess: {KEY_A}}}\n"
        "    expect:\n"
        "      condition: {expression: \"payload.guess === 'nope'\", value: true}\n",
        # the expectation's own text, masked where it was a piece of a key: an oracle too
        "  - name: pieces of the key\n"
        "    expect:\n"
        "      prompt: {agent: Planner, not_contains: ['e-AA', 'A-~~', 'AAAAAAAA']}\n",
        "  - name: the route that compares the key\n"
        "    expect:\n"
        "      route: {from: Planner, to: Reviewer}\n",
        "  - name: the route by its number\n    expect:\n      route: {from: Planner, rule: 1}\n",
    ]
    refund_cases = [
        f"  - name: flow bit {k}\n"
        "    data: {approved: true}\n"
        "    expect:\n"
        "      route: {from: Check, to: Pay}\n"
        for k in range(2)
    ]
    return {
        "seed/default/keys.json": json.dumps([{"key": KEY_A, "owner": "alice-owner"}]),
        "workflows/Orders/context_variables.yaml": contract,
        "workflows/Orders/transition_graph.yaml": graph,
        "workflows/Refunds/flow.yaml": flow,
        ".flowctx/tests/pr.yaml": "workflow: Orders\ncases:\n" + "".join(cases),
        ".flowctx/tests/refunds.yaml": "workflow: Refunds\ncases:\n" + "".join(refund_cases),
    }


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "shop"
    write_tree(
        root,
        {
            "workflows/Orders/context_variables.yaml": CONTRACT,
            "workflows/Orders/transition_graph.yaml": GRAPH,
            "workflows/Orders/orchestrator.yaml": ORCHESTRATOR.format(name="Orders"),
            "workflows/Orders/agents.yaml": AGENTS,
            "workflows/Refunds/context_variables.yaml": REFUND_CONTRACT,
            "workflows/Refunds/flow.yaml": FLOW,
        },
    )
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    outside = tmp_path / "runner" / "environ"  # stands in for /proc/self/environ
    outside.parent.mkdir()
    write_tree(root, _pull_request(outside))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a helpful pull request")
    return root, outside


def _outputs(root: Path, outside: Path, monkeypatch, capsys, key, token, password) -> dict:
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setenv("CI_DEPLOY_TOKEN", token)
    monkeypatch.setenv("CI_JOB_JWT", f"eyJ{token}")
    # numeric under one secret and not under the other
    monkeypatch.setenv("CI_SIGNING_PIN", "7391" if key == KEY_A else "73x1")
    monkeypatch.setenv("DATABASE_URL", f"postgres://u:{password}@db.internal/app")
    monkeypatch.delenv("CONTEXT_FILE_ALLOW_OUTSIDE_ROOT", raising=False)
    monkeypatch.delenv("FLOWCTX_MONGO_URI", raising=False)
    outside.write_text(f"CI_DEPLOY_TOKEN={token}\nOPENAI_API_KEY={key}\n")
    monkeypatch.chdir(root)
    runs = {
        "text": ["test", "."],
        "json": ["test", ".", "--format", "json", "--coverage", "--suggest"],
        "junit": ["test", ".", "--format", "junit"],
        "sarif": ["test", ".", "--format", "sarif"],
        "coverage": ["test", ".", "--coverage", "--suggest", "--suggest-seconds", "5"],
        "markdown": ["diff", ".", "--base", "HEAD~1", "--format", "markdown"],
        "diff-json": ["diff", ".", "--base", "HEAD~1", "--format", "json"],
        "diff-text": ["diff", ".", "--base", "HEAD~1", "--width", "200"],
        "exit-code": ["diff", ".", "--base", "HEAD~1", "--exit-code"],
    }
    out = {}
    for name, args in runs.items():
        code = main(args)
        got = capsys.readouterr()
        out[name] = (code, got.out, got.err)
    return out


def test_a_pull_requests_tests_learn_nothing_of_the_runners_secrets(
    repo, monkeypatch, capsys
) -> None:
    root, outside = repo
    first = _outputs(root, outside, monkeypatch, capsys, KEY_A, TOKEN_A, PASSWORD_A)
    second = _outputs(root, outside, monkeypatch, capsys, KEY_B, TOKEN_B, PASSWORD_B)
    everything = json.dumps([first, second])
    # KEY_A is the pull request's own guess (its text is shown as written); KEY_B is not in it
    for secret in (KEY_B, TOKEN_A, TOKEN_B, PASSWORD_B, "Qz9"):
        assert secret not in everything, secret
    assert everything.count("alice-owner") == everything.count("alice-owner'")  # as written
    assert TOKEN_A[:12] not in everything and KEY_B[:10] not in everything
    for name in first:
        # same secret-free output under keys that differ in every probed bit: no bit got out
        assert first[name] == second[name], name

    code, text, _ = first["text"]
    # finding 1: the case's env is refused at its line, and the case is not run
    assert (
        ".flowctx/tests/pr.yaml:4:11: cases[0].env.CONTEXT_FILE_ALLOW_OUTSIDE_ROOT: "
        "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT is ignored in a test case: it lets file sources read "
        "outside the workspace" in text
    )
    assert "cases[1].env.FLOWCTX_MONGO_URI: FLOWCTX_MONGO_URI is ignored in a test case" in text
    assert code == 2  # the refused cases are invalid; nothing else moved the status
    # finding 3: each probe is withheld, naming the secret, and counted apart
    assert "WITHHELD Orders: bit 8.0" in text
    assert "condition (.flowctx/tests/pr.yaml:" in text
    assert "withheld: reads secret `context.openai_api_key`" in text
    assert "withheld: reads secret `openai_api_key`" in text  # the values and the route
    assert "withheld: reads secret `context.deploy`" in text
    assert "withheld: reads secret `database`" in text  # the prompt holds its password
    assert "values (.flowctx/tests/pr.yaml:" in text and "reads secret `job`" in text
    assert "refused (.flowctx/tests/pr.yaml:111:14): withheld: reads secret `pin`" in text
    assert "WITHHELD Refunds: flow bit 0" in text
    summary = text.strip().splitlines()[-1]
    assert summary.startswith("0 passed, 1 failed, 40 withheld"), summary
    # the coverage marks and the suggestions come from no secret-reading decision
    _, covered, _ = first["coverage"]
    assert "Check → Pay (rule 1)" in covered
    assert "no suggestion: withheld: reads secret `context.openai_api_key`" in covered
    doc = json.loads(first["json"][1])
    statuses = {c["status"] for c in doc["cases"] if c["name"].startswith("bit")}
    assert statuses == {"WITHHELD"}
    assert all(v["passed"] is None for c in doc["cases"] for v in c["verdicts"] if v["withheld"])
    # finding 2 and 4: the review comment has no verdict computed from a secret
    _, markdown, _ = first["markdown"]
    assert "→ PASS" not in markdown and "→ FAIL" not in markdown
    assert "(withheld: reads a secret)" in markdown  # the graph's new rule reads the key


def test_reveal_judges_them_on_your_own_machine(repo, monkeypatch, capsys) -> None:
    root, outside = repo
    _outputs(root, outside, monkeypatch, capsys, KEY_A, TOKEN_A, PASSWORD_A)
    code = main(["test", ".", "--reveal", "-k", "outright"])
    out = capsys.readouterr().out
    assert code == 0 and "PASS  Orders: the key outright" in out
    assert KEY_A not in out
