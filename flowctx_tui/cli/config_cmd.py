"""``flowctx config``: where the user's settings are kept, and what they say
(``flowctx_tui/userconfig.py``: the theme the app writes, a keymap, a default runtime)."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--path", action="store_true", help="print the settings file's path (it may not exist yet)"
    )
    what.add_argument(
        "--show", action="store_true", help="print the settings in effect (the default)"
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format (default: text): text: YAML as the file writes it; json: one object",
    )


def run(args: argparse.Namespace) -> int:
    from flowctx_tui.userconfig import load_user_config

    settings = load_user_config()
    if args.path:
        if args.format == "json":
            print(json.dumps({"path": str(settings.path), "exists": settings.path.is_file()}))
        else:
            print(settings.path)
        return 0
    for problem in settings.problems:
        print(f"flowctx: {problem.format()}", file=sys.stderr)
    if args.format == "json":
        doc = {
            "path": str(settings.path),
            "exists": settings.path.is_file(),
            "theme": settings.theme,
            "runtime": settings.runtime,
            "keymap": dict(settings.keymap),
            "problems": [p.to_json() for p in settings.problems],
        }
        print(json.dumps(doc, indent=2))
    else:
        print(settings.as_yaml(), end="")
    return 1 if settings.problems else 0
