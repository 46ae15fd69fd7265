"""The routing graph of a workflow: steps or agents as nodes, paths and rules as edges.

One graph per routing file (``flow.yaml``, ``transition_graph.yaml``, ``handoffs.yaml``): they
are alternative ways a runtime routes, so they are never merged. Every edge is a candidate of
``flowctx_core.routing.decide`` from its source, in the same evaluation order, so the graph and
``flowctx routes`` can never disagree: under a scenario, the edge each source's decision picks
is the winner, and the others carry their outcome (true, false, error, always, skipped...).

Labels are built for display: the edge's kind and its condition, shortened, with secrets
masked (known secret values, URI passwords, and the values a condition compares with a secret
variable or a secret-looking key). Nothing here renders: ``graph_render`` writes Mermaid, DOT
and text, ``graph_draw`` draws boxes and lines.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from flowctx_core.base.secrets import MASK, is_secret_key, mask_text
from flowctx_core.model.matrix import Loc, Matrix
from flowctx_core.model.scenarios import Scenario, SecretGuard, secret_guard
from flowctx_core.routing import Router, sources
from flowctx_core.routing.decision import Candidate, CandidateOutcome, Kind, RouteDecision
from flowctx_core.routing.model import (
    Entry,
    FlowFile,
    HandoffsFile,
    Routes,
    TransitionGraphFile,
    is_user,
)
from flowctx_core.routing.transitions import NO_MATCH

NodeKind = Literal["step", "agent", "user", "end", "missing", "other"]
#: the longest condition shown in a label before it is shortened with an ellipsis
SHORT = 48
KIND_TITLES: dict[str, str] = {
    "flow": "MemberJunction flow",
    "transition_graph": "Mozaiks transition graph",
    "handoffs": "Mozaiks handoffs (legacy)",
}
#: how a node's outcome starts when its route picks nothing: the run fails, or it ends there
FAILS = "✗ "
ENDS = "■ "
_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`""")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class GraphNode:
    """A step or agent (or the human, or the end of the run)."""

    name: str
    kind: NodeKind
    detail: str = ""  # "Action · starting", "Disabled", "the human"...
    #: under the scenario, when this source's decision picks nothing: why (masked)
    outcome: str = ""


@dataclass(frozen=True)
class GraphEdge:
    """A path or rule from ``source`` to ``target``, with its outcome under the scenario."""

    source: str
    target: str
    kind: str  # path, after_turn, context_equals, context_expression, tool_called, ...
    condition: str | None  # masked, whitespace collapsed, not shortened
    order: int  # 1-based position in the source's evaluation order
    index: int  # position of the rule or path in its file
    priority: int | None
    outcome: CandidateOutcome
    winner: bool
    loc: Loc
    note: str = ""
    #: whether a test case takes this edge (None: no test run measured it)
    tested: bool | None = None

    @property
    def short_condition(self) -> str:
        return shorten(self.condition or "")

    @property
    def label(self) -> str:
        """``path p10: stepResult.step === 'Success'``, ``after_turn``, ``tool_called: x``."""
        head = self.kind if self.priority is None else f"{self.kind} p{self.priority}"
        cond = self.short_condition
        return f"{head}: {cond}" if cond else head


@dataclass(frozen=True)
class RoutingGraph:
    """The graph of one routing file of ``workflow``."""

    workflow: str
    kind: Kind
    file: str
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
    #: the node a run starts from, when the file says (a flow's starting step)
    start: str | None = None
    #: why the runtime never reads this file ("" when it does): no edge of it is taken
    unread: str = ""

    @property
    def title(self) -> str:
        if self.unread:
            return f"{KIND_TITLES[self.kind]}, NOT READ: {self.unread}"
        return KIND_TITLES[self.kind]

    # Looked up once per node by the layout and the renderers: a scan per lookup made a
    # graph of thousands of steps quadratic (seconds per picture). The indexes are built on
    # first use and kept on the (frozen) instance.
    def _index(self) -> tuple[dict[str, GraphNode], dict[str, tuple[GraphEdge, ...]]]:
        cached = self.__dict__.get("_lookup")
        if cached is None:
            nodes: dict[str, GraphNode] = {}
            for n in self.nodes:
                nodes.setdefault(n.name, n)
            edges: dict[str, list[GraphEdge]] = {}
            for e in self.edges:
                edges.setdefault(e.source, []).append(e)
            cached = (nodes, {k: tuple(v) for k, v in edges.items()})
            object.__setattr__(self, "_lookup", cached)
        return cached  # type: ignore[no-any-return]

    def node(self, name: str) -> GraphNode | None:
        return self._index()[0].get(name)

    def edges_from(self, name: str) -> tuple[GraphEdge, ...]:
        return self._index()[1].get(name, ())

    def winner_from(self, name: str) -> GraphEdge | None:
        return next((e for e in self.edges_from(name) if e.winner), None)

    def reachable(self, start: str) -> RoutingGraph:
        """Only what a run can reach from ``start`` along any edge (``start`` included)."""
        seen = {start}
        todo = [start]
        while todo:
            here = todo.pop()
            for edge in self.edges_from(here):
                if edge.target not in seen:
                    seen.add(edge.target)
                    todo.append(edge.target)
        return replace(
            self,
            nodes=tuple(n for n in self.nodes if n.name in seen),
            edges=tuple(e for e in self.edges if e.source in seen),
            start=start,
        )


