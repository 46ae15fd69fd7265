"""``flowctx lsp``: a language server over stdio for the author's editor (diagnostics as they
type, hover with the resolved value, completion of variables and data paths, definitions,
references, code lenses on routing rules). Editors start it; it talks JSON-RPC on standard
input and output, so nothing else may print there."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="talk over standard input and output (the default; accepted because editors pass it)",
    )


def run(args: argparse.Namespace) -> int:
    runtime = getattr(args, "runtime", None)
    if runtime:
        # refused before the server starts: the editor shows the message the command printed
        from flowctx_core.model.profiles import UnknownRuntime, get_profile
        from flowctx_tui.cli.common import fail

        try:
            get_profile(runtime)
        except UnknownRuntime as exc:
            return fail(str(exc))
    from flowctx_tui.lsp.server import main

    return main(runtime)
