"""A flow agent's routing graph under a scenario: steps as nodes, paths as edges, each edge
with its outcome in the decision ``machine.next_hop`` makes from its step (so the graph and
``flowctx routes`` never disagree). A step's own result is the one 5.51.3 stores for its type
unless the scenario gives one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flowctx_core.base.secrets import mask_text
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.model import Agent
from flowctx_core.routing.graph import ENDS, FAILS, GraphEdge, GraphNode, RoutingGraph


def _detail(agent: Agent, step: Any, first: str | None) -> str:
    parts = [step.type or "no StepType"]
    if step.starting:
        parts.append("starting" if step.name == first else "starting (never runs)")
    if step.status != "Active":
        parts.append(step.status)
    return " · ".join(parts)


def build_graph(agent: Agent, scenario: Mapping[str, Any] | None = None) -> RoutingGraph:
    sc = dict(scenario or {})
    starts = machine.starting_steps(agent)
    first = starts[0].name if starts else None
    nodes: dict[str, GraphNode] = {}
    edges: list[GraphEdge] = []
    for step in agent.steps:
        nodes.setdefault(step.name, GraphNode(step.name, "step", _detail(agent, step, first)))
    for step in agent.steps:
        result = sc.get("step_result")
        if result is None:
            result = machine.default_result(step, sc.get("payload"))
        hop = machine.next_hop(
            agent,
            step,
            result,
            sc.get("payload"),
            sc.get("data"),
            sc.get("context"),
            sc.get("flow_context"),
        )
        cands = {c.index: c for a in hop.attempts[:1] for c in a.candidates}
        winner_path = None
        if hop.winner is not None and hop.attempts and len(hop.attempts) == 1:
            winner_path = next((c.index for c in cands.values() if c.note.endswith("chosen")), None)
        for order, p in enumerate(machine.sorted_paths(agent, step.id), 1):
            index = agent.path_index[id(p)]
            cand = cands.get(index)
            target = agent.name_of(p.destination) if p.destination else "?"
            if agent.step(p.destination) is None:
                nodes.setdefault(
                    target, GraphNode(target, "missing", "no such step: the run fails here")
                )
            cond = " ".join(p.condition.split()) if p.condition else None
            edges.append(
                GraphEdge(
                    source=step.name,
                    target=target,
                    kind="path",
                    condition=mask_text(cond) if cond else cond,
                    order=order,
                    index=index,
                    priority=p.priority,
                    outcome=cand.outcome if cand else "skipped",
                    winner=index == winner_path,
                    loc=p.at("Condition") if p.condition else p.loc,
                    note=mask_text(cand.note) if cand else "",
                )
            )
        entered = machine.enter(step)
        failure = entered.failure or entered.fatal
        if failure:
            n = nodes[step.name]
            nodes[step.name] = GraphNode(
                n.name, n.kind, n.detail, FAILS + mask_text(f"entering it fails: {failure}")
            )
        elif hop.winner is None or len(hop.attempts) > 1:
            prefix = FAILS if hop.failed else ENDS
            if hop.winner is not None:
                text = f"→ {hop.winner.name}: {hop.reason}"
            else:
                text = hop.reason
            n = nodes[step.name]
            nodes[step.name] = GraphNode(n.name, n.kind, n.detail, prefix + mask_text(text))
    return RoutingGraph(agent.name, "flow", agent.file, tuple(nodes.values()), tuple(edges), first)
