"""Helpers shared by the sub-commands: JSON arguments, errors as messages, output."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.secrets import mask_text


class UsageError(Exception):
    """An argument the user gave cannot be used; printed as a message, exit code 2."""


#: ``@file`` arguments larger than this are refused: ``--data @/dev/zero`` grew to 23 GB.
#: Real data and context documents can be large (the scratchpad takes 10 MB ones, and the
#: evaluation budget, not the reader, is what bounds work on them), so the cap only stops a
#: read that would never end: 64 MiB, read in about 0.05 s.
MAX_ARG_FILE_BYTES = 64 * 1024 * 1024


def read_arg_file(name: str, what: str) -> str:
    """The text of ``@name`` (``@-``: standard input), at most ``MAX_ARG_FILE_BYTES``.

    Any file may be named, a pipe or process substitution included, so it is read with a cap
    rather than refused by kind. The name is not repeated in errors: it is what the user typed,
    and a value pasted after ``@`` by mistake may be a secret.
    """
    limit = MAX_ARG_FILE_BYTES
    try:
        if name == "-":
            stdin: Any = sys.stdin
            # a test's or a pipe's text stream may have no bytes underneath
            data = stdin.buffer.read(limit + 1) if hasattr(stdin, "buffer") else None
            if data is None:
                data = stdin.read(limit + 1).encode("utf-8", "surrogatepass")
        else:
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = getattr(exc, "strerror", None) or "not a usable file name"
        raise UsageError(f"{what}: cannot read the @file given{_named(name)}: {why}") from None
    if len(data) > limit:
        raise UsageError(
            f"{what}: the @file given holds more than {limit:,} bytes; not read further"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{what}: the @file given is not UTF-8 (byte {exc.start})") from None


def stdin_file(name: str, what: str, stands_for: str | None = None) -> tuple[str, dict[Path, str]]:
    """A file argument that may be ``-``: standard input. Returns the name to read and the
    editor-style buffers to read it under (``flowctx_core.base.fsview.buffers``): for ``-``,
    the text of standard input held as the file ``stands_for`` (default ``<stdin>`` in the
    current directory), so the command reads it, and locates its problems, as that file."""
    if name != "-":
        return name, {}
    text = read_arg_file("-", what)
    shown = stands_for or "<stdin>"
    # held under the name as given and as an absolute path: readers resolve it either way
    return shown, {Path(shown): text, Path(shown).absolute(): text}


def _named(name: str) -> str:
    """`` (missing.json)``: the file's name, when it reads as one (a name with an extension,
    or a path); never a value pasted after ``@`` by mistake, which may be a secret."""
    import re

    from flowctx_core.base.secrets import mask_text

    if name == "-":
        return " (standard input)"
    # a path (a folder in it, or a file extension): launch.json, ./in/ctx, ~/launch.txt
    readable = re.fullmatch(r"[\w./~-]{1,200}", name) is not None and (
        "/" in name or re.search(r"\.[A-Za-z]\w{0,9}$", name) is not None
    )
    # a long run of letters and digits reads as a token (sk-live-..., a hash), not a name
    token = re.search(r"[A-Za-z0-9]{16,}", name) is not None
    if readable and not token and mask_text(name) == name:
        return f" ({name})"
    return ""


def load_json_arg(text: str | None, what: str, negative_zero: bool = False) -> Any:
    """Parse ``JSON`` or ``@file`` (``@-`` reads standard input); ``None`` stays ``None``.

    Errors name the argument and the line:column so the user can find the typo.
    ``negative_zero``: ``-0`` is read as JavaScript reads it (for the mj dialect).
    """
    if text is None:
        return None
    source = what
    if text.startswith("@"):
        text = read_arg_file(text[1:], what)
        source = f"{what} @file"
    try:
        return parse_json(text, negative_zero=negative_zero)
    except JsonTextError as exc:
        raise UsageError(
            f"{source}:{exc.line}:{exc.column}: invalid JSON for {what}: {exc.reason}"
        ) from None


def load_json_object_arg(text: str | None, what: str) -> dict[str, Any] | None:
    """:func:`load_json_arg` for an argument that must be a JSON object."""
    value = load_json_arg(text, what)
    if value is not None and not isinstance(value, dict):
        raise UsageError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


class MaskingParser(argparse.ArgumentParser):
    """argparse, whose errors are one line and do not repeat values the user typed.

    ``flowctx prompt --mongo-uri mongodb://admin:pw@h/`` (an option prompt lacks) made
    argparse print "unrecognized arguments: --mongo-uri mongodb://admin:pw@h/": the option
    names stay, the values are counted instead of shown.
    """

    def error(self, message: str) -> NoReturn:
        prefix = "unrecognized arguments: "
        if message.startswith(prefix):
            words = message[len(prefix) :].split(" ")
            options = [w.split("=", 1)[0] for w in words if w.startswith("-")]
            values = len(words) - len(options)
            shown = " ".join(options)
            if values:
                shown += f"{' and ' if shown else ''}{values} value(s) (not shown)"
            message = prefix + shown
        else:
            # "argument --width: invalid width_arg value: 'xyz'": the typed value goes
            message = re.sub(r"(value|choice): '.*?'(?=[ (:,]|$)", r"\1", message)
        # One line, not argparse's usage block first: the usage of a command with a dozen
        # options pushed the one line that says what was wrong below ten lines of options.
        hint = f"('{self.prog} --help' lists its options)"
        self.exit(2, f"{self.prog}: {mask_text(message)} {hint}\n")


def fail(message: str, code: int = 2) -> int:
    print(f"flowctx: {message}", file=sys.stderr)
    return code
