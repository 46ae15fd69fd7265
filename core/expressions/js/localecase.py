"""``toLocaleUpperCase(locales)`` and ``toLocaleLowerCase(locales)`` as node 20 answers them.

Node's case mappings follow the first locale asked for (ECMA-402's CanonicalizeLocaleList: a
string, or the elements of an array; a number or a boolean is an empty list, the default
locale). Turkish and Azeri map the dotted and dotless i (Unicode's SpecialCasing), Lithuanian
keeps and removes the combining dot above soft-dotted letters; every other language maps as
``toUpperCase``/``toLowerCase`` do, but Greek, whose uppercasing drops accents
(``greekupper.py``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Final

from flowctx_core.expressions.js import newercasing
from flowctx_core.expressions.js.newernorm import CLASSES
from flowctx_core.expressions.js.values import UNDEFINED

# RFC 5646's well-formed tags (the regular grammar; node refuses the irregular grandfathered
# ones such as i-klingon too), case-insensitive
_TAG: Final = re.compile(
    r"(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{5,8})"
    r"(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z0-9]{5,8}|\d[a-z0-9]{3}))*"
    r"(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?\Z",
    re.I,
)

# Soft_Dotted (Unicode 17, as node 20 has it): the letters whose dot a combining dot repeats
_SOFT_DOTTED: Final = re.compile(
    "[\u0069\u006a\u012f\u0249\u0268\u029d\u02b2\u03f3\u0456\u0458\u1d62\u1d96\u1da4\u1da8"
    "\u1e2d\u1ecb\u2071\u2148\u2149\u2c7c\U0001d422\U0001d423\U0001d456\U0001d457\U0001d48a"
    "\U0001d48b\U0001d4be\U0001d4bf\U0001d4f2\U0001d4f3\U0001d526\U0001d527\U0001d55a"
    "\U0001d55b\U0001d58e\U0001d58f\U0001d5c2\U0001d5c3\U0001d5f6\U0001d5f7\U0001d62a"
    "\U0001d62b\U0001d65e\U0001d65f\U0001d692\U0001d693\U0001df1a\U0001e04c\U0001e04d"
    "\U0001e068]"
)
_DOT_ABOVE: Final = "\u0307"
_ABOVE: Final = 230


def first_locale(locales: Any) -> str | None:
    """The first locale asked for (None: the default), every one validated and canonicalised
    as node's CanonicalizeLocaleList does, its errors' words too."""
    from flowctx_core.expressions.js import intl

    tags: list[str] = intl.service("locales").canonical_list(locales)
    return tags[0] if tags else None


def language_of(tag: str) -> str:
    """The language subtag of a tag ``first_locale`` gave: canonical already, its alias
    replaced as ICU replaces it (tur is tr, azj az: tables/aliases)."""
    return tag.split("-", 1)[0].lower()


def _language(locales: Any) -> str:
    """The language of the first locale asked for ('' for the default locale)."""
    tag = first_locale(locales)
    return "" if tag is None else language_of(tag)


def _ccc(c: str) -> int:
    # the marks encoded after Python's tables (U+0897, U+1ACF...) have their class from node's
    return CLASSES.get(ord(c)) or unicodedata.combining(c)


def _after(s: str, i: int, test: Any) -> bool:
    """Some character before ``s[i]`` passes ``test`` with no starter or above mark between."""
    for j in range(i - 1, -1, -1):
        if test(s[j]):
            return True
        if _ccc(s[j]) in (0, _ABOVE):
            return False
    return False


def _more_above(s: str, i: int) -> bool:
    """A mark of the above class follows ``s[i]`` before any starter."""
    for c in s[i + 1 :]:
        cc = _ccc(c)
        if cc == _ABOVE:
            return True
        if cc == 0:
            return False
    return False


def _before_dot(s: str, i: int) -> bool:
    for c in s[i + 1 :]:
        if c == _DOT_ABOVE:
            return True
        if _ccc(c) in (0, _ABOVE):
            return False
    return False


# Each language's own mappings are applied first, then the language-independent ones to the
# whole text at once: lowercasing a final sigma depends on the letters around it.


def _turkic_lower(s: str) -> str:
    out = []
    for i, c in enumerate(s):
        if c == "\u0130":
            out.append("i")
        elif c == _DOT_ABOVE and _after(s, i, lambda p: p == "I"):
            continue
        elif c == "I":
            out.append("i" if _before_dot(s, i) else "\u0131")
        else:
            out.append(c)
    return _lower("".join(out))


def _lithuanian_lower(s: str) -> str:
    accented = {"\u00cc": "\u0300", "\u00cd": "\u0301", "\u0128": "\u0303"}
    out = []
    for i, c in enumerate(s):
        if c in accented:
            out.append("i" + _DOT_ABOVE + accented[c])
        elif c in "IJ\u012e" and _more_above(s, i):
            out.append(c.lower() + _DOT_ABOVE)
        else:
            out.append(c)
    return _lower("".join(out))


def _lithuanian_upper(s: str) -> str:
    kept = [
        c
        for i, c in enumerate(s)
        if not (c == _DOT_ABOVE and _after(s, i, lambda p: _SOFT_DOTTED.match(p) is not None))
    ]
    return "".join(kept).upper()


# Case pairs Unicode encoded after the version of Python's own tables (14.0 to 15.1), which
# node's (17.0) has: Python leaves these letters as they are. Measured by comparing every code
# point's toUpperCase and toLowerCase in node with Python's str.upper and str.lower: these 110
# are all that differ, each one letter to one.
_NEWER_UPPER: Final = {
    0x019B: 0xA7DC, 0x0264: 0xA7CB, 0x1C8A: 0x1C89, 0xA7CD: 0xA7CC, 0xA7CF: 0xA7CE,
    0xA7D3: 0xA7D2, 0xA7D5: 0xA7D4, 0xA7DB: 0xA7DA,
    **{0x10D70 + i: 0x10D50 + i for i in range(22)},  # Garay
    **{0x16EBB + i: 0x16EA0 + i for i in range(25)},  # Beria Erfe
}  # fmt: skip
_NEWER_LOWER: Final = {upper: lower for lower, upper in _NEWER_UPPER.items()}


def _ranges(text: str) -> frozenset[int]:
    cps: set[int] = set()
    for r in text.split():
        a, _, b = r.partition("-")
        cps.update(range(int(a, 16), int(b or a, 16) + 1))
    return frozenset(cps)


#: each code point's part in lowercasing a final sigma where node's differs from Python's
_NEWER_PARTS: Final = {
    **dict.fromkeys(_ranges(newercasing.CASED), "c"),
    **dict.fromkeys(_ranges(newercasing.IGNORABLE), "i"),
    **dict.fromkeys(_ranges(newercasing.NEITHER), "n"),
}
_NEWER_PART: Final = re.compile("[" + "".join(map(chr, sorted(_NEWER_PARTS))) + "]")


@functools.lru_cache(maxsize=4096)
def _part(c: str) -> str:
    """'c' cased (and not case-ignorable), 'i' case-ignorable, 'n' neither, as node has it:
    the newer parts measured, the others as Python's str.lower reads them."""
    newer = _NEWER_PARTS.get(ord(c))
    if newer is not None:
        return newer
    if ("A" + c + "\u03a3").lower().endswith("\u03c2"):
        return "c" if (c + "\u03a3").lower().endswith("\u03c2") else "i"
    return "n"


