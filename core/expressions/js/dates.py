"""JavaScript ``Date``: time values, local time in node's zone, the string forms node 20
prints, ``Date.parse`` (V8's ISO parser, then its legacy fallback for the common forms) and
``Date.UTC``.

The arithmetic is ECMAScript's (Day, MakeDay, MakeTime, TimeClip over integer milliseconds),
so years beyond Python's ``datetime`` range still work. Local time is node's: the zone named by
``TZ`` (read through ``zoneinfo``), else UTC. "Now" is the evaluation's clock
(``flowctx_core.base.clock``), never read behind the author's back.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from flowctx_core.base import clock
from flowctx_core.expressions.js.common import LENT, Unsupported
from flowctx_core.expressions.js.dateparser import parse_date
from flowctx_core.expressions.js.values import (
    GENERIC,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    enumerable_props,
    to_number,
    to_primitive,
    to_string,
    typeof,
)

if TYPE_CHECKING:  # zoneinfo comes with the first local-time reading in a zone other than UTC
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

MS_PER_DAY: Final = 86_400_000
MAX_TIME: Final = 8.64e15
_DAYS: Final = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS: Final = (
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
)  # fmt: skip


# ICU's long names (en-US) node 20 prints in toString() for the zones measured; another zone's
# toString is refused rather than guessed.
@functools.cache
def _zone_names() -> dict[str, list[str]]:
    """Each zone's long names in toString, standard and daylight, by the flag ``_daylight``
    reads (datezonenames.json, measured by scripts/date_zone_names.py: the zones whose name
    that flag does not decide, Dublin's or Casablanca's, are not in it)."""
    from importlib import resources

    text = resources.files(__package__).joinpath("datezonenames.json").read_text("utf-8")
    names: dict[str, list[str]] = json.loads(text)
    return names


_UTC_NAMES: Final = ["Coordinated Universal Time", "Coordinated Universal Time"]


# --- the zone -------------------------------------------------------------------------------


def zone_name() -> str:
    """node's zone: ``TZ`` when set (a leading ':' is dropped, as glibc does), else UTC."""
    raw = os.environ.get("TZ")
    if raw is None:
        return "UTC"
    # set empty, ICU's zone is unknown (offset 0, named GMT+00:00), not UTC
    return raw.lstrip(":") if raw != ":" else "UTC"


#: TZ values ICU takes for an unknown zone at offset 0: its toString names it GMT+00:00 and
#: Intl reports no zone (measured: TZ=UTC0, TZ set empty)
_UNKNOWN_AT_ZERO: Final = ("UTC0", "")


@functools.lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo | None:
    if name in ("UTC", "Etc/UTC", "GMT") or name in _UNKNOWN_AT_ZERO:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        # node's ICU reads another TZ as a POSIX rule (EST5 is at -5:00, named GMT-05:00) or
        # through the host's own zone files (<+03>-3 is UTC there): not UTC
        raise Unsupported(f"flowctx does not reproduce node's time zone TZ={name!r}") from None


@functools.cache
def _epoch() -> datetime:
    """1970-01-01 UTC; datetime (and zoneinfo) come with the first zone other than UTC."""
    from datetime import UTC, datetime

    return datetime(1970, 1, 1, tzinfo=UTC)


def _timedelta(milliseconds: float) -> timedelta:
    from datetime import timedelta

    return timedelta(milliseconds=milliseconds)


_PY_MIN: Final = -62135596800000 + MS_PER_DAY  # datetime's range, a day inside
_PY_MAX: Final = 253402300799000 - MS_PER_DAY
_CYCLE: Final = 146_097 * MS_PER_DAY  # 400 Gregorian years, a whole number of weeks


def _in_range(t: float) -> float:
    """``t`` where datetime reaches it: before year 1 the zone's first offset holds (its
    local mean time), past 9999 its last rule repeats with the calendar every 400 years, as
    ICU applies it (New York is at -4:00 in September 275760)."""
    if t > _PY_MAX:
        t -= math.ceil((t - _PY_MAX) / _CYCLE) * _CYCLE
    return max(t, _PY_MIN)


