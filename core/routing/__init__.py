"""Routing: where a workflow goes next from a step or agent, and why.

Three routing files may sit in a workflow folder: ``flow.yaml`` (MemberJunction flow agent),
``transition_graph.yaml`` (current Mozaiks) and ``handoffs.yaml`` (legacy Mozaiks). Each route
function is pure over a parsed file and a scope; ``decide`` assembles the scope the way the
runtime would (resolved context variables overlaid with the user's scenario) and is what the
CLI and the app's routes view call.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flowctx_core.base.lazyexports import lazy_getattr
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.routing.model import Routes, load_routes_from

if TYPE_CHECKING:
    from flowctx_core.model.profiles import RuntimeProfile
    from flowctx_core.routing.decision import Candidate, RouteDecision
    from flowctx_core.routing.flow import route_flow
    from flowctx_core.routing.handoffs import route_handoffs
    from flowctx_core.routing.model import FlowFile, HandoffsFile, TransitionGraphFile
    from flowctx_core.routing.transitions import json_equal, route_transitions

#: names re-exported from the evaluating modules, imported on first use: reading routing files
#: (every snapshot does) must not pay for the expression engines (``flowctx check`` start-up)
_LAZY = {
    "FlowFile": "flowctx_core.routing.model",
    "HandoffsFile": "flowctx_core.routing.model",
    "TransitionGraphFile": "flowctx_core.routing.model",
    "Candidate": "flowctx_core.routing.decision",
    "RouteDecision": "flowctx_core.routing.decision",
    "route_flow": "flowctx_core.routing.flow",
    "route_handoffs": "flowctx_core.routing.handoffs",
    "json_equal": "flowctx_core.routing.transitions",
    "route_transitions": "flowctx_core.routing.transitions",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


def load_routes(workflow: WorkflowSnapshot) -> Routes:
    """The routing files of ``workflow``, parsed, with their diagnostics (never raises)."""
    return load_routes_from(workflow.folder, workflow.root, workflow.name)


def sources(routes: Routes) -> list[str]:
    """Every step or agent a route can be asked from, in file order without repeats.

    A flow's steps all count (a step with no path out is where the flow ends, which is itself
    an answer); for Mozaiks files, the agents that have at least one rule.
    """
    seen: dict[str, None] = {}
    if routes.flow is not None:
        for name in routes.flow.step_names:
            seen.setdefault(name, None)
        for entry in routes.flow.paths:
            if entry.model is not None:
                seen.setdefault(entry.model.from_, None)
    if routes.transitions is not None:
        for rule in routes.transitions.rules:
            if rule.model is not None:
                seen.setdefault(rule.model.source, None)
    if routes.handoffs is not None:
        for hrule in routes.handoffs.rules:
            if hrule.model is not None:
                seen.setdefault(hrule.model.source_agent, None)
    return list(seen)


def _flow_has(flow: FlowFile, source: str) -> bool:
    from flowctx_core.routing.flow import paths_from

    return source in flow.step_names or bool(paths_from(flow, source))


def default_flow_context(step: str, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """flowContext right after ``step`` ran as the first step; the user's keys win
    (``stepCount`` follows ``completedSteps`` unless given)."""
    out: dict[str, Any] = {
        "currentStepId": step,
        "completedSteps": [step],
        "executionPath": [step],
    }
    out.update(given or {})
    return out


def decide(
    routes: Routes,
    matrix: Matrix,
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    context_overrides: Mapping[str, Any] | None = None,
    context_removed: Iterable[str] = (),
    payload: Any = None,
    step_result: Any = None,
    flow_context: Mapping[str, Any] | None = None,
    tools_called: Collection[str] = (),
    unread: Mapping[str, str] | None = None,
) -> list[RouteDecision]:
    """One decision per routing file that has rules for ``source`` (none when it is unknown).

    ``unread`` maps a routing file's name to why the runtime never reads it (mozaiks 0.2.0
    never opens handoffs.yaml): its decision is still made, and marked.

    Pure over the workflow's parsed ``routes`` and its resolved ``matrix``. The scope is the
    matrix's values without ``context_removed`` and overlaid with ``context_overrides``; for a
    flow that is ``context``, with ``data``, ``payload``, ``stepResult`` and ``flowContext``
    beside it. (``Session.decide`` loads and resolves first, for callers that have neither.)
    """
    from flowctx_core.expressions.pathcontext import build_path_context
    from flowctx_core.model.scenarios import secret_reasons
    from flowctx_core.routing.flow import route_flow
    from flowctx_core.routing.handoffs import route_handoffs
    from flowctx_core.routing.handoffs import rules_for as handoff_rules_for
    from flowctx_core.routing.transitions import route_transitions
    from flowctx_core.routing.transitions import rules_for as transition_rules_for

    flow = routes.flow if routes.flow is not None and _flow_has(routes.flow, source) else None
    graph = routes.transitions
    if graph is not None and not transition_rules_for(graph, source):
        graph = None
    handoffs = routes.handoffs
    if handoffs is not None and not handoff_rules_for(handoffs, source):
        handoffs = None
    if flow is None and graph is None and handoffs is None:
        return []

    removed = frozenset(context_removed)
    # removed first, then the overrides: a key both removed and edited keeps the edit, as in
    # the scratchpad (flowctx_core.model.scenarios.apply_overrides)
    context = {k: v for k, v in matrix.values.items() if k not in removed}
    context.update(context_overrides or {})
    # Mozaiks: what the user typed may be secret; resolved secrets are masked like the matrix
    secret = {*(context_overrides or {}), *(r.name for r in matrix.rows if r.secret)}

    decisions: list[RouteDecision] = []
    if flow is not None:
        scope = build_path_context(
            payload=payload,
            step_result=step_result,
            flow_context=default_flow_context(source, flow_context),
            data=dict(data or {}),
            context=context,
        )
        # per value, as the scratchpad's explain: the secret variables under ``context``
        decisions.append(route_flow(flow, source, scope, secret_reasons(matrix, "context")))
    if graph is not None:
        decisions.append(
            route_transitions(graph, source, context, tools_called, secret_names=secret)
        )
    if handoffs is not None:
        decision = route_handoffs(handoffs, source, context, secret_names=secret)
        why = (unread or {}).get("handoffs.yaml")
        decisions.append(replace(decision, unread=why) if why else decision)
    return decisions


def unread_routing(runtime: RuntimeProfile) -> dict[str, str]:
    """The routing files ``runtime`` never opens, each with why (for ``decide``)."""
    return {
        name: f"runtime {runtime.name} never reads {name}: its rules route nothing"
        for name in runtime.unread_files
    }


__all__ = [
    "Candidate",
    "FlowFile",
    "HandoffsFile",
    "RouteDecision",
    "Routes",
    "TransitionGraphFile",
    "decide",
    "default_flow_context",
    "json_equal",
    "load_routes",
    "route_flow",
    "route_handoffs",
    "route_transitions",
    "sources",
    "unread_routing",
]
