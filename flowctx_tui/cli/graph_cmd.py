"""``flowctx graph``: a workflow's routing files as a graph (Mermaid, DOT or text).

Steps or agents are nodes; paths and rules are edges labelled with their kind and shortened
condition, in evaluation order. Under the scenario (the same options as ``flowctx routes``, or
a saved scenario with ``--scenario``) the edge each node's route takes is marked. ``--from``
keeps what a run can reach from one step or agent. Condition values that are secret are
masked in every label. Exit 0, or 2 for bad arguments or an unknown ``--from``.
"""

from __future__ import annotations

import argparse
import json
import sys

from flowctx_core.base import clock
from flowctx_core.base.diagnostics import did_you_mean
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_core.resolve import resolve
from flowctx_core.routing import matching_sources
from flowctx_core.routing.graph import RoutingGraph, build_graphs
from flowctx_core.routing.graph_render import to_dot, to_json, to_mermaid, to_text
from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.launch_args import (
    add_launch_args,
    build_context_env,
    launch_from_args,
    parse_env_overrides,
)
from flowctx_tui.cli.options import add_format_arg, add_width_arg, file_kind_type, kind_names
from flowctx_tui.cli.scenario_args import (
    add_scenario_parts,
    saved_scenario,
    scenario_from_args,
    with_real_context,
)
from flowctx_tui.cli.terminal import colour_wanted, sgr, table_width, write_json
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
    add_format_arg(
        parser,
        {
            "text": "a drawing for the terminal",
            "mermaid": "a Mermaid flowchart",
            "dot": "Graphviz DOT",
            "json": "every node and edge, each edge's outcome and the winners",
        },
    )
    parser.add_argument(
        "--from",
        dest="source",
        metavar="STEP_OR_AGENT",
        help="only what a run can reach from this step or agent (matched as in flowctx routes)",
    )
    parser.add_argument(
        "--file",
        type=file_kind_type(ROUTING_FILES),
        metavar="FILE_KIND",
        help=f"only this routing file: {kind_names(ROUTING_FILES)} (default: every routing "
        "file of the workflow)",
    )
    add_scenario_parts(
        parser,
        context_help="context, overlaid on the resolved variables (masked in labels)",
    )
    add_width_arg(
        parser, "text format: the widest picture (default: the terminal's width, else 100)"
    )
    add_launch_args(parser)


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
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, args.runtime)
    if mj is not None:
        return mj_views.run_graph(args, mj, paint)
    try:
        env = parse_env_overrides(args.env)
        env.update(build_context_env(args))
        session = open_from_args(args)
        name = pick_workflow(session, args.workflow)
        launch = launch_from_args(args)
        scenario = scenario_from_args(args, saved_scenario(args, session.root, name))
    except UsageError as exc:
        return fail(str(exc))
    launch = {**scenario.launch, **launch}
    env = {**scenario.env_overrides, **env}
    # read once: the snapshot parses the routing files, and the matrix resolves from it (a
    # second parse of a file of thousands of rules cost as much as routing them all)
    snap = session.snapshot([name], env)
    routes = snap.routes[name]
    for problem in routes.diagnostics:
        if problem.severity == "error":
            print(problem.format(), file=sys.stderr)
    if routes.empty:
        return fail(routes.why_empty(shown_above=True))
    inputs = session.inputs(env, launch, overrides_from="--env", launch_from="--launch")
    matrix = resolve(snap, inputs, name)
    scenario = with_real_context(scenario, matrix.values)
    clock.LAST_READ = None
    with clock.scenario_instant(scenario.now):  # a saved scenario's instant, unless --now
        graphs: list[RoutingGraph] = list(
            build_graphs(routes, matrix, scenario, env=session.effective_env(env))
        )
    if args.file:
        graphs = [g for g in graphs if g.kind == args.file]
        if not graphs:
            return fail(f"workflow '{name}' has no {ROUTING_FILES[args.file]} routing file")
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
    ]
    if args.format != "json":  # what the drawings' marks mean
        header.insert(
            2,
            f"{'★' if args.format == 'text' else '★ and a thick line'}: the route each step or "
            "agent takes under the scenario",
        )
    if clock.LAST_READ is not None:  # a condition read the clock: say at which instant
        header.append(f"clock: {clock.LAST_READ.note()}")
    if matrix.refused is not None:
        # the same verdict as check: the runtime never runs this graph
        # one line: a name quoted in the reason must not end the comment it is written in
        header.append(" ".join(matrix.refused.headline(f"runtime {session.runtime.name}").split()))
    if args.format == "json":
        write_json(json.dumps(to_json(graphs, header), indent=2))
    elif args.format == "mermaid":
        print(to_mermaid(graphs, header))
    elif args.format == "dot":
        print(to_dot(graphs, header))
    else:
        width = table_width(sys.stdout, args.width) or 100
        colour = paint if colour_wanted(sys.stdout) else None
        print(to_text(graphs, header, width, colour))
    return 0
