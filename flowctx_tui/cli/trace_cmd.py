"""``flowctx trace``: a whole run, turn by turn, from the workflow's first speaker (or
``--from``) under a script of what each turn does, until the run ends, reaches ``max_turns``
or comes to a turn the script does not cover.

Each ``--turn AGENT=JSON`` is one turn, in order: the speaker it is for (checked against the
route; ``*`` for whoever speaks) and what it does, a JSON object of context updates or
``{"set": {...}, "delete": [...], "tools": [...]}`` (tools in the order they were called).
``--turn AGENT`` alone is a turn that changes nothing. ``--script FILE`` reads the same from a
YAML or JSON file (``from``, ``context``, ``turns``). Exit status: 0 when the trace was played
and the runtime would not report the run as failed; 1 when it would (the routing call raises,
the workflow does not start, or the run closes as workflow_failed, no_transition_matched or
max_turns); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text
from flowctx_core.routing import load_routes, matching_sources
from flowctx_core.routing.trace import Trace, Turn, read_script, trace
from flowctx_tui.cli.common import (
    UsageError,
    fail,
    load_json_arg,
    load_json_object_arg,
    stdin_file,
)
from flowctx_tui.cli.launch_args import (
    add_launch_args,
    build_context_env,
    launch_from_args,
    parse_env_overrides,
)
from flowctx_tui.cli.options import JSON_METAVAR, add_format_arg
from flowctx_tui.cli.scenario_args import saved_scenario, with_scenario
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

EXIT_RULE = (
    "exit status: 0 when the trace was played and the runtime would not report the run as "
    "failed; 1 when it would (the routing call raises, the workflow does not start, or the run "
    "closes as workflow_failed, no_transition_matched or max_turns); 2 for bad arguments"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXIT_RULE
    add_workspace_args(parser)
    parser.add_argument(
        "--from",
        dest="source",
        metavar="STEP_OR_AGENT",
        help="the first speaker (default: orchestrator.yaml's initial_agent; 'user' there is "
        "resolved through the graph, as the runtime does)",
    )
    parser.add_argument(
        "--context",
        metavar=JSON_METAVAR,
        help="the starting context variables, overlaid on the resolved ones",
    )
    parser.add_argument(
        "--payload",
        metavar=JSON_METAVAR,
        help="MemberJunction flow agents: the run's starting payload",
    )
    parser.add_argument(
        "--data", metavar=JSON_METAVAR, help="MemberJunction flow agents: params.data"
    )
    parser.add_argument(
        "--turn",
        action="append",
        default=[],
        metavar="AGENT[=JSON]",
        help="one turn, in order: who speaks ('*': whoever the route picked) and what the turn "
        'does: context updates, or {"set": {...}, "delete": [...], "tools": [...]} with the '
        "tools in call order (repeatable)",
    )
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="a YAML or JSON file (- for standard input) with from, context and turns (each "
        "{agent, set, delete, tools}); --from, --context and --turn given too are applied over it",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        metavar="N",
        help="the turn cap (default: orchestrator.yaml's max_turns, 50 when it says none)",
    )
    add_format_arg(
        parser, {"text": "each turn and the rule that chose the next", "json": "the same"}
    )
    add_launch_args(parser)


def parse_turn(text: str) -> Turn:
    agent, sep, raw = text.partition("=")
    agent = agent.strip()
    if not agent:
        raise UsageError("--turn needs the speaker's name: AGENT or AGENT=JSON ('*' for any)")
    value = load_json_arg(raw, f"--turn {agent}") if sep else None
    try:
        return Turn.from_json(None if agent == "*" else agent, value)
    except ValueError as exc:
        raise UsageError(f"--turn {agent}: {exc}") from None


def render_text(result: Trace, runtime: str) -> str:
    start = result.start or "?"
    lines = [f"{result.workflow}: trace from {start} [runtime {runtime}]"]
    lines += [f"  note: {one_line(n)}" for n in result.notes]
    for step in result.steps:
        target = step.winner or ("terminate" if step.ended else "—")
        rule = f"rule {step.rule}" if step.rule is not None else "no rule"
        where = f" ({step.location})" if step.location else ""
        # the step line names the rule: say only why it matched
        why = step.reason.split(" is the first rule that matches: ", 1)[-1]
        lines.append(f"  {step.turn:>2}. {step.source} → {target}  {rule}{where}")
        lines.append(f"      {one_line(mask_text(why))}")
    lines.append("path: " + " → ".join(result.path))
    closed = f" ({result.closed})" if result.closed else ""
    failed = "; the runtime reports the run as failed" if result.run_failed else ""
    lines.append(f"{result.outcome}{closed}: {one_line(mask_text(result.reason))}{failed}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, args.runtime)
    if mj is not None:
        return mj_views.run_trace(args, mj, render_text, parse_turn)
    try:
        session = open_from_args(args)
        script = None
        if args.script:
            from flowctx_core.base.fsview import buffers

            shown, held = stdin_file(args.script, "--script")
            with buffers(held):
                script, problems = read_script(Path(shown), shown)
            for p in problems:
                print(p.format(), file=sys.stderr)
            if script is None:
                return 2
        name = pick_workflow(session, args.workflow or (script.workflow if script else None))
        saved = saved_scenario(args, session.root, name)
        context: dict[str, Any] = dict(saved.context_overrides) if saved is not None else {}
        context.update(script.context if script else {})
        context.update(load_json_object_arg(args.context, "--context") or {})
        turns = list(script.turns) if script else []
        turns += [parse_turn(t) for t in args.turn]
        launch = launch_from_args(args)
        env = parse_env_overrides(args.env)
        env.update(build_context_env(args))
        env, launch = with_scenario(saved, env, launch)
        if args.max_turns is not None and args.max_turns < 1:
            raise UsageError("--max-turns must be at least 1")
    except UsageError as exc:
        return fail(str(exc))
    workflow = session.load(name)
    routes = load_routes(workflow)
    if routes.empty:
        return fail(routes.why_empty())
    snap = session.snapshot([name], env)
    files = snap.workflow_files.get(name)
    start = args.source or (script.start if script else None)
    if start is not None:
        matches = matching_sources(routes, start)
        if len(matches) == 1:
            start = matches[0]
    initial = files.initial_agent if files is not None else None
    max_turns = args.max_turns or (files.max_turns if files is not None else None)
    matrix = session.matrix(workflow, env, launch)
    if saved is not None:
        from flowctx_core.model.scenarios import real_overrides

        # a saved scenario holds *** for secrets: each stands for the resolved value
        context = real_overrides(matrix.values, context)
    result = trace(
        routes,
        matrix,
        turns,
        start=start,
        initial_agent=initial,
        max_turns=max_turns,
        context=context,
        agents=files.agents if files is not None and files.agents_file else None,
    )
    # a workflow the runtime refuses never runs: the trace is still shown, under the refusal
    refused = matrix.refused
    if args.format == "json":
        doc = {
            "runtime": session.runtime.label,
            "refused": refused.to_json() if refused is not None else None,
            "max_turns": max_turns,
            **result.to_json(),
        }
        print(mask_text(json.dumps(doc, indent=2, default=str, ensure_ascii=False)))
    else:
        if refused is not None:
            print(one_line(refused.headline(f"runtime {session.runtime.name}")))
        print(render_text(result, session.runtime.label))
    return 1 if result.run_failed or refused is not None else 0
