"""``flowctx graph``: a workflow's routing files as a graph (Mermaid, DOT or text).

Steps or agents are nodes; paths and rules are edges labelled with their kind and shortened
condition, in evaluation order. Under the scenario (the same options as ``flowctx routes``, or
a saved scenario with ``--scenario``) the edge each node's route takes is marked. ``--from``
keeps what a run can reach from one step or agent. Condition values that are secret are
masked in every label. Exit 0, or 2 for bad arguments or an unknown ``--from``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from flowctx_core.base.diagnostics import did_you_mean
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_core.model.scenarios import Scenario, list_scenarios, load_scenario
from flowctx_core.routing import load_routes
from flowctx_core.routing.graph import RoutingGraph, build_graphs
from flowctx_core.routing.graph_render import FORMATS, to_dot, to_mermaid, to_text
from flowctx_tui.cli.common import UsageError, fail, load_json_arg, load_json_object_arg
from flowctx_tui.cli.launch_args import (
    add_launch_args,
    build_context_env,
    launch_from_args,
    parse_env_overrides,
)
from flowctx_tui.cli.routes_cmd import matching_sources
from flowctx_tui.cli.terminal import colour_wanted, sgr, table_width, width_arg
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

#: ANSI colours of the drawing's parts on a terminal (tags from flowctx_core.routing.graph_draw)
COLOURS = {
    "winner": "1;32",
    "name": "1",
    "user": "1;36",
    "end": "1",
    "missing": "1;31",
    "detail": "2",
    "ends": "33",
    "fails": "1;31",
    "outcome:true": "32",
    "outcome:false": "31",
    "outcome:error": "1;31",
    "outcome:always": "36",
    "outcome:not evaluable": "33",
    "outcome:skipped": "2",
}


def paint(text: str, tag: str) -> str:
    code = COLOURS.get(tag)
    return sgr(code, text) if code and text.strip() else text


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument(
        "--from",
        dest="source",
        metavar="STEP_OR_AGENT",
        help="only what a run can reach from this step or agent (matched as in flowctx routes)",
    )
    parser.add_argument(
        "--file",
        choices=tuple(ROUTING_FILES),
        help="only this routing file (default: every routing file of the workflow)",
    )
    parser.add_argument(
        "--scenario",
        metavar="NAME",
        help="a scenario saved from the app (.flowctx/scenarios/WORKFLOW/NAME.json); the "
        "options below override its parts",
    )
    parser.add_argument("--data", help="MemberJunction params.data as JSON or @file")
    parser.add_argument(
        "--context",
        help="context as JSON or @file, overlaid on the resolved variables (masked in labels)",
    )
    parser.add_argument("--payload", help="the flow's payload as JSON or @file")
    parser.add_argument("--step-result", help="the last step's result as JSON or @file")
    parser.add_argument("--flow-context", help="flowContext as JSON or @file")
    parser.add_argument(
        "--tool-called",
        action="append",
        default=[],
        metavar="NAME",
        help="a tool the agent called this turn (repeatable), for tool_called rules",
    )
    parser.add_argument(
        "--width",
        type=width_arg,
        default=None,
        help="text format: the widest picture (default: the terminal's width, else 100)",
    )
    add_launch_args(parser)


def _scenario(args: argparse.Namespace, root: Any, workflow: str) -> Scenario:
    base = Scenario()
    if args.scenario:
        saved, problems = load_scenario(root, workflow, args.scenario)
        if saved is None:
            known = list_scenarios(root, workflow)
            hint = did_you_mean(args.scenario, known)
            listed = ", ".join(known) or "none"
            raise UsageError(f"{problems[0].format()}{hint} (saved: {listed})")
        for p in problems:
            print(f"flowctx: {p.format()}", file=sys.stderr)
        base = saved
    context = load_json_object_arg(args.context, "--context")
    parts: dict[str, Any] = {
        "data": load_json_object_arg(args.data, "--data"),
        "payload": load_json_arg(args.payload, "--payload"),
        "step_result": load_json_arg(args.step_result, "--step-result"),
        "flow_context": load_json_object_arg(args.flow_context, "--flow-context"),
    }
    changes = {k: v for k, v in parts.items() if v is not None}
    if context is not None:
        changes["context_overrides"] = {**base.context_overrides, **context}
    if args.tool_called:
        changes["tools_called"] = tuple(args.tool_called)
    from dataclasses import replace

    return replace(base, **changes)


def _scenario_words(args: argparse.Namespace) -> str:
    given = [
        name
        for name, value in (
            ("--data", args.data),
            ("--context", args.context),
            ("--payload", args.payload),
            ("--step-result", args.step_result),
            ("--flow-context", args.flow_context),
            ("--tool-called", args.tool_called),
        )
        if value
    ]
    parts = [f"saved scenario '{args.scenario}'"] if args.scenario else []
    if given:
        parts.append(", ".join(given))
    return " + ".join(parts) if parts else "default (the resolved context variables only)"


def run(args: argparse.Namespace) -> int:
    try:
        env = parse_env_overrides(args.env)
        env.update(build_context_env(args))
        session = open_from_args(args)
        name = pick_workflow(session, args.workflow)
        launch = launch_from_args(args)
        scenario = _scenario(args, session.root, name)
    except UsageError as exc:
        return fail(str(exc))
    launch = {**scenario.launch, **launch}
    env = {**scenario.env_overrides, **env}
    workflow = session.load(name)
    routes = load_routes(workflow)
    for problem in routes.diagnostics:
        if problem.severity == "error":
            print(problem.format(), file=sys.stderr)
    if routes.empty:
        return fail(
            f"workflow '{name}' has no routing file "
            "(flow.yaml, transition_graph.yaml or handoffs.yaml)"
        )
    matrix = session.matrix(workflow, env, launch, overrides_from="--env", launch_from="--launch")
    graphs: list[RoutingGraph] = list(
        build_graphs(routes, matrix, scenario, env=session.effective_env(env))
    )
    if args.file:
        graphs = [g for g in graphs if g.kind == args.file]
        if not graphs:
            return fail(f"workflow '{name}' has no {args.file} routing file")
    if args.source:
        kept = []
        for graph in graphs:
            known = [n.name for n in graph.nodes]
            found = [n for n in matching_sources(routes, args.source) if n in known]
            found = found or [n for n in known if n.casefold() == args.source.casefold()]
            if found:
                kept.append(graph.reachable(found[0]))
        if not kept:
            every = sorted({n.name for g in graphs for n in g.nodes})
            hint = did_you_mean(args.source, every)
            return fail(
                f"no step or agent named '{args.source}' in workflow '{name}'{hint}; "
                f"known: {', '.join(every) or 'none'}"
            )
        graphs = kept
    header = [
        f"flowctx graph: workflow {name}, runtime {session.runtime.label}",
        f"scenario: {_scenario_words(args)}",
        f"{'★' if args.format == 'text' else '★ and a thick line'}: the route each step or "
        "agent takes under the scenario",
    ]
    if matrix.refused is not None:
        # the same verdict as check: the runtime never runs this graph
        # one line: a name quoted in the reason must not end the comment it is written in
        header.append(" ".join(matrix.refused.headline(f"runtime {session.runtime.name}").split()))
    if args.format == "mermaid":
        print(to_mermaid(graphs, header))
    elif args.format == "dot":
        print(to_dot(graphs, header))
    else:
        width = table_width(sys.stdout, args.width) or 100
        colour = paint if colour_wanted(sys.stdout) else None
        print(to_text(graphs, header, width, colour))
    return 0
