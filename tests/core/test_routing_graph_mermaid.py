"""The Mermaid that ``flowctx graph`` writes, parsed by the real mermaid package under node
(what GitHub and GitLab render Markdown ``mermaid`` blocks with).

``mermaid@11.17.2`` and ``jsdom`` are installed with npm into the test cache (``tests/.cache``
or ``$FLOWCTX_TEST_CACHE``) on first use, as the differential tests install MemberJunction.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from flowctx_core.routing import load_routes
from flowctx_core.routing.graph import build_graphs
from flowctx_core.routing.graph_render import to_mermaid
from flowctx_core.session import open_session
from flowctx_tui.cli.workspace_args import demo_path
from tests.core.test_routing_graph import graphs
from tests.prerequisites import Unavailable, npm_install

PACKAGES = ("mermaid@11.17.2", "jsdom@29.1.1")
HARNESS = Path(__file__).with_name("mermaid_parse.mjs")


@pytest.fixture(scope="module")
def mermaid_root() -> Path:
    try:
        return npm_install("mermaid-11.17.2", PACKAGES, "node_modules/mermaid/package.json")
    except Unavailable as exc:
        pytest.skip(f"parsing with the real mermaid is not available: {exc}")


def parse(root: Path, diagrams: list[str]) -> list[dict[str, object]]:
    done = subprocess.run(
        ["node", str(HARNESS), str(root)],
        input=json.dumps(diagrams),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_harness_refuses_broken_mermaid(mermaid_root):
    # without this, a harness that accepted everything would pass the tests below
    answers = parse(mermaid_root, ['flowchart TD\n  a["x"] --> end\n', "flowchart TD\n  a[b\n"])
    assert [a["ok"] for a in answers] == [False, False]


def test_every_demo_graph_parses(mermaid_root):
    session = open_session(demo_path(), env={})
    diagrams = []
    for workflow in session.workflows():
        routes = load_routes(session.load(workflow))
        built = build_graphs(routes, session.matrix(workflow))
        diagrams.append(to_mermaid(built, ["flowctx graph: a comment; with | and #"]))
        diagrams += [to_mermaid([g]) for g in built]
    answers = parse(mermaid_root, diagrams)
    assert answers == [{"ok": True, "type": "flowchart-v2"}] * len(diagrams)


def test_every_routing_file_kind_and_hostile_names_parse(mermaid_root, workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": "definitions: {}\n",
            "workflows/W/flow.yaml": """
            steps:
              - {name: 'end', type: Action, starting: true}
              - {name: 'say "hi" [now]; #1 | <b> %% x', type: Action}
              - {name: 'subgraph', type: Action, status: Disabled}
              - {name: 'étape → 2', type: Action}
            paths:
              - {from: 'end', to: 'say "hi" [now]; #1 | <b> %% x',
                 condition: "data.x === '%%;|\\"' && data.y < 2 || data.z > 1"}
              - {from: 'end', to: subgraph, priority: 5, condition: "data.tag === `a{b}`"}
              - {from: 'end', to: 'étape → 2', priority: -1}
              - {from: subgraph, to: 'nowhere (missing)'}
            """,
            "workflows/W/transition_graph.yaml": """
            transitions:
              - {source: 'o', transition_type: after_turn, target: {type: StayTarget}}
              - {source: 'x', transition_type: condition, condition_type: context_expression,
                 condition: "${a} == 'b;c' and not ${d}", target: {type: TerminateTarget}}
              - {source: 'x', transition_type: after_turn,
                 target: {type: RandomAgentTarget, agents: [o, 'end']}}
            """,
            "workflows/W/handoffs.yaml": """
            handoff_rules:
              - {source_agent: 'class', target_agent: 'click', handoff_type: condition,
                 condition: 'Ask "why" <now>', condition_type: llm}
              - {source_agent: 'class', target_agent: END, handoff_type: after_work}
            """,
        }
    )
    built = graphs(root, "W")
    assert [g.kind for g in built] == ["flow", "transition_graph", "handoffs"]
    diagrams = [to_mermaid(built), *(to_mermaid([g]) for g in built)]
    answers = parse(mermaid_root, diagrams)
    assert answers == [{"ok": True, "type": "flowchart-v2"}] * len(diagrams)
