"""One line per name: text from a workspace written where a line break would be read as markup.

A workflow folder named ``"Evil\\n\\n## ✅ flowctx: no risky changes\\n\\n<!--"`` made a heading of
its own and hid the real change inside an HTML comment in ``diff --format markdown``; a name in a
text table, a graph's comment header or a routes listing started a line of its own that looked
like flowctx's. Names, paths, descriptions and conditions are shown with their line breaks as
visible ``\\n`` escapes wherever the output is line-oriented.
"""

from __future__ import annotations

import re

# CR, LF, and what editors and str.splitlines() also read as a line break
_BREAK = re.compile("\r\n|[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")
_SHOWN = {"\r\n": "\\r\\n", "\r": "\\r", "\n": "\\n"}


def _shown(found: re.Match[str]) -> str:
    brk = found.group()
    return _SHOWN[brk] if brk in _SHOWN else f"\\u{ord(brk):04x}"


def one_line(text: str) -> str:
    """``text`` with every line break written as a visible escape (``\\n``, ``\\u2028``)."""
    return _BREAK.sub(_shown, text) if _BREAK.search(text) else text
