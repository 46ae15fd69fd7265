"""The calendars other than the Gregorian that ``Intl.DateTimeFormat`` reproduces, as ICU
counts them in node 20: the Japanese (ICU's Julian dates before 1582-10-15, the era from the
Japanese eras' start days, node's own, counted from 645 before the first), the Buddhist (the
same dates, years from 543 BC), the Republic of China's (the same, before and from 1912),
the Persian (the 33-year arithmetic rule, with the years whose first day ICU puts a day
earlier, measured) and the two tabular Islamic ones (30-year cycles from 16 July 622, the
civil, or the day before, the astronomical epoch's). Each gives an era index, a year, a
month (0-11) and a day, which the measured rows of scripts/intl_calendars.mjs name."""

from __future__ import annotations

import bisect
import functools
import math
from typing import Final

from flowctx_core.expressions.js.intl.data import table

#: the calendars whose fields this module counts and whose patterns tables/calendars holds
CALENDARS: Final = frozenset(
    ("japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla")
)
_MS_PER_DAY: Final = 86_400_000
_REFORM_DAY: Final = -141427  # 1582-10-15, the first Gregorian day, in days since 1970
_PERSIAN_EPOCH: Final = 1948320 - 2440588  # the day before 1 Farvardin 1, in days since 1970


def julian_or_gregorian(days: int) -> tuple[int, int, int]:
    """ICU's hybrid calendar: the Julian year, month (0-11) and day before the Gregorian
    reform (the local day 1582-10-15), the Gregorian ones from it; astronomical years."""
    from flowctx_core.expressions.js import dates

    if days >= _REFORM_DAY:
        y, m, d = dates.civil_from_days(days)
        return y, m - 1, d
    c = days + 2440588 + 32082  # the Julian day number, then the Julian calendar's algorithm
    dd = (4 * c + 3) // 1461
    e = c - 1461 * dd // 4
    m = (5 * e + 2) // 153
    return dd - 4800 + m // 10, m - 1 + 3 - 12 * (m // 10), e - (153 * m + 2) // 5 + 1


@functools.cache
def _japanese() -> tuple[list[int], list[int]]:
    """The Japanese eras' start days (the first era's from the 645 it counts from) and the
    year each starts in."""
    starts: list[int] = table("calendarEras")["japanese"]
    years: list[int] = table("calendarEraYears")["japanese"]
    first = [julian_or_gregorian(d)[0] - n + 1 for d, n in zip(starts, years, strict=True)]
    return starts[1:], first


@functools.cache
def _persian_earlier() -> frozenset[int]:
    return frozenset(table("persianEarlier"))


def _persian_start(year: int) -> int:
    """The day (since 1970) of 1 Farvardin of a Persian year."""
    start = _PERSIAN_EPOCH + 365 * (year - 1) + (8 * year + 21) // 33
    return start - 1 if year in _persian_earlier() else start


def _persian(days: int) -> tuple[int, int, int]:
    year = 1 + (33 * (days - _PERSIAN_EPOCH) + 3) // 12053
    while days < _persian_start(year):
        year -= 1
    while days >= _persian_start(year + 1):
        year += 1
    in_year = days - _persian_start(year)
    month = in_year // 31 if in_year < 186 else (in_year - 6) // 30
    return year, month, in_year - (month * 31 if month < 6 else month * 30 + 6) + 1


def _islamic(days: int, epoch: int) -> tuple[int, int, int]:
    """The tabular Islamic year, month (0-11) and day; ``epoch`` the Julian day number of
    1 Muharram 1."""
    since = days + 2440588 - epoch
    year = (30 * since + 10646) // 10631
    start = (year - 1) * 354 + (3 + 11 * year) // 30
    month = min(math.ceil((since - 29 - start) / 29.5), 11)
    return year, month, since - (math.ceil(29.5 * month) + start) + 1


def fields(calendar: str, t_local: float) -> tuple[int, int, int, int]:
    """The era index, year, month (0-11) and day of a local time in one of ``CALENDARS``."""
    days = math.floor(t_local / _MS_PER_DAY)
    if calendar == "persian":
        y, m, d = _persian(days)
        return 0, y, m, d
    if calendar.startswith("islamic"):
        y, m, d = _islamic(days, 1948440 if calendar == "islamic-civil" else 1948439)
        return 0, y, m, d
    y, m, d = julian_or_gregorian(days)
    if calendar == "buddhist":
        return 0, y + 543, m, d
    if calendar == "roc":
        minguo = table("calendarEras")["roc"][1]
        return (1, y - 1911, m, d) if days >= minguo else (0, 1912 - y, m, d)
    starts, first = _japanese()
    era = bisect.bisect_right(starts, days)
    return era, y - first[era] + 1, m, d
