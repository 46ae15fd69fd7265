"""The options every command spells the same way: ``--format``, ``--width`` and the file kinds.

One convention for every command (tests/cli/test_convention.py walks every parser): PATH is the
first positional wherever a command takes one; ``--format`` is named so everywhere, ``text``
first and the default, with its choices listed in the help; ``--width COLUMNS``; a file kind is
named by the file's own name, with or without ``.yaml``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

from flowctx_tui.cli.verbosity import note

#: the metavar of every ``--width``
WIDTH_METAVAR = "COLUMNS"
#: the metavar of every option that takes JSON inline or from a file
JSON_METAVAR = "JSON|@FILE"


def add_format_arg(
    parser: argparse.ArgumentParser,
    formats: Mapping[str, str],
    *,
    deprecated: Mapping[str, str] | None = None,
) -> None:
    """``--format`` with ``formats`` (name -> what it prints) as its choices, ``text`` first
    and the default. ``deprecated`` (old name -> its name now) still works, with a note on
    standard error."""
    names = tuple(formats)
    if not names or names[0] != "text":
        raise ValueError("--format lists 'text' first: it is the default of every command")
    old = dict(deprecated or {})

    def parse(value: str) -> str:
        if value in old:
            note(f"--format {value} is now --format {old[value]} ({value} still works)")
            return old[value]
        return value

    described = "; ".join(f"{name}: {what}" for name, what in formats.items())
    parser.add_argument(
        "--format",
        choices=names,
        default="text",
        type=parse,
        help=f"output format (default: text). {described}",
    )


def add_width_arg(parser: argparse.ArgumentParser, what: str) -> None:
    """``--width COLUMNS``: ``what`` says what fits and the default."""
    from flowctx_tui.cli.terminal import width_arg

    parser.add_argument("--width", type=width_arg, metavar=WIDTH_METAVAR, default=None, help=what)


def kind_names(files: Mapping[str, str]) -> str:
    """The file kinds as every help text and error lists them: each file's own name."""
    names = [file.removesuffix(".yaml") for file in files.values()]
    listed = ", ".join(names[:-1]) + (f" or {names[-1]}" if len(names) > 1 else names[0])
    return f"{listed} (with or without .yaml)"


def file_kind_type(
    files: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> Callable[[str], str]:
    """An argparse type reading a file kind by the file's own name (``transition_graph`` or
    ``transition_graph.yaml``), into the key of ``files`` (key -> file name) the command uses.
    ``aliases`` (old name -> key) keep the names a command took before working."""
    by_name: dict[str, str] = {}
    for key, file in files.items():
        by_name[file] = key
        by_name[file.removesuffix(".yaml")] = key
    for old, key in (aliases or {}).items():
        by_name.setdefault(old, key)

    def parse(value: str) -> str:
        key = by_name.get(value.strip())
        if key is None:
            raise argparse.ArgumentTypeError(f"unknown file kind; give {kind_names(files)}")
        return key

    parse.__name__ = "file kind"
    return parse
