"""The calendars other than the Gregorian that ``Intl.DateTimeFormat`` reproduces, as ICU
counts them in node 20: the Japanese (ICU's Julian dates before 1582-10-15, the era from the
Japanese eras' start days, node's own, counted from 645 before the first), the Buddhist (the
same dates, years from 543 BC), the Republic of China's (the same, before and from 1912), the
ISO 8601 one (the same dates, nameless eras), the Persian (the 33-year arithmetic rule, with
the years whose first day ICU puts a day earlier, measured), the two tabular Islamic ones (30-year
cycles from 16 July 622, the civil, or the day before, the astronomical epoch's), the
astronomical Islamic one (islamic, and islamic-rgsa, which ICU counts alike) and the Umm
al-Qura's from their months measured (scripts/intl_calendar_months.mjs; the astronomical one in
the Islamic years -1000 to 3000 only, the Umm al-Qura's the civil calendar's outside its table),
the Hebrew (the molad of Tishri and its postponements, with ICU's integer arithmetic before its
first year), the Coptic and Ethiopic ones (twelve months of 30 days and a thirteenth of five or
six, from 29 August 284 and 27 August 8, Julian; the Ethiopic years before its first counted from
5493 BC, the Amete Alem's always) and the Indian national one (Saka years from the Gregorian's
22 March, 78 years on). Each gives an era index, a year, a month (0-11; 0-12 where there are
thirteen, the Hebrew Adar II 13) and a day, which the measured rows of scripts/intl_calendars.mjs
and intl_calendar_parts.mjs name. The Chinese and Korean (dangi) calendars' months are measured
(scripts/intl_chinese_months.mjs: ICU finds them astronomically, at China's and Korea's
meridians) for the years related to the Gregorian -3000 to 3500, refused outside; their era is
the sexagenary cycle's number, their year its place in it, their months 0-11 and the leap ones
12-23."""

from __future__ import annotations

import bisect
import functools
import math
from typing import Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table

#: the calendars whose fields this module counts and whose patterns tables/calendars holds
CALENDARS: Final = frozenset((
    "japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla", "coptic",
    "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura",
    "iso8601", "chinese", "dangi",
))  # fmt: skip
#: the calendars of months measured from new moons, with leap months (their names 12-23)
LUNISOLAR: Final = frozenset(("chinese", "dangi"))
#: the Chinese years before the related Gregorian year 1 (the cycles count from 2637 BC)
_CHINESE_EPOCH: Final = 2636
#: the Julian day numbers before the first days of the Coptic and Ethiopic calendars
_COPTIC_EPOCH: Final = 1824665
_ETHIOPIC_EPOCH: Final = 1723856
_AMETE_ALEM: Final = 5500  # the Ethiopic years before its first, counted from 5493 BC
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


def _thirteen_months(days: int, epoch: int) -> tuple[int, int, int]:
    """The year, month (0-12) and day of a calendar of twelve 30-day months and five or six
    days more, in four-year cycles from the Julian day number ``epoch``."""
    cycle, rest = divmod(days + 2440588 - epoch, 1461)
    year = 4 * cycle + rest // 365 - rest // 1460
    in_year = 365 if rest == 1460 else rest % 365
    return year, in_year // 30, in_year % 30 + 1


def _gregorian_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _indian(days: int) -> tuple[int, int, int]:
    """The Saka year, month (0-11) and day: Chaitra, 30 days (31 in a Gregorian leap year),
    from the Gregorian's 22 March (21 in a leap year), five months of 31 days, six of 30."""
    from flowctx_core.expressions.js import dates

    g_year = dates.civil_from_days(days)[0]
    in_year = days - dates.days_from_civil(g_year, 1, 1)
    year = g_year - 78
    if in_year < 80:
        year -= 1
        first = 31 if _gregorian_leap(g_year - 1) else 30
        in_year += first + 31 * 5 + 30 * 3 + 10
    else:
        first = 31 if _gregorian_leap(g_year) else 30
        in_year -= 80
    if in_year < first:
        return year, 0, in_year + 1
    in_year -= first
    if in_year < 31 * 5:
        return year, in_year // 31 + 1, in_year % 31 + 1
    in_year -= 31 * 5
    return year, in_year // 30 + 6, in_year % 30 + 1


