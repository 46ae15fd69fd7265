"""JSON text from files and arguments, parsed so that every failure is a located message.

``json.loads`` fails in three ways besides a syntax error, each of which ended a command with a
traceback: an integer of more than 4,300 digits (Python's guard against quadratic int
conversion raises a bare ValueError), nesting past the interpreter's recursion limit
(RecursionError), and data deeper than flowctx's own walkers can show (flowctx_core.base.nesting).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from flowctx_core.base.nesting import MAX_NESTING, nesting_problem


class JsonTextError(ValueError):
    """Why JSON text cannot be used, and where (1-based line and column)."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"invalid JSON: {reason}")
        self.line = line
        self.column = column
        #: what is wrong, without the position: "an integer of more than 4,300 digits ..."
        self.reason = reason


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _long_integer(text: str, limit: int) -> int:
    """Where the first run of more than ``limit`` digits outside a string starts, else 0."""
    tokens = re.compile(r'"(?:[^"\\]|\\.)*"|[0-9]{' + str(limit + 1) + ",}")
    for found in tokens.finditer(text):
        if not found.group().startswith('"'):
            return found.start()
    return 0


def _too_deep_at(text: str, limit: int) -> int:
    """Where brackets first open more than ``limit`` levels (outside strings), else 0."""
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return i
        elif ch in "]}":
            depth -= 1
    return 0


def _integer_keeping_negative_zero(text: str) -> int | float:
    return -0.0 if text == "-0" else int(text)


def parse_json(text: str, *, check_nesting: bool = True, negative_zero: bool = False) -> Any:
    """``json.loads(text)``, or :class:`JsonTextError` naming the line, column and reason.

    ``check_nesting=False`` leaves the depth to the caller (the app's editors, whose documents
    may be 10 MB: walking them again would stall the reparse for no new finding there).
    ``negative_zero``: the literal ``-0`` is -0.0, as JavaScript's JSON.parse reads it (for
    data a JavaScript engine receives); Python's json reads it as the integer 0.
    """
    try:
        integer = _integer_keeping_negative_zero if negative_zero else None
        value = json.loads(text, parse_int=integer)
    except json.JSONDecodeError as exc:
        raise JsonTextError(exc.lineno, exc.colno, exc.msg) from None
    except RecursionError:
        line, col = _position(text, _too_deep_at(text, MAX_NESTING))
        msg = f"nested more than {MAX_NESTING} levels deep"
        raise JsonTextError(line, col, msg) from None
    except ValueError:  # the only other failure: an integer past the int-conversion limit
        limit = sys.get_int_max_str_digits()
        line, col = _position(text, _long_integer(text, limit))
        msg = f"an integer of more than {limit:,} digits (Python's json refuses it)"
        raise JsonTextError(line, col, msg) from None
    # every level of nesting opens with a bracket in the text: with no more brackets than
    # the limit (most lines of a batch, most arguments) the value cannot be too deep
    deep = None
    if check_nesting and text.count("[") + text.count("{") > MAX_NESTING:
        deep = nesting_problem(value)
    if deep:
        # json.loads takes 900 levels; masking, showing or coercing such a value would not
        line, col = _position(text, _too_deep_at(text, MAX_NESTING))
        raise JsonTextError(line, col, deep)
    return value
