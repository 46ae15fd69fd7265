"""``flowctx schema FILE_KIND``: the JSON Schema of one workflow file kind, for editors. The kind
is the file's own name (``transition_graph`` or ``transition_graph.yaml``).

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
from flowctx_tui.cli.options import file_kind_type, kind_names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "kind",
        metavar="FILE_KIND",
        # the names this command took before (contract, transitions, registry) still work
        type=file_kind_type(SCHEMA_FILES, {kind: kind for kind in SCHEMA_FILES}),
        help=f"the file: {kind_names(SCHEMA_FILES)}; context is a build-context registry's "
        "context.yaml",
    )
    # a JSON Schema is JSON whatever is asked: json is its one format (and the default), so a
    # script that passes --format json to every command works here too
    parser.add_argument(
        "--format",
        choices=("json",),
        default="json",
        help="output format (default: json). json: the JSON Schema, draft 2020-12",
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
