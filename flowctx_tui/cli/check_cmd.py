"""``flowctx check``: validate every workflow; exit 0 clean, 1 with errors, 2 on bad arguments.

Each workflow is resolved with the same inputs ``matrix`` would use (``--env``, ``--launch``,
``--build-context``), so every error or warning a matrix row shows is one here too.
``--format json`` prints ``{"workspace", "workflows", "discovered", "errors", "warnings", "ok",
"problems"}`` (``discovered``: the listed workflows the runtime itself would discover), each
problem ``{"file", "line", "column", "severity", "code", "message"}``; ``github`` prints
workflow-command annotations (``flowctx_core.report.github``); ``sarif`` a SARIF 2.1.0 log
(``flowctx_core.report.sarif``).

Several PATHs may be given (a pre-commit hook passes the files it changed): each names its
workspace and, when it is inside a workflow folder, that workflow. Each workspace is checked
once, for the workflows its PATHs name (all of them when a PATH names the workspace itself).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.oneline import one_line
from flowctx_core.base.repo_paths import report_base
from flowctx_core.base.secrets import mask_text
from flowctx_core.check import CheckReport, count_problems, workspace_report
from flowctx_core.model.workspace_root import WorkspaceNotFound, find_root
from flowctx_core.report.github import problem_annotations, refusal_annotation
from flowctx_core.report.sarif import sarif_log, sarif_run
from flowctx_core.session import Session
from flowctx_tui.cli.common import UsageError, fail, stdin_file
from flowctx_tui.cli.launch_args import (
    add_launch_args,
    build_context_env,
    launch_from_args,
    parse_env_overrides,
)
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.paint import CHECK_RULES, print_painted
from flowctx_tui.cli.scenario_args import saved_scenario, with_scenario
from flowctx_tui.cli.workspace_args import (
    add_workspace_args,
    no_workflows_message,
    open_from_args,
    workspace_path,
)

FORMATS = {
    "text": "a file:line:column line per problem",
    "json": "one object, problems with codes",
    "github": "GitHub Actions annotations",
    "sarif": "SARIF 2.1.0 for code scanning",
}


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser, many_workflows=True, many_paths=True)
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    parser.add_argument(
        "--stdin-filename",
        metavar="FILE",
        help="with PATH '-': the workspace file standard input stands for; its workspace is "
        "checked with that file's text read from standard input (an editor's unsaved buffer)",
    )
    add_format_arg(parser, FORMATS)
    add_launch_args(parser)


def _problem_json(p: Diagnostic) -> dict[str, object]:
    doc = p.to_json()
    # the documented key order: where, how bad, what kind, what
    keys = ("file", "line", "column", "severity", "code", "message")
    out: dict[str, object] = {k: doc.get(k, "") for k in keys}
    if p.fix is not None:
        # the did-you-mean as data: the text written where the problem points, and its fix
        fix: dict[str, object] = {"old": mask_text(p.fix.old), "new": mask_text(p.fix.new)}
        if p.fix.line:
            fix["line"] = p.fix.line  # where old is written, when not the problem's line
        out["fix"] = fix
    return out


@dataclass(frozen=True)
class Checked:
    """One workspace checked: what was asked and what was found."""

    session: Session
    workflows: list[str]
    report: CheckReport
    failed: bool


def _workspaces(
    args: argparse.Namespace, overrides: Mapping[str, str]
) -> list[tuple[Session, list[str]]]:
    """Each workspace the PATHs name, opened once, with the workflows to check there."""
    paths: list[str | None] = list(args.path) or [None]
    found: dict[Path, set[str] | None] = {}
    for path in paths:
        try:
            root, selected = find_root(workspace_path(path, demo=args.demo))
        except WorkspaceNotFound as exc:
            raise UsageError(str(exc)) from None
        wanted = found.get(root, set())
        if wanted is not None:
            # a PATH that names no workflow (the workspace, its flowctx.yaml, a registry)
            # asks for all of them
            wanted = None if selected is None else {*wanted, selected}
        found[root] = wanted
    out: list[tuple[Session, list[str]]] = []
    for root, wanted in found.items():
        session = open_from_args(
            argparse.Namespace(**{**vars(args), "path": str(root), "demo": False}),
            env_overrides=overrides,
        )
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
        elif wanted is not None:
            names = [n for n in names if n in wanted] + sorted(wanted - set(names))
        out.append((session, names))
    return out


def run(args: argparse.Namespace) -> int:
    from flowctx_core.base.fsview import buffers

    try:
        held = _standard_input(args)
    except UsageError as exc:
        return fail(str(exc))
    with buffers(held):
        return _run(args)


def _standard_input(args: argparse.Namespace) -> dict[Path, str]:
    """PATH ``-``: standard input, read as the file ``--stdin-filename`` names (the PATH
    becomes that file, so its workspace and workflow are the ones checked)."""
    if "-" not in args.path:
        if args.stdin_filename:
            raise UsageError(
                "--stdin-filename names the file standard input stands for: give PATH -"
            )
        return {}
    if not args.stdin_filename:
        raise UsageError(
            "check -: standard input is checked as one file of a workspace; say which with "
            "--stdin-filename FILE (e.g. workflows/W/context_variables.yaml)"
        )
    if args.path.count("-") > 1:
        raise UsageError("check -: standard input can be read once; give - once")
    target = Path(args.stdin_filename).expanduser().absolute()
    _, held = stdin_file("-", "check -", str(target))
    held[target.resolve()] = held[target]
    args.path = [args.stdin_filename if p == "-" else p for p in args.path]
    return held


def _run(args: argparse.Namespace) -> int:
    from flowctx_tui.cli import mj_views

    if len(args.path) <= 1:
        wanted = args.workflow[0] if args.workflow and len(args.workflow) == 1 else None
        mj = mj_views.mj_path(args.path[0] if args.path else None, wanted, args.runtime)
        if mj is not None:
            return mj_views.run_check(args, mj)
    try:
        overrides = parse_env_overrides(args.env)
        overrides.update(build_context_env(args))
        launch = launch_from_args(args)
        targets = _workspaces(args, overrides)
        if args.scenario:
            overrides, launch = _scenario_inputs(args, targets, overrides, launch)
    except UsageError as exc:
        return fail(str(exc))
    checked: list[Checked] = []
    for session, names in targets:
        report = workspace_report(session, names, env_overrides=overrides, launch=launch)
        counted = count_problems(report.problems)
        failed = bool(counted.errors or report.refused) or (args.strict and bool(counted.warnings))
        checked.append(Checked(session, names, report, failed))
    shows = {"json": _print_json, "github": _print_github, "sarif": _print_sarif}
    shows.get(args.format, _print_text)(checked, args.quiet)
    return 1 if any(c.failed for c in checked) else 0


def _scenario_inputs(
    args: argparse.Namespace,
    targets: list[tuple[Session, list[str]]],
    overrides: dict[str, str],
    launch: dict[str, Any],
) -> tuple[dict[str, str], dict[str, Any]]:
    """The environment and launch values with the saved scenario's under them: a scenario is
    saved for one workflow, so the check must be of that one workflow."""
    names = [(session, name) for session, wanted in targets for name in wanted]
    if len(names) != 1:
        listed = ", ".join(name for _, name in names)
        raise UsageError(
            "--scenario: a saved scenario belongs to one workflow; give --workflow NAME "
            f"(checking {listed})"
        )
    session, name = names[0]
    return with_scenario(saved_scenario(args, session.root, name), overrides, launch)


def _kept(problems: list[Diagnostic], quiet: bool) -> list[Diagnostic]:
    return [p for p in problems if p.severity == "error" or not quiet]


def _summary(c: Checked) -> str:
    counted = count_problems(c.report.problems)
    status = "FAILED" if c.failed else "ok"
    ignored = f", {counted.ignored} ignored" if counted.ignored else ""
    return (
        f"{status}: {len(c.workflows)} workflow(s), {counted.errors} error(s), "
        f"{counted.warnings} warning(s){ignored} [runtime {c.session.runtime.label}]"
    )


def _print_text(checked: list[Checked], quiet: bool) -> None:
    out: list[str] = []
    for c in checked:
        if len(checked) > 1:
            # problems are located relative to their workspace: say which one
            out.append(f"workspace {c.session.root}")
        for refused in c.report.refused.values():
            # first, as the runtime would stop there
            # one line: a folder or file name may hold a line break (a forged heading)
            out.append(one_line(refused.short(f"runtime {c.session.runtime.name}")))
        out.extend(p.format() for p in _kept(c.report.problems, quiet))
        out.append(_summary(c))
    print_painted("\n".join(out), CHECK_RULES)


def _json_doc(c: Checked, quiet: bool) -> dict[str, Any]:
    # deferred: a plain text run does not load the workspace model (tests/cli/test_cold_imports.py)
    from flowctx_core.model.workspace import discovered

    counted = count_problems(c.report.problems)
    return {
        "workspace": str(c.session.root),
        "workflows": c.workflows,
        # what the runtime itself would discover of them (a bare contract is listed, not run)
        "discovered": discovered(c.session.root, c.workflows, c.session.runtime),
        "ok": not c.failed,
        "errors": counted.errors,
        "warnings": counted.warnings,
        # problems flowctx.yaml's checks: or an ignore comment asked not to see
        "ignored": counted.ignored,
        "runtime": c.session.runtime.label,
        "refused": {n: r.to_json() for n, r in c.report.refused.items()},
        "problems": [_problem_json(p) for p in _kept(c.report.problems, quiet)],
    }


def _print_json(checked: list[Checked], quiet: bool) -> None:
    docs = [_json_doc(c, quiet) for c in checked]
    if len(docs) == 1:
        out: dict[str, Any] = docs[0]
    else:
        # PATHs in several workspaces: one object each, and the totals
        out = {
            "ok": all(d["ok"] for d in docs),
            "errors": sum(d["errors"] for d in docs),
            "warnings": sum(d["warnings"] for d in docs),
            "workspaces": docs,
        }
    print(json.dumps(out, indent=2, ensure_ascii=False))


def _print_github(checked: list[Checked], quiet: bool) -> None:
    for c in checked:
        root = c.session.root
        base = report_base(root)
        for name, refused in c.report.refused.items():
            print(refusal_annotation(name, refused, c.session.runtime.name, root, base))
        for line in problem_annotations(_kept(c.report.problems, quiet), root, base):
            print(line)
        # a plain log line: the annotations say where, this says how it ended
        print(_summary(c))


def information_uri() -> str | None:
    """The project's home as the installed distribution's metadata names it (a
    ``[project.urls]`` entry), for SARIF's ``informationUri``; None when it names none."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("flowctx")
    except PackageNotFoundError:
        return None
    for entry in meta.get_all("Project-URL") or []:
        _, _, url = entry.partition(",")
        if url.strip().startswith(("https://", "http://")):
            return url.strip()
    home = (meta.get_all("Home-page") or [None])[0]
    return home if home and home.startswith(("https://", "http://")) else None


def _print_sarif(checked: list[Checked], quiet: bool) -> None:
    from flowctx_tui.cli import version

    runs = [
        sarif_run(
            _kept(c.report.problems, quiet),
            workspace=c.session.root,
            base=report_base(c.session.root),
            runtime=c.session.runtime,
            workflows=c.workflows,
            refused=c.report.refused,
            tool_version=version(),
            information_uri=information_uri(),
        )
        for c in checked
    ]
    print(json.dumps(sarif_log(runs), indent=2, ensure_ascii=False))
