"""Options shared by the commands that open a workspace, and the one PATH rule they follow.

PATH is optional for every command. Given, it names a workspace root, its ``workflows/``
folder, one workflow folder, or one of a workflow's own files (so a pre-commit hook can pass
the files it changed). Left out, it is the workspace around the current directory, as git
finds its repository; outside any workspace it is the bundled demo, which ``flowctx`` alone
opens for a first look. Using the demo is said on standard error, so a script run in the
wrong folder never checks the demo without a word.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from flowctx_core.base import clock
from flowctx_core.base.clock import Clock
from flowctx_core.model.profile_names import DEFAULT_PROFILE, UnknownRuntime, known_names
from flowctx_tui.cli.common import UsageError
from flowctx_tui.cli.verbosity import detail, note, verbose

# workspace_root (with the diagnostics and file-system helpers under it) comes with the first
# workspace looked for: `flowctx eval` and `schema` take the --now/--runtime options and open none
if TYPE_CHECKING:  # the session (the contract's models) is imported by the commands that open one
    from flowctx_core.session import Session

PATH_HELP = (
    "workspace root, its workflows/ folder, one workflow folder or one of its files "
    "(default: the workspace around the current directory; --demo for the bundled demo)"
)
#: the app and serve open the demo outside a workspace (the README's first command); the
#: one-shot commands refuse, so a CI step run in the wrong folder fails rather than checking
#: the demo
NO_WORKSPACE = (
    "no workspace at or above the current directory (no workflows/ folder): give a PATH, "
    "or --demo for the bundled demo workspace"
)


def demo_path() -> Path:
    """The demo workspace bundled with the package."""
    from importlib import resources

    return Path(str(resources.files("flowctx_tui") / "demo" / "workspace"))


def add_workspace_args(
    parser: argparse.ArgumentParser, *, many_workflows: bool = False, many_paths: bool = False
) -> None:
    if many_paths:
        # several PATHs (the files a pre-commit hook passes): each names its workspace
        parser.add_argument(
            "path", nargs="*", default=[], metavar="PATH", help=f"{PATH_HELP}; repeatable"
        )
    else:
        parser.add_argument("path", nargs="?", default=None, metavar="PATH", help=PATH_HELP)
    if many_workflows:
        parser.add_argument(
            "--workflow",
            "-w",
            action="append",
            metavar="NAME",
            help="only this workflow (repeatable)",
        )
    else:
        parser.add_argument(
            "--workflow",
            "-w",
            metavar="NAME",
            help="workflow name (default: the only or first one)",
        )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="use the bundled demo workspace (instead of PATH or the current directory)",
    )
    add_now_arg(parser)
    parser.add_argument(
        "--mongo-uri",
        metavar="URI",
        help="query this MongoDB for data_reference variables (default: $FLOWCTX_MONGO_URI, "
        "else the embedded database seeded from the workspace's seed/ folder)",
    )


def add_now_arg(parser: argparse.ArgumentParser) -> None:
    """``--now ISO8601``: the instant ``new Date()``/``Date.now()`` read in conditions."""
    parser.add_argument(
        "--now",
        metavar="ISO8601",
        help="evaluate conditions that read the clock at this instant, e.g. "
        "2026-12-01T09:00:00Z (default: flowctx.yaml 'now:', else the current time, stated)",
    )


def pin_now(args: argparse.Namespace, profile_now: Clock | None = None) -> None:
    """Pin the clock of every evaluation this command makes: ``--now``, else ``now:``, else
    the current time read once (so both sides of a diff, and every candidate of a route,
    read the same instant; results still say it is the current time)."""
    given = getattr(args, "now", None)
    if given is None:
        clock.pin(profile_now or clock.Clock(int(time.time() * 1000), pinned=False))
        return
    try:
        clock.pin(clock.parse_now(given), explicit=True)
    except clock.ClockError as exc:
        raise UsageError(f"--now: {exc}") from None


def add_runtime_arg(parser: argparse.ArgumentParser) -> None:
    """``--runtime NAME``, on every command: the runtime profile answers are judged against."""
    if any("--runtime" in a.option_strings for a in parser._actions):
        return
    parser.add_argument(
        "--runtime",
        metavar="NAME",
        help=f"runtime profile: {known_names()} (default: the workspace's flowctx.yaml "
        f"'runtime:', else {DEFAULT_PROFILE}); memberjunction-5.51.3 (alias memberjunction) "
        "for MemberJunction agent metadata, its only profile",
    )


def workspace_path(
    given: str | None, *, quiet: bool = False, demo: bool = False, demo_outside: bool = False
) -> Path:
    """The PATH rule: ``given``, else the workspace around the current directory. ``demo``
    (``--demo``): the bundled demo. Outside any workspace, the demo when ``demo_outside`` (the
    app, serve; said on standard error unless ``quiet``), else a UsageError (exit 2)."""
    if demo:
        if given:
            raise UsageError(f"--demo and a PATH ({given}) name two workspaces: give one")
        return demo_path()
    if given:
        return Path(given)
    from flowctx_core.model.workspace_root import WorkspaceNotFound, find_root

    cwd = Path.cwd()
    try:
        find_root(cwd)
    except WorkspaceNotFound:
        if not demo_outside:
            raise UsageError(NO_WORKSPACE) from None
        if not quiet:
            note(
                "no workspace at or above the current directory; using the bundled "
                "demo (give a PATH to choose one)"
            )
        return demo_path()
    return cwd


def open_from_args(
    args: argparse.Namespace,
    *,
    env_overrides: Mapping[str, str] | None = None,
    quiet: bool = False,
    demo_outside: bool = False,
) -> Session:
    """Open the workspace PATH names (see the module's rule) with the process environment
    and ``env_overrides`` on top (``demo_outside``: see ``workspace_path``)."""
    from flowctx_core.model.workspace_root import WorkspaceNotFound
    from flowctx_core.session import open_session

    path = workspace_path(
        args.path,
        quiet=quiet,
        demo=getattr(args, "demo", False),
        demo_outside=demo_outside,
    )
    env = {**os.environ, **(env_overrides or {})}
    try:
        session = open_session(
            path,
            env=env,
            mongo_uri=getattr(args, "mongo_uri", None),
            runtime=getattr(args, "runtime", None),
        )
    except UnknownRuntime as exc:
        wanted = (getattr(args, "runtime", None) or "").strip().lower()
        if wanted in ("memberjunction-5.51.3", "memberjunction", "mj"):
            raise UsageError(
                f"{path}: the {wanted} runtime judges MemberJunction agent metadata (a folder "
                "whose .mj-sync.json names MJ: AI Agents); this is a Mozaiks workspace"
            ) from None
        raise UsageError(str(exc)) from None
    except WorkspaceNotFound as exc:
        raise UsageError(str(exc)) from None
    if not getattr(args, "runtime", None) and session.profile.runtime is None:
        # neither the command line nor the workspace names a runtime: the user's settings may
        from flowctx_tui.userconfig import load_user_config

        preferred = load_user_config().runtime
        if preferred:
            session = session.with_runtime(preferred)
    if verbose():
        from flowctx_tui.userconfig import config_path

        settings = config_path()
        said = "" if settings.is_file() else " (none there)"
        detail(
            f"workspace {session.root} ({len(session.workflows())} workflows); runtime "
            f"{session.runtime.label}; settings {settings}{said}"
        )
    pin_now(args, session.profile.now)
    return session


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
        raise UsageError(no_workflows_message(session))
    return names[0]


def no_workflows_message(session: Session) -> str:
    """What every command says about a workspace with no workflows."""
    return f"{session.root}: no workflows found under workflows/"
