"""A text's lines as editors, the language server protocol, ``grep -n`` and git count them:
broken at ``\\n``, ``\\r\\n`` and ``\\r`` only. ``str.splitlines`` also breaks at NEL, LINE
SEPARATOR, PARAGRAPH SEPARATOR and a few controls, which a description or a prompt may hold:
every line after one would be counted one too far."""

from __future__ import annotations

import re

_BREAK = re.compile("\r\n|\r|\n")


def text_lines(text: str) -> list[str]:
    """``text``'s lines without their breaks (like ``str.splitlines``: no empty last line
    after a final break)."""
    if not text:
        return []
    # without a "\r", str.split is the same split, done by C (5x faster at 3,000 variables)
    rows = text.split("\n") if "\r" not in text else _BREAK.split(text)
    if rows[-1] == "":
        rows.pop()
    return rows
