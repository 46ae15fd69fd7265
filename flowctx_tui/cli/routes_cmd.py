"""``flowctx routes``: which route wins from a step or agent, every candidate and why.

Exit status (``EXIT_RULE``): 0 when the next step is known, a route was chosen or nothing leaves
``--from`` so the run ends there as written (a flow's end step, an agent no rule leaves); 1 when
paths or rules leave it and none is taken (nothing matched, or the workflow would not start);
2 for bad arguments or an unknown ``--from``. ``--from`` matches ignoring case; for Mozaiks
files ``user`` is the human (mozaiks 0.2.0's compiler knows no other name for it). Values of
secret variables are masked unless ``--reveal``.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean
from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text
from flowctx_core.routing import (
    RouteDecision,
    Routes,
    ends_the_run,
    load_routes,
    matching_sources,
    sources,
)
from flowctx_core.routing.graph import scenario_args
from flowctx_tui.cli.common import UsageError, fail, load_json_arg, load_json_object_arg
from flowctx_tui.cli.launch_args import (
    add_launch_args,
    build_context_env,
    launch_from_args,
    parse_env_overrides,
)
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.paint import ROUTES_RULES, print_painted
from flowctx_tui.cli.scenario_args import (
    add_scenario_parts,
    saved_scenario,
    scenario_from_args,
    with_scenario,
)
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

if TYPE_CHECKING:
    from flowctx_core.model.matrix import Refusal
    from flowctx_core.session import Session

_KIND_TITLES = {
    "flow": "MemberJunction flow",
    "transition_graph": "Mozaiks transition graph",
    "handoffs": "Mozaiks handoffs (legacy)",
}
_INDENT = "       "
EXIT_RULE = (
    "exit status: 0 when a route is chosen, or when nothing leaves --from so the run ends "
    "there as written (a flow's end step, an agent no rule leaves); 1 when paths or rules "
    "leave it and none is taken (nothing matched, or the workflow would not start); 2 for "
    "bad arguments or an unknown --from"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXIT_RULE
    add_workspace_args(parser)
    parser.add_argument(
        "--from",
        dest="source",
        metavar="STEP_OR_AGENT",
        help="the flow step or agent whose turn just ended (any case; for Mozaiks files "
        "'user' is the human); required except for MemberJunction agent metadata, where "
        "leaving it out asks for the starting step",
    )
    add_scenario_parts(
        parser,
        context_help="params.context for a flow, context variables for Mozaiks (overlaid on "
        "the resolved variables); masked in output",
    )
    add_format_arg(parser, {"text": "candidates and the winner, explained", "json": "the same"})
    parser.add_argument("--reveal", action="store_true", help="show context values unmasked")
    add_launch_args(parser)


def _candidate_lines(decision: RouteDecision, reveal: bool) -> list[str]:
    lines: list[str] = []
    for n, cand in enumerate(decision.candidates, 1):
        prio = f"  priority {cand.priority}" if cand.priority is not None else ""
        marker = "*" if decision.winner is cand else " "
        target, where = one_line(cand.target), one_line(str(cand.loc))
        lines.append(f" {marker}{n:>2}. → {target}{prio}  [{cand.outcome}]  ({where})")
        if cand.description:
            lines.append(f"{_INDENT}{one_line(cand.description)}")
        if cand.condition is not None:
            lines.append(f"{_INDENT}condition: {one_line(cand.condition)}")
        if cand.error_message:
            lines.append(f"{_INDENT}error: {one_line(cand.error_message)}")
        for line in cand.explain_lines(reveal=reveal):
            lines.append(f"{_INDENT}  {one_line(line)}")
        if cand.note:
            lines.append(f"{_INDENT}note: {one_line(mask_text(cand.note))}")
    return lines


def render_text(workflow: str, decisions: list[RouteDecision], *, reveal: bool) -> str:
    out: list[str] = []
    for decision in decisions:
        where = decision.candidates[0].loc.file if decision.candidates else decision.file
        what = "step" if decision.kind == "flow" else "agent"
        out.append(
            one_line(
                f"{workflow}: {_KIND_TITLES[decision.kind]} ({where}), "
                f"from {what} '{decision.source}'"
            )
        )
        if decision.unread:
            out.append(f"   NOT READ: {decision.unread}")
        if not decision.candidates:
            out.append("   (no paths or rules leave it)")
        out += _candidate_lines(decision, reveal)
        reason = one_line(mask_text(decision.reason))
        if decision.winner is not None:
            out.append(f"winner: {one_line(decision.winner.target)} ({reason})")
        else:
            out.append(f"no route: {reason}")
        out.append("")
    return "\n".join(out).rstrip("\n")


def _no_rule(
    name: str, source: str, fmt: str, session: Session, routes: Routes, refused: Refusal | None
) -> int:
    reason = "no_transition_matched"
    where = (
        "in transition_graph.yaml"
        if routes.transitions is not None
        else "(the workflow has no transition_graph.yaml)"
    )
    text = f"no rule leaves '{source}' {where}: the run ends (TerminateTarget, reason {reason})"
    notes = []
    if routes.flow is not None:
        notes.append(
            f"runtime {session.runtime.name} reads this folder as a Mozaiks workflow (it holds "
            "orchestrator.yaml); its flow.yaml is a MemberJunction flow agent's, which that "
            "runtime never reads"
        )
    if fmt == "json":
        doc = {
            "workflow": name,
            "runtime": session.runtime.label,
            "refused": refused.to_json() if refused is not None else None,
            "source": source,
            "decisions": [],
            "terminates": {"target": "TerminateTarget", "reason": reason, "detail": text},
            "notes": notes,
            "problems": [d.to_json() for d in routes.diagnostics],
        }
        print(json.dumps(doc, indent=2, default=str, ensure_ascii=False))
    else:
        if refused is not None:
            print(one_line(refused.headline(f"runtime {session.runtime.name}")))
        print(f"{name}: {text}")
        for note in notes:
            print(f"note: {note}")
    # as for a source with rules: the route is answered and the refusal said above it
    return 0


def _print_problems(problems: list[Diagnostic]) -> None:
    import sys

    for p in problems:
        if p.severity == "error":
            print(p.format(), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, args.runtime)
    if mj is not None:
        return mj_views.run_routes(args, mj, render_text)
    if args.source is None:
        return fail("the following arguments are required: --from")
    try:
        session = open_from_args(args)
        name = pick_workflow(session, args.workflow)
        saved = saved_scenario(args, session.root, name)
        if saved is not None:
            # the options win over the saved scenario's parts, as in graph and the app
            inputs = scenario_args(scenario_from_args(args, saved))
        else:
            inputs = {
                "data": load_json_object_arg(args.data, "--data"),
                "context_overrides": load_json_object_arg(args.context, "--context"),
                "payload": load_json_arg(args.payload, "--payload"),
                "step_result": load_json_arg(args.step_result, "--step-result"),
                "flow_context": load_json_object_arg(args.flow_context, "--flow-context"),
                "tools_called": tuple(args.tool_called),
            }
        launch = launch_from_args(args)
        env = parse_env_overrides(args.env)
        env.update(build_context_env(args))
        env, launch = with_scenario(saved, env, launch)
    except UsageError as exc:
        return fail(str(exc))
    workflow = session.load(name)
    routes = load_routes(workflow)
    _print_problems(list(routes.diagnostics))
    speakers = session.snapshot([name], env).speakers(name)
    if routes.empty and not (
        speakers.get("mozaiks_workflow") and ends_the_run(routes, workflow, args.source, **speakers)
    ):
        return fail(routes.why_empty(shown_above=True))
    known = sources(routes)
    matches = matching_sources(routes, args.source)
    if len(matches) > 1:
        # what --from said is not echoed (it may be anything pasted); the matches are known
        return fail(
            f"--from matches several steps or agents in workflow '{name}': "
            f"{', '.join(matches)}; give the exact name"
        )
    if not matches and ends_the_run(routes, workflow, args.source, **speakers):
        # the same verdict as check and matrix: a refused workflow is said from every source
        refused_here = session.matrix(workflow, env, launch).refused
        return _no_rule(name, args.source, args.format, session, routes, refused_here)
    if not matches:
        hint = did_you_mean(args.source, known)
        listed = ", ".join(known) or "none"
        return fail(
            f"no step or agent of the name given to --from has routes in workflow '{name}'{hint}; "
            f"known: {listed}"
        )
    source = matches[0]
    # the same verdict as check and matrix, with the stage of the runtime that decides it
    matrix = session.matrix(workflow, env, launch)
    if saved is not None:
        from flowctx_core.model.scenarios import real_overrides

        # a saved scenario holds *** for secrets: each stands for the resolved value
        inputs["context_overrides"] = real_overrides(matrix.values, inputs["context_overrides"])
    decisions = session.decide(
        name,
        source,
        env_overrides=env,
        launch=launch,
        routes=routes,
        **inputs,
    )
    refused = matrix.refused
    if args.format == "json":
        doc = {
            "workflow": name,
            "runtime": session.runtime.label,
            "refused": refused.to_json() if refused is not None else None,
            "source": source,
            "decisions": [d.to_json(reveal=args.reveal) for d in decisions],
            "problems": [d.to_json() for d in routes.diagnostics],
        }
        print(json.dumps(doc, indent=2, default=str, ensure_ascii=False))
    else:
        if refused is not None:
            print(one_line(refused.headline(f"runtime {session.runtime.name}")))
        print_painted(render_text(name, decisions, reveal=args.reveal), ROUTES_RULES)
    return exit_status(decisions)


def exit_status(decisions: list[RouteDecision]) -> int:
    """``EXIT_RULE``: 0 a route is chosen or nothing leaves the source, 1 nothing matched."""
    if any(d.winner is not None for d in decisions):
        return 0
    ends = all(not d.candidates and not d.failed for d in decisions)
    return 0 if decisions and ends else 1
