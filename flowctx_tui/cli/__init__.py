"""``flowctx`` entry point.

Sub-commands live in their own modules and are imported only when used, so ``flowctx check``
in a pre-commit hook does not pay for Textual's import.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Sequence

# name -> (module, one-line help). Each module defines ``configure(parser)`` and ``run(args)``.
COMMANDS: dict[str, tuple[str, str]] = {
    "matrix": ("flowctx_tui.cli.matrix_cmd", "print the resolution matrix of a workflow"),
    "check": ("flowctx_tui.cli.check_cmd", "validate every workflow of a workspace"),
    "eval": ("flowctx_tui.cli.eval_cmd", "evaluate a path condition or context expression"),
    "routes": ("flowctx_tui.cli.routes_cmd", "show which route wins from an agent or step"),
    "graph": ("flowctx_tui.cli.graph_cmd", "draw a workflow's routing files as a graph"),
    "authority": ("flowctx_tui.cli.authority_cmd", "compare launch context around before_chat"),
    "trigger": ("flowctx_tui.cli.trigger_cmd", "simulate a message against state triggers"),
    "prompt": ("flowctx_tui.cli.prompt_cmd", "preview the context block of an agent's prompt"),
    "test": ("flowctx_tui.cli.test_cmd", "run the workspace's routing and value tests"),
    "diff": ("flowctx_tui.cli.diff_cmd", "what a change does to resolution, routes and check"),
    "schema": ("flowctx_tui.cli.schema_cmd", "print the JSON Schema of a workflow file kind"),
    "lsp": ("flowctx_tui.cli.lsp_cmd", "a language server for editors (LSP over stdio)"),
    "serve": ("flowctx_tui.cli.serve_cmd", "serve the app to a web browser (textual-serve)"),
    "app": ("flowctx_tui.cli.app_cmd", "open the Textual app (the default)"),
}
#: commands that keep running, loading workspaces again and again (the others end with their
#: one answer: what they load stays until the process exits, flowctx_core.base.gcpause)
LONG_RUNNING = frozenset({"app", "serve", "lsp"})


def version() -> str:
    """The installed distribution's version: pyproject.toml is the one place it is written."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("flowctx")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _usage() -> str:
    lines = [
        "usage: flowctx [PATH] [--workflow NAME]  |  flowctx COMMAND [options]",
        "       flowctx --version",
        "",
        "PATH (every command): a workspace root, its workflows/ folder or one workflow folder;",
        "without PATH, the workspace around the current directory, else the bundled demo.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run 'flowctx COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv)[:1] in (["-h"], ["--help"]):
        with contextlib.suppress(BrokenPipeError):
            print(_usage())  # flowctx's own text: nothing to escape, nothing else to load
        return 0
    from flowctx_tui.cli.terminal import safe_output

    if argv is None:  # the process's own command, not a program that embeds main()
        from flowctx_tui.startup import configure_pydantic

        configure_pydantic()

    # every line any command prints (argparse's errors too) has its control characters escaped
    with safe_output():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-V", "--version"):
        print(f"flowctx {version()}")
        return 0
    name = args[0] if args and args[0] in COMMANDS else "app"
    rest = args[1:] if args and args[0] in COMMANDS else args
    module_name, help_ = COMMANDS[name]
    if argv is None and name not in LONG_RUNNING:
        # the process's own command (a caller embedding main() passes its arguments, and its
        # process goes on after the command)
        from flowctx_core.base.gcpause import keep_until_exit

        keep_until_exit()
    module = importlib.import_module(module_name)
    from flowctx_tui.cli.common import MaskingParser

    parser = MaskingParser(prog=f"flowctx {name}", description=help_)
    module.configure(parser)
    from flowctx_tui.cli.workspace_args import add_runtime_arg

    add_runtime_arg(parser)
    ns = parser.parse_args(rest)
    try:
        return int(module.run(ns) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
