"""Quick fixes: the correction ``check`` attaches to a problem (``Diagnostic.fix``: a misspelt
key, variable, agent, step or type for the closest known one) as an edit of the text.

The fix travels with the published diagnostic (its ``data``, which clients hand back with
``textDocument/codeAction``), so the action is made from the problem itself, never by reading
its message. The text to replace is looked for where the problem points: its line from its
column, then the whole line, then the lines below (an agent's ``variables:`` list, where the
problem points at the key above the misspelt item), as a whole token only.
"""

from __future__ import annotations

import re
from typing import Any

#: how many lines below the problem's own its text is looked for
LOOK_BELOW = 60


def fix_data(fix: Any) -> dict[str, Any] | None:
    """The diagnostic's ``data`` for a core ``Fix`` (None without one)."""
    if fix is None:
        return None
    out: dict[str, Any] = {"old": fix.old, "new": fix.new}
    if fix.line:
        out["line"] = fix.line - 1  # 0-based, as the protocol counts lines
    return {"fix": out}


def fix_of(data: Any) -> tuple[str, str, int | None] | None:
    """(old, new, the 0-based line ``old`` is on when not the problem's) from a diagnostic's
    ``data`` as the client hands it back, else None."""
    fix = data.get("fix") if isinstance(data, dict) else None
    if not isinstance(fix, dict):
        return None
    old, new, line = fix.get("old"), fix.get("new"), fix.get("line")
    if isinstance(old, str) and isinstance(new, str) and old and old != new:
        return old, new, line if isinstance(line, int) and line >= 0 else None
    return None


def _token(old: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(old)}(?![A-Za-z0-9_])")


def locate(rows: list[str], line: int, column: int, old: str) -> tuple[int, int, int] | None:
    """(line, start, end) of ``old`` nearest after where the problem points, in code points."""
    pattern = _token(old)
    if 0 <= line < len(rows):
        found = pattern.search(rows[line], max(column, 0)) or pattern.search(rows[line])
        if found:
            return line, found.start(), found.end()
    for n in range(line + 1, min(line + 1 + LOOK_BELOW, len(rows))):
        if rows[n].lstrip().startswith("#"):
            continue
        found = pattern.search(rows[n])
        if found:
            return n, found.start(), found.end()
    return None
