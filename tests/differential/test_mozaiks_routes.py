"""Every rule of every routing graph against mozaiks 0.2.0's own routing (``mozaiks_routes.py``):
the release's shipped workflows and the demo, where every rule must have been the expected
winner at least once, and generated graphs whose rule order mixes after_turn fallbacks and
condition rules (two shards, each one harness process). 0 disagreements is the bar."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from flowctx_tui.cli.workspace_args import demo_path
from tests.differential.mozaiks_oracle import MozaiksOracle, factory_workflows
from tests.differential.mozaiks_routes import (
    Graph,
    Tally,
    compare,
    every_rule,
    generated_graph,
    hop_cases,
    mixes_orders,
    request,
    trace_cases,
)

#: generated graphs: SHARDS x GENERATED, each shard its own seed and harness process
GENERATED = 500
SHARDS = 2


def _agents(folder: Path) -> list[str]:
    path = folder / "agents.yaml"
    data = yaml.safe_load(path.read_text()) if path.is_file() else None
    items = data.get("agents", []) if isinstance(data, dict) else (data or [])
    return [str(a["name"]).strip() for a in items if isinstance(a, dict) and a.get("name")]


def _orchestrator(folder: Path) -> dict:
    path = folder / "orchestrator.yaml"
    data = yaml.safe_load(path.read_text()) if path.is_file() else None
    return data if isinstance(data, dict) else {}


def _graphs(root: Path, prefix: str) -> list[Graph]:
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        graph = folder / "transition_graph.yaml"
        if not graph.is_file():
            continue
        orch = _orchestrator(folder)
        out.append(
            Graph(
                f"{prefix}:{folder.name}",
                graph.read_text(),
                _agents(folder),
                orch.get("initial_agent"),
                orch.get("max_turns", 50),
            )
        )
    return out


def _run(
    oracle: MozaiksOracle,
    graphs: list[Graph],
    rng: random.Random,
    *,
    tries: int,
    variants: int,
    traces: int,
) -> Tally:
    hops = {g.label: hop_cases(g, rng, tries=tries, variants=variants) for g in graphs}
    scripts = {g.label: trace_cases(g, hops[g.label], rng, traces) for g in graphs}
    (answers,) = oracle.run([request(graphs, hops, scripts)])
    tally = Tally()
    compare(graphs, hops, scripts, answers, tally)
    return tally


def _figures(tally: Tally) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(tally.counts.items()))
    return f"{tally.agreed} agreed, {len(tally.disagreements)} disagreements ({kinds})"


def test_every_rule_of_the_shipped_workflows_and_the_demo(mozaiks_oracle: MozaiksOracle) -> None:
    shipped = _graphs(factory_workflows(mozaiks_oracle.python), "shipped")
    demo = _graphs(demo_path() / "workflows", "demo")
    # the release ships 15 workflows; those with a transition graph are all compared
    assert len({g.label for g in shipped}) >= 10 and demo
    graphs = shipped + demo
    tally = _run(mozaiks_oracle, graphs, random.Random(20261206), tries=300, variants=8, traces=6)
    figures = _figures(tally)
    print(f"\nroute differential, shipped + demo: {figures}")
    assert tally.disagreements == [], figures + "\n" + "\n".join(tally.disagreements[:20])
    # coverage of the comparison itself: every rule won, on both sides, at least once
    rules = every_rule(graphs)
    never = sorted(
        f"{label} rule {index} (from {source})"
        for (label, index), source in rules.items()
        if (label, index) not in tally.won
    )
    print(f"rules that were the expected winner: {len(rules) - len(never)}/{len(rules)}")
    assert never == [], never
    assert tally.counts.get("trace", 0) >= len(graphs)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_generated_graphs_that_mix_fallbacks_and_conditions(
    mozaiks_oracle: MozaiksOracle, shard: int
) -> None:
    rng = random.Random(7919 * (shard + 1))
    graphs = [generated_graph(shard * GENERATED + i, rng) for i in range(GENERATED)]
    assert all(mixes_orders(g) for g in graphs)
    tally = _run(mozaiks_oracle, graphs, rng, tries=40, variants=3, traces=2)
    figures = _figures(tally)
    print(f"\nroute differential, generated shard {shard} ({GENERATED} graphs): {figures}")
    assert tally.disagreements == [], figures + "\n" + "\n".join(tally.disagreements[:20])
    # the draw reaches every kind of answer: hops with and without tools, traces, refusals
    assert {"hop", "hop+tools", "trace"} <= set(tally.counts)
