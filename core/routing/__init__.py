"""Routing: where a workflow goes next from a step or agent, and why.

Three routing files may sit in a workflow folder: ``flow.yaml`` (MemberJunction flow agent),
``transition_graph.yaml`` (current Mozaiks) and ``handoffs.yaml`` (legacy Mozaiks). Each route
function is pure over a parsed file and a scope; ``decide`` assembles the scope the way the
runtime would (resolved context variables overlaid with the user's scenario) and is what the
CLI and the app's routes view call.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flowctx_core.base.lazyexports import lazy_getattr
from flowctx_core.model.filenames import HANDOFFS_FILE, TRANSITIONS_FILE
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


def load_routes(workflow: WorkflowSnapshot, runtime: RuntimeProfile | None = None) -> Routes:
    """The routing files of ``workflow``, parsed, with their diagnostics (never raises), as
    ``runtime`` (default: the workflow's) reads them."""
    return load_routes_from(
        workflow.folder, workflow.root, workflow.name, runtime or workflow.runtime
    )


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


def matching_sources(routes: Routes, wanted: str) -> list[str]:
    """The known sources a name given by the user means: itself, else the same name in another
    case, else, for a name the Mozaiks runtime reads as the human (user, user_proxy,
    UserProxyAgent...), the Mozaiks sources that are such a name. More than one is ambiguous."""
    from dataclasses import replace

    from flowctx_core.routing.model import is_user

    known = sources(routes)
    if wanted in known:
        return [wanted]
    folded = wanted.strip().casefold()
    matches = [name for name in known if name.casefold() == folded]
    if not matches and is_user(wanted):
        # only Mozaiks files have the human as an agent; a flow step is just a step name
        mozaiks = sources(replace(routes, flow=None))
        matches = [name for name in mozaiks if is_user(name)]
    return matches


def ends_the_run(
    routes: Routes,
    workflow: WorkflowSnapshot,
    wanted: str,
    *,
    agents: Collection[str] = (),
    mozaiks_workflow: bool = False,
) -> bool:
    """The Mozaiks graph has no rule for this speaker: its default target ends the run.

    Only for the human (``user``), the contract's own agents and ``agents`` (the runtime's,
    from agents.yaml): any other name is more likely a typo. ``mozaiks_workflow``: the runtime
    reads the folder as a Mozaiks workflow (it holds orchestrator.yaml) even without a
    transition_graph.yaml, so every turn of its agents ends the run.
    """
    from flowctx_core.routing.model import is_user

    if routes.transitions is None and not mozaiks_workflow:
        return False
    return is_user(wanted) or wanted in workflow.agents or wanted in agents


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


class Router:
    """Route decisions from any source of one workflow under one scenario.

    The scope (the matrix's values without ``context_removed``, overlaid with
    ``context_overrides``, and which of its names are secret) is built once here and shared by
    every source, rather than built again per source: a graph or a review routes from every
    source, and a workflow with hundreds of agents and thousands of variables made that cost
    sources x variables. Decisions only read the shared scope (their explain trees are built
    later over it), so sharing it changes no answer.
    """

    def __init__(
        self,
        routes: Routes,
        matrix: Matrix,
        *,
        data: Mapping[str, Any] | None = None,
        context_overrides: Mapping[str, Any] | None = None,
        context_removed: Iterable[str] = (),
        payload: Any = None,
        step_result: Any = None,
        flow_context: Mapping[str, Any] | None = None,
        tools_called: Sequence[str] = (),
        unread: Mapping[str, str] | None = None,
    ) -> None:
        from flowctx_core.model.scenarios import secret_reasons

        self.routes = routes
        removed = frozenset(context_removed)
        # removed first, then the overrides: a key both removed and edited keeps the edit, as
        # in the scratchpad (flowctx_core.model.scenarios.apply_overrides)
        context = {k: v for k, v in matrix.values.items() if k not in removed}
        context.update(context_overrides or {})
        self.context = context
        # Mozaiks: the variables the matrix treats as secret are masked as it masks them (a
        # value typed for one of them too); a value typed for any other name is the user's own
        # input, shown back (secret-looking keys are masked by name wherever they come from)
        self.secret = {r.name for r in matrix.rows if r.secret}
        # per value, as the scratchpad's explain: the secret variables under ``context``
        self.flow_secrets = secret_reasons(matrix, "context") if routes.flow is not None else {}
        self.data = data
        self.payload = payload
        self.step_result = step_result
        self.flow_context = flow_context
        self.tools_called = tools_called
        #: routing file name -> why the runtime never reads it: its decision is marked and
        #: never routes (the routes' runtime says which files it never opens)
        self.unread = {name: routes.unread(name) for name in routes.runtime.unread_files}
        self.unread.update(unread or {})

    def decide(self, source: str) -> list[RouteDecision]:
        """One decision per routing file that has rules for ``source`` (none when unknown)."""
        from flowctx_core.expressions.pathcontext import build_path_context
        from flowctx_core.routing.flow import route_flow
        from flowctx_core.routing.handoffs import route_handoffs
        from flowctx_core.routing.handoffs import rules_for as handoff_rules_for
        from flowctx_core.routing.transitions import route_transitions
        from flowctx_core.routing.transitions import rules_for as transition_rules_for

        routes = self.routes
        flow = routes.flow if routes.flow is not None and _flow_has(routes.flow, source) else None
        graph = routes.transitions
        if graph is not None and not transition_rules_for(graph, source):
            graph = None
        handoffs = routes.handoffs
        if handoffs is not None and not handoff_rules_for(handoffs, source):
            handoffs = None
        decisions: list[RouteDecision] = []
        if flow is not None:
            scope = build_path_context(
                payload=self.payload,
                step_result=self.step_result,
                flow_context=default_flow_context(source, self.flow_context),
                data=dict(self.data or {}),
                context=self.context,
            )
            decisions.append(route_flow(flow, source, scope, self.flow_secrets))
        rules = routes.runtime.routing
        if graph is not None:
            decision = route_transitions(
                graph,
                source,
                self.context,
                self.tools_called,
                secret_names=self.secret,
                order=rules.order,
                tool_routing=rules.tool_routing,
            )
            decisions.append(_not_read(decision, self.unread.get(TRANSITIONS_FILE)))
        if handoffs is not None:
            decision = route_handoffs(handoffs, source, self.context, secret_names=self.secret)
            decisions.append(_not_read(decision, self.unread.get(HANDOFFS_FILE)))
        return decisions


def _not_read(decision: RouteDecision, why: str | None) -> RouteDecision:
    """A decision of a file the runtime never opens: its rules are listed, none is evaluated,
    nothing wins, and the run neither ends nor fails because of it."""
    if not why:
        return decision
    from flowctx_core.routing.decision import Candidate

    candidates = tuple(
        Candidate(
            c.index,
            c.description,
            c.condition,
            c.dialect,
            "skipped",
            c.target,
            c.priority,
            None,
            None,
            c.loc,
            "not read by the runtime",
        )
        for c in decision.candidates
    )
    return replace(
        decision,
        candidates=candidates,
        winner=None,
        reason=why,
        ended=False,
        failed=False,
        unread=why,
    )


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
    tools_called: Sequence[str] = (),
    unread: Mapping[str, str] | None = None,
) -> list[RouteDecision]:
    """One decision per routing file that has rules for ``source`` (none when it is unknown).

    ``unread`` maps a routing file's name to why the runtime never reads it (mozaiks 0.2.0
    never opens handoffs.yaml): its decision is still made, and marked.

    Pure over the workflow's parsed ``routes`` and its resolved ``matrix``. The scope is the
    matrix's values without ``context_removed`` and overlaid with ``context_overrides``; for a
    flow that is ``context``, with ``data``, ``payload``, ``stepResult`` and ``flowContext``
    beside it. (``Session.decide`` loads and resolves first, for callers that have neither;
    ``Router`` decides from many sources over one scope.)
    """
    return Router(
        routes,
        matrix,
        data=data,
        context_overrides=context_overrides,
        context_removed=context_removed,
        payload=payload,
        step_result=step_result,
        flow_context=flow_context,
        tools_called=tools_called,
        unread=unread,
    ).decide(source)


def unread_routing(runtime: RuntimeProfile) -> dict[str, str]:
    """The routing files ``runtime`` never opens, each with why (for ``decide``)."""
    return {
        name: Routes(workflow="", runtime=runtime).unread(name) for name in runtime.unread_files
    }


__all__ = [
    "Candidate",
    "FlowFile",
    "HandoffsFile",
    "RouteDecision",
    "Router",
    "Routes",
    "TransitionGraphFile",
    "decide",
    "default_flow_context",
    "ends_the_run",
    "json_equal",
    "load_routes",
    "matching_sources",
    "route_flow",
    "route_handoffs",
    "route_transitions",
    "sources",
    "unread_routing",
]
