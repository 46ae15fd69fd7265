"""Options shared by the commands that resolve a workflow at launch: ``--launch``, ``--env`` and
``--build-context [PATH]``.

``--build-context`` travels as the environment override ``FLOWCTX_BUILD_CONTEXT`` so that the
core sees it the same way whether it came from the CLI, the app or ``flowctx.yaml``; the matrix
notes then say which setting turned build context on.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowctx_core.buildctx import OPTION_ENV
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.runtime.launch import RUNTIME_CONTEXT_KEY
from flowctx_core.session import Session
from flowctx_tui.cli.common import UsageError, load_json_arg
from flowctx_tui.cli.scenario_args import add_scenario_arg, saved_scenario, with_scenario
from flowctx_tui.cli.workspace_args import open_from_args, pick_workflow


def add_build_context_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--build-context",
        nargs="?",
        const="",
        default=None,
        metavar="PATH",
        help="turn the build-context provider on; registries from PATH (relative to the current "
        "directory), else MOZAIKS_BUILD_CONTEXT_PATH, MOZAIKS_APP_WORKSPACE_PATH/build_context "
        "or the workspace's build_context/ (give it after the workspace path, or as "
        "--build-context=PATH)",
    )


def build_context_env(args: argparse.Namespace) -> dict[str, str]:
    """The environment override the option stands for (empty when not given)."""
    value = getattr(args, "build_context", None)
    if value is None:
        return {}
    if value == "":
        return {OPTION_ENV: "on"}
    # a path typed on the command line means what it means in the user's shell
    return {OPTION_ENV: str(Path(value).expanduser().resolve())}


def parse_env_overrides(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            # not echoed: "--env sk-live-..." is a secret typed where a NAME=VALUE was meant
            raise UsageError("--env expects NAME=VALUE; a value given has no NAME= (not shown)")
        out[name] = value
    return out


def add_launch_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--launch",
        metavar="JSON|@FILE",
        help="launch/runtime values (app_id, user_id, chat_id, workflow_name, declared "
        'variables); the launch trigger payload goes under "$trigger"',
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an environment variable for this resolution (repeatable)",
    )
    parser.add_argument(
        "--runtime-context",
        action="append",
        default=[],
        metavar="KEY=VALUE|JSON|@FILE",
        help="what the host supplies in the launch's runtime context, read by 'type: runtime' "
        "sources (repeatable; VALUE is read as JSON when it parses, else as text)",
    )
    add_build_context_arg(parser)
    add_scenario_arg(parser)


def runtime_context_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--runtime-context`` values merged in order, ``{}`` when none were given."""
    out: dict[str, Any] = {}
    for item in getattr(args, "runtime_context", None) or []:
        if item.startswith(("{", "@")):
            given = load_json_arg(item, "--runtime-context")
            if not isinstance(given, dict):
                raise UsageError("--runtime-context must be a JSON object or KEY=VALUE")
            out.update(given)
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            # not echoed: the value may be a credential typed where KEY=VALUE was meant
            raise UsageError(
                "--runtime-context expects KEY=VALUE, a JSON object or @FILE (not shown)"
            )
        try:
            out[key.strip()] = load_json_arg(value, "--runtime-context")
        except UsageError:
            out[key.strip()] = value
    return out


@dataclass(frozen=True)
class LaunchResolution:
    session: Session
    workflow: WorkflowSnapshot
    matrix: Matrix
    #: the effective environment the matrix was resolved with
    env: dict[str, str]
    launch: dict[str, Any]


def launch_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--launch`` values (JSON or @file), ``{}`` when not given; the
    ``--runtime-context`` values under ``$runtime_context``."""
    launch = load_json_arg(args.launch, "--launch") or {}
    if not isinstance(launch, dict):
        raise UsageError("--launch must be a JSON object")
    runtime_context = runtime_context_from_args(args)
    if runtime_context:
        given = launch.get(RUNTIME_CONTEXT_KEY)
        merged = {**given, **runtime_context} if isinstance(given, dict) else runtime_context
        launch = {**launch, RUNTIME_CONTEXT_KEY: merged}
    return launch


def resolve_from_args(args: argparse.Namespace) -> LaunchResolution:
    """Open the workspace, pick the workflow and resolve it with the launch-time options."""
    session = open_from_args(args)
    name = pick_workflow(session, args.workflow)
    launch = launch_from_args(args)
    overrides = parse_env_overrides(args.env)
    overrides.update(build_context_env(args))
    overrides, launch = with_scenario(saved_scenario(args, session.root, name), overrides, launch)
    snapshot = session.load(name)
    origins = {
        "overrides_from": "--env",
        "launch_from": "--launch",
        "runtime_context_from": "--runtime-context" if args.runtime_context else "--launch",
    }
    inputs = session.inputs(overrides, launch, **origins)
    matrix = session.matrix(snapshot, overrides, launch, **origins)
    return LaunchResolution(session, snapshot, matrix, dict(inputs.env), dict(inputs.launch))
