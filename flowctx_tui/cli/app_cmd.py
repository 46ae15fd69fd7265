"""``flowctx [PATH]``: the Textual app (the default command).

Textual and the app are imported only once the arguments are good, so a typo in a path or a
key map is reported quickly, as a message, before the terminal switches to the app.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from flowctx_tui.cli.common import UsageError, fail
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow

SCREENSHOT_DIR_ENV = "FLOWCTX_SCREENSHOT_DIR"


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser, path_required=False)
    parser.add_argument(
        "--keymap",
        metavar="FILE",
        help='JSON or YAML mapping of binding id to keys, e.g. {"matrix.next_error": "f7"}',
    )
    parser.add_argument(
        "--no-watch",
        action="store_true",
        help="do not watch the workspace for changes (reload with f5)",
    )
    parser.add_argument(
        "--screenshot-dir",
        metavar="DIR",
        help=f"where f8 saves SVG screenshots (default: ${SCREENSHOT_DIR_ENV}, else "
        "$XDG_STATE_HOME/flowctx/screenshots, i.e. ~/.local/state/flowctx/screenshots)",
    )


def build_app(args: argparse.Namespace) -> Any:
    """The app ``flowctx`` would run for ``args``; raises UsageError for bad arguments."""
    session = open_from_args(args)
    workflow = pick_workflow(session, args.workflow)

    from flowctx_tui import loader
    from flowctx_tui.app import FlowctxApp, binding_classes
    from flowctx_tui.keymap import KeymapError, binding_ids, bound_keys, load_keymap

    keymap = None
    if args.keymap:
        classes = binding_classes()
        try:
            keymap = load_keymap(Path(args.keymap), binding_ids(classes), bound=bound_keys(classes))
        except KeymapError as exc:
            raise UsageError(f"--keymap: {exc}") from None
    shots = args.screenshot_dir or os.environ.get(SCREENSHOT_DIR_ENV)
    return FlowctxApp(
        session,
        workflow,
        keymap=keymap,
        watch=not args.no_watch,
        screenshot_dir=Path(shots).expanduser() if shots else None,
        # the first load happens before the terminal switches to the app, so its first frame
        # already shows the matrix; every later reload runs in a worker thread
        initial=loader.load(session, workflow, {}, {}),
    )


def run(args: argparse.Namespace) -> int:
    try:
        app = build_app(args)
    except UsageError as exc:
        return fail(str(exc))
    app.run()
    return int(app.return_code or 0)
