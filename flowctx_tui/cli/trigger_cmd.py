"""``flowctx trigger``: what one message does to a workflow's state variables.

State starts from the resolved matrix (``--launch``, ``--env`` and ``--build-context`` apply).
Exactly one message: ``--agent NAME "text"``, ``--user "text"`` or ``--ui-response TOOL JSON``.
Exit 0 (whether or not a trigger fired), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from flowctx_core.base.diagnostics import did_you_mean
from flowctx_core.base.regexbound import REGEX_SECONDS, SHARED_SECONDS
from flowctx_core.base.secrets import MASK, is_secret_key, mask_text, mask_value
from flowctx_core.runtime.policy import policy_of
from flowctx_core.runtime.triggers import Message, TriggerResult, simulate
from flowctx_tui.cli.common import UsageError, fail, load_json_arg
from flowctx_tui.cli.launch_args import add_launch_args, resolve_from_args
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.workspace_args import add_workspace_args


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    message = parser.add_argument_group("the message (exactly one)")
    message.add_argument("--agent", nargs=2, metavar=("NAME", "TEXT"), help="agent NAME says TEXT")
    message.add_argument("--user", metavar="TEXT", help="a user message")
    message.add_argument(
        "--ui-response",
        nargs=2,
        metavar=("TOOL", "JSON"),
        help="the UI tool TOOL completes with this response (JSON or @file)",
    )
    parser.add_argument("--reveal", action="store_true", help="show secret values unmasked")
    add_format_arg(
        parser, {"text": "the changes and each trigger checked", "json": "the same, for scripts"}
    )
    add_launch_args(parser)


def _message(args: argparse.Namespace) -> Message:
    given = [
        name
        for name, on in (
            ("--agent", args.agent is not None),
            ("--user", args.user is not None),
            ("--ui-response", args.ui_response is not None),
        )
        if on
    ]
    if len(given) != 1:
        what = ", ".join(given) if given else "none"
        raise UsageError(
            'give exactly one message: --agent NAME "text", --user "text" or '
            f"--ui-response TOOL JSON (got {what})"
        )
    if args.agent is not None:
        agent, text = args.agent
        return Message("agent", text, agent=agent)
    if args.user is not None:
        return Message("user", args.user)
    tool, raw = args.ui_response
    return Message("ui_response", tool=tool, response=load_json_arg(raw, "--ui-response JSON"))


def _shown(name: str, value: Any, secret: bool, reveal: bool) -> Any:
    if reveal:
        return value
    if (secret or is_secret_key(name)) and value is not None:
        return MASK
    return mask_value(value)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _render(result: TriggerResult, workflow: str, secret: set[str], reveal: bool) -> list[str]:
    lines = [f"{workflow}: {mask_text(result.message.describe())}"]
    for c in result.changes:
        old = _text(_shown(c.variable, c.old, c.variable in secret, reveal))
        new = _text(_shown(c.variable, c.new, c.variable in secret, reveal))
        same = "  (unchanged)" if c.old == c.new else ""
        lines.append(f"  {c.variable}: {old} -> {new}{same}")
        lines.append(f"      by {c.trigger} ({c.loc})")
    fired = sum(1 for c in result.checked if c.outcome == "fired")
    if not result.checked:
        lines.append("no state variable of this workflow has triggers")
    else:
        lines.append(f"checked {len(result.checked)} trigger(s): {fired} fired")
        for t in result.checked:
            if t.outcome == "regex timed out":
                # the runtime's re would not return on this message: an error at the trigger
                lines.append(
                    f"  {t.loc}: error: {t.variable} {t.trigger}: {t.outcome} (each regex "
                    f"may take {REGEX_SECONDS:g} s, all of a message's {SHARED_SECONDS:g} s: "
                    "catastrophic backtracking?)"
                )
            elif t.outcome != "fired":
                lines.append(f"  not fired: {t.variable} {t.trigger} ({t.loc}): {t.outcome}")
    for text in result.hidden:
        lines.append(f"hidden from the UI: {mask_text(text)!r}")
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        message = _message(args)
        resolved = resolve_from_args(args)
    except UsageError as exc:
        return fail(str(exc))
    wf, matrix = resolved.workflow, resolved.matrix
    if message.kind == "agent" and message.agent not in wf.agents:
        agents = list(wf.agents)
        # the runtime would accept any sender; an unknown one is almost surely a typo
        hint = did_you_mean(message.agent or "", agents)
        print(f"note: '{message.agent}' is not an agent of {wf.name}{hint}")
    secret = {r.name for r in matrix.rows if r.secret}
    result = simulate(wf, matrix.values, message, policy_of(matrix))
    if args.format == "json":
        doc = {
            "workflow": wf.name,
            "message": mask_text(message.describe()),
            "changes": [
                {
                    "variable": c.variable,
                    "old": _shown(c.variable, c.old, c.variable in secret, args.reveal),
                    "new": _shown(c.variable, c.new, c.variable in secret, args.reveal),
                    "trigger": c.trigger,
                    "location": c.loc,
                    "ui_hidden": c.ui_hidden,
                }
                for c in result.changes
            ],
            "checked": [
                {
                    "variable": c.variable,
                    "trigger": c.trigger,
                    "location": c.loc,
                    "outcome": c.outcome,
                }
                for c in result.checked
            ],
            "hidden": [mask_text(t) for t in result.hidden],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False, default=str))
    else:
        print("\n".join(_render(result, wf.name, secret, args.reveal)))
    return 0
