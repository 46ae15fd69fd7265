"""Big routing workspaces for the scale tests and benchmarks, written to a folder.

``write_routing_workspace(root, agents)`` writes one workflow, ``Big``, whose contract declares
20 variables and ``agents`` agents, with a routing file of 5 rules per agent (4 conditions and a
fallback): ``agents=500`` is 500 agents and 2,500 rules per file. Every condition is distinct
(its constant is unique), so no cache of compiled conditions can stand in for an index.
``make_routing_repo`` commits it to a git repository with saved scenarios and edits the
working tree, for ``flowctx diff``.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

WORKFLOW = "Big"
RULES_PER_AGENT = 5
VARIABLES = 20
#: the routing files, by the name ``--file`` takes
KINDS = ("transition_graph", "handoffs", "flow")


def _contract(agents: int) -> str:
    lines = ["definitions:"]
    for v in range(VARIABLES):
        lines += [f"  v{v}:", "    type: integer", f'    source: {{type: config, default: "{v}"}}']
    lines.append("agents:")
    lines += [f"  A{a}: {{variables: [v{a % VARIABLES}]}}" for a in range(agents)]
    return "\n".join(lines) + "\n"


def _threshold(agent: int, rule: int) -> int:
    return agent * RULES_PER_AGENT + rule + 10


def _transition_graph(agents: int) -> str:
    out = ["transition_rules:"]
    for a in range(agents):
        for r in range(RULES_PER_AGENT - 1):
            out += [
                f"  - source_agent: A{a}",
                f"    target_agent: A{(a + r + 1) % agents}",
                "    transition_type: condition",
                "    condition_type: context_expression",
                f'    context_expression: "${{v{(a + r) % VARIABLES}}} > {_threshold(a, r)}"',
                "    transition_target: AgentTarget",
            ]
        out += [
            f"  - source_agent: A{a}",
            f"    target_agent: A{(a + 1) % agents}",
            "    transition_type: after_turn",
            "    transition_target: AgentTarget",
        ]
    return "\n".join(out) + "\n"


def _handoffs(agents: int) -> str:
    out = ["handoff_rules:"]
    for a in range(agents):
        for r in range(RULES_PER_AGENT - 1):
            out += [
                f"  - source_agent: A{a}",
                f"    target_agent: A{(a + r + 1) % agents}",
                "    handoff_type: condition",
                "    condition_type: expression",
                f'    condition: "${{v{(a + r) % VARIABLES}}} > {_threshold(a, r)}"',
            ]
        out += [
            f"  - source_agent: A{a}",
            f"    target_agent: A{(a + 1) % agents}",
            "    handoff_type: after_work",
        ]
    return "\n".join(out) + "\n"


def _flow(agents: int) -> str:
    out = [f"agent: {WORKFLOW}", "steps:", "  - {name: A0, type: Action, starting: true}"]
    out += [f"  - {{name: A{a}, type: Action}}" for a in range(1, agents)]
    out.append("paths:")
    for a in range(agents):
        for r in range(RULES_PER_AGENT):
            cond = f"context.v{(a + r) % VARIABLES} > {_threshold(a, r)}"
            to = (a + r + 1) % agents
            out.append(f'  - {{from: A{a}, to: A{to}, priority: {r}, condition: "{cond}"}}')
    return "\n".join(out) + "\n"


_WRITERS = {
    "transition_graph": ("transition_graph.yaml", _transition_graph),
    "handoffs": ("handoffs.yaml", _handoffs),
    "flow": ("flow.yaml", _flow),
}


def write_routing_workspace(root: Path, agents: int, kinds: Iterable[str] = KINDS) -> Path:
    """The workspace at ``root`` (created): ``workflows/Big`` with the routing files ``kinds``."""
    folder = root / "workflows" / WORKFLOW
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "context_variables.yaml").write_text(_contract(agents), encoding="utf-8")
    for kind in kinds:
        name, write = _WRITERS[kind]
        (folder / name).write_text(write(agents), encoding="utf-8")
    return root


def _git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def make_routing_repo(
    root: Path, agents: int, scenarios: int = 5, kinds: Iterable[str] = ("transition_graph",)
) -> Path:
    """A git repository at ``root`` holding the workspace, committed with ``scenarios`` saved
    scenarios, and then edited in the working tree: ``v3``'s default goes from 3 to 1000, so
    the winner moves for the agents with a rule on ``v3`` whose threshold (growing with the
    agent's number) 1000 passes. Returns the workspace."""
    write_routing_workspace(root, agents, kinds)
    saved = root / ".flowctx" / "scenarios" / WORKFLOW
    saved.mkdir(parents=True)
    for s in range(scenarios):
        body = {
            "format": "flowctx-scenario/1",
            "workflow": WORKFLOW,
            "context": {f"v{(s * 3) % VARIABLES}": s * 50},
            "data": {"n": s},
        }
        (saved / f"s{s}.json").write_text(json.dumps(body), encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    contract = root / "workflows" / WORKFLOW / "context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(text.replace('default: "3"', 'default: "1000"'), encoding="utf-8")
    return root
