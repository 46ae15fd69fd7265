"""``flowctx check``: validate every workflow; exit 0 clean, 1 with errors, 2 on bad arguments.

Each workflow is resolved with the same inputs ``matrix`` would use (``--env``, ``--launch``,
``--build-context``), so every error or warning a matrix row shows is one here too.
``--format json`` prints ``{"workspace", "workflows", "errors", "warnings", "ok", "problems"}``,
each problem ``{"file", "line", "column", "severity", "code", "message"}``.
"""

from __future__ import annotations

import argparse
import json

from core.check import count_problems, workspace_report
from core.diagnostics import Diagnostic
from flowctx_tui.cli.common import UsageError, fail, load_json_arg
from flowctx_tui.cli.launch_args import add_launch_args, build_context_env, parse_env_overrides
from flowctx_tui.cli.workspace_args import add_workspace_args, no_workflows_message, open_from_args


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser, many_workflows=True)
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_launch_args(parser)


def _problem_json(p: Diagnostic) -> dict[str, object]:
    doc = p.to_json()
    # the documented key order: where, how bad, what kind, what
    keys = ("file", "line", "column", "severity", "code", "message")
    return {k: doc.get(k, "") for k in keys}


def run(args: argparse.Namespace) -> int:
    try:
        overrides = parse_env_overrides(args.env)
        overrides.update(build_context_env(args))
        launch = load_json_arg(args.launch, "--launch") or {}
        if not isinstance(launch, dict):
            raise UsageError("--launch must be a JSON object")
        session = open_from_args(args, env_overrides=overrides)
        names = session.workflows()
        # an unreadable workflows/ folder lists as empty: that is a problem to report (exit 1),
        # not an empty workspace
        if not names and not session.snapshot([]).folder_problems:
            raise UsageError(no_workflows_message(session))
        if args.workflow:
            unknown = [w for w in args.workflow if w not in names]
            if unknown:
                raise UsageError(
                    f"no workflow named {', '.join(unknown)} (workflows: {', '.join(names)})"
                )
            names = args.workflow
        elif session.selected:
            names = [session.selected]
    except UsageError as exc:
        return fail(str(exc))
    report = workspace_report(session, names, env_overrides=overrides, launch=launch)
    problems, refusals = report.problems, report.refused
    counted = count_problems(problems)
    failed = bool(counted.errors or refusals) or (args.strict and bool(counted.warnings))
    runtime = session.runtime.label
    if args.format == "json":
        shown = [p for p in problems if p.severity == "error" or not args.quiet]
        doc = {
            "workspace": str(session.root),
            "workflows": names,
            "ok": not failed,
            "errors": counted.errors,
            "warnings": counted.warnings,
            "runtime": runtime,
            "refused": {n: r.to_json() for n, r in refusals.items()},
            "problems": [_problem_json(p) for p in shown],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 1 if failed else 0
    for refused in refusals.values():
        # first, as the runtime would stop there
        print(refused.short(f"runtime {session.runtime.name}"))
    for p in problems:
        if p.severity == "error" or not args.quiet:
            print(p.format())
    status = "FAILED" if failed else "ok"
    print(
        f"{status}: {len(names)} workflow(s), {counted.errors} error(s), "
        f"{counted.warnings} warning(s) [runtime {runtime}]"
    )
    return 1 if failed else 0
