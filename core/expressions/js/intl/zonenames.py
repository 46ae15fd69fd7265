"""The names node's ICU gives a time zone other than UTC in the ``timeZoneName`` styles short,
long, shortGeneric and longGeneric, and which of them ``timeStyle`` full and long print
(tables/zonenames*, scripts/intl_zone_names.mjs).

ICU names a zone by the metazone in effect at the instant (its standard or daylight name, the
generic one, the standard one where no daylight time is within 184 days, a partial location where
the metazone's reference zone's offset differs), else by its location or the GMT format. Each
zone's time line is kept cut into classes where its names change, measured from 1790 to at least
2050 and from 9998 to 10002: before 1790 the first class holds, in between and after the class of
the zone's offset (and of whether the instant's wall time comes again after a change back, where
ICU reads the reference zone's offset after the change); where the metazone's reference zone
keeps daylight time on other days than the zone, the zone is scanned 31 years longer and an
instant in between is read at the same time of a scanned year alike. Each locale keeps its name
per class and style where it is not its parent's, or "-" for the GMT format of the instant's
offset. ICU's Etc/GMT (which node reports as UTC, ``zones.GREENWICH``) is kept as one more
zone."""

from __future__ import annotations

import bisect
import functools
import math
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import zones
from flowctx_core.expressions.js.intl.data import table

STYLES: Final = ("short", "long", "shortGeneric", "longGeneric")
#: the GMT format each style falls back to
OFFSET_STYLE: Final = {"short": "shortOffset", "shortGeneric": "shortOffset",
                       "long": "longOffset", "longGeneric": "longOffset"}  # fmt: skip
_S: Final = 1000
_SIX_HOURS: Final = 6 * 3600 * _S


@functools.cache
def _segments(
    zone: str,
) -> tuple[int, list[tuple[list[int], list[int]]], list[dict[str, int] | str | None], int]:
    """A zone's first key, its two scanned ranges' starts and classes, its gaps' classes by key,
    and the year its first range ends."""
    key, encoded, gaps, end = table("zoneNameZones")[zone]
    parts = []
    for flat in encoded:
        starts, classes, at = [], [], 0
        for i in range(0, len(flat), 2):
            at += flat[i]
            starts.append(at)
            classes.append(flat[i + 1])
        parts.append((starts, classes))
    return key, parts, gaps, end


def _fold_key(zone: str, t: float) -> str:
    """The offset (seconds) and whether the wall time comes again after a change back."""
    o = zones.offset_ms(zone, t) // _S
    later = zones.offset_ms(zone, t + _SIX_HOURS) // _S
    if later < o and zones.offset_ms(zone, t + (o - later) * _S) // _S == later:
        return f"{o}f"
    return str(o)


def _class(zone: str, t: float) -> int:
    from flowctx_core.expressions.js import dates

    key, parts, gaps, end = _segments(zone)
    a0, b0, b1 = table("zoneNameRanges")
    a1 = dates.days_from_civil(end, 1, 1) * 86400 * _S
    if t < a1 or b0 <= t < b1:
        starts, classes = parts[0] if t < a1 else parts[1]
        at = bisect.bisect_right(starts, max(t, a0)) - 1
        return key + classes[at]
    gap = gaps[0 if t < b0 else 1]
    shifted = _shifted(t, end) if gap == "shift" else None
    if shifted is not None:  # read at the same time of a scanned year alike
        starts, classes = parts[0]
        return key + classes[bisect.bisect_right(starts, shifted) - 1]
    found = gap.get(_fold_key(zone, t)) if isinstance(gap, dict) else None
    if found is None:  # where the offset says too little (scripts/intl_zone_names.mjs)
        raise Unsupported(f"flowctx does not reproduce the name of the time zone {zone} then")
    return key + int(found)


def _shifted(t: float, end: int) -> float | None:
    """The instant at the same time of a year before ``end`` whose January 1st is the same
    weekday and whose year, the one before and the one after are leap years alike: the rules of
    daylight time (by month, week and weekday) fall on the same days in both."""
    from flowctx_core.expressions.js import dates

    def like(y: int) -> tuple[int, bool, bool, bool]:
        return ((dates.days_from_civil(y, 1, 1) + 4) % 7, _leap(y - 1), _leap(y), _leap(y + 1))

    y = dates.civil_from_days(math.floor(t / 86400000))[0]
    want = like(y)
    for z in range(end - 2, end - 31, -1):
        if like(z) == want:
            return t - (dates.days_from_civil(y, 1, 1) - dates.days_from_civil(z, 1, 1)) * 86400000
    return None  # (a zone scanned past 2100, which no other year is like)


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


@functools.cache
def _refs(style: str) -> list[int]:
    return [-1 if x == "" else int(x, 36) for x in table(f"zoneNames-{style}")["ref"].split(",")]


@functools.cache
def _decoded(style: str, tag: str) -> tuple[str, ...] | None:
    """A locale's names over every key (a zone's classes), its own or its nearest parent's:
    its list (after the pool's index of its first new name) holds "" for the parent's name, "="
    for its own name of the key's reference, "-" for the GMT format, "+" for the pool's next
    name, else a name of the pool (base 36)."""
    names = table(f"zoneNames-{style}")
    parent = None
    at = tag
    while parent is None and "-" in at:
        at = at.rsplit("-", 1)[0]
        parent = _decoded(style, at) if at in names["tags"] else None
    listed = names["tags"].get(tag)
    if listed is None:
        return parent
    refs, pool = _refs(style), names["pool"]
    start, text = listed.split("|")
    following = int(start, 36)
    out: list[str] = []
    for i, v in enumerate(text.split(",")):
        if v == "":
            assert parent is not None
            out.append(parent[i])
        elif v == "=":
            out.append(out[refs[i]])
        elif v == "+":  # the pool's next name
            out.append(pool[following])
            following += 1
        else:
            out.append("-" if v == "-" else pool[int(v, 36)])
    return tuple(out)


def name(locale: str, zone: str, style: str, t: float) -> str | None:
    """The zone's name in the style at the instant ``t`` (ms), None where it is the GMT format
    of its offset (``OFFSET_STYLE``)."""
    if locale not in _measured():
        raise Unsupported(f"flowctx does not reproduce the time zone names of {locale!r}")
    found = _decoded(style, locale)
    if found is None:
        raise Unsupported(f"flowctx does not reproduce the time zone names of {locale!r}")
    value = found[_class(zone, t)]
    return None if value == "-" else value


@functools.cache
def _measured() -> frozenset[str]:
    return frozenset(table("zoneNameLocales"))


def time_style(locale: str, style: str) -> str:
    """The timeZoneName style ``timeStyle`` full or long prints in the locale."""
    rows: dict[str, Any] = table("zoneNameTimeStyles")
    tag = locale
    while tag not in rows and "-" in tag:
        tag = tag.rsplit("-", 1)[0]
    found = rows.get(tag, table("zoneNameTimeStyle")).get(style)
    if found is None:
        raise Unsupported(
            f"flowctx does not reproduce the time zone name timeStyle {style} prints in {locale!r}"
        )
    return str(found)