def offset_ms(t: float) -> int:
    """LocalTZA(t, true): the zone's offset at UTC instant ``t``."""
    zone = _zone(zone_name())
    if zone is None or t != t:  # NaN stays NaN whatever the offset
        return 0
    stamp = _epoch() + _timedelta(milliseconds=_in_range(t))
    off = stamp.astimezone(zone).utcoffset()
    return int(off.total_seconds() * 1000) if off is not None else 0


def _offset_local(t_local: float) -> int:
    """LocalTZA(t, false): the offset for wall time ``t_local`` (a gap or a repeated hour
    takes the offset before the transition, as the specification says)."""
    zone = _zone(zone_name())
    if zone is None or t_local != t_local:  # a set... of NaN fields: NaN, not an offset
        return 0
    wall = (_epoch() + _timedelta(milliseconds=_in_range(t_local))).replace(tzinfo=None)
    off = wall.replace(tzinfo=zone, fold=0).utcoffset()
    return int(off.total_seconds() * 1000) if off is not None else 0


def local(t: float) -> float:
    return t + offset_ms(t)


def utc(t_local: float) -> float:
    return t_local - _offset_local(t_local)


# --- the specification's arithmetic ---------------------------------------------------------


def day(t: float) -> int:
    return int(t // MS_PER_DAY)


def time_within_day(t: float) -> int:
    return int(t % MS_PER_DAY)


def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of proleptic Gregorian y-m-d (m 1..12)."""
    y -= m <= 2
    era = y // 400  # floor division: the C original's adjustment is built in
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def _finite(*xs: float) -> bool:
    return all(x == x and x not in (math.inf, -math.inf) for x in xs)


def make_time(h: float, m: float, s: float, ms: float) -> float:
    if not _finite(h, m, s, ms):
        return math.nan
    return (
        math.trunc(h) * 3_600_000 + math.trunc(m) * 60_000 + math.trunc(s) * 1000 + math.trunc(ms)
    )


def make_day(year: float, month: float, date: float) -> float:
    if not _finite(year, month, date):
        return math.nan
    y, m, d = math.trunc(year), math.trunc(month), math.trunc(date)
    ym = y + m // 12
    mn = m % 12
    if abs(ym) > 400_000:
        return math.nan
    return days_from_civil(int(ym), int(mn) + 1, 1) + d - 1


def make_date(day_: float, time_: float) -> float:
    if not _finite(day_, time_):
        return math.nan
    tv = day_ * MS_PER_DAY + time_
    return tv if abs(tv) <= 1.8e16 else math.nan


def time_clip(t: float) -> float:
    if not _finite(t) or abs(t) > MAX_TIME:
        return math.nan
    return float(math.trunc(t)) + 0.0


def _fields(t: float) -> tuple[int, int, int, int, int, int, int, int]:
    """year, month (0-11), date, hours, minutes, seconds, ms, weekday of time value t."""
    d = day(t)
    y, m, dd = civil_from_days(d)
    within = time_within_day(t)
    return (
        y, m - 1, dd, within // 3_600_000, within // 60_000 % 60, within // 1000 % 60,
        within % 1000, (d + 4) % 7,
    )  # fmt: skip


# --- the Date object ------------------------------------------------------------------------


def _number(t: float) -> int | float:
    return int(t) if t == t else math.nan


class JsDate(JsObject):
    __slots__ = ("props", "tv")

    def __init__(self, tv: float) -> None:
        self.tv = time_clip(tv)
        self.props: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return "Invalid Date" if self.tv != self.tv else iso_string(self.tv)

    def js_primitive(self, hint: str = "default") -> Any:
        if hint == "number":
            return _number(self.tv)
        return date_string(self.tv)

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        method = DATE_METHODS.get(key)
        if method is not None:
            name = "toUTCString" if key == "toGMTString" else key  # one function, two keys
            bound = JsFunction(
                name,
                functools.partial(_call_method, key, self),
                arity=_arity(key),
                ident=f"Date.prototype.{name}",
            )
            # a prototype's method: called without this Date (detached, as a callback), it
            # checks the receiver it is given
            bound.method, bound.receiver = _call_method, self
            return bound
        from flowctx_core.expressions.js.regexp import _object_proto

        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if self.props is None:
            self.props = {}
        self.props[key] = value

    def js_owns(self, key: str) -> bool:
        return bool(self.props and key in self.props)  # a Date's time is internal

    def js_has(self, key: str) -> bool:
        return self.js_owns(key) or self.js_get(key) is not UNDEFINED

    def js_keys(self) -> list[str]:
        return enumerable_props(self.props)

    def js_json(self) -> Any:
        if self.props:
            # Date.prototype.toJSON converts through ToPrimitive(number) first (its own
            # toString, valueOf or Symbol.toPrimitive then run)
            tv = GENERIC["to_primitive"](self, "number", True)
            if type(tv) in (int, float) and not math.isfinite(tv):
                return None
            if "toISOString" in self.props:  # then Invoke(this, "toISOString"): its own one
                method = self.props["toISOString"]
                if type(method) is not JsFunction:
                    raise JsError("toISOString is not a function")
                return method.fn()  # a function the condition made: it reads no this
            return iso_string(self.tv)  # then toISOString: a RangeError for an invalid date
        return None if self.tv != self.tv else iso_string(self.tv)


def _arity(key: str) -> int:
    if key.startswith("set") and key not in ("setTime", "setYear"):
        for part, n in (("FullYear", 3), ("Hours", 4), ("Minutes", 3), ("Seconds", 2)):
            if part in key:
                return n
        if "Month" in key:
            return 2
        return 1
    return 1 if key in ("setTime", "setYear", "toJSON") else 0


def _call_method(name: str, this: Any, *args: Any) -> Any:
    if not isinstance(this, JsDate):
        raise JsError("this is not a Date object.")
    return DATE_METHODS[name](this, *args)


# --- strings --------------------------------------------------------------------------------


def _year_text(y: int) -> str:
    return f"-{-y:04d}" if y < 0 else f"{y:04d}"


def iso_string(t: float) -> str:
    if t != t:
        raise JsError("Invalid time value")
    y, mo, d, h, mi, s, ms, _ = _fields(t)
    year = f"{'+' if y > 0 else '-'}{abs(y):06d}" if not 0 <= y <= 9999 else f"{y:04d}"
    return f"{year}-{mo + 1:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{ms:03d}Z"


def _offset_minutes(t: float) -> int:
    """The zone's offset at ``t`` in whole minutes, cut toward zero as V8 divides: an offset
    with seconds (New York's -4:56:02 before 1883) is 296 minutes behind, GMT-0456."""
    return int(offset_ms(t) / 60_000)


def _equivalent_time(t: float) -> float:
    """``t`` moved into a year from 2008 to 2037 that starts on the same weekday and is as
    leap: V8 reads whether daylight saving time applies there for an instant before 1970 or
    past 2038 (so its toString names June 1900 in New York Eastern Daylight Time, at -5:00)."""
    d = day(t)
    y, m, dd = civil_from_days(d)
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    week_day = (days_from_civil(y, 1, 1) + 4) % 7
    recent = (1956 if leap else 1967) + (week_day * 12) % 28
    year = 2008 + (recent + 3 * 28 - 2008) % 28
    return days_from_civil(year, m, dd) * MS_PER_DAY + time_within_day(t)


def _daylight(t: float) -> bool:
    """Whether daylight saving time applies at ``t`` by the zone's rules, as V8 asks before
    choosing the zone's standard or daylight name (in its equivalent year outside 1970 to
    2038)."""
    zone = _zone(zone_name())
    if zone is None:
        return False
    if not 0 <= t <= (2**31 - 1) * 1000:
        t = _equivalent_time(t)
    saving = (_epoch() + _timedelta(milliseconds=t)).astimezone(zone).dst()
    return bool(saving)


def _zone_text(t: float) -> str:
    off = _offset_minutes(t)
    sign = "+" if off >= 0 else "-"
    text = f"GMT{sign}{abs(off) // 60:02d}{abs(off) % 60:02d}"
    name = zone_name()
    from flowctx_core.expressions.js.intl.locales import DEFAULT, default_locale

    if default_locale() != DEFAULT:
        # ICU names the zone in node's default locale (LANG=de_DE.UTF-8: Mitteleuropäische
        # Normalzeit); the names measured are en-US's
        raise Unsupported(
            f"flowctx does not reproduce the zone's name node prints in its default locale"
            f" {default_locale()}"
        )
    names = _zone_names().get(name)
    if name in _UNKNOWN_AT_ZERO:
        names = ["GMT+00:00", "GMT+00:00"]
    elif names is None:
        if _zone(name) is None:
            names = _UTC_NAMES
        else:
            raise Unsupported(
                f"flowctx does not reproduce the long name node prints for the zone {name}"
            )
    # the zone's daylight saving flag decides, not the offsets around the date (which took
    # 31 March in New York, daylight time between two daylight dates, for standard time)
    return f"{text} ({names[1] if _daylight(t) else names[0]})"


def _date_part(t_local: float) -> str:
    y, mo, d, *_, wd = _fields(t_local)
    return f"{_DAYS[wd]} {_MONTHS[mo]} {d:02d} {_year_text(y)}"


def _time_part(t: float, t_local: float) -> str:
    _, _, _, h, mi, s, _, _ = _fields(t_local)
    return f"{h:02d}:{mi:02d}:{s:02d} {_zone_text(t)}"


def date_string(t: float) -> str:
    if t != t:
        return "Invalid Date"
    tl = local(t)
    return f"{_date_part(tl)} {_time_part(t, tl)}"


def utc_string(t: float) -> str:
    if t != t:
        return "Invalid Date"
    y, mo, d, h, mi, s, _, wd = _fields(t)
    return f"{_DAYS[wd]}, {d:02d} {_MONTHS[mo]} {_year_text(y)} {h:02d}:{mi:02d}:{s:02d} GMT"


def _locale_date(t_local: float) -> str:
    y, mo, d, *_ = _fields(t_local)
    return f"{mo + 1}/{d}/{y if y > 0 else f'{1 - y}'}"


def _locale_time(t_local: float) -> str:
    _, _, _, h, mi, s, _, _ = _fields(t_local)
    # node 20's ICU data puts a plain space before AM/PM (measured with node 20.20)
    return f"{(h % 12) or 12}:{mi:02d}:{s:02d} {'AM' if h < 12 else 'PM'}"


def _environment_locale() -> str:
    """node's default locale (LANG=de_DE.UTF-8 makes it de-DE), which Intl formats by."""
    from flowctx_core.expressions.js.intl.locales import default_locale

    return default_locale()


_LOCALE_NAMES: Final = {
    "both": "toLocaleString", "date": "toLocaleDateString", "time": "toLocaleTimeString",
}  # fmt: skip


def _locale(kind: str) -> Callable[..., str]:
    def call(d: JsDate, locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> str:
        if locales == "" and d.tv == d.tv:  # an invalid date is "Invalid Date" before all
            from flowctx_core.expressions.js.intl.locales import refuse_cached_empty

            refuse_cached_empty(locales, options, f"Date.prototype.{_LOCALE_NAMES[kind]}")
        if (
            not (locales is UNDEFINED or locales == "en-US")
            or options is not UNDEFINED
            or (locales is UNDEFINED and _environment_locale() != "en-US")
        ):
            from flowctx_core.expressions.js import intl

            text: str = intl.service("datetimeformat").to_locale(d.tv, kind, locales, options)
            return text
        t = d.tv
        if t != t:
            return "Invalid Date"
        tl = local(t)
        if kind == "date":
            return _locale_date(tl)
        if kind == "time":
            return _locale_time(tl)
        return f"{_locale_date(tl)}, {_locale_time(tl)}"

    return call


# --- getters and setters --------------------------------------------------------------------

_FIELD_INDEX: Final = {
    "FullYear": 0, "Month": 1, "Date": 2, "Hours": 3, "Minutes": 4, "Seconds": 5,
    "Milliseconds": 6, "Day": 7,
}  # fmt: skip


def _getter(field: str, utc_: bool) -> Callable[..., Any]:
    index = _FIELD_INDEX[field]

    def get(d: JsDate, *_: Any) -> Any:
        t = d.tv
        if t != t:
            return math.nan
        return _fields(t if utc_ else local(t))[index]

    return get


def _args(args: tuple[Any, ...], n: int) -> list[float | None]:
    out: list[float | None] = []
    for i in range(n):
        out.append(float(to_number(args[i])) if i < len(args) else None)
    return out


def _setter(first: str, count: int, utc_: bool) -> Callable[..., Any]:
    """setFullYear(y, m, d), setMonth(m, d), setDate(d), setHours(h, m, s, ms)..."""
    order = ["FullYear", "Month", "Date"] if first in ("FullYear", "Month", "Date") else [
        "Hours", "Minutes", "Seconds", "Milliseconds"
    ]  # fmt: skip
    start = order.index(first)

    def set_(d: JsDate, *args: Any) -> Any:
        given = _args(args, count)
        if not args:
            given[0] = math.nan
        t = d.tv
        if t != t:
            if first != "FullYear":
                return math.nan
            t = 0.0
        else:
            t = t if utc_ else local(t)
        y, mo, dd, h, mi, s, ms, _ = _fields(t)
        values: dict[str, float] = {
            "FullYear": y, "Month": mo, "Date": dd, "Hours": h, "Minutes": mi, "Seconds": s,
            "Milliseconds": ms,
        }  # fmt: skip
        for i, value in enumerate(given):
            if value is not None:
                values[order[start + i]] = value
        new = make_date(
            make_day(values["FullYear"], values["Month"], values["Date"]),
            make_time(
                values["Hours"], values["Minutes"], values["Seconds"], values["Milliseconds"]
            ),
        )
        d.tv = time_clip(new if utc_ else utc(new))
        return _number(d.tv)

    return set_


def _set_time(d: JsDate, t: Any = UNDEFINED, *_: Any) -> Any:
    d.tv = time_clip(float(to_number(t)))
    return _number(d.tv)


def _set_year(d: JsDate, y: Any = UNDEFINED, *_: Any) -> Any:
    year = float(to_number(y))
    if not _finite(year):
        d.tv = math.nan
        return math.nan
    yi = math.trunc(year)
    if 0 <= yi <= 99:
        yi += 1900
    t = 0.0 if d.tv != d.tv else local(d.tv)
    fields = _fields(t)
    mo, dd = fields[1], fields[2]
    new = make_date(make_day(yi, mo, dd), time_within_day(t))
    d.tv = time_clip(utc(new))
    return _number(d.tv)


def _get_year(d: JsDate, *_: Any) -> Any:
    return math.nan if d.tv != d.tv else _fields(local(d.tv))[0] - 1900


def _timezone_offset(d: JsDate, *_: Any) -> Any:
    if d.tv != d.tv:
        return math.nan
    return -_offset_minutes(d.tv) + 0  # whole minutes, as V8 divides (never -0)


def _to_json(d: JsDate, *_: Any) -> Any:
    return d.js_json()


DATE_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "getTime": lambda d, *_: _number(d.tv),
    "valueOf": lambda d, *_: _number(d.tv),
    "getYear": _get_year,
    "setYear": _set_year,
    "getTimezoneOffset": _timezone_offset,
    "setTime": _set_time,
    "toISOString": lambda d, *_: iso_string(d.tv),
    "toJSON": _to_json,
    "toString": lambda d, *_: date_string(d.tv),
    "toDateString": lambda d, *_: "Invalid Date" if d.tv != d.tv else _date_part(local(d.tv)),
    "toTimeString": lambda d, *_: "Invalid Date" if d.tv != d.tv else _time_part(d.tv, local(d.tv)),
    "toUTCString": lambda d, *_: utc_string(d.tv),
    "toGMTString": lambda d, *_: utc_string(d.tv),
    "toLocaleString": _locale("both"),
    "toLocaleDateString": _locale("date"),
    "toLocaleTimeString": _locale("time"),
}
for _field in _FIELD_INDEX:
    DATE_METHODS[f"get{_field}"] = _getter(_field, False)
    DATE_METHODS[f"getUTC{_field}"] = _getter(_field, True)
for _first, _count in (
    ("FullYear", 3), ("Month", 2), ("Date", 1), ("Hours", 4), ("Minutes", 3), ("Seconds", 2),
    ("Milliseconds", 1),
):  # fmt: skip
    DATE_METHODS[f"set{_first}"] = _setter(_first, _count, False)
    DATE_METHODS[f"setUTC{_first}"] = _setter(_first, _count, True)


# --- Date.parse -----------------------------------------------------------------------------


@functools.cache
def _compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """The parsers' expressions, compiled on the first Date.parse (1 ms of a cold start)."""
    return re.compile(source, flags)


_ISO_DATE: Final = (
    r"(?P<y>[+-]\d{6}|\d{4})(?:-(?P<m>\d\d)(?:-(?P<d>\d\d))?)?"
    r"(?:T(?P<H>\d\d):(?P<M>\d\d)(?::(?P<S>\d\d)(?:\.(?P<f>\d+))?)?"
    # +hhmm is not ES5's form, but V8's legacy parser reads it after a valid ISO time
    r"(?P<z>Z|[+-]\d\d:\d\d|[+-]\d{4})?)?"
)


def _parse_iso(s: str) -> float | None:
    """V8's ES5 ISO parser; None when the text is not of that form (the legacy parser then
    tries). Out-of-range fields make NaN, as in V8."""
    m = _compiled(_ISO_DATE, re.ASCII).fullmatch(s)
    if m is None:
        return None
    g = m.groupdict()
    if g["y"] == "-000000":
        return None
    y = int(g["y"])
    mo = int(g["m"] or 1)
    d = int(g["d"] or 1)
    h, mi, sec = int(g["H"] or 0), int(g["M"] or 0), int(g["S"] or 0)
    ms = int((g["f"] or "0")[:3].ljust(3, "0"))
    if not (1 <= mo <= 12 and 1 <= d <= 31 and mi <= 59 and sec <= 59):
        return math.nan
    if h > 24 or (h == 24 and (mi or sec or ms)):
        return math.nan
    t = make_date(make_day(y, mo - 1, d), make_time(h, mi, sec, ms))
    zone = g["z"]
    if zone is None:
        if g["H"] is None:
            return time_clip(t)  # a date-only form is UTC
        return time_clip(utc(t))
    if zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:])
        if hours > 23 or minutes > 59:
            return math.nan  # an ISO offset past 23:59 makes the whole text invalid in V8
        t -= sign * (hours * 60 + minutes) * 60_000
    return time_clip(t)


