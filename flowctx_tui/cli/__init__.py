"""``flowctx`` entry point.

Sub-commands live in their own modules and are imported only when used, so ``flowctx check``
in a pre-commit hook does not pay for Textual's import.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # argparse comes with the command's parser (--help alone needs none)
    import argparse

# name -> (module, one-line help). Each module defines ``configure(parser)`` and ``run(args)``.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("flowctx_tui.cli.init_cmd", "write a first workspace to try flowctx on"),
    "matrix": ("flowctx_tui.cli.matrix_cmd", "print the resolution matrix of a workflow"),
    "check": ("flowctx_tui.cli.check_cmd", "validate every workflow of a workspace"),
    "eval": ("flowctx_tui.cli.eval_cmd", "evaluate a path condition or context expression"),
    "routes": ("flowctx_tui.cli.routes_cmd", "show which route wins from an agent or step"),
    "trace": ("flowctx_tui.cli.trace_cmd", "play a whole run turn by turn under a script"),
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
    "completion": ("flowctx_tui.cli.completion_cmd", "print a shell completion script"),
    "config": ("flowctx_tui.cli.config_cmd", "show where your settings are kept and what they say"),
}
#: commands that keep running, loading workspaces again and again (the others end with their
#: one answer: what they load stays until the process exits, flowctx_core.base.gcpause)
LONG_RUNNING = frozenset({"app", "serve", "lsp"})


#: the commands that take no PATH (tests/cli/test_convention.py reads their parsers)
NO_PATH: tuple[str, ...] = ("eval", "schema", "lsp", "completion", "config")


def version() -> str:
    """The installed distribution's version: pyproject.toml is the one place it is written."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("flowctx")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _usage() -> str:
    no_path = ", ".join(NO_PATH[:-1]) + f" and {NO_PATH[-1]}"
    lines = [
        "usage: flowctx [PATH] [--workflow NAME]  |  flowctx COMMAND [PATH] [options]",
        "       flowctx --version",
        "",
        f"PATH comes first wherever a command takes one (all but {no_path}):",
        "a workspace root, its workflows/ folder or one workflow folder; without PATH,",
        "the workspace around the current directory (outside one, the app opens the bundled",
        "demo; the other commands stop unless given --demo).",
        "For init, PATH is the folder to write a new workspace into.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += [
        "",
        "Every command takes -q/--quiet (errors only on standard error), -v/--verbose (what it",
        "used and how long it took) and --runtime NAME.",
        "Run 'flowctx COMMAND --help' for a command's options.",
    ]
    return "\n".join(lines)


def build_parser(name: str) -> tuple[Any, argparse.ArgumentParser]:
    """The command's module and its parser, as ``flowctx NAME`` reads its arguments with."""
    module_name, help_ = COMMANDS[name]
    module = importlib.import_module(module_name)
    from flowctx_tui.cli.common import MaskingParser

    parser = MaskingParser(prog=f"flowctx {name}", description=help_)
    module.configure(parser)
    from flowctx_tui.cli.verbosity import add_verbosity_args
    from flowctx_tui.cli.workspace_args import add_runtime_arg

    add_runtime_arg(parser)
    add_verbosity_args(parser)
    return module, parser


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv)[:1] in (["-h"], ["--help"]):
        try:
            print(_usage())  # flowctx's own text: nothing to escape, nothing else to load
        except BrokenPipeError:
            _quiet_stdout()
        return 0
    from flowctx_tui.cli.terminal import safe_output

    if argv is None:  # the process's own command, not a program that embeds main()
        from flowctx_tui.startup import configure_pydantic

        configure_pydantic()

    # every line any command prints (argparse's errors too) has its control characters escaped
    try:
        with safe_output():
            return _main(argv)
    except BrokenPipeError:  # `flowctx --help | head`: the reader has what it wanted
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """Standard output to nowhere, so the interpreter's last flush at exit does not complain
    about the closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # no file descriptor under it (a test's capture): nothing will be flushed


def _main(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-V", "--version"):
        print(f"flowctx {version()}")
        return 0
    if args and _mistyped_command(args[0]):
        return 2
    name = args[0] if args and args[0] in COMMANDS else "app"
    rest = args[1:] if args and args[0] in COMMANDS else args
    if argv is None and name not in LONG_RUNNING:
        # the process's own command (a caller embedding main() passes its arguments, and its
        # process goes on after the command)
        from flowctx_core.base.gcpause import keep_until_exit

        keep_until_exit()
    from flowctx_core.base.gcpause import gc_paused

    # the command's modules are imported here: what they allocate lives until the process ends,
    # so the collector, walking it again and again as it grows, would find nothing to free
    from flowctx_tui.cli import verbosity

    verbosity.reset()
    with gc_paused():
        module, parser = build_parser(name)
    try:
        ns = parser.parse_args(rest)
    except SystemExit:
        verbosity.flush_pending()  # argparse stopped before the level was known
        raise
    verbosity.configure(ns)
    code = 0
    try:
        code = int(module.run(ns) or 0)
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        return 0
    verbosity.finish(name, code)
    return code


def _mistyped_command(word: str) -> bool:
    """Whether ``word`` (the first argument) is no command and no folder either, said as such.

    ``flowctx tset`` would otherwise open the app on a PATH 'tset' that does not exist; a word
    with no path separator and no file there is far more likely a mistyped command.
    """
    import os

    if word in COMMANDS or word.startswith("-") or os.sep in word or "/" in word:
        return False
    if os.path.lexists(word) or not word.isidentifier():
        return False
    import difflib  # only for a word that is no command (1 ms of every command's start)

    close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    if close:
        print(f"flowctx: no command '{word}'; did you mean '{close[0]}'?", file=sys.stderr)
    else:
        listed = ", ".join(COMMANDS)
        print(f"flowctx: no command or folder '{word}' (commands: {listed})", file=sys.stderr)
    return True


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
