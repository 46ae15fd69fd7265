"""``Intl.DateTimeFormat`` and ``Date.prototype.toLocale{,Date,Time}String(locales)`` as node 20
answers them for every locale node has: each option set's pattern, names, digits, hour cycle
and resolved options measured from node (scripts/intl_data.mjs, intl_date_parts.mjs,
intl_calendars.mjs), in node's zone (``TZ``) or the ``timeZone`` option (any zone ICU knows,
its offsets ICU's own: ``zones``). A set of date and
time components in the Gregorian calendar is its date's pattern and its time's joined as ICU's
pattern generator joins them (by the date's month), where node has no pattern of its own for
it; the Japanese, Persian, Buddhist and ROC calendars count their fields in ``calendars``.
Refused: the other calendars, ``dayPeriod``, ``fractionalSecondDigits``, ``timeZoneName``, the
names of zones other than UTC. Gregorian dates are
proleptic, as V8 sets ICU's calendar, before 1582 too."""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import calendars, zones
from flowctx_core.expressions.js.intl.data import calendar_parts, inherited, table
from flowctx_core.expressions.js.intl.locales import (
    CALENDAR_ALIASES,
    canonical_list,
    resolve_keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option, read
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    to_number,
    to_string,
    truthy,
)

SERVICE: Final = "Intl.DateTimeFormat"
_COMPONENTS: Final = (
    ("weekday", ("narrow", "short", "long")),
    ("era", ("narrow", "short", "long")),
    ("year", ("2-digit", "numeric")),
    ("month", ("2-digit", "numeric", "narrow", "short", "long")),
    ("day", ("2-digit", "numeric")),
    ("dayPeriod", ("narrow", "short", "long")),
    ("hour", ("2-digit", "numeric")),
    ("minute", ("2-digit", "numeric")),
    ("second", ("2-digit", "numeric")),
)
_STYLES: Final = ("full", "long", "medium", "short")
_NAMED: Final = ("narrow", "short", "long")
#: the letters V8 reads as fields in a pattern, its words' too; those of the fields the tables'
#: resolved options leave out (fractionalSecondDigits, timeZoneName)
_PATTERN_LETTERS: Final = frozenset("GyMLEcdhHkKmsSzvVOabBjJC")
_UNREAD: Final = frozenset("SzvVO")
_WELL_FORMED: Final = re.compile(r"[a-zA-Z0-9]{3,8}(?:-[a-zA-Z0-9]{3,8})*\Z")
#: the calendars ICU has (Intl.supportedValuesOf("calendar"))
_CALENDARS: Final = frozenset((
    "buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew",
    "indian", "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla", "islamic-umalqura",
    "iso8601", "japanese", "persian", "roc",
))  # fmt: skip


