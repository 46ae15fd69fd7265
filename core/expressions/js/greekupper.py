"""Greek uppercasing, as ICU applies it for ``toLocaleUpperCase('el')``: a letter loses its
accents and breathings (tonos, oxia, varia, perispomeni, psili, dasia...), a
ypogegrammeni becomes a capital iota after it, a dialytika stays (precomposed on Ι and Υ), an
iota or upsilon after an accented vowel gains one (άι is ΑΪ: the accent said they are two
vowels), and a lone ή keeps its tonos (the disjunctive "or"). The letters' data come from
Unicode's decompositions, the rest of the text is uppercased as ``toUpperCase`` does."""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

_VOWEL: Final = 0x1000
_YPOGEGRAMMENI: Final = 0x2000
_ACCENT: Final = 0x4000
_DIALYTIKA: Final = 0x8000
_COMBINING_DIALYTIKA: Final = 0x10000
_OTHER: Final = 0x20000
_EITHER_DIALYTIKA: Final = _DIALYTIKA | _COMBINING_DIALYTIKA
_VOWEL_ACCENT_DIALYTIKA: Final = _VOWEL | _ACCENT | _DIALYTIKA
_AFTER_CASED: Final = 1
_AFTER_VOWEL_WITH_ACCENT: Final = 2  # a precomposed accent
_AFTER_VOWEL_WITH_COMBINING_ACCENT: Final = 4

_DIACRITICS: Final = {
    "\u0300": _ACCENT, "\u0301": _ACCENT, "\u0342": _ACCENT, "\u0302": _ACCENT,
    "\u0303": _ACCENT, "\u0311": _ACCENT, "\u0308": _COMBINING_DIALYTIKA,
    "\u0344": _COMBINING_DIALYTIKA | _ACCENT, "\u0345": _YPOGEGRAMMENI,
    "\u0304": _OTHER, "\u0306": _OTHER, "\u0313": _OTHER, "\u0314": _OTHER, "\u0343": _OTHER,
}  # fmt: skip
# a precomposed letter's marks: dialytika is the letter's own, not a combining one
_LETTER_MARKS: Final = {**_DIACRITICS, "\u0308": _DIALYTIKA, "\u0344": _DIALYTIKA | _ACCENT}
_VOWELS: Final = frozenset("ΑΕΗΙΟΥΩ")


@functools.cache
def _letter(c: str) -> tuple[str, int] | None:
    """A Greek letter's uppercase base letter and flags (None: not a Greek letter)."""
    cp = ord(c)
    if not (0x370 <= cp <= 0x3FF or 0x1F00 <= cp <= 0x1FFF or cp == 0x2126):
        return None
    decomposed = unicodedata.normalize("NFD", c)
    base = decomposed[0]
    if not ("\u0391" <= base <= "\u03c9" or base in "ϒς"):
        return None
    upper = "Σ" if base == "ς" else base.upper()
    if len(upper) != 1:
        return None
    flags = _VOWEL if upper in _VOWELS else 0
    for mark in decomposed[1:]:
        flags |= _LETTER_MARKS.get(mark, 0)
    return upper, flags


def _cased(c: str) -> bool:
    return unicodedata.category(c) in ("Lu", "Ll", "Lt") or c != c.lower() or c != c.upper()


def _case_ignorable(c: str) -> bool:
    return (
        unicodedata.category(c) in ("Mn", "Me", "Cf", "Lm", "Sk")
        or c in "'.:·\u2018\u2019\u2024\ufe52\uff07\uff0e\u00ad\u0387\u05f4\u2027\ufe13\ufe55\uff1a"
    )


def _followed_by_cased(s: str, i: int) -> bool:
    for c in s[i:]:
        if _case_ignorable(c):
            continue
        return _cased(c)
    return False


def greek_upper(s: str) -> str:
    out: list[str] = []
    state = 0
    i = 0
    while i < len(s):
        c = s[i]
        i += 1
        next_state = 0
        if _case_ignorable(c):
            next_state |= state & _AFTER_CASED
        elif _cased(c):
            next_state |= _AFTER_CASED
        found = _letter(c)
        if found is None:
            out.append(c.upper())
            state = next_state
            continue
        upper, data = found
        own_accent = bool(data & _ACCENT)
        if data & _VOWEL and upper in "ΙΥ":
            # the accent said the vowels are two: a dialytika as the accent was written
            if state & _AFTER_VOWEL_WITH_COMBINING_ACCENT:
                data |= _COMBINING_DIALYTIKA
            elif state & _AFTER_VOWEL_WITH_ACCENT:
                data |= _DIALYTIKA
        ypogegrammeni = 1 if data & _YPOGEGRAMMENI else 0
        while i < len(s) and s[i] in _DIACRITICS:
            mark = _DIACRITICS[s[i]]
            data |= mark
            if mark & _YPOGEGRAMMENI:
                ypogegrammeni += 1
            i += 1
        if data & _VOWEL_ACCENT_DIALYTIKA == _VOWEL | _ACCENT:
            next_state |= (
                _AFTER_VOWEL_WITH_ACCENT if own_accent else _AFTER_VOWEL_WITH_COMBINING_ACCENT
            )
        add_tonos = False
        if (
            upper == "Η"
            and data & _ACCENT
            and ypogegrammeni == 0
            and not state & _AFTER_CASED
            and not _followed_by_cased(s, i)
        ):
            if own_accent:
                upper = "\u0389"  # the precomposed Ή
            else:
                add_tonos = True
        elif data & _DIALYTIKA:
            if upper == "Ι":
                upper = "\u03aa"
                data &= ~_EITHER_DIALYTIKA
            elif upper == "Υ":
                upper = "\u03ab"
                data &= ~_EITHER_DIALYTIKA
        out.append(upper)
        if data & _EITHER_DIALYTIKA:
            out.append("\u0308")
        if add_tonos:
            out.append("\u0301")
        out.append("Ι" * ypogegrammeni)
        state = next_state
    return "".join(out)
