"""``flowctx init [PATH]``: write a first workspace (``flowctx_core.model.scaffold``) into PATH
(default: the current directory), then say what to try next.

Nothing is overwritten: when any file it would write is already there, it writes none of them
and says which (exit 1). Exit 0 once written, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path

from flowctx_core.model.profiles import UnknownRuntime, get_profile
from flowctx_core.model.scaffold import (
    DEFAULT_WORKFLOW,
    FIRST_AGENT,
    BadWorkflowName,
    scaffold,
)
from flowctx_tui.cli.common import fail
from flowctx_tui.cli.options import add_format_arg


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        nargs="?",
        default=".",
        metavar="PATH",
        help="the folder to make a workspace of, created if missing (default: the current "
        "directory)",
    )
    parser.add_argument(
        "--workflow",
        "-w",
        metavar="NAME",
        default=DEFAULT_WORKFLOW,
        help=f"the workflow's name, its folder's and orchestrator.yaml's (default: "
        f"{DEFAULT_WORKFLOW})",
    )
    add_format_arg(
        parser,
        {
            "text": "the files written and what to try next",
            "json": "one object: the workspace, the files written and the commands to try",
        },
    )


def _linked_parent(root: Path, files: dict[str, str]) -> str | None:
    """The first folder on the way to a file to write (below ``root``) that is a symbolic
    link (``workflows -> /elsewhere``), as a relative path; None when there is none."""
    for rel in files:
        parts = Path(rel).parts[:-1]
        for n in range(1, len(parts) + 1):
            folder = root.joinpath(*parts[:n])
            if folder.is_symlink():
                return Path(*parts[:n]).as_posix()
    return None


def run(args: argparse.Namespace) -> int:
    root = Path(args.path).expanduser()
    try:
        files = scaffold(args.workflow)
    except BadWorkflowName as exc:
        return fail(f"--workflow: {exc}")
    if args.runtime:
        # written as flowctx.yaml's runtime: for every later command, once it is a known name
        try:
            runtime = get_profile(args.runtime).name
        except UnknownRuntime as exc:
            return fail(str(exc))
        files = scaffold(args.workflow, runtime)
    if root.exists() and not root.is_dir():
        return fail(f"{root}: is a file; give a folder to make a workspace of")
    linked = _linked_parent(root, files)
    if linked is not None:
        return fail(
            f"{root}: {linked} is a symbolic link; init writes only inside the folder it makes "
            "a workspace of, never through a link to elsewhere, so nothing was written",
            code=1,
        )
    present = [rel for rel in files if (root / rel).exists() or (root / rel).is_symlink()]
    if present:
        listed = ", ".join(present)
        return fail(
            f"{root}: already holds {listed}; init never overwrites a file, so nothing was "
            f"written (choose an empty or a new folder)",
            code=1,
        )
    try:
        for rel, text in files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            # looked at again as each file is written: a link made since the look above
            if _linked_parent(root, {rel: text}) is not None:
                raise OSError(f"{rel}: a folder on its way became a symbolic link")
            # "x": a file that appeared since the look above is still not overwritten; and
            # O_NOFOLLOW: nor is one written through a link put in its place
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            with open(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    except OSError as exc:
        return fail(f"{root}: cannot write the workspace: {exc.strerror or exc}", code=1)
    shown = shlex.quote(str(args.path))
    tries = [
        (f"flowctx check {shown}", "what the runtime would refuse, located"),
        (f"flowctx routes {shown} --from {FIRST_AGENT}", f"who speaks after {FIRST_AGENT}"),
        (f"flowctx {shown}", "the app: every value and route, live as you edit"),
    ]
    if args.format == "json":
        doc = {
            "workspace": str(root.resolve()),
            "workflow": args.workflow,
            "files": list(files),
            "next": [{"command": command, "what": what} for command, what in tries],
        }
        print(json.dumps(doc, indent=2))
        return 0
    print(f"flowctx: a workspace with the workflow {args.workflow} in {args.path}:")
    for rel in files:
        print(f"  {rel}")
    print("Next, try:")
    width = max(len(command) for command, _ in tries)
    for command, what in tries:
        print(f"  {command.ljust(width)}  # {what}")
    return 0
