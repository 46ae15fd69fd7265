"""V8's words for a regular expression's structural syntax errors (node 20).

The pattern is compiled by a regular-expression library whose error words are its own, and
whose first error is not always V8's. V8 reads a pattern once, left to right, and reports the
first thing it cannot read: this module reads the structure the same way (groups and their
kinds, quantifiers and what they follow, character classes and their ranges) and says V8's
words ("Nothing to repeat", "Unterminated group", "Unmatched ')'", "Invalid group"...).

It answers only where its reading is complete: braces (quantifier bounds, ``\\u{...}``,
``\\p{...}``), and escapes under the ``u``/``v`` flags (whose validity is the library's to
judge) end its reading before the first of them, and then nothing is said about the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

#: escapes that are assertions: nothing may repeat them
_ASSERTION_ESCAPES: Final = frozenset("bB")
_QUANTIFIERS: Final = frozenset("*+?")


class _Stop(Exception):
    """The reading cannot go on (a construct this module leaves to the library)."""


def _name_end(source: str, i: int) -> int | None:
    """The index of the '>' that ends a group name starting at ``i``, when the name is a
    plain ASCII identifier (anything else: None, read by the caller as invalid or unknown)."""
    j = i
    while j < len(source) and (source[j].isascii() and (source[j].isalnum() or source[j] in "_$")):
        j += 1
    if j == i or j >= len(source) or source[j] != ">" or source[i].isdigit():
        return None
    return j


def structural(source: str) -> Iterator[tuple[int, str]]:
    """Each character of a pattern (with its index) outside escapes and character classes:
    what the group counting, the backtracking pre-screen and this reading look at."""
    i, n = 0, len(source)
    in_class = False
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        else:
            yield i, c
        i += 1


def _has_named_groups(source: str) -> bool:
    """Whether a ``(?<name>`` group stands in the pattern outside escapes and classes (V8
    reads ``\\k`` as a named reference only then, without the u flag)."""
    return any(
        c == "(" and source.startswith("(?<", i) and source[i + 3 : i + 4] not in ("=", "!")
        for i, c in structural(source)
    )


def v8_syntax_error(source: str, flags: str) -> str | None:
    """V8's reason for the first structural error of ``source``, or None where there is none
    or where this reading stops before it (then the library's judgement stands)."""
    if "v" in flags:
        return None  # classes read otherwise under v: the library's
    try:
        return _read(source, "u" in flags)
    except _Found as found:
        return found.reason
    except _Stop:
        return None


def _read(source: str, unicode: bool) -> str | None:
    n = len(source)
    # kind of each open group: "capture", "plain", "lookahead", "lookbehind"
    groups: list[str] = []
    names: list[str] = []
    references: list[str] = []
    # whether the last thing read can be repeated by a quantifier; "assertion-quantified"
    # marks a lookaround V8 refuses to repeat ("Invalid quantifier")
    repeatable: str = "no"
    has_named = _has_named_groups(source)
    i = 0
    while i < n:
        c = source[i]
        if c in "{}":
            raise _Stop
        if c in _QUANTIFIERS:
            if repeatable == "lookaround":
                return "Invalid quantifier"
            if repeatable != "yes":
                return "Nothing to repeat"
            i += 1
            if i < n and source[i] == "?":
                i += 1  # lazy
            repeatable = "no"
            continue
        if c == "|":
            repeatable = "no"
            i += 1
            continue
        if c in "^$":
            repeatable = "no"
            i += 1
            continue
        if c == ")":
            if not groups:
                return "Unmatched ')'"
            kind = groups.pop()
            if kind == "lookbehind" or (kind == "lookahead" and unicode):
                repeatable = "lookaround"
            else:
                repeatable = "yes"
            i += 1
            continue
        if c == "(":
            if source.startswith("(?", i):
                rest = source[i + 2 : i + 4]
                if rest[:1] in (":", "=", "!"):
                    groups.append({":": "plain", "=": "lookahead", "!": "lookahead"}[rest[0]])
                    i += 3
                elif rest in ("<=", "<!"):
                    groups.append("lookbehind")
                    i += 4
                elif rest[:1] == "<":
                    end = _name_end(source, i + 3)
                    if end is None:
                        if any(not ch.isascii() for ch in source[i + 3 : i + 40]) or (
                            "\\" in source[i + 3 : i + 40]
                        ):
                            raise _Stop  # a name with escapes or non-ASCII: the library's
                        return "Invalid capture group name"
                    names.append(source[i + 3 : end])
                    groups.append("capture")
                    i = end + 1
                else:
                    return "Invalid group"
            else:
                groups.append("capture")
                i += 1
            repeatable = "no"
            continue
        if c == "[":
            i = _class(source, i + 1, unicode)
            repeatable = "yes"
            continue
        if c == "]" and unicode:
            return "Lone quantifier brackets"
        if c == "\\":
            if i + 1 >= n:
                return "\\ at end of pattern"
            e = source[i + 1]
            if unicode and e == "c":
                if not (source[i + 2 : i + 3].isascii() and source[i + 2 : i + 3].isalpha()):
                    return "Invalid Unicode escape"
                i += 3
                repeatable = "yes"
                continue
            if unicode and e not in "bBdDsSwW^$\\.*+?()[]{}|/k" and not e.isdigit():
                width = _unicode_escape(source, i)  # V8's checks of one escape under u
                if isinstance(width, str):
                    return width
                i += width
                repeatable = "yes"
                continue
            if e == "k" and (unicode or has_named):
                end = _name_end(source, i + 3) if source.startswith("<", i + 2) else None
                if not source.startswith("<", i + 2):
                    return "Invalid named reference"
                if end is None:
                    raise _Stop
                references.append(source[i + 3 : end])
                i = end + 1
                repeatable = "yes"
                continue
            if e.isdigit() and unicode:
                raise _Stop  # back references and octal escapes under u: the library's
            repeatable = "no" if e in _ASSERTION_ESCAPES else "yes"
            i += 2
            continue
        repeatable = "yes"
        i += 1
    if groups:
        return "Unterminated group"
    if any(ref not in names for ref in references):
        return "Invalid named capture referenced"
    return None


_HEX: Final = frozenset("0123456789abcdefABCDEF")


def _unicode_escape(source: str, i: int) -> int | str:
    """The length of the atom escape at ``i`` under the u flag, or V8's reason it is invalid;
    braces (``\\u{...}``, ``\\p{...}``) stop the reading."""
    e = source[i + 1]
    if e in "fnrtv":
        return 2
    if e == "x":
        if all(ch in _HEX for ch in source[i + 2 : i + 4]) and len(source) >= i + 4:
            return 4
        return "Invalid escape"
    if e == "u":
        if source[i + 2 : i + 3] == "{":
            raise _Stop
        if all(ch in _HEX for ch in source[i + 2 : i + 6]) and len(source) >= i + 6:
            return 6
        return "Invalid Unicode escape"
    if e in "pP":
        raise _Stop  # a property escape: braces follow, or the library's words
    return "Invalid escape"


def _class(source: str, i: int, unicode: bool) -> int:
    """The index after the class that starts at ``i`` (after its '['); ranges between two
    plain characters are checked for order, anything subtler is left to the library."""
    n = len(source)
    if i < n and source[i] == "^":
        i += 1
    atoms: list[str | None] = []  # each atom's character, None for an escape
    while i < n and source[i] != "]":
        if source[i] == "\\":
            if i + 1 >= n or unicode or source[i + 1] == "k":
                raise _Stop  # under u (and \\k) a class's escapes are the library's
            atoms.append(None)
            i += 2
            continue
        if ord(source[i]) > 0xFFFF:
            raise _Stop  # two code units without u: the library's
        atoms.append(source[i])
        i += 1
    if i >= n:
        raise _Stop  # V8's "Unterminated character class" comes after other checks
    if None in atoms and "-" in atoms:
        raise _Stop  # an escape beside a range (its width, \\cA or \\x41): the library's
    k = 0
    while k < len(atoms):
        if k + 2 < len(atoms) and atoms[k + 1] == "-":
            low, high = atoms[k], atoms[k + 2]
            if low is None or high is None:
                raise _Stop  # a class escape or an escaped bound: the library's
            if ord(low) > ord(high):
                raise _Found("Range out of order in character class")
            k += 3
        else:
            k += 1
    return i + 1


class _Found(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
