"""``flowctx check``: validate every workflow; exit 0 clean, 1 with errors, 2 on bad arguments."""

from __future__ import annotations

import argparse
import os

from core.check import check_workspace
from core.runtime_profiles import UnknownRuntime
from core.session import open_session
from core.workspace import WorkspaceNotFound
from flowctx_tui.cli.common import fail
from flowctx_tui.cli.launch_args import add_build_context_arg, build_context_env


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="workspace root, its workflows/ folder, or a workflow folder")
    parser.add_argument(
        "--workflow", "-w", action="append", help="check only this workflow (repeatable)"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    add_build_context_arg(parser)


def run(args: argparse.Namespace) -> int:
    try:
        session = open_session(
            args.path,
            env={**os.environ, **build_context_env(args)},
            runtime=getattr(args, "runtime", None),
        )
    except (WorkspaceNotFound, UnknownRuntime) as exc:
        return fail(str(exc))
    names = session.workflows()
    if args.workflow:
        unknown = [w for w in args.workflow if w not in names]
        if unknown:
            return fail(f"no workflow named {', '.join(unknown)} (workflows: {', '.join(names)})")
        names = args.workflow
    elif session.selected:
        names = [session.selected]
    problems = check_workspace(session, names)
    for name in names:
        refused = session.load(name).refused
        if refused is not None:
            # first, as the runtime would stop there
            print(refused.short(f"runtime {session.runtime.name}"))
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    for p in problems:
        if p.severity == "error" or not args.quiet:
            print(p.format())
    failed = bool(errors) or (args.strict and bool(warnings))
    status = "FAILED" if failed else "ok"
    print(
        f"{status}: {len(names)} workflow(s), {len(errors)} error(s), {len(warnings)} warning(s)"
        f" [runtime {session.runtime.label}]"
    )
    return 1 if failed else 0