def _lower(s: str) -> str:
    """``str.lower``, but a capital sigma is final by node's reading of the letters and marks
    around it: Python's tables have none of those encoded since, so 'a\u0897\u03a3' (a new
    case-ignorable mark) gave a medial sigma where node gives a final one."""
    if "\u03a3" not in s or not _NEWER_PART.search(s):
        return s.lower()
    out = []
    for i, c in enumerate(s):
        if c != "\u03a3":
            out.append(c.lower())
            continue
        j = i - 1
        while j >= 0 and _part(s[j]) == "i":
            j -= 1
        k = i + 1
        while k < len(s) and _part(s[k]) == "i":
            k += 1
        final = j >= 0 and _part(s[j]) == "c" and not (k < len(s) and _part(s[k]) == "c")
        out.append("\u03c2" if final else "\u03c3")
    return "".join(out)


def js_upper(s: str) -> str:
    """String.prototype.toUpperCase: Unicode's full mappings, Python's and the newer pairs."""
    return s.upper().translate(_NEWER_UPPER)


def js_lower(s: str) -> str:
    """String.prototype.toLowerCase (final sigma as Python applies it, and the newer pairs)."""
    return _lower(s).translate(_NEWER_LOWER)


def locale_upper(s: str, locales: Any = UNDEFINED, *_: Any) -> str:
    language = _language(locales)
    if language in ("tr", "az"):
        return js_upper(s.replace("i", "\u0130"))
    if language == "lt":
        return _lithuanian_upper(s).translate(_NEWER_UPPER)
    if language == "el":
        from flowctx_core.expressions.js.greekupper import greek_upper

        return greek_upper(s).translate(_NEWER_UPPER)
    return js_upper(s)


def locale_lower(s: str, locales: Any = UNDEFINED, *_: Any) -> str:
    language = _language(locales)
    if language in ("tr", "az"):
        return _turkic_lower(s).translate(_NEWER_LOWER)
    if language == "lt":
        return _lithuanian_lower(s).translate(_NEWER_LOWER)
    return js_lower(s)
