"""Helpers shared by the sub-commands: JSON arguments, errors as messages, output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from core.nesting import MAX_NESTING, nesting_problem


class UsageError(Exception):
    """An argument the user gave cannot be used; printed as a message, exit code 2."""


def load_json_arg(text: str | None, what: str) -> Any:
    """Parse ``JSON`` or ``@file`` (``@-`` reads standard input); ``None`` stays ``None``.

    Errors name the argument and the line:column so the user can find the typo.
    """
    if text is None:
        return None
    source = what
    if text.startswith("@"):
        name = text[1:]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(
                f"{what}: cannot read {name}: {exc.__class__.__name__}: {exc}"
            ) from None
        source = name
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{source}:{exc.lineno}:{exc.colno}: invalid JSON for {what}: {exc.msg}"
        ) from None
    except RecursionError:
        value = None
        deep: str | None = f"nested more than {MAX_NESTING} levels deep"
    else:
        # masking and display walk values recursively: 500 levels ended in a RecursionError
        deep = nesting_problem(value)
    if deep:
        raise UsageError(f"{what} is {deep}" + (f" ({source})" if source != what else ""))
    return value


def fail(message: str, code: int = 2) -> int:
    print(f"flowctx: {message}", file=sys.stderr)
    return code
