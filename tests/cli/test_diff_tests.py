"""``flowctx diff`` lists the test cases whose verdict a change flips, on a real git repository:
the head's test files run against both sides, in every format, with secrets masked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.diff_repo import git

TESTS = """
workflow: W
cases:
  - name: the planner goes to review
    expect:
      route: {from: Planner, to: Reviewer}
      values: {region: eu}
  - name: the token is set
    expect:
      values: {api_token: "tok-kept-3e9d7a51c2"}
"""
CONTRACT = """
definitions:
  region: {type: string, source: {type: config, default: "eu"}}
  max_items: {type: integer, source: {type: config, default: "5"}}
  api_token: {type: string, source: {type: config, env_var: API_TOKEN}}
agents:
  Planner: {variables: [region, max_items]}
  Reviewer: {variables: [region]}
"""
GRAPH = """
transition_rules:
  - source_agent: Planner
    target_agent: Reviewer
    transition_type: condition
    condition_type: context_expression
    context_expression: "${max_items} > 3"
  - source_agent: Planner
    target_agent: user
    transition_type: after_turn
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "shop"
    for rel, text in {
        "flowctx.yaml": "env:\n  API_TOKEN: tok-kept-3e9d7a51c2\n",
        "workflows/W/context_variables.yaml": CONTRACT,
        "workflows/W/transition_graph.yaml": GRAPH,
        "workflows/W/orchestrator.yaml": "workflow_name: W\n",
        ".flowctx/tests/w.yaml": TESTS,
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip("\n"))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    graph = root / "workflows/W/transition_graph.yaml"
    graph.write_text(graph.read_text().replace("> 3", "> 10"))
    return root


def test_diff_lists_the_case_the_change_breaks(repo: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(repo)
    assert main(["diff", ".", "--base", "HEAD", "--width", "100"]) == 0
    out = capsys.readouterr().out
    assert "tests whose verdict changes:" in out
    assert "PASS → FAIL  W: the planner goes to review  (.flowctx/tests/w.yaml:3:5)" in out
    assert "expected from Planner to Reviewer" in out
    assert "the token is set" not in out  # its verdict did not change
    assert "tok-kept-3e9d7a51c2" not in out
    assert main(["diff", ".", "--base", "HEAD", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(t["case"], t["before"], t["after"]) for t in doc["tests"]] == [
        ("the planner goes to review", "PASS", "FAIL")
    ]
    assert main(["diff", ".", "--base", "HEAD", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "### Tests whose verdict changes" in md
    assert "| PASS → FAIL | `W`: the planner goes to review |" in md
    # --exit-code: a changed verdict is a change
    assert main(["diff", ".", "--base", "HEAD", "--exit-code", "--format", "json"]) == 1


def test_a_case_the_change_fixes_and_the_tests_of_a_committed_head(
    repo: Path, capsys, monkeypatch
) -> None:
    git(repo, "commit", "-q", "-am", "raise the bar")
    monkeypatch.chdir(repo)
    # the other way round, both sides revisions: the test files come from the head revision
    assert main(["diff", ".", "--base", "HEAD", "--head", "HEAD~1", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(t["before"], t["after"]) for t in doc["tests"]] == [("FAIL", "PASS")]
