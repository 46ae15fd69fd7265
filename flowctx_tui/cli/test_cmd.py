"""``flowctx test``: run the workspace's routing and resolution tests (``.flowctx/tests/*.yaml``).

Exit 0 when every case passes, 1 when any fails, 2 when a test file or a case is invalid
(unreadable YAML, an unknown key, a workflow, agent, step or variable that does not exist) or
an argument is. ``--coverage`` adds which rules, condition atoms (seen true and false, MC/DC)
and variable sources the cases exercised; ``--suggest`` searches inputs for every rule no case
takes, confirms each by routing it, and prints it as a ready-to-paste case (or why none
exists). Values of secrets are compared, never printed; an expectation whose judgement
reads a secret is withheld (its verdict would be a bit of the secret: it counts apart and moves
no exit status) unless ``--reveal``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from flowctx_tui.cli.common import UsageError, fail, stdin_file
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.paint import TEST_RULES, print_painted
from flowctx_tui.cli.verbosity import note
from flowctx_tui.cli.workspace_args import add_runtime_arg, add_workspace_args, open_from_args

FORMATS = {
    "text": "a line per case",
    "json": "flowctx-test/1",
    "junit": "JUnit XML",
    "sarif": "SARIF 2.1.0",
}


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    add_runtime_arg(parser)
    parser.add_argument(
        "-k",
        dest="keyword",
        metavar="SUBSTRING",
        help="only the cases whose name holds SUBSTRING (any case)",
    )
    parser.add_argument(
        "--file",
        action="append",
        default=[],
        metavar="TEST_FILE",
        help="run this test file, - for standard input (repeatable; default: every "
        ".flowctx/tests/*.yaml)",
    )
    add_format_arg(parser, FORMATS)
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="report which rules, condition atoms (true/false, MC/DC) and variable sources "
        "the cases exercised",
    )
    parser.add_argument(
        "--suggest",
        action="store_true",
        help="for each rule no case takes, search for inputs that make it win (confirmed by "
        "routing them) and print a ready-to-paste case, or why none exists",
    )
    parser.add_argument(
        "--reveal",
        action="store_true",
        help="judge and show the expectations that read secret values (withheld otherwise: "
        "their verdicts would tell bits of the secrets); for your own machine, never CI",
    )
    parser.add_argument(
        "--suggest-seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="how long --suggest may search in all, every rule's search included (default: 2)",
    )


def run(args: argparse.Namespace) -> int:
    from flowctx_core.report.testrun import render_text, to_json, to_junit, to_sarif
    from flowctx_core.testing.run import run_workspace_tests
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, args.runtime)
    if mj is not None:
        return mj_views.run_test(args, mj)
    try:
        session = open_from_args(args)
        if args.workflow is not None and args.workflow not in session.workflows():
            listed = ", ".join(session.workflows()) or "none"
            raise UsageError(f"no workflow named '{args.workflow}' (workflows: {listed})")
        if args.suggest_seconds <= 0:
            raise UsageError("--suggest-seconds must be more than 0")
    except UsageError as exc:
        return fail(str(exc))
    from flowctx_core.base.fsview import buffers

    held: dict[Path, str] = {}
    named: list[Path] = []
    try:
        for given in args.file:
            shown, stdin = stdin_file(given, "--file")
            held.update(stdin)
            named.append(Path(shown) if stdin else Path(given))
    except UsageError as exc:
        return fail(str(exc))
    paths = named or None
    for p in paths or ():
        if p not in held and not p.is_file():
            return fail(f"--file: no test file at {p}")
    with buffers(held):
        test_run = run_workspace_tests(
            session, paths, workflow=args.workflow, keyword=args.keyword, reveal=args.reveal
        )
    if not test_run.files and paths is None:
        return fail(
            f"{session.root}: no test files (.flowctx/tests/*.yaml); see `flowctx test --help`"
        )
    coverage = None
    witnesses = []
    if args.coverage or args.suggest or args.format == "sarif":
        from flowctx_core.testing.coverage import default_matrices, measure

        workflows = [args.workflow] if args.workflow else session.workflows()
        routes = {}
        for name in workflows:
            snap = session.snapshot([name])
            if not snap.routes[name].empty:
                routes[name] = snap.routes[name]
        matrices = default_matrices(session, routes)
        coverage = measure(test_run, routes, matrices)
        if args.suggest:
            import time

            from flowctx_core.testing.witness import find_witness

            # one bound for the whole search, every rule's included: past it, the rules not
            # yet searched say so (the conditions being evaluated stop at it too)
            deadline = time.monotonic() + args.suggest_seconds
            witnesses = [
                find_witness(
                    routes[rule.workflow],
                    matrices[rule.workflow],
                    rule,
                    max_seconds=args.suggest_seconds,
                    deadline=deadline,
                )
                for rule in coverage.uncovered()
            ]
        if not args.coverage:
            coverage = coverage if args.format == "sarif" and args.coverage else None
    runtime = session.runtime.label
    # a -k that selects nothing is a usage error: a typo in CI must not pass as green (a -w
    # naming a workflow with no case is not a typo: it has no tests yet)
    selected_nothing = False
    if args.workflow and not test_run.results and not test_run.problems:
        # said on standard error: the formats' own output stays what they promise
        note(f"no test case for workflow '{args.workflow}' in the test files")
    elif args.keyword is not None and not test_run.results and not test_run.problems:
        # a mistyped -k ran nothing and said "0 passed, 0 failed" as if all were well
        selected_nothing = True
        print(
            f"flowctx: -k: no test case's name holds {args.keyword!r} (any case)",
            file=sys.stderr,
        )
    if args.format == "json":
        print(
            json.dumps(
                to_json(test_run, runtime, coverage, witnesses), indent=2, ensure_ascii=False
            )
        )
    elif args.format == "junit":
        print(to_junit(test_run, runtime))
    elif args.format == "sarif":
        from flowctx_core.base.repo_paths import report_base
        from flowctx_tui.cli import version

        doc = to_sarif(
            test_run,
            workspace=session.root,
            base=report_base(session.root),
            runtime=runtime,
            tool_version=version(),
            coverage=coverage,
        )
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_painted(render_text(test_run, coverage, witnesses), TEST_RULES)
    return 2 if selected_nothing else test_run.exit_code
