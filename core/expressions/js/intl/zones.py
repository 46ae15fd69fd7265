"""The time zones of node 20's ICU (tables/zones, written by scripts/intl_zones.mjs): how the
``timeZone`` option spells each name it accepts (any case; links as ICU 78 reports them:
Asia/Kolkata is Asia/Calcutta), and each zone's UTC offset at an instant from ICU's own tzdata,
not the system's: its first offset (local mean time, before the year 1 too), its transitions up
to a year, then a recurring rule (month, week of the month, weekday, local time before the
change, as POSIX TZ strings write them), which repeats with the Gregorian calendar every 400
years."""

from __future__ import annotations

import bisect
import functools
import math
from typing import Any, Final

from flowctx_core.expressions.js.intl.data import table

_S: Final = 1000
_DAY: Final = 86400
_CYCLE: Final = 146097 * _DAY  # 400 Gregorian years, in seconds
_Y2400: Final = 13569465600  # 2400-01-01 in seconds since 1970


#: the zone node reports as UTC but ICU names as its own Etc/GMT (the metazone GMT: "Greenwich
#: Mean Time", where UTC is "Coordinated Universal Time"), as tables/zonenames keeps it
GREENWICH: Final = "Etc/GMT0"
#: the spellings (any case) node names so, measured: V8 hands ICU the other links of UTC and GMT
#: (GMT0, Etc/GMT, UCT, Zulu...) as UTC itself
_GREENWICH_SPELLINGS: Final = frozenset(
    ("etc/gmt0", "etc/gmt+0", "etc/gmt-0", "etc/greenwich", "greenwich")
)


def canonical(name: str) -> str | None:
    """The zone's name as ``resolvedOptions().timeZone`` spells it, None where node says
    "Invalid time zone specified"."""
    found: str | None = table("zoneNames").get(name.lower())
    return found


def named(name: str) -> str | None:
    """The zone whose names and offsets a DateTimeFormat reads: the canonical one, but
    ``GREENWICH`` for the spellings ICU names as Etc/GMT."""
    if name.lower() in _GREENWICH_SPELLINGS:
        return GREENWICH
    return canonical(name)


def reported(zone: str) -> str:
    """The zone ``resolvedOptions().timeZone`` reports for a zone ``named`` gave."""
    return "UTC" if zone == GREENWICH else zone


@functools.cache
def _zone(zone: str) -> tuple[int, int, list[Any], list[int], list[int]]:
    first, keep_to, rule, flat = table("zoneOffsets")[zone]
    times, offsets, at = [], [], 0
    for i in range(0, len(flat), 2):
        at += flat[i]
        times.append(at)
        offsets.append(flat[i + 1])
    return first, _year_start(keep_to), rule, times, offsets


def _year_start(year: int) -> int:
    from flowctx_core.expressions.js import dates

    return dates.days_from_civil(year, 1, 1) * _DAY


def _rule_day(year: int, month: int, week: int, weekday: int) -> int:
    """The day (since 1970) of POSIX's Mm.w.d in a year: week 5 is the month's last."""
    from flowctx_core.expressions.js import dates

    if week == 5:
        nxt = dates.days_from_civil(year + (month == 12), month % 12 + 1, 1)
        last = nxt - 1
        return last - ((last + 4 - weekday) % 7)  # 1970-01-01 was a Thursday
    first = dates.days_from_civil(year, month, 1)
    return first + ((weekday - (first + 4)) % 7) + 7 * (week - 1)


def _by_rule(rule: list[list[int]], s: int) -> int:
    from flowctx_core.expressions.js import dates

    if s >= _Y2400:
        s -= math.ceil((s - _Y2400) / _CYCLE) * _CYCLE
    year = dates.civil_from_days(s // _DAY)[0]
    a, b = rule
    changes = []
    for y in (year - 1, year, year + 1):
        for month, week, weekday, secs, after in (a, b):
            before = b[4] if after == a[4] else a[4]
            changes.append((_rule_day(y, month, week, weekday) * _DAY + secs - before, after))
    changes.sort()
    offset = changes[0][1]
    for at, after in changes:
        if at <= s:
            offset = after
    return offset


def offset_ms(zone: str, t: float) -> int:
    """The zone's offset from UTC at the instant ``t`` (ms), in ms."""
    if zone in ("UTC", GREENWICH):
        return 0
    first, keep_to, rule, times, offsets = _zone(zone)
    s = math.floor(t / _S)
    if s >= keep_to and rule:
        return _by_rule(rule, s) * _S
    at = bisect.bisect_right(times, s)
    return (offsets[at - 1] if at else first) * _S
