"""A real git repository with a workspace in it, for review mode (``flowctx diff``, ``--base``).

The first commit is the base; ``change(...)`` makes the edits the tests review: a value changed
(``region`` eu -> us), a variable added (``currency``), a transition condition changed
(``${max_items} > 3`` -> ``> 10``, so the Planner's winner moves from Reviewer to the user),
a secret's default changed (its value must never be shown), and a flow path condition changed
(only a saved scenario reaches it), and one exposure problem fixed while another appears.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import write_tree

SECRET_OLD = "tok-old-8c1f2e9a77"
SECRET_NEW = "tok-new-5d0b9e13aa"

CONTRACT = f"""
definitions:
  region:
    type: string
    source: {{type: config, default: "eu"}}
  max_items:
    type: integer
    source: {{type: config, default: "5"}}
  api_token:
    type: string
    source:
      type: config
      default: "{SECRET_OLD}"
  legacy_flag:
    type: boolean
    source: {{type: config, default: "true"}}
  unused_note:
    type: string
    source: {{type: config, default: "n/a"}}
agents:
  Planner: {{variables: [region, max_items, legacy_flag]}}
  Reviewer: {{variables: [region, api_token]}}
"""

GRAPH = """
transition_rules:
  - source_agent: Planner
    target_agent: Reviewer
    transition_type: condition
    condition_type: context_expression
    context_expression: "${max_items} > 3"
    transition_target: AgentTarget
  - source_agent: Planner
    target_agent: user
    transition_type: after_turn
    transition_target: RevertToUserTarget
"""

REFUND_CONTRACT = """
definitions:
  limit:
    type: integer
    source: {type: config, default: "100"}
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
  - from: Check
    to: Pay
    priority: 10
    condition: "data.approved === true"
  - from: Check
    to: Deny
    priority: 0
"""

#: a saved scenario: only under it does the flow's condition hold
APPROVED = {"format": "flowctx-scenario/1", "workflow": "Refunds", "data": {"approved": True}}


def git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        # `git status` must not refresh the index: the tests compare it before and after
        "GIT_OPTIONAL_LOCKS": "0",
    }
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=env
    ).stdout


def make_repo(tmp_path: Path) -> Path:
    """``<tmp>/repo`` with the workspace at ``repo/ws``, committed once (tag ``base``)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    ws = repo / "ws"
    (ws / "workflows").mkdir(parents=True)
    write_tree(
        ws,
        {
            "workflows/Orders/context_variables.yaml": CONTRACT,
            "workflows/Orders/transition_graph.yaml": GRAPH,
            "workflows/Refunds/context_variables.yaml": REFUND_CONTRACT,
            "workflows/Refunds/flow.yaml": FLOW,
            ".flowctx/scenarios/Refunds/approved.json": APPROVED,
        },
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    return repo


def change(ws: Path) -> None:
    """The reviewed edits, written to the working tree (not committed)."""
    contract = ws / "workflows/Orders/context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    text = text.replace('default: "eu"', 'default: "us"')
    text = text.replace(SECRET_OLD, SECRET_NEW)
    text = text.replace(
        '  legacy_flag:\n    type: boolean\n    source: {type: config, default: "true"}\n',
        '  currency:\n    type: string\n    source: {type: config, default: "EUR"}\n',
    )
    # currency is exposed to no agent (a problem added); unused_note now is (one removed)
    text = text.replace("max_items, legacy_flag]", "max_items]")
    text = text.replace("[region, api_token]", "[region, api_token, unused_note]")
    contract.write_text(text, encoding="utf-8")
    graph = ws / "workflows/Orders/transition_graph.yaml"
    graph.write_text(
        graph.read_text(encoding="utf-8").replace("${max_items} > 3", "${max_items} > 10"),
        encoding="utf-8",
    )
    flow = ws / "workflows/Refunds/flow.yaml"
    flow.write_text(
        flow.read_text(encoding="utf-8").replace(
            "data.approved === true", "data.approved === true && data.amount > 0"
        ),
        encoding="utf-8",
    )


def commit_change(repo: Path) -> None:
    change(repo / "ws")
    git(repo, "commit", "-q", "-am", "change")


def tree_state(repo: Path) -> dict[str, object]:
    """Everything a read must leave as it is: status, stash, index, each file's bytes and
    modification time."""
    files: dict[str, tuple[str, int]] = {}
    for path in sorted(repo.rglob("*")):
        if path.is_file() and ".git" not in path.relative_to(repo).parts:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            files[path.relative_to(repo).as_posix()] = (digest, path.stat().st_mtime_ns)
    index = repo / ".git" / "index"
    return {
        "index": (hashlib.sha256(index.read_bytes()).hexdigest(), index.stat().st_mtime_ns),
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "stash": git(repo, "stash", "list"),
        "files": files,
        "refs": git(repo, "for-each-ref"),
    }


def scenario_json(**extra: object) -> str:
    return json.dumps({**APPROVED, **extra})


def make_demo_review(tmp_path: Path) -> Path:
    """The docs' review-mode example (docs/review.md): the demo committed with a saved
    scenario, then edited in the working tree (a default, a new variable, a transition
    condition, a flow condition)."""
    from flowctx_tui.cli.workspace_args import demo_path

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    shop = tmp_path / "shop"
    shutil.copytree(demo_path(), shop)
    write_tree(
        shop,
        {
            ".flowctx/scenarios/Approvals/validated.json": {
                "format": "flowctx-scenario/1",
                "workflow": "Approvals",
                "stepResult": {"step": "Retry", "priorStepResult": [{"success": True}]},
            }
        },
    )
    git(shop, "init", "-q")
    git(shop, "add", "-A")
    git(shop, "commit", "-q", "-m", "demo")

    def edit(rel: str, old: str, new: str) -> None:
        path = shop / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    contract = "workflows/Approvals/context_variables.yaml"
    edit(contract, 'default: "30"', 'default: "45"')
    edit(
        contract,
        "  approval_request:\n    type: object",
        "  escalation_channel:\n    type: string\n"
        "    description: Where large production spends are escalated.\n"
        '    source:\n      type: config\n      default: "#approvals-escalation"\n'
        "  approval_request:\n    type: object",
    )
    edit(
        "workflows/AppGenerator/transition_graph.yaml",
        "    condition_key: interview_complete\n    condition_value: true",
        "    condition_key: interview_complete\n    condition_value: false",
    )
    edit(
        "workflows/Approvals/flow.yaml",
        'condition: "stepResult.priorStepResult[0].success === true"',
        'condition: "stepResult.priorStepResult[0].success === true && payload.amount > 0"',
    )
    return shop
