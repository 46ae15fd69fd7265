"""``flowctx schema KIND``: the JSON Schema of one workflow file kind, for editors.

The schema is generated from the models the core validates with (``flowctx_core.report.schemas``,
ahead of time: ``flowctx_core.report.schema_store``), for the runtime profile ``--runtime``
names (else the ``runtime:`` of the workspace around the current directory, else the default),
and printed to standard output. Exit 0, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flowctx_core.model.profiles import UnknownRuntime, get_profile
from flowctx_core.model.workspace_root import WorkspaceNotFound, find_root, load_profile
from flowctx_core.report.schema_store import SCHEMA_FILES, schema_text
from flowctx_tui.cli.common import fail


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "kind",
        choices=tuple(SCHEMA_FILES),
        help="; ".join(f"{kind}: {file}" for kind, file in SCHEMA_FILES.items()),
    )


def _workspace_runtime() -> str | None:
    """The ``runtime:`` of the workspace around the current directory, if any."""
    try:
        root, _ = find_root(Path.cwd())
    except WorkspaceNotFound:
        return None
    return load_profile(root).runtime


def run(args: argparse.Namespace) -> int:
    try:
        runtime = get_profile(args.runtime or _workspace_runtime())
    except UnknownRuntime as exc:
        return fail(str(exc))
    # generated ahead of time (flowctx_core.report.schema_store): the models are not built
    sys.stdout.write(schema_text(args.kind, runtime))
    return 0
