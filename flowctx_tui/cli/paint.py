"""Colour for the line-oriented outputs (check, routes, test) on a terminal.

The text is what the command prints without colour, byte for byte; on a terminal (and unless
``NO_COLOR`` or ``TERM=dumb``, :func:`flowctx_tui.cli.terminal.colour_wanted`) the parts a
reader scans for are coloured: what failed in red, warnings in yellow, what passed or was
chosen in green, notes dimmed. Colours go through :func:`~flowctx_tui.cli.terminal.sgr`, so
text from a workspace file still cannot carry an escape sequence of its own.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TextIO

from flowctx_tui.cli.terminal import colour_wanted, sgr

#: a rule: a pattern matched at the start of a line, and the SGR code of each of its groups
Rule = tuple["re.Pattern[str]", Sequence[str]]

RED, BOLD_RED, YELLOW, BOLD_YELLOW = "31", "1;31", "33", "1;33"
GREEN, BOLD_GREEN, DIM, BOLD = "32", "1;32", "2", "1"

_LOCATION = r"(\S[^\n]*?:\d+:\d+: )"

CHECK_RULES: tuple[Rule, ...] = (
    (re.compile(_LOCATION + r"(warning: )"), (YELLOW, BOLD_YELLOW)),
    (re.compile(_LOCATION + r"(note: )"), (DIM, DIM)),
    (re.compile(_LOCATION), (BOLD_RED,)),
    (re.compile(r"(REFUSED:)"), (BOLD_RED,)),
    (re.compile(r"(FAILED:)"), (BOLD_RED,)),
    (re.compile(r"(ok:)"), (BOLD_GREEN,)),
    (re.compile(r"(workspace) "), (BOLD,)),
)

ROUTES_RULES: tuple[Rule, ...] = (
    (re.compile(r"( \* \d+\. → [^ ]+)"), (BOLD_GREEN,)),
    (re.compile(r"(\s+error: )"), (RED,)),
    (re.compile(r"(\s+note: )"), (DIM,)),
    (re.compile(r"(\s+NOT READ: )"), (BOLD_YELLOW,)),
    (re.compile(r"(winner:)"), (BOLD_GREEN,)),
    (re.compile(r"(no route:)"), (BOLD_YELLOW,)),
    (re.compile(r"(REFUSED\b:?)"), (BOLD_RED,)),
    (re.compile(r"(note: )"), (DIM,)),
)

TEST_RULES: tuple[Rule, ...] = (
    (re.compile(r"(PASS) "), (GREEN,)),
    (re.compile(r"(FAIL) "), (BOLD_RED,)),
    (re.compile(r"(ERROR) "), (BOLD_RED,)),
    (re.compile(r"(WITHHELD) "), (YELLOW,)),
    (re.compile(r"(\d+ passed, 0 failed)\b(?!.*\d+ error)"), (BOLD_GREEN,)),
    (re.compile(r"(\d+ passed, \d+ failed)"), (BOLD_RED,)),
    (re.compile(_LOCATION + r"(warning: )"), (YELLOW, BOLD_YELLOW)),
    (re.compile(_LOCATION), (BOLD_RED,)),
)


def paint_line(line: str, rules: Sequence[Rule]) -> str:
    """``line`` with the groups of the first rule that matches its start coloured."""
    for pattern, codes in rules:
        found = pattern.match(line)
        if found is None:
            continue
        out: list[str] = []
        at = 0
        for index, code in enumerate(codes, start=1):
            start, end = found.span(index)
            out.append(line[at:start])
            out.append(sgr(code, line[start:end]))
            at = end
        out.append(line[at:])
        return "".join(out)
    return line


def paint(text: str, rules: Sequence[Rule], stream: TextIO | None = None) -> str:
    """``text`` coloured line by line when ``stream`` (standard output) wants colour."""
    if not colour_wanted(sys.stdout if stream is None else stream):
        return text
    return "\n".join(paint_line(line, rules) for line in text.split("\n"))


def print_painted(text: str, rules: Sequence[Rule]) -> None:
    print(paint(text, rules))
