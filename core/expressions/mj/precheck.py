"""MemberJunction 5.51.3's pre-checks (``validateExpression``), reproduced exactly.

In order: a non-string or empty text is refused (whitespace only is *not* empty), more than
1000 characters (UTF-16 code units, as JavaScript counts) is refused, then a list of
forbidden-construct regular expressions is tested against the raw text, string literals
included, and last the parentheses must balance (counted in the raw text too). The messages
are the runtime's own. When a pattern matched only inside a string literal the refusal is
surprising, so it comes with a warning that says so.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from flowctx_core.expressions.js.values import utf16_length

MAX_LENGTH: Final = 1000
# JavaScript's \s: WhiteSpace and LineTerminator (Python's \s differs outside ASCII).
_JS_S: Final = (
    "[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"
)

# (pattern source as the runtime prints it, case-insensitive?)
_PATTERNS: Final[tuple[tuple[str, bool], ...]] = (
    (r"\beval\s*\(", True),
    (r"\bnew\s+Function", True),
    (r"\bFunction\s*\(", True),
    (r"\bimport\s+", True),
    (r"\brequire\s*\(", True),
    (r"\bprocess\.", True),
    (r"\bglobal\.", True),
    (r"\bwindow\.", True),
    (r"\bdocument\.", True),
    (r"\b__proto__\b", True),
    (r"\bconstructor\b", True),
    (r"\bprototype\b", True),
    (r"\.\s*constructor", True),
    (r"\bthis\b", False),
    (r"\bawait\b", True),
    (r"\basync\b", True),
    (r"\bclass\b", True),
    (r"\bextends\b", True),
    (r"\bthrow\b", True),
    (r"\btry\b", True),
    (r"\bcatch\b", True),
    (r"\bfinally\b", True),
    (r";", False),
    (r"{", False),
    (r"}", False),
    (r"`", False),
    (r"\$\{", False),
)


def _compile(source: str, ignore_case: bool) -> re.Pattern[str]:
    # JavaScript's /i without the u flag folds ASCII letters only onto ASCII letters, and its
    # \b is ASCII: re.ASCII gives both; \s is spelled out as JavaScript's class.
    flags = re.ASCII | (re.IGNORECASE if ignore_case else 0)
    return re.compile(source.replace(r"\s", _JS_S), flags)


# What every pattern's match contains, lower-cased: a text that has none of these (once
# lower-cased) matches no pattern, and is passed without compiling the 28 expressions (about
# 2 ms at start-up, most of a plain `flowctx eval`). Lower-casing keeps an ASCII word a
# substring, and may only add matches (a Kelvin sign becomes "k"): then the patterns decide.
_NEEDLES: Final = (
    *("eval", "function", "import", "require", "process", "global", "window", "document"),
    *("__proto__", "constructor", "prototype", "this", "await", "async", "class", "extends"),
    *("throw", "try", "catch", "finally", ";", "{", "}", "`"),
)


@functools.cache
def _compiled() -> tuple[tuple[tuple[str, re.Pattern[str]], ...], re.Pattern[str]]:
    """Each pattern compiled, and one search that answers "does any pattern match"."""
    each = tuple((source, _compile(source, ic)) for source, ic in _PATTERNS)
    any_ = re.compile(
        "|".join(
            f"(?i:{src.replace(chr(92) + 's', _JS_S)})" if ic else f"(?:{src})"
            for src, ic in _PATTERNS
        ),
        re.ASCII,
    )
    return each, any_


def may_be_forbidden(text: str) -> bool:
    """False when no forbidden pattern can match ``text`` (each needs one of ``_NEEDLES``)."""
    low = text.lower()
    return any(needle in low for needle in _NEEDLES)


EMPTY_MESSAGE: Final = "Expression must be a non-empty string"
LENGTH_MESSAGE: Final = "Expression exceeds maximum length of 1000 characters"
PARENS_MESSAGE: Final = "Unbalanced parentheses in expression"


def forbidden_construct(text: str) -> tuple[str, re.Match[str]] | None:
    """The first pattern, in the runtime's order, that matches anywhere in ``text``."""
    if not may_be_forbidden(text):
        return None
    forbidden, any_ = _compiled()
    if any_.search(text) is None:
        return None
    for source, pattern in forbidden:
        m = pattern.search(text)
        if m is not None:
            return source, m
    return None


def validate_expression(text: object) -> tuple[str, int, int] | None:
    """The runtime's refusal of ``text`` as (message, start, end), or None when it passes."""
    if not isinstance(text, str) or not text:
        return EMPTY_MESSAGE, 0, 0
    if utf16_length(text) > MAX_LENGTH:
        return LENGTH_MESSAGE, MAX_LENGTH, len(text)
    hit = forbidden_construct(text)
    if hit is not None:
        source, m = hit
        return f"Expression contains forbidden construct: {source}", m.start(), m.end()
    if "(" not in text and ")" not in text:
        return None
    depth = 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return PARENS_MESSAGE, i, i + 1
    if depth != 0:
        return PARENS_MESSAGE, 0, len(text)
    return None


def literal_spans(text: str) -> list[tuple[int, int]]:
    """Where the string literals and comments are (a lenient scan: the text may not parse)."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"":
            j = i + 1
            while j < n and text[j] != c and text[j] not in "\n\r":
                j += 2 if text[j] == "\\" else 1
            spans.append((i, min(j + 1, n)))
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append((i, j))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def literal_warning(text: str) -> str | None:
    """A warning when the forbidden construct that refuses ``text`` is only inside strings."""
    hit = forbidden_construct(text)
    if hit is None:
        return None
    source, m = hit
    spans = literal_spans(text)
    inside = [s for s in spans if s[0] < m.start() and m.end() <= s[1]]
    if not inside:
        return None
    masked = list(text)
    for a, b in spans:
        for k in range(a + 1, b - 1):
            masked[k] = " "
    pattern = dict(_compiled()[0])[source]
    if pattern.search("".join(masked)) is not None:
        return None  # the construct is also in the code itself
    a, b = inside[0]
    where = "comment" if text[a] == "/" else "string literal"
    word = m.group(0).strip()
    return (
        f"MemberJunction 5.51.3 refuses this condition because '{word}' appears inside a "
        f"{where} ({text[a:b]}): its denylist tests the raw text, strings included, so at run "
        "time this path is skipped as an error"
    )
