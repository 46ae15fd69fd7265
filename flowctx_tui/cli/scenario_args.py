"""``--scenario NAME``, the same on every command that resolves or routes, and the scenario parts
``routes`` and ``graph`` take one by one (``--data``, ``--context``, ...).

A scenario saved from the app (``.flowctx/scenarios/WORKFLOW/NAME.json``) holds launch values,
environment overrides, an instant and what a route is tried against. Every command takes from it
what it uses: the launch values, the environment and the instant for resolution (matrix, check,
prompt, trigger), and the route inputs as well for routes and graph. The options given on the
command line win over the scenario's parts, as they do in the app.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base import clock
from flowctx_core.base.diagnostics import did_you_mean
from flowctx_tui.cli.common import UsageError, load_json_arg, load_json_object_arg
from flowctx_tui.cli.options import JSON_METAVAR

if TYPE_CHECKING:
    from flowctx_core.model.scenarios import Scenario

SCENARIO_HELP = (
    "a scenario saved from the app (.flowctx/scenarios/WORKFLOW/NAME.json): its launch values, "
    "environment and instant apply (routes and graph: its route inputs too); options given "
    "here win over its parts"
)


def add_scenario_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", metavar="NAME", help=SCENARIO_HELP)


def add_scenario_parts(parser: argparse.ArgumentParser, *, context_help: str) -> None:
    """The route inputs, one option each (``routes`` and ``graph``)."""
    parser.add_argument("--data", metavar=JSON_METAVAR, help="MemberJunction params.data")
    parser.add_argument("--context", metavar=JSON_METAVAR, help=context_help)
    parser.add_argument("--payload", metavar=JSON_METAVAR, help="the flow's payload")
    parser.add_argument("--step-result", metavar=JSON_METAVAR, help="the last step's result")
    parser.add_argument(
        "--flow-context",
        metavar=JSON_METAVAR,
        help="flowContext (currentStepId, completedSteps, executionPath, stepCount); "
        "default: the --from step having just run",
    )
    parser.add_argument(
        "--tool-called",
        action="append",
        default=[],
        metavar="NAME",
        help="a tool the agent called this turn (repeatable), for tool_called rules",
    )


def saved_scenario(args: argparse.Namespace, root: Path, workflow: str) -> Scenario | None:
    """The scenario ``--scenario`` names for ``workflow`` (None when not given); its problems
    on standard error, an unknown name as a UsageError with the saved ones listed."""
    name = getattr(args, "scenario", None)
    if not name:
        return None
    # imported when a scenario is named: the commands that take none start without it
    from flowctx_core.model.scenarios import list_scenarios, load_scenario

    saved, problems = load_scenario(root, workflow, name)
    if saved is None:
        known = list_scenarios(root, workflow)
        hint = did_you_mean(name, known)
        listed = ", ".join(known) or "none"
        first = problems[0]
        # a name with no file has no line to point at: "nope.json:0:0:" read as a broken file
        where = f"--scenario: {first.file}" if first.line == 0 else first.format()
        said = f": {first.message}" if first.line == 0 else ""
        raise UsageError(f"{where}{said}{hint} (saved: {listed})")
    for p in problems:
        print(f"flowctx: {p.format()}", file=sys.stderr)
    return saved


def scenario_from_args(args: argparse.Namespace, saved: Scenario | None) -> Scenario:
    """The saved scenario (or an empty one) with the route inputs given as options on top."""
    from flowctx_core.model.scenarios import Scenario

    base = saved or Scenario()
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
    return replace(base, **changes)


def with_real_context(scenario: Scenario, values: dict[str, Any]) -> Scenario:
    """The scenario with each ``***`` of its context (a saved scenario masks secrets) read as
    the resolved value it stands for, as the app reads it back."""
    from flowctx_core.model.scenarios import real_overrides

    real = real_overrides(values, scenario.context_overrides)
    return replace(scenario, context_overrides=real)


def with_scenario(
    scenario: Scenario | None, env: dict[str, str], launch: dict[str, Any]
) -> tuple[dict[str, str], dict[str, Any]]:
    """``env`` and ``launch`` over the scenario's own (the command line wins), and its instant
    pinned unless ``--now`` was given."""
    if scenario is None:
        return env, launch
    if scenario.now and not clock.EXPLICIT:
        # a bad instant is reported where the scenario file was read
        with contextlib.suppress(clock.ClockError):
            clock.pin(clock.parse_now(scenario.now))
    return {**scenario.env_overrides, **env}, {**scenario.launch, **launch}