def parse(text: str) -> float:
    """``Date.parse``: the ES5 ISO forms, else V8's whole date parser (``dateparser``)."""
    iso = _parse_iso(text)
    if iso is not None:
        return iso
    return parse_date(text, make_day, make_time, utc)


# --- the constructor and its members ---------------------------------------------------------


def construct(*args: Any) -> JsDate:
    if not args:
        return JsDate(clock.now_ms())
    if len(args) == 1:
        v = args[0]
        if isinstance(v, JsDate):
            return JsDate(v.tv)
        if typeof(v) == "bigint":  # a primitive, not a string: ToNumber throws
            raise JsError("Cannot convert a BigInt value to a number")
        p = to_primitive(v)
        if type(p) is str:
            return JsDate(parse(p))
        return JsDate(float(to_number(p)))
    return JsDate(utc(_from_fields(args)))


def _from_fields(args: tuple[Any, ...]) -> float:
    nums = [float(to_number(a)) for a in args[:7]]
    y = nums[0]
    m = nums[1]
    d = nums[2] if len(nums) > 2 else 1.0
    h = nums[3] if len(nums) > 3 else 0.0
    mi = nums[4] if len(nums) > 4 else 0.0
    s = nums[5] if len(nums) > 5 else 0.0
    ms = nums[6] if len(nums) > 6 else 0.0
    if _finite(y) and 0 <= math.trunc(y) <= 99:
        y = 1900 + math.trunc(y)
    return make_date(make_day(y, m, d), make_time(h, mi, s, ms))


def call_date(*_: Any) -> str:
    """``Date()`` called as a function: now, as a string; its arguments are ignored."""
    return date_string(float(clock.now_ms()))


def date_now(*_: Any) -> int:
    return clock.now_ms()


def date_parse(text: Any = UNDEFINED, *_: Any) -> int | float:
    return _number(parse(to_string(text)))


def date_utc(*args: Any) -> int | float:
    if not args:
        return math.nan
    padded = args if len(args) > 1 else (args[0], 0)
    return _number(time_clip(_from_fields(padded)))


LENT["JsDate"] = JsDate
