"""What the output may assume about the terminal: colour, width, and whether there is one.

Every command asks here, so ``NO_COLOR``, ``TERM=dumb`` and pipes mean the same everywhere.
The environment is passed in (default: the process's) so tests can state it.
"""

from __future__ import annotations

import argparse
import os
import shutil
from collections.abc import Mapping
from typing import TextIO


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def dumb_terminal(env: Mapping[str, str] | None = None) -> bool:
    """``TERM=dumb`` (Emacs shells, some CI logs): no colour, no cursor movement."""
    return _env(env).get("TERM", "") == "dumb"


def colour_allowed(env: Mapping[str, str] | None = None) -> bool:
    """False when the user asked for no colour: ``NO_COLOR`` set to a non-empty value
    (https://no-color.org: an empty one does not count) or ``TERM=dumb``."""
    e = _env(env)
    return not e.get("NO_COLOR", "") and not dumb_terminal(e)


def colour_wanted(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Colour ``stream``? Only a terminal, and only when ``colour_allowed``."""
    return colour_allowed(env) and _isatty(stream)


def table_width(stream: TextIO, requested: int | None = None) -> int | None:
    """The width a table must fit: ``--width N`` when given, else the terminal's width when
    ``stream`` is a terminal, else ``None``: piped output keeps every value whole, since a
    script or a file has no width to fit."""
    if requested is not None:
        return requested
    if not _isatty(stream):
        return None
    return shutil.get_terminal_size((80, 24)).columns


def no_terminal_reason(stdin: TextIO, stdout: TextIO, env: Mapping[str, str] | None = None) -> str:
    """Why a full-screen app cannot run here ('' when it can)."""
    if not _isatty(stdout):
        return "standard output is not a terminal"
    if not _isatty(stdin):
        return "standard input is not a terminal"
    if dumb_terminal(env):
        return "TERM=dumb cannot show a full-screen app"
    return ""


def width_arg(text: str) -> int:
    """argparse type for ``--width``: a whole number of columns, at least 40."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of columns, got {text!r}") from None
    if value < 40:
        raise argparse.ArgumentTypeError(f"at least 40 columns, got {value}")
    return value
