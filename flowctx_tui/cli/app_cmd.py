"""``flowctx [PATH]``: the Textual app (the default command).

Textual and the app are imported only once the arguments are good, so a typo in a path or a
key map is reported quickly, as a message, before the terminal switches to the app.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.terminal import colour_allowed, no_terminal_reason
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

SCREENSHOT_DIR_ENV = "FLOWCTX_SCREENSHOT_DIR"
#: the driver textual-serve runs each app with (it sets TEXTUAL_DRIVER to it)
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    parser.add_argument(
        "--keymap",
        metavar="FILE",
        help='JSON or YAML mapping of binding id to keys, e.g. {"matrix.next_error": "f10"}',
    )
    parser.add_argument(
        "--no-watch",
        action="store_true",
        help="do not watch the workspace for changes (reload with f5)",
    )
    parser.add_argument(
        "--base",
        metavar="REV_OR_FOLDER",
        help="review mode: mark what changed since this git revision of the workspace's "
        "repository (read through git, the working tree untouched) or this folder",
    )
    parser.add_argument(
        "--screenshot-dir",
        metavar="DIR",
        help=f"where f8 saves SVG screenshots (default: ${SCREENSHOT_DIR_ENV}, else "
        "$XDG_STATE_HOME/flowctx/screenshots, i.e. ~/.local/state/flowctx/screenshots)",
    )
    # the same launch inputs as check, matrix and routes: the app starts resolving with them
    # (the Launch dialog and the environment editor change them afterwards)
    from flowctx_tui.cli.launch_args import add_launch_args

    add_launch_args(parser)


def build_app(args: argparse.Namespace) -> Any:
    """The app ``flowctx`` would run for ``args``; raises UsageError for bad arguments."""
    from flowctx_tui.cli import mj_views

    mj = mj_views.mj_path(args.path, args.workflow, getattr(args, "runtime", None))
    if mj is not None:
        # MemberJunction agent metadata: no matrix, the routes and graph of its flow agents
        ws = mj_views.open_workspace(mj, args)
        agent = mj_views.pick_agent(ws, args.workflow).name if ws.workflows() else None
        from flowctx_tui.mj_app import MjApp

        _colour_for_textual()
        return MjApp(ws, agent)
    # the app shows its workspace in the status line: no note on a screen it is about to cover
    session = open_from_args(args, quiet=True, demo_outside=True)
    workflow = pick_workflow(session, args.workflow)
    from flowctx_tui.cli.launch_args import (
        build_context_env,
        launch_from_args,
        parse_env_overrides,
    )
    from flowctx_tui.cli.scenario_args import saved_scenario, with_scenario

    launch = launch_from_args(args)
    env = parse_env_overrides(args.env)
    env.update(build_context_env(args))
    env, launch = with_scenario(saved_scenario(args, session.root, workflow), env, launch)

    from flowctx_tui import loader
    from flowctx_tui.app import FlowctxApp, binding_classes
    from flowctx_tui.cli.verbosity import note
    from flowctx_tui.keymap import KeymapError, binding_ids, bound_keys, load_keymap
    from flowctx_tui.userconfig import load_user_config, save_theme

    settings = load_user_config()
    for problem in settings.problems:  # a typo in the settings never keeps the app from starting
        note(problem.format())
    keymap = None
    classes = binding_classes()
    if settings.keymap:
        try:
            keymap = load_keymap(
                settings.path, binding_ids(classes), bound=bound_keys(classes), under="keymap"
            )
        except KeymapError as exc:
            note(f"your settings' keymap is not used: {exc}")
    if args.keymap:
        try:
            given = load_keymap(Path(args.keymap), binding_ids(classes), bound=bound_keys(classes))
        except KeymapError as exc:
            raise UsageError(f"--keymap: {exc}") from None
        keymap = {**(keymap or {}), **given}  # the command line's keys win
    base = None
    if getattr(args, "base", None):
        from flowctx_core.review.diff import SideError, read_side

        try:
            base = read_side(args.base, session.root, session.env, runtime=session.runtime_choice)
        except SideError as exc:
            raise UsageError(f"--base: {exc}") from None
    shots = args.screenshot_dir or os.environ.get(SCREENSHOT_DIR_ENV)
    _colour_for_textual()
    return FlowctxApp(
        session,
        workflow,
        keymap=keymap,
        watch=not args.no_watch,
        screenshot_dir=Path(shots).expanduser() if shots else None,
        # the first load happens before the terminal switches to the app, so its first frame
        # already shows the matrix; every later reload runs in a worker thread
        initial=loader.load(session, workflow, env, launch),
        base=base,
        env_overrides=env,
        launch=launch,
        theme=settings.theme,
        remember_theme=save_theme,
    )


def _colour_for_textual() -> None:
    """Textual goes monochrome whenever NO_COLOR is present, even empty; flowctx's rule (an
    empty NO_COLOR does not count, TERM=dumb does) must hold in the app too."""
    if colour_allowed():
        os.environ.pop("NO_COLOR", None)
    else:
        os.environ["NO_COLOR"] = os.environ.get("NO_COLOR") or "1"


def run(args: argparse.Namespace) -> int:
    try:
        # bad arguments first: `flowctx typo >out` is better told about the typo
        app = build_app(args)
    except UsageError as exc:
        return fail(str(exc))
    # under `flowctx serve` the app's input and output are textual-serve's pipes to a browser
    web = os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER
    why = "" if web else no_terminal_reason(sys.stdin, sys.stdout)
    if why:
        # a full-screen app drawn into a pipe or file is kilobytes of escape codes and never
        # ends; the same results exist as plain text
        return fail(
            f"the app needs a terminal ({why}); for plain output use 'flowctx matrix' "
            "(every command: 'flowctx --help')"
        )
    app.run()
    return int(app.return_code or 0)
