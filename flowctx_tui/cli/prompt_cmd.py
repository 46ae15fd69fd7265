"""``flowctx prompt``: what an agent's prompt gains before a model call.

Prints, per agent, the blocks build-context prompt projections insert at their markers and the
exact block the runtime appends (``NAME: value`` per exposed variable), secrets masked unless
``--reveal``. Exit 0, 1 when the resolution has errors (the runtime would not start), 2 on bad
arguments.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from flowctx_core.base.diagnostics import did_you_mean
from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.workflow_files import load_workflow_files
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.runtime.exposure import AgentPrompt, agent_prompt
from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.launch_args import add_launch_args, resolve_from_args
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.workspace_args import add_workspace_args


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    parser.add_argument(
        "--agent",
        "-a",
        action="append",
        metavar="NAME",
        help="agent to preview (repeatable; default: all)",
    )
    parser.add_argument("--reveal", action="store_true", help="show secret values unmasked")
    add_format_arg(parser, {"text": "each agent's blocks", "json": "the same, for scripts"})
    parser.add_argument(
        "--raw",
        action="store_true",
        help="print only the text the runtime adds (inserted blocks, then the appended block)",
    )
    add_launch_args(parser)


def _to_json(p: AgentPrompt) -> dict[str, Any]:
    return {
        "agent": p.agent,
        "exposed": [line.name for line in p.lines],
        "lines": [line.text for line in p.lines],
        "withheld": [{"name": n, "reason": why} for n, why in p.withheld],
        "blocks": [
            {"marker": b.marker, "text": b.text, "sources": list(b.sources)} for b in p.blocks
        ],
        "text": p.text,
        "notes": [mask_text(n) for n in p.notes],
    }


def _render(p: AgentPrompt) -> list[str]:
    out = [f"== {p.agent}"]
    for name, why in p.withheld:
        out.append(f"not shown: {name} ({why})")
    for block in p.blocks:
        out.append(f"-- inserted at marker {block.marker}:")
        out.extend(f"   from {src}" for src in block.sources)
        out.append(block.text)
    if p.lines:
        out.append(f"-- appended to the base prompt ({len(p.lines)} variable(s)):")
        out.append(p.context_text)
    else:
        out.append("-- appended to the base prompt: nothing (no exposed variables)")
    out.extend(f"note: {mask_text(n)}" for n in p.notes)
    return out


def _agents(workflow: WorkflowSnapshot) -> list[str]:
    """The agents the runtime creates: mozaiks 0.2.0 takes them from agents.yaml only
    (mozaiksai/core/workflow/agents/factory.py create_agents); the contract's agents section
    says which variables each one sees. Other runtimes: the contract's agents."""
    if workflow.runtime.strict_workflow_files and workflow.folder != workflow.root:
        files = load_workflow_files(workflow.folder, workflow.root, workflow.name)
        if files.orchestrator:
            return list(files.agents)
    return list(workflow.agents)


def run(args: argparse.Namespace) -> int:
    try:
        resolved = resolve_from_args(args)
        agents = _agents(resolved.workflow)
        wanted = args.agent or agents
        for agent in wanted:
            if agent not in agents:
                raise UsageError(
                    f"no agent named '{agent}' in {resolved.workflow.name}"
                    f"{did_you_mean(agent, agents)} (agents: {', '.join(agents) or 'none'})"
                )
    except UsageError as exc:
        return fail(str(exc))
    wf, matrix = resolved.workflow, resolved.matrix
    prompts = [
        agent_prompt(wf, matrix, agent, env=resolved.env, reveal=args.reveal) for agent in wanted
    ]
    session = resolved.session
    problems = [
        *matrix.diagnostics,
        *(d for d in session.profile.diagnostics if d not in matrix.diagnostics),
        *session.database_problems,
    ]
    if args.format == "json":
        doc = {
            "workflow": wf.name,
            "runtime": matrix.runtime,
            # the same verdict as check and matrix, with the stage that decides it
            "refused": matrix.refused.to_json() if matrix.refused else None,
            "agents": [_to_json(p) for p in prompts],
            "notes": [mask_text(n) for n in matrix.notes],
            "errors": [d.to_json() for d in problems],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False, default=str))
    elif args.raw:
        print("\n\n".join(p.text for p in prompts))
    else:
        lines = [f"{wf.name}  ({matrix.workspace})"]
        if matrix.refused is not None:
            lines.append(one_line(matrix.refused.headline(f"runtime {wf.runtime.name}")))
        for p in prompts:
            lines.extend(_render(p))
        lines.extend(f"note: {mask_text(n)}" for n in matrix.notes)
        lines.extend(d.format() for d in problems)
        print("\n".join(lines))
    return 1 if any(d.severity == "error" for d in problems) else 0
