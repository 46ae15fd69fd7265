"""``flowctx authority [PATH] BEFORE AFTER``: did a before_chat hook touch immutable runtime
authority?

PATH comes first, as in every command; the older order (``BEFORE AFTER PATH``) still works when
it cannot be read the other way: PATH a folder or a workflow's file, BEFORE a JSON document.
BEFORE and AFTER are the launch context before and after the hook: JSON files (``path`` or
``@path``) or inline JSON objects. The workflow adds its variables declared
``immutable_runtime_authority: true`` and its build_context variables to the protected names.
Exit 0 when nothing protected changed, 1 on any violation, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from flowctx_core.model.filenames import PROFILE_FILE, WORKFLOW_FILES
from flowctx_core.runtime.authority import compare_launch
from flowctx_tui.cli.common import UsageError, fail, load_json_arg
from flowctx_tui.cli.options import add_format_arg
from flowctx_tui.cli.verbosity import note
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow


def configure(parser: argparse.ArgumentParser) -> None:
    add_workspace_args(parser)
    parser.add_argument(
        "before",
        metavar="BEFORE",
        help="launch context before the hook: JSON file, @file or inline JSON",
    )
    parser.add_argument(
        "after",
        metavar="AFTER",
        help="launch context after the hook: JSON file, @file or inline JSON",
    )
    parser.add_argument("--reveal", action="store_true", help="show secret values unmasked")
    add_format_arg(
        parser, {"text": "ok, or each protected key changed", "json": "the same, for scripts"}
    )


def _names_a_workspace(text: str | None) -> bool:
    """Whether ``text`` can only be PATH: a folder, or one of a workflow's own files (a launch
    document is a JSON file or inline JSON, never either)."""
    if not text or text.lstrip().startswith(("{", "[", "@")):
        return False
    path = Path(text).expanduser()
    return path.is_dir() or (path.is_file() and path.name in (*WORKFLOW_FILES, PROFILE_FILE))


def old_order(args: argparse.Namespace) -> bool:
    """``authority BEFORE AFTER PATH`` (the order before PATH came first), read as such when it
    is unambiguous: the last of the three names a workspace and the first does not."""
    if args.path is None or _names_a_workspace(args.path):
        return False
    if not _names_a_workspace(args.after):
        return False
    args.path, args.before, args.after = args.after, args.path, args.before
    return True


def load_document(text: str, what: str) -> dict[str, Any]:
    """An inline JSON object, ``@file`` or a plain path to a JSON file; it must be an object."""
    if not text.lstrip().startswith(("{", "[", "@")):
        path = Path(text).expanduser()
        if not path.is_file():
            # the argument is not repeated: a value typed by mistake may be a secret
            raise UsageError(
                f"{what}: neither a file nor inline JSON ({len(text)} characters, not shown); "
                "give a JSON file or an inline JSON object"
            )
        text = f"@{path}"
    doc = load_json_arg(text, what)
    if not isinstance(doc, dict):
        raise UsageError(f"{what} must be a JSON object (the launch context), not {_kind(doc)}")
    return doc


def _kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), "a number")


def run(args: argparse.Namespace) -> int:
    if old_order(args):
        note(
            "authority takes PATH first now: flowctx authority PATH BEFORE AFTER "
            "(the old order still works when it is unambiguous)"
        )
    try:
        before = load_document(args.before, "BEFORE")
        after = load_document(args.after, "AFTER")
        session = open_from_args(args)
        name = pick_workflow(session, args.workflow)
    except UsageError as exc:
        return fail(str(exc))
    workflow = session.load(name)
    report = compare_launch(before, after, workflow=workflow)
    if args.format == "json":
        doc = {
            "workflow": name,
            "ok": report.ok,
            "protected": list(report.protected),
            "violations": [v.to_json(reveal=args.reveal) for v in report.violations],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False, default=str))
    else:
        checked = ", ".join(report.protected) or "none present"
        if report.ok:
            print(
                f"ok: before_chat left immutable runtime authority of {name} unchanged "
                f"(protected keys: {checked})"
            )
        else:
            print(
                f"FAILED: before_chat touched {len(report.violations)} protected key(s) of "
                f"{name}; the runtime fails this run before any agent starts"
            )
            for v in report.violations:
                print(f"  {v.format(reveal=args.reveal)}")
            print(f"protected keys present: {checked}")
        for d in workflow.diagnostics:
            print(d.format())
    return 0 if report.ok else 1