def shorten(text: str, limit: int = SHORT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- masking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelMask:
    """What must not reach a label: the secret variables' names and every known secret."""

    names: frozenset[str] = frozenset()
    guard: SecretGuard = field(default_factory=SecretGuard)

    def is_secret(self, name: str) -> bool:
        return name in self.names or is_secret_key(name)

    def text(self, text: str) -> str:
        """``text`` with known secrets and URI passwords masked, and, where it reads a secret
        variable or a secret-looking name, every quoted literal too (``${token} == '***'``):
        what a condition compares a secret with is as secret as the secret."""
        out = mask_text(self.guard.scrub_text(text))
        bare = _QUOTED.sub(" ", out)
        if any(self.is_secret(w) for w in _WORD.findall(bare)):
            out = _QUOTED.sub(lambda m: m.group(0)[0] + MASK + m.group(0)[0], out)
        return out


def label_mask(matrix: Matrix | None, env: Mapping[str, str] | None = None) -> LabelMask:
    guard = secret_guard(matrix, env)
    names = {r.name for r in matrix.rows if r.secret} if matrix is not None else set()
    return LabelMask(frozenset(names) | guard.names, guard)


# --- building ------------------------------------------------------------------------------


def scenario_args(scenario: Scenario | None) -> dict[str, Any]:
    """``decide``'s keyword arguments for ``scenario`` (what the routes view passes too)."""
    s = scenario or Scenario()
    return {
        "data": s.data if isinstance(s.data, dict) else {},
        "context_overrides": s.context_overrides,
        "context_removed": s.context_removed,
        "payload": s.payload,
        "step_result": s.step_result,
        "flow_context": s.flow_context if isinstance(s.flow_context, dict) else {},
        "tools_called": s.tools_called,
    }


def _raw(entry: Entry[Any], key: str) -> Any:
    return entry.raw.get(key) if isinstance(entry.raw, dict) else None


def _edge_kind(routes: Routes, kind: Kind, index: int) -> tuple[str, Any]:
    """The edge's kind from the rule or path as written, and its model (None if invalid)."""
    if kind == "flow":
        assert routes.flow is not None
        model: Any = routes.flow.paths[index].model
        return ("path" if model is not None else "invalid"), model
    if kind == "transition_graph":
        assert routes.transitions is not None
        rule = routes.transitions.rules[index].model
        if rule is None:
            return "invalid", None
        if rule.transition_type == "after_turn":
            return "after_turn", rule
        return rule.condition_type or "condition", rule
    assert routes.handoffs is not None
    handoff = routes.handoffs.rules[index].model
    if handoff is None:
        return "invalid", None
    if handoff.handoff_type == "after_work":
        return "after_work", handoff
    if not handoff.is_expression:
        return "llm", handoff
    return ("expression pre" if handoff.is_pre else "expression"), handoff


def _show_value(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None or isinstance(value, bool):
        return {None: "None", True: "True", False: "False"}[value]
    return repr(value)


def _condition(kind: str, model: Any, cand: Candidate, mask: LabelMask) -> str | None:
    if kind == "context_equals" and model is not None:
        key = model.condition_key or ""
        value = MASK if mask.is_secret(key) else _show_value(model.condition_value)
        return mask.text(f"{key} == {value}")
    if kind == "tool_called" and model is not None:
        return mask.text(str(model.tool_name))
    text = cand.condition
    if text is None:
        return None
    return mask.text(" ".join(text.split())) or None


def _edges(routes: Routes, decision: RouteDecision, mask: LabelMask) -> tuple[list[GraphEdge], str]:
    """The decision's candidates as edges, and why nothing was picked (masked) if so."""
    won = decision.winner.index if decision.winner is not None and not decision.failed else None
    edges = []
    for order, cand in enumerate(decision.candidates, 1):
        kind, model = _edge_kind(routes, decision.kind, cand.index)
        edges.append(
            GraphEdge(
                source=decision.source,
                target=cand.target,
                kind=kind,
                condition=_condition(kind, model, cand, mask),
                order=order,
                index=cand.index,
                priority=cand.priority,
                outcome=cand.outcome,
                winner=cand.index == won,
                loc=cand.loc,
                note=mask.text(cand.note),
            )
        )
    if won is not None:
        return edges, ""
    if decision.unread:
        return edges, "NOT READ: " + mask.text(decision.reason)
    if decision.failed:
        return edges, FAILS + mask.text(decision.reason)
    if decision.kind == "transition_graph" and decision.reason == NO_MATCH:
        return edges, ENDS + f"no rule holds: the run ends ({NO_MATCH})"
    return edges, ENDS + mask.text(decision.reason)


def _flow_nodes(routes: Routes, targets: Collection[str]) -> tuple[list[GraphNode], str | None]:
    assert routes.flow is not None
    nodes: dict[str, GraphNode] = {}
    start = None
    for entry in routes.flow.steps:
        step = entry.model
        if step is None or step.name in nodes:
            continue
        parts: list[str] = [step.type]
        if step.starting:
            parts.append("starting")
            start = start or step.name
        if step.status != "Active":
            parts.append(step.status)
        nodes[step.name] = GraphNode(step.name, "step", " · ".join(parts))
    for name in targets:
        if name not in nodes:
            nodes[name] = GraphNode(name, "missing", "no such step: the run fails here")
    return list(nodes.values()), start


def _agent_node(name: str, kind: Kind) -> GraphNode:
    human = is_user(name) if kind == "transition_graph" else name == "user"
    if human:
        return GraphNode(name, "user", "the human")
    if name == "terminate":
        return GraphNode(name, "end", "the run ends")
    if name in ("ask user", "group manager") or name.startswith("random of "):
        return GraphNode(name, "other", "AG2 target")
    return GraphNode(name, "agent", "agent")


def build_graphs(
    routes: Routes,
    matrix: Matrix,
    scenario: Scenario | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> tuple[RoutingGraph, ...]:
    """One graph per routing file of ``routes``, each edge with its outcome under
    ``scenario`` (None: the resolved context and nothing else) over the resolved ``matrix``.
    ``env``: the environment the matrix was resolved with, whose secrets are masked too."""
    mask = label_mask(matrix, env)
    args = scenario_args(scenario)
    per_kind: dict[Kind, list[RouteDecision]] = {}
    router = Router(routes, matrix, **args)
    for source in sources(routes):
        for decision in router.decide(source):
            per_kind.setdefault(decision.kind, []).append(decision)
    graphs = []
    files: tuple[tuple[Kind, FlowFile | TransitionGraphFile | HandoffsFile | None], ...] = (
        ("flow", routes.flow),
        ("transition_graph", routes.transitions),
        ("handoffs", routes.handoffs),
    )
    for kind, present in files:
        if present is None:
            continue
        edges: list[GraphEdge] = []
        why: dict[str, str] = {}
        unread = ""
        for decision in per_kind.get(kind, []):
            unread = unread or decision.unread
            mine, reason = _edges(routes, decision, mask)
            edges += mine
            if reason:
                why[decision.source] = reason
        order = [e.source for e in edges] + [e.target for e in edges]
        if kind == "flow":
            nodes, start = _flow_nodes(routes, order)
        else:
            nodes = [_agent_node(n, kind) for n in dict.fromkeys(order)]
            start = edges[0].source if edges else None
        nodes = [replace(n, outcome=why.get(n.name, "")) for n in nodes]
        graphs.append(
            RoutingGraph(
                routes.workflow,
                kind,
                present.file,
                tuple(nodes),
                tuple(edges),
                start,
                unread,
            )
        )
    return tuple(graphs)


def with_coverage(
    graphs: Sequence[RoutingGraph], untested: Collection[tuple[str, int]]
) -> tuple[RoutingGraph, ...]:
    """The graphs with each edge marked tested or not: ``untested`` holds the (file kind,
    rule index) of the rules no test case takes."""
    return tuple(
        replace(
            g,
            edges=tuple(replace(e, tested=(g.kind, e.index) not in untested) for e in g.edges),
        )
        for g in graphs
    )


def layer_order(graph: RoutingGraph) -> list[str]:
    """Node names in reading order: breadth first from the start along each node's edges
    in evaluation order, then what is left in file order; the end of the run comes last."""
    names = [n.name for n in graph.nodes]
    first = graph.start if graph.start in names else (names[0] if names else None)
    seen: dict[str, None] = {}
    todo = [first] if first is not None else []
    todo_q = deque(todo)
    rest = iter(names)  # names in file order; each is passed once, not rescanned per node
    while todo_q or len(seen) < len(names):
        if not todo_q:
            todo_q.append(next(n for n in rest if n not in seen))
        here = todo_q.popleft()
        if here in seen:
            continue
        seen[here] = None
        todo_q.extend(e.target for e in graph.edges_from(here) if e.target not in seen)
    ends = [n for n in seen if (node := graph.node(n)) is not None and node.kind == "end"]
    return [n for n in seen if n not in ends] + ends
