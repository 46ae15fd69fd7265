"""Options shared by the commands that open a workspace."""

from __future__ import annotations

import argparse
import os
from importlib import resources
from pathlib import Path

from core.runtime_profiles import DEFAULT_PROFILE, PROFILES, UnknownRuntime
from core.session import Session, open_session
from core.workspace import WorkspaceNotFound
from flowctx_tui.cli.common import UsageError


def demo_path() -> Path:
    """The demo workspace bundled with the package."""
    return Path(str(resources.files("flowctx_tui") / "demo" / "workspace"))


def add_workspace_args(parser: argparse.ArgumentParser, *, path_required: bool = True) -> None:
    parser.add_argument(
        "path",
        nargs=None if path_required else "?",
        default=None,
        help="workspace root, its workflows/ folder, or one workflow folder"
        + ("" if path_required else " (default: the bundled demo)"),
    )
    parser.add_argument("--workflow", "-w", help="workflow name (default: the only or first one)")
    parser.add_argument(
        "--mongo-uri",
        help="query this MongoDB for data_reference variables (default: $FLOWCTX_MONGO_URI, "
        "else the embedded database seeded from the workspace's seed/ folder)",
    )


def add_runtime_arg(parser: argparse.ArgumentParser) -> None:
    """``--runtime NAME``, on every command: the runtime profile answers are judged against."""
    if any("--runtime" in a.option_strings for a in parser._actions):
        return
    parser.add_argument(
        "--runtime",
        metavar="NAME",
        help=f"runtime profile: {', '.join(PROFILES)} (default: the workspace's flowctx.yaml "
        f"'runtime:', else {DEFAULT_PROFILE})",
    )


def open_from_args(args: argparse.Namespace) -> Session:
    path = args.path if args.path else demo_path()
    try:
        return open_session(
            path,
            env=dict(os.environ),
            mongo_uri=args.mongo_uri,
            runtime=getattr(args, "runtime", None),
        )
    except (WorkspaceNotFound, UnknownRuntime) as exc:
        raise UsageError(str(exc)) from None


def pick_workflow(session: Session, requested: str | None) -> str:
    names = session.workflows()
    wanted = requested or session.selected
    if wanted:
        for name in names:
            if name == wanted:
                return name
        for name in names:
            if name.lower() == wanted.lower():
                return name
        listed = ", ".join(names) or "none"
        raise UsageError(f"no workflow named '{wanted}' in {session.root} (workflows: {listed})")
    if not names:
        raise UsageError(f"{session.root}: no workflows found under workflows/")
    return names[0]
