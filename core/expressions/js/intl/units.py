"""``Intl.NumberFormat``'s style ``unit`` as node 20 answers it: ECMA-402's sanctioned units and
their ``X-per-Y`` compounds, each locale's pattern around the signed decimal number for each
unitDisplay and plural category (scripts/intl_units.mjs), a compound being X's pattern inside
Y's "per" pattern unless ICU has patterns of its own for it (kilometer-per-hour)."""

from __future__ import annotations

import unicodedata
from typing import Any, Final

from flowctx_core.expressions.js.intl.data import table

#: ECMA-402's sanctioned simple units (IsSanctionedSingleUnitIdentifier)
SANCTIONED: Final = frozenset({
    "acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit",
    "fluid-ounce", "foot", "gallon", "gigabit", "gigabyte", "gram", "hectare", "hour", "inch",
    "kilobit", "kilobyte", "kilogram", "kilometer", "liter", "megabit", "megabyte", "meter",
    "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter", "millisecond",
    "minute", "month", "nanosecond", "ounce", "percent", "petabyte", "pound", "second",
    "stone", "terabit", "terabyte", "week", "yard", "year",
})  # fmt: skip


def well_formed(unit: str) -> bool:
    """IsWellFormedUnitIdentifier: a sanctioned unit, or two joined by ``-per-``."""
    if unit in SANCTIONED:
        return True
    num, per, den = unit.partition("-per-")
    return bool(per) and num in SANCTIONED and den in SANCTIONED


_MISSING: Final = object()


def _lookup(locale: str, key: str, en: bool = True) -> Any:
    """The key of the locale's row, else of its nearest parent's that has it (en's last, but
    for a compound's own patterns: a language without them makes it by the rule)."""
    rows = table("units")
    tag = locale
    while True:
        row = rows.get(tag)
        if row is not None and key in row:
            return row[key]
        if "-" not in tag:
            break
        tag = tag.rsplit("-", 1)[0]
    if locale != "en" and en:
        return _lookup("en", key)
    return _MISSING


def _by_category(found: Any, category: str) -> str:
    if isinstance(found, str):
        return found
    return str(found.get(category) or found.get("other") or next(iter(found.values())))


def pattern(
    locale: str, unit: str, display: str, category: str, compact_percent: str | None = None
) -> str:
    """The unit's pattern in the locale for the number's plural category: ``{0}`` stands for
    the signed number (a pattern may have none: ar's فدان for one acre). ``compact_percent``:
    the locale's compact percent pattern, which a compact percent-per-Y puts in Y's per
    pattern (eu's % −5/h)."""
    if "-per-" not in unit:
        return _by_category(_lookup(locale, f"{display}/{unit}"), category)
    own = _lookup(locale, f"{display}/{unit}", en=False)  # None: made by the rule
    if own is not _MISSING and own is not None:
        return _by_category(own, category)
    num, _, den = unit.partition("-per-")
    per = str(_lookup(locale, f"{display}/per/{den}"))
    if num == "percent" and display != "long":
        # V8 formats percent apart: percent-per-Y short and narrow is percent's own pattern,
        # but compact's goes in Y's per pattern
        if compact_percent is not None:
            return per.replace("{1}", compact_percent)
        return _by_category(_lookup(locale, f"{display}/percent"), category)
    return per.replace("{1}", _by_category(_lookup(locale, f"{display}/{num}"), category))


def _ignorable(c: str) -> bool:
    """ICU's default ignorables at a field's edges: spaces, tab, bidi controls, variation
    selectors."""
    o = ord(c)
    return (
        unicodedata.category(c) == "Zs"
        or c == "\t"
        or c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        or 0xFE00 <= o <= 0xFE0F
        or 0xE0100 <= o <= 0xE01EF
        or 0x180B <= o <= 0x180D
        or o == 0x180F
    )


def affix_parts(text: str) -> list[tuple[str, str]]:
    """The parts of the text beside the number: the unit, with the ignorables at its edges as
    literals (ICU trims them off the unit's field)."""
    if not text:
        return []
    start, end = 0, len(text)
    while start < end and _ignorable(text[start]):
        start += 1
    while end > start and _ignorable(text[end - 1]):
        end -= 1
    out = [("literal", text[:start]), ("unit", text[start:end]), ("literal", text[end:])]
    return [p for p in out if p[1]]