class DateTimeFormat(IntlObject):
    tag = "DateTimeFormat"
    __slots__ = ("kind", "o", "row", "skeleton")

    def __init__(
        self,
        options: dict[str, Any],
        row: dict[str, Any],
        kind: str,
        skeleton: dict[str, Any] | None = None,
    ) -> None:
        self.o = options
        self.row = row
        self.kind = kind  # "date", "time", "both" (the default forms) or "skeleton"
        self.skeleton = skeleton

    def member(self, key: str) -> Any:
        if key == "format":
            return JsFunction("", lambda d=UNDEFINED, *_: self.format(_time(d)), arity=1)
        if key == "formatToParts":
            return JsFunction(key, lambda d=UNDEFINED, *_: self.parts_objects(_time(d)), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        if key in ("formatRange", "formatRangeToParts"):
            return JsFunction(key, _refuse_range, arity=2)
        return None

    def resolved(self) -> dict[str, Any]:
        o = self.o
        sk = self.skeleton
        if sk is not None and (sk.get("joined") or any(
            isinstance(p, str) and _UNREAD & set(p) for p in sk["t"]
        )):  # fmt: skip
            raise Unsupported(
                "flowctx does not reproduce the options V8 reads from the words of this "
                "pattern (resolvedOptions)"
            )
        out = {
            "locale": o["locale"],
            "calendar": o["calendar"],
            "numberingSystem": o["numberingSystem"],
            "timeZone": o["timeZone"],
        }
        if self.skeleton is not None:
            out.update(self.skeleton["r"])
            if o.get("hourCycle") and "hourCycle" in out:
                out["hourCycle"] = o["hourCycle"]
                out["hour12"] = o["hourCycle"] in ("h11", "h12")
            return out
        if self.kind in ("time", "both"):
            out["hourCycle"] = self.row["hc"]
            out["hour12"] = self.row["hc"] in ("h11", "h12")
        if self.kind in ("date", "both"):
            widths = {p[0]: p[1] for p in self.row["date"] if isinstance(p, list) and len(p) == 2}
            for name in ("year", "month", "day"):
                out[name] = "2-digit" if widths.get(name) == 2 else "numeric"
        if self.kind in ("time", "both"):
            two = any(p == ["hour", 2] for p in self.row["time"])
            out.update(hour="2-digit" if two else "numeric", minute="2-digit", second="2-digit")
        return out

    def _negative(self, n: int, width: int) -> str:
        """A negative year as ICU writes it: the locale's number without grouping; two digits
        keep the sign and the last two digits (-12148 is -48)."""
        from flowctx_core.expressions.js.intl import numberformat

        plain = {"numberingSystem": self.o["numberingSystem"], "useGrouping": False}
        if width != 2:
            return numberformat.construct(self.o["locale"], plain).format(n)
        one = numberformat.construct(self.o["locale"], {**plain, "minimumIntegerDigits": 2})
        digits = f"{-n % 100:02d}".translate(str.maketrans("0123456789", self.o["digits"]))
        return one.format(-1).replace(self.o["digits"][0] + self.o["digits"][1], digits)

    def format(self, t: float) -> str:
        # V8 11.3 swaps ICU's narrow no-break spaces for plain ones in format's text (not in
        # formatToParts')
        return "".join(v for _, v in self.parts(t)).replace("\u202f", " ")

    def parts_objects(self, t: float) -> list[dict[str, Any]]:
        return [{"type": k, "value": v} for k, v in self.parts(t)]

    def parts(self, t: float) -> list[tuple[str, str]]:
        from flowctx_core.expressions.js import dates

        if t != t:
            raise JsError("Invalid time value")
        zone = self.o["timeZone"]
        t_local = t + _offset(zone, t)
        y, mo, d, h, mi, s, _, _ = dates._fields(t_local)
        # V8 makes ICU's Gregorian calendar proleptic (no Julian dates before 1582); a year
        # before 1 is shown as its era's year (0 is 1 BC)
        era = 1 if y > 0 else 0
        y = y if y > 0 else 1 - y
        if self.o["calendar"] in calendars.CALENDARS:
            era, y, mo, d = calendars.fields(self.o["calendar"], t_local)
        row = self.row
        sk = self.skeleton
        hc = row["hc"] if sk is None else sk["r"].get("hourCycle", "h23")
        hc = self.o.get("hourCycle") or hc
        hour = {"h12": (h % 12) or 12, "h11": h % 12, "h23": h, "h24": h or 24}[hc]
        month = calendars.month_number(self.o["calendar"], y, mo)
        values = {"year": y, "month": month, "day": d, "hour": hour, "minute": mi, "second": s}
        table = str.maketrans("0123456789", self.o["digits"])
        out: list[tuple[str, str]] = []
        if sk is None:
            pattern = row[self.kind]
        else:
            # every pattern's year is y or yy (measured down to the year 5): never padded
            pattern = sk["tm"][mo] if sk["tm"] is not None else sk["t"]
        for piece in pattern:
            if isinstance(piece, str):
                out.append(("literal", piece))
            elif piece[0] == "a":
                out.append(("dayPeriod", row["am"] if h < 12 else row["pm"]))
            elif sk is not None and piece[1] == "t":
                name = piece[0]
                if name == "weekday":
                    out.append((name, sk["w"][dates._fields(t_local)[7]]))
                elif name == "dayPeriod":
                    out.append((name, sk["dp"][h]))
                elif name == "month":
                    out.append((name, sk["m"][mo]))
                elif name == "era":  # the Gregorian's: before the year 1 and after
                    out.append((name, sk["e"][era]))
                elif name == "timeZoneName" and zone == "UTC":
                    out.append((name, sk["z"]))
                elif name == "timeZoneName":
                    raise Unsupported(f"flowctx does not reproduce the time zone name of {zone}")
                else:
                    raise Unsupported(f"flowctx does not reproduce the {name} field")
            else:
                name, width = piece
                n = values[name]
                if n < 0:  # a year before a calendar's first, as the locale writes -5
                    out.append((name, self._negative(n, width)))
                    continue
                text = (
                    f"{n % 100:02d}"
                    if name == "year" and width == 2
                    else (f"{n:02d}" if width == 2 else str(n))
                )
                if name == "month" and sk is not None and sk["r"].get("month") in _NAMED:
                    # month names that are digits (zh's narrow ones) keep the locale's own
                    own = str.maketrans("0123456789", self.row["digits"])
                    n = calendars.month_number(self.o["calendar"], y, mo, named=True)
                    out.append((name, (f"{n:02d}" if width == 2 else str(n)).translate(own)))
                    continue
                out.append((name, text.translate(table)))
        if any(v == "" for _, v in out):
            # a name a calendar leaves empty (the ISO calendar's months and eras, the Coptic
            # era before its first year) is no part: the texts beside it are one
            merged: list[tuple[str, str]] = []
            for k, v in out:
                if v == "":
                    continue
                if k == "literal" and merged and merged[-1][0] == "literal":
                    merged[-1] = (k, merged[-1][1] + v)
                else:
                    merged.append((k, v))
            out = merged
        return out


def _offset(zone: str, t: float) -> float:
    from flowctx_core.expressions.js import dates

    if zones.known(zone):
        return zones.offset_ms(zone, t)
    return dates.offset_ms(t)  # node's own zone (TZ) where ICU's tables do not name it


def _time(value: Any) -> float:
    """The time value ``format`` reads: now for undefined, a Date's, else ToNumber."""
    from flowctx_core.expressions.js import dates

    if value is UNDEFINED:
        return float(dates.date_now())
    if isinstance(value, dates.JsDate):
        return value.tv
    x = to_number(value)
    if x != x or abs(x) > 8.64e15:
        return math.nan
    return float(math.trunc(x)) + 0.0


def _refuse_range(*_: Any) -> Any:
    raise Unsupported("flowctx does not reproduce Intl.DateTimeFormat.prototype.formatRange")


def _time_zone(value: Any) -> str:
    from flowctx_core.expressions.js import dates

    if value is UNDEFINED:
        own = dates.zone_name()
        return "UTC" if own == "UTC0" else zones.canonical(own) or own
    name = to_string(value)
    found = zones.canonical(name)
    if found is None:
        raise JsError(f"Invalid time zone specified: {name}")
    return found


_DATE_FIELDS: Final = ("weekday", "year", "month", "day")
_TIME_FIELDS: Final = ("dayPeriod", "hour", "minute", "second", "fractionalSecondDigits")
#: what ToDateTimeOptions requires and adds, for each caller
_DEFAULTS: Final = {"date": ("date", "date"), "time": ("time", "time"), "both": ("any", "all"),
                    "intl": ("any", "date")}  # fmt: skip
_DEFAULT_FORMS: Final = {
    ("day=numeric", "month=numeric", "year=numeric"): "date",
    ("hour=numeric", "minute=numeric", "second=numeric"): "time",
    ("day=numeric", "hour=numeric", "minute=numeric", "month=numeric", "second=numeric",
     "year=numeric"): "both",
}  # fmt: skip


def construct(
    locales: Any = UNDEFINED,
    options: Any = UNDEFINED,
    *_: Any,
    kind: str = "intl",
    service: str = SERVICE,
) -> DateTimeFormat:
    """``new Intl.DateTimeFormat`` (kind "intl") or the Date method's format ("date", "time",
    "both"): the options read in ECMA-402's order with V8's errors, then the pattern node
    has for that option set in the locale (scripts/intl_data.mjs's skeletons)."""
    required, defaults = _DEFAULTS[kind]
    if kind != "intl" and options is not None and options is not UNDEFINED:
        # a Date method's ToDateTimeOptions comes first: a style of the other kind is
        # refused before the locales and the other options are read
        if required == "date" and read(options, "timeStyle") is not UNDEFINED:
            raise JsError("Invalid option : timeStyle")
        if required == "time" and read(options, "dateStyle") is not UNDEFINED:
            raise JsError("Invalid option : dateStyle")
    requested = canonical_list(locales)
    if options is None:
        raise JsError("Cannot convert undefined or null to object")
    opts = coerce_options(options)

    def option(name: str, allowed: tuple[str, ...] | None) -> Any:
        return get_option(opts, name, "string", allowed, UNDEFINED, service)

    option("localeMatcher", ("lookup", "best fit"))
    refused: list[str] = []
    calendar = option("calendar", None)
    if calendar is not UNDEFINED and not _WELL_FORMED.match(calendar):
        raise JsError(f"Invalid calendar : {calendar}")
    nu = option("numberingSystem", None)
    if nu is not UNDEFINED and not _WELL_FORMED.match(nu):
        raise JsError(f"Invalid numberingSystem : {nu}")
    hour12 = read(opts, "hour12")
    hour12 = UNDEFINED if hour12 is UNDEFINED else truthy(hour12)
    hour_cycle = option("hourCycle", ("h11", "h12", "h23", "h24"))
    zone = _time_zone(read(opts, "timeZone"))
    fields: dict[str, str] = {}
    for name, allowed in _COMPONENTS:
        value = option(name, allowed)
        if value is not UNDEFINED:
            fields[name] = value
    if read(opts, "fractionalSecondDigits") is not UNDEFINED:
        refused.append("fractionalSecondDigits")
    if option("timeZoneName", None) is not UNDEFINED:
        refused.append("timeZoneName")
    option("formatMatcher", ("basic", "best fit"))
    date_style = option("dateStyle", _STYLES)
    time_style = option("timeStyle", _STYLES)
    styled = date_style is not UNDEFINED or time_style is not UNDEFINED
    if styled and (fields or "fractionalSecondDigits" in refused or "timeZoneName" in refused):
        first = next(iter(fields), "fractionalSecondDigits")
        style = "dateStyle" if date_style is not UNDEFINED else "timeStyle"
        raise JsError(f"Can't set option {first} when {style} is used")
    locale, found = resolve_keywords("date", requested)
    if "dayPeriod" in fields:
        refused.append("dayPeriod")
    if refused:
        raise Unsupported(
            "flowctx does not reproduce DateTimeFormat's option " + ", ".join(refused)
        )
    if not styled:
        wanted = {"date": _DATE_FIELDS, "time": _TIME_FIELDS}.get(
            required, _DATE_FIELDS + _TIME_FIELDS
        )
        if not any(name in fields for name in wanted):
            if defaults in ("date", "all"):
                fields.update(year="numeric", month="numeric", day="numeric")
            if defaults in ("time", "all"):
                fields.update(hour="numeric", minute="numeric", second="numeric")
    row = inherited(table("dates"), locale) or table("dates")["en"]
    own_calendar = row["cal"]
    kept = {k: v for k, v in found.items() if k == "va"}
    # the calendar: the option's, else the -u-ca-'s (either kept in the locale only when it is
    # the -u-ca-'s), where ICU has it
    asked = calendar.lower() if calendar is not UNDEFINED else None
    asked = CALENDAR_ALIASES.get(asked, asked) if asked is not None else None
    tag_ca = found.get("ca")
    ca = asked if asked in _CALENDARS else None
    if ca is None and asked is None and tag_ca in _CALENDARS:
        ca = tag_ca
    if ca is not None and tag_ca == ca and calendar in (UNDEFINED, tag_ca):
        kept["ca"] = ca
    chosen = ca or own_calendar
    if chosen != "gregory" and chosen not in calendars.CALENDARS:
        where = "" if ca else f" of {locale!r}"
        raise Unsupported(f"flowctx does not reproduce the {chosen} calendar{where}")
    # the Gregorian patterns of a locale whose own calendar is another, and every other
    # calendar's, are tables/calendars' rows
    other = None if chosen == own_calendar == "gregory" else chosen
    # the numbering system, as NumberFormat resolves it
    numbering, nu_kept = intl_numbering(locale, found, nu)
    kept.update(nu_kept)
    # the hour cycle: hour12, else hourCycle, else the -u-hc-, else the locale's
    tag_hc = found.get("hc") if found.get("hc") in ("h11", "h12", "h23", "h24") else None
    # V8's hour12 is measured against the -u-hc- (else, with a timeStyle, the locale's own
    # cycle): true is h11 where that is h11 or h23, else h12; false is h23 or h24 likewise
    timed = "hour" in fields or time_style is not UNDEFINED
    cycle = None
    if hour12 is not UNDEFINED:
        if tag_hc is not None or time_style is not UNDEFINED:
            low = (tag_hc or row["hc"]) in ("h11", "h23")
            cycle = ("h11" if low else "h12") if hour12 else ("h23" if low else "h24")
    elif hour_cycle is not UNDEFINED:
        cycle = hour_cycle
    elif tag_hc is not None:
        cycle = tag_hc
    # the -u-hc- stays in the locale where the hours are in its cycle, or, without hours,
    # where no option asked for another
    if tag_hc is not None and (
        cycle == tag_hc if timed else hour12 is UNDEFINED and hour_cycle is UNDEFINED
    ):
        kept["hc"] = tag_hc
    options_ = {"locale": with_keywords(locale, kept), "numberingSystem": numbering,
                "calendar": chosen,
                "timeZone": zone, "digits": table("numberingDigits")[numbering],
                "hourCycle": None}  # fmt: skip
    if styled:
        if time_style is not UNDEFINED and cycle not in (None, tag_hc) and tag_hc is not None:
            raise Unsupported(
                "flowctx does not reproduce a timeStyle in another hour cycle than the -u-hc-"
            )
        # a timeStyle in another hour cycle: ICU's pattern for the -u-hc- it keeps, else V8's
        # for the option's cycle (scripts/intl_date_parts.mjs measures both)
        asked = (
            ""
            if cycle is None or time_style is UNDEFINED
            else (f"hc={cycle}" if kept.get("hc") == cycle else f"hourCycle={cycle}")
        )
        key = ",".join(
            v for v in (
                "" if date_style is UNDEFINED else f"dateStyle={date_style}", asked,
                "" if time_style is UNDEFINED else f"timeStyle={time_style}",
            ) if v
        )  # fmt: skip
    else:
        names = tuple(sorted(f"{n}={v}" for n, v in fields.items()))
        form = _DEFAULT_FORMS.get(names)
        plain = hour12 is UNDEFINED and cycle is None
        if form is not None and plain and other is None:
            return DateTimeFormat(options_, row, form)
        # hours in another cycle: hour12's own patterns, else the cycle's, with the -u-hc- the
        # locale keeps (ICU's patterns for it) or without (V8's for the option's)
        flag = None
        if "hour" in fields and cycle is not None:
            flag = ("hc", cycle) if kept.get("hc") == cycle else ("hourCycle", cycle)
        elif "hour" in fields and hour12 is not UNDEFINED:
            flag = ("hour12", "true" if hour12 else "false")
        if flag is not None:
            # sorted by option name, as the scripts key them: hour, hour12, hourCycle
            pairs = sorted([*(n.split("=", 1) for n in names), flag], key=lambda p: p[0])
            names = tuple(f"{n}={v}" for n, v in pairs)
        key = ",".join(names)
    skeleton = _skeleton(locale, key, other)
    if skeleton is None:
        raise Unsupported(
            f"flowctx does not reproduce DateTimeFormat with these options ({key}) in {locale!r}"
        )
    return DateTimeFormat(options_, row, "skeleton", skeleton)


def _skeleton(locale: str, key: str, calendar: str | None = None) -> dict[str, Any] | None:
    """The pattern, names and resolved options node has for one option set in a locale, in
    its own Gregorian calendar (None) or in another calendar: measured for the set itself, or
    joined from its date's and its time's as ICU's pattern generator joins them."""
    if calendar is not None:
        found = _row("calendarSkeletons", calendar, locale, key)
    else:
        found = _row("skeletons", None, locale, key)
        if found is not None or _parts_left_out(locale):
            return found
    if found is not None:
        return found
    found = _part(locale, key, calendar)
    if found is not None:
        return found
    pairs = [p.split("=", 1) for p in key.split(",")]
    date = [(n, v) for n, v in pairs if n in _DATE_PART]
    time = [(n, v) for n, v in pairs if n not in _DATE_PART]
    if not date or not time or all(n == "era" for n, _ in date):
        return None  # an era alone with a time is a row of its own, measured or refused
    if calendar is not None and all(n == "weekday" for n, _ in date):
        return None  # so is a weekday alone with a time (ICU has patterns for it), refused
    joins = inherited(
        table("dateJoins") if calendar is None else table("calendarJoins").get(calendar, {}),
        locale,
    )
    d = _part(locale, ",".join(f"{n}={v}" for n, v in date), calendar)
    t = _part(locale, ",".join(f"{n}={v}" for n, v in time), calendar)
    if joins is None or d is None or t is None:
        return None
    month = dict(date).get("month")
    style = "medium" if month == "short" else "short"
    if month == "long":
        style = "full" if "weekday" in dict(date) else "long"
    join = joins[style]
    # V8 reads the fields' widths from the joined pattern, the words' letters too (pt's
    # "segundo" is a day): where the date's and the time's say two widths, it is refused
    resolved = {k: t["r"].get(k, d["r"].get(k)) for k in _RESOLVED if k in t["r"] or k in d["r"]}
    clash = any(d["r"][k] != t["r"][k] for k in d["r"] if k in t["r"])
    return {
        # V8 reads the letters of a pattern's words as fields too (fi's 'klo' is an hour)
        "joined": clash or bool(_PATTERN_LETTERS & set("".join(join[1:]))),
        "t": _joined(join, d["t"], t["t"]),
        "tm": None if d["tm"] is None else [_joined(join, x, t["t"]) for x in d["tm"]],
        "m": d["m"], "w": d["w"], "dp": t["dp"], "r": resolved, "e": d["e"],
    }  # fmt: skip


def _part(locale: str, key: str, calendar: str | None) -> dict[str, Any] | None:
    """One set of date or of time components measured in a calendar (None: the locale's own
    Gregorian one, scripts/intl_date_parts.mjs; else scripts/intl_calendar_parts.mjs, where a
    time's row is the locale's Gregorian one unless the calendar's patterns write it
    otherwise)."""
    if calendar is None:
        return None if _parts_left_out(locale) else _row("dateParts", None, locale, key)
    if not _measured_in(calendar, locale):
        return None
    found = _row("calendarParts", calendar, locale, key)
    if found is not _GREGORIAN:
        return found
    if calendar == "gregory":
        return None  # (never so measured)
    own = (inherited(table("dates"), locale) or table("dates")["en"])["cal"]
    return _part(locale, key, None if own == "gregory" else "gregory")


@functools.cache
def _calendar_locales(calendar: str) -> frozenset[str]:
    return frozenset(table("calendarLocales").get(calendar, ()))


@functools.cache
def _own_patterns() -> frozenset[str]:
    """The locales whose Gregorian patterns are not their parent's."""
    return frozenset(table("skeletons")["tags"]) | frozenset(table("dates"))


def _measured_in(calendar: str, locale: str) -> bool:
    """Whether scripts/intl_calendar_parts.mjs measured the locale whose patterns ``locale``
    has (its own, else its nearest parent's that has its own) in a calendar."""
    measured, own = _calendar_locales(calendar), _own_patterns()
    tag = locale
    while True:
        if tag in measured:
            return True
        if tag in own:
            return False
        if "-" not in tag:
            return True
        tag = tag.rsplit("-", 1)[0]


def _parts_left_out(locale: str) -> bool:
    """Whether scripts/intl_date_parts.mjs left the locale out (node aborts on one of its
    patterns): its parent's parts are not its own."""
    joins, left_out = table("dateJoins"), table("datePartsRefused")
    tag = locale
    while tag not in joins:
        if tag in left_out:
            return True
        if "-" not in tag:
            return False
        tag = tag.rsplit("-", 1)[0]
    return False


_DATE_PART: Final = frozenset(("weekday", "era", "year", "month", "day"))
_RESOLVED: Final = ("hourCycle", "hour12", "weekday", "era", "year", "month", "day", "dayPeriod",
                    "hour", "minute", "second")  # fmt: skip


def _joined(join: list[str], date: list[Any], time: list[Any]) -> list[Any]:
    """A date's and a time's patterns joined (order "dt" or "td", then the text before,
    between and after them), neighbouring texts made one, as formatToParts gives them."""
    order, pre, mid, post = join
    pieces = [pre, *date, mid, *time, post] if order == "dt" else [pre, *time, mid, *date, post]
    out: list[Any] = []
    for piece in pieces:
        if piece == "":
            continue
        if isinstance(piece, str) and out and isinstance(out[-1], str):
            out[-1] += piece
        else:
            out.append(piece)
    return out


@functools.cache
def _key_index(name: str) -> dict[str, int]:
    keys = table(name)
    return {k: i for i, k in enumerate(keys if isinstance(keys, list) else keys["keys"])}


#: a row of tables/calendarparts that is the locale's Gregorian one (-2 there)
_GREGORIAN: Final[dict[str, Any]] = {}


def _row(name: str, calendar: str | None, locale: str, key: str) -> dict[str, Any] | None:
    """One row of a pooled table of rows (scripts/intl_data.mjs's ``pooled``), by locale
    (its own, else its nearest parent's) and key; ``_GREGORIAN`` where it is the locale's
    Gregorian row."""
    if name == "calendarParts":
        skeletons = calendar_parts(str(calendar))
        tags = skeletons.get("tags", {})
        at = _key_index("calendarPartKeys").get(key)
    else:
        skeletons = table(name)
        tags = skeletons["tags"] if calendar is None else skeletons["calendars"].get(calendar, {})
        at = _key_index(name).get(key)
    if at is None:
        return None
    tag = locale
    while True:
        found = tags.get(tag)  # a list over the keys, None where it is the parent's
        index = None if found is None else found[at]
        if index is not None:
            break
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]
    if index < 0:
        return _GREGORIAN if index == -2 else None
    pool = skeletons["pool"]
    t, tm, months, weekdays, periods, resolved, eras, *more = skeletons["rows"][index]
    return {
        "z": pool[more[0]] if more and more[0] >= 0 else None,
        "t": pool[t], "tm": pool[tm] if tm >= 0 else None,
        "m": pool[months] if months >= 0 else None,
        "w": pool[weekdays] if weekdays >= 0 else None,
        "dp": pool[periods] if periods >= 0 else None, "r": pool[resolved],
        "e": pool[eras] if eras >= 0 else None,
    }  # fmt: skip


def intl_numbering(locale: str, found: dict[str, str], option: Any) -> tuple[str, dict[str, str]]:
    """The numbering system and the -u-nu- kept, as NumberFormat resolves them."""
    from flowctx_core.expressions.js import intl

    chosen: tuple[str, dict[str, str]] = intl.service("numberformat").numbering(
        locale, {k: v for k, v in found.items() if k == "nu"}, option
    )
    return chosen


def to_locale(t: float, kind: str, locales: Any, options: Any) -> str:
    """``Date.prototype.toLocale{,Date,Time}String(locales, options)``."""
    method = {"date": "toLocaleDateString", "time": "toLocaleTimeString"}.get(
        kind, "toLocaleString"
    )
    if t != t:  # before the locales and options are read
        return "Invalid Date"
    service = f"Date.prototype.{method}"
    return construct(locales, options, kind=kind, service=service).format(t)