_HOUR_PARTS: Final = 1080
_DAY_PARTS: Final = 24 * _HOUR_PARTS
_MONTH_PARTS: Final = 29 * _DAY_PARTS + 13753  # the mean lunar month, in parts of an hour
#: the Hebrew months' lengths (Tishri to Elul, Adar I sixth) in a deficient, regular and
#: complete year
_HEBREW_MONTHS: Final = ((30, 30, 30), (29, 29, 30), (29, 30, 30), (29, 29, 29), (30, 30, 30),
                         (30, 30, 30), (29, 29, 29), (30, 30, 30), (29, 29, 29), (30, 30, 30),
                         (29, 29, 29), (30, 30, 30), (29, 29, 29))  # fmt: skip


def _c_div(a: int, b: int) -> int:
    """C's integer division (towards zero), as ICU counts the years before the first."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _c_mod(a: int, b: int) -> int:
    return a - b * _c_div(a, b)


def hebrew_leap(year: int) -> bool:
    """Whether a Hebrew year has thirteen months (7 of every 19; ICU's remainders in C)."""
    x = _c_mod(year * 12 + 17, 19)
    return x >= (-7 if x < 0 else 12)


@functools.lru_cache(maxsize=4096)
def _hebrew_start(year: int) -> int:
    """The first day of a Hebrew year, in days after the calendar's epoch's day before: the
    molad of Tishri, postponed by the four rules of the arithmetic calendar."""
    months = (235 * year - 234) // 19  # floored; the parts and weekdays with C's remainders
    frac = months * 13753 + 11 * _HOUR_PARTS + 204
    day = months * 29 + _c_div(frac, _DAY_PARTS)
    frac = _c_mod(frac, _DAY_PARTS)
    wd = _c_mod(day, 7)  # 0: Monday
    if wd in (2, 4, 6):  # never on a Sunday, Wednesday or Friday
        day += 1
    elif wd == 1 and frac > 15 * _HOUR_PARTS + 204 and not hebrew_leap(year):
        day += 2
    elif wd == 0 and frac > 21 * _HOUR_PARTS + 589 and hebrew_leap(year - 1):
        day += 1
    return int(day)


def _hebrew(days: int) -> tuple[int, int, int]:
    """The Hebrew year, month (0-12, Tishri first, Adar I the sixth, in leap years only) and
    day, as ICU finds them (a year of another length than the six is counted as a regular
    one)."""
    d = days + 2440588 - 347997
    year = (19 * ((d * _DAY_PARTS) // _MONTH_PARTS) + 234) // 235 + 1
    in_year = d - _hebrew_start(year)
    while in_year < 1:
        year -= 1
        in_year = d - _hebrew_start(year)
    length = _hebrew_start(year + 1) - _hebrew_start(year)
    length = length - 30 if length > 380 else length
    kind = length - 353 if 353 <= length <= 355 else 1
    leap = hebrew_leap(year)
    start = 0
    for month, lengths in enumerate(_HEBREW_MONTHS):
        if month == 5 and not leap:
            continue
        if in_year <= start + lengths[kind]:
            return year, month, in_year - start
        start += lengths[kind]
    raise Unsupported(f"flowctx does not reproduce the Hebrew year {year}'s last days")


@functools.cache
def _month_starts(calendar: str) -> tuple[list[int], int]:
    """The first days of a span of an Islamic calendar's months (scripts/intl_calendar_months
    .mjs), and the number of months before the span's first since 1 Muharram 1."""
    span = table("calendarMonthSpans")[calendar]
    starts = [span["first"]]
    for long in span["lengths"]:
        starts.append(starts[-1] + (30 if long == "1" else 29))
    return starts, (span["year"] - 1) * 12 + span["month"] - 1


def _measured_islamic(days: int, calendar: str) -> tuple[int, int, int]:
    """The astronomical Islamic calendar's fields (islamic and islamic-rgsa, which ICU counts
    alike) in the span of years measured, the Umm al-Qura's in its table's (the civil
    calendar's outside it)."""
    starts, before = _month_starts("islamic" if calendar == "islamic-rgsa" else calendar)
    if not starts[0] <= days < starts[-1]:
        if calendar == "islamic-umalqura":
            return _islamic(days, 1948440)
        raise Unsupported(
            f"flowctx does not reproduce the {calendar} calendar's dates outside the Islamic "
            "years -1000 to 3000"
        )
    at = bisect.bisect_right(starts, days) - 1
    year, month = divmod(before + at, 12)
    return year + 1, month, days - starts[at] + 1


@functools.cache
def _lunisolar_months(calendar: str) -> tuple[list[int], list[int], list[int]]:
    """The first days of the Chinese or dangi months measured, and each one's month (0-11, its
    leap one 12-23) and related Gregorian year; the last start is the span's end."""
    found = table("chineseMonths")
    span = found["chinese"]
    codes = list(span["months"])
    if calendar == "dangi":
        for at, code in found["dangi"]:
            codes[at] = str(code)
    starts, months, related = [span["first"]], [], []
    month, year = -1, span["related"]
    for code in codes:
        leap = code in "23"
        if not leap:
            month += 1
            if month == 12:
                month, year = 0, year + 1
        months.append(month + 12 if leap else month)
        related.append(year)
        starts.append(starts[-1] + (30 if code in "13" else 29))
    return starts, months, related


def _lunisolar(days: int, calendar: str) -> tuple[int, int, int, int]:
    starts, months, related = _lunisolar_months(calendar)
    if not starts[0] <= days < starts[-1]:
        raise Unsupported(
            f"flowctx does not reproduce the {calendar} calendar's dates outside the years "
            f"related to the Gregorian {related[0]} to {related[-1]}"
        )
    at = bisect.bisect_right(starts, days) - 1
    era, year = divmod(related[at] + _CHINESE_EPOCH, 60)
    return era + 1, year + 1, months[at], days - starts[at] + 1


def related_year(era: int, year: int) -> int:
    """The Gregorian year a Chinese or dangi year (its cycle and place) is related to."""
    return (era - 1) * 60 + year - 1 - _CHINESE_EPOCH


def month_number(calendar: str, year: int, month: int, named: bool = False) -> int:
    """A month's number as ICU writes it: the Hebrew year's months counted without Adar I
    where the year has none (Adar is the sixth, Nisan the seventh; Adar II the seventh); a
    name that is a number (a narrow one) is the month's place, Adar I's kept, Adar II's the
    seventh."""
    if calendar in LUNISOLAR:
        return month % 12 + 1
    if calendar != "hebrew":
        return month + 1
    if month == 13:
        return 7
    return month + 1 if named or hebrew_leap(year) or month < 6 else month


def fields(calendar: str, t_local: float) -> tuple[int, int, int, int]:
    """The era index, year, month (0-11) and day of a local time in one of ``CALENDARS`` (the
    Chinese calendars': the cycle, its year, the month 0-23 and the day)."""
    days = math.floor(t_local / _MS_PER_DAY)
    if calendar in LUNISOLAR:
        return _lunisolar(days, calendar)
    if calendar == "persian":
        y, m, d = _persian(days)
        return 0, y, m, d
    if calendar == "coptic":
        y, m, d = _thirteen_months(days, _COPTIC_EPOCH)
        return (1, y, m, d) if y > 0 else (0, 1 - y, m, d)
    if calendar in ("ethiopic", "ethioaa"):
        y, m, d = _thirteen_months(days, _ETHIOPIC_EPOCH)
        return (1, y, m, d) if y > 0 and calendar == "ethiopic" else (0, y + _AMETE_ALEM, m, d)
    if calendar == "hebrew":  # Adar of a leap year is Adar II, its names the 14th
        y, m, d = _hebrew(days)
        return 0, y, 13 if m == 6 and hebrew_leap(y) else m, d
    if calendar == "indian":
        y, m, d = _indian(days)
        return 0, y, m, d
    if calendar in ("islamic", "islamic-rgsa", "islamic-umalqura"):
        y, m, d = _measured_islamic(days, calendar)
        return 0, y, m, d
    if calendar.startswith("islamic"):
        y, m, d = _islamic(days, 1948440 if calendar == "islamic-civil" else 1948439)
        return 0, y, m, d
    y, m, d = julian_or_gregorian(days)
    if calendar == "iso8601":  # ICU's hybrid calendar; its eras have no names (one measured)
        return 0, y if y > 0 else 1 - y, m, d
    if calendar == "buddhist":
        return 0, y + 543, m, d
    if calendar == "roc":
        minguo = table("calendarEras")["roc"][1]
        return (1, y - 1911, m, d) if days >= minguo else (0, 1912 - y, m, d)
    starts, first = _japanese()
    era = bisect.bisect_right(starts, days)
    return era, y - first[era] + 1, m, d
