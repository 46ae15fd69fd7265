"""``Intl.DateTimeFormat`` and ``Date.prototype.toLocale{,Date,Time}String(locales)`` as node 20
answers them for every locale node has: each option set's pattern, names, digits, hour cycle
and resolved options measured from node (scripts/intl_data.mjs, intl_date_parts.mjs,
intl_calendars.mjs), in node's zone (``TZ``) or the ``timeZone`` option (any zone ICU knows,
its offsets ICU's own: ``zones``). A set of date and
time components (a zone's name, fractional seconds and day periods among the time's, in the
Gregorian calendar) is its date's pattern and its time's joined as ICU's pattern generator
joins them (by the date's month), where node has no pattern of its own for it, with the options
V8 reads back from the whole pattern (``patternread``); every other calendar ICU has counts its
fields in ``calendars`` (the Chinese and dangi ones their cycles, related Gregorian years and
leap months too). A zone's name, fractional seconds or a day period with hours, minutes or
seconds in another calendar is the locale's Gregorian time but where node's calendar writes it
otherwise (``calendarzones``, the calendar's own rows; refused where one could not be rebuilt).
A zone's name is UTC's measured, another zone's as ``zonenames`` has it per
locale and instant, else the localized GMT format. Gregorian dates are
proleptic, as V8 sets ICU's calendar, before 1582 too."""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import calendars, displaynames, intervals, zonenames, zones
from flowctx_core.expressions.js.intl.data import calendar_parts, inherited, table
from flowctx_core.expressions.js.intl.locales import (
    CALENDAR_ALIASES,
    canonical_list,
    resolve_keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import (
    IntlObject,
    coerce_options,
    get_number_option,
    get_option,
    read,
)
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
#: the decimal separators the measured patterns put before a fraction of a second
_SEPARATORS: Final = frozenset(".,\u066b")
_ZONE_STYLES: Final = ("short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")
_NAMED: Final = ("narrow", "short", "long")
#: the options that name a pattern's fields
_FIELD_NAMES: Final = frozenset(
    (*(name for name, _ in _COMPONENTS), "fractionalSecondDigits", "timeZoneName")
)
#: the zones' names ICU's interval formats count among a time's fields (z and v, not O)
_ZONE_LETTERS: Final = frozenset(("short", "long", "shortGeneric", "longGeneric"))
#: the letters of the fields the tables' resolved options leave out (fractionalSecondDigits,
#: timeZoneName), which V8 reads from a pattern's words too
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
    __slots__ = ("kind", "o", "refused", "row", "skeleton")

    def __init__(
        self,
        options: dict[str, Any],
        row: dict[str, Any],
        kind: str,
        skeleton: dict[str, Any] | None = None,
        refused: str | None = None,
    ) -> None:
        self.o = options
        self.row = row
        self.kind = kind  # "date", "time", "both" (the default forms) or "skeleton"
        self.skeleton = skeleton
        # why flowctx does not know this set's pattern: refused where the pattern is used, so
        # that V8's errors before it (a time value out of range) are still answered
        self.refused = refused

    def _known(self) -> None:
        if self.refused is not None:
            raise Unsupported(self.refused)

    def member(self, key: str) -> Any:
        if key == "format":
            return JsFunction("", lambda d=UNDEFINED, *_: self.format(_time(d)), arity=1)
        if key == "formatToParts":
            return JsFunction(key, lambda d=UNDEFINED, *_: self.parts_objects(_time(d)), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        if key in ("formatRange", "formatRangeToParts"):
            return JsFunction(
                key, lambda a=UNDEFINED, b=UNDEFINED, *_: self.range(key, a, b), arity=2
            )
        return None

    def resolved(self) -> dict[str, Any]:
        self._known()
        o = self.o
        sk = self.skeleton
        if sk is not None and (
            sk.get("renamedWords")
            or (
                not sk.get("read") and any(isinstance(p, str) and _UNREAD & set(p) for p in sk["t"])
            )
        ):
            raise Unsupported(
                "flowctx does not reproduce the options V8 reads from the words of this "
                "pattern (resolvedOptions)"
            )
        out = {
            "locale": o["locale"],
            "calendar": o["calendar"],
            "numberingSystem": o["numberingSystem"],
            "timeZone": zones.reported(o["timeZone"]),
        }
        if sk is not None and sk.get("read"):  # read from the composed pattern, as V8 does
            for k, v in sk["r"].items():
                if k == "fractionalSecondDigits":  # its words' S and the fraction's own
                    v = min(v + ((o["fsd"] or 0) if sk.get("fs", True) else 0), 3)
                    if not v:
                        continue
                out[k] = v
            if o.get("hourCycle") and "hourCycle" in out:
                out["hourCycle"] = o["hourCycle"]
                out["hour12"] = o["hourCycle"] in ("h11", "h12")
            return out
        if sk is not None:
            out.update(sk["r"])
            if o.get("hourCycle") and "hourCycle" in out:
                out["hourCycle"] = o["hourCycle"]
                out["hour12"] = o["hourCycle"] in ("h11", "h12")
            shown = any(p[0] == "fractionalSecond" for p in sk["t"])
            if o.get("fsd") is not None and shown and not sk.get("fixed"):
                # (V8 reads the digits from the pattern: es-BZ's has none beside a zone; a row
                # of its own count of digits has the count V8 read measured)
                out["fractionalSecondDigits"] = o["fsd"]
            if o.get("zoneStyle") is not None:  # (V8 reads the style the pattern writes)
                out["timeZoneName"] = _written_style(sk["t"]) or o["zoneStyle"]
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

    def _related(self, n: int, width: int) -> str:
        """A Chinese calendar's related Gregorian year: at least two digits where the pattern
        has two (08, -05), in the locale's numbers without grouping."""
        from flowctx_core.expressions.js.intl import numberformat

        if n >= 0:
            text = f"{n:02d}" if width == 2 else str(n)
            return text.translate(str.maketrans("0123456789", self.o["digits"]))
        plain = {"numberingSystem": self.o["numberingSystem"], "useGrouping": False,
                 "minimumIntegerDigits": 2 if width == 2 else 1}  # fmt: skip
        return str(numberformat.construct(self.o["locale"], plain).format(n))

    def _period(self, pattern: list[Any], h: int, mi: int, s: int) -> str:
        """The day period: the row's for the hour (measured at 12:04:05), ICU's noon at
        12 o'clock where the minutes and seconds shown are zero (flexible periods only)."""
        sk = self.skeleton
        assert sk is not None
        width = self.o.get("dayPeriod")
        shown = {p[0] for p in pattern if isinstance(p, list)}
        if width is None or h != 12 or not shown & {"minute", "second"}:
            return str(sk["dp"][h])
        if ("minute" in shown and mi) or ("second" in shown and s):
            return str(sk["dp"][h])
        return str(self._names()[2][width])

    def _decimal(self) -> str:
        from flowctx_core.expressions.js.intl import numberformat

        system = {"numberingSystem": self.o["numberingSystem"]}
        nf = numberformat.construct(self.o["locale"], system)
        return next(v for k, v in nf.parts(0.5) if k == "decimal")

    def _names(self) -> list[Any]:
        """The locale's GMT formats, UTC's names and noon's (tables/zoneparts)."""
        found = inherited(table("zoneGmt"), self.o["locale"].split("-u-")[0])
        if found is None:
            locale = self.o["locale"]
            raise Unsupported(f"flowctx does not reproduce the time zone names of {locale!r}")
        return list(found)

    def _zone_name(self, offset: float, t: float, style: str | None = None) -> str:
        """The zone's name in a style (the timeZoneName option's, else the one the timeStyle
        prints): UTC's own in each, another zone's as measured per locale and instant
        (``zonenames``), else in the localized GMT formats (scripts/intl_zone_parts.mjs)."""
        style, zone = style or self.o["zoneStyle"], self.o["timeZone"]
        gmt, utc, _ = self._names()
        if zone == "UTC":  # measured in the locale's own digits
            return str(utc[style]).translate(str.maketrans(self.row["digits"], self.o["digits"]))
        if style not in ("shortOffset", "longOffset"):
            found = zonenames.name(self.o["locale"].split("-u-")[0], zone, style, t)
            if found is not None:
                return found
            style = zonenames.OFFSET_STYLE[style]
        seconds = round(offset / 1000)
        forms = gmt[style]
        if seconds == 0:  # measured whole, in the locale's own digits (dz's ༠༠:༠༠)
            own = str.maketrans(self.row["digits"], "0123456789")
            text = forms["zero"].translate(own)
        else:
            a = abs(seconds)
            h, m, s = a // 3600, a // 60 % 60, a % 60
            kind = ("p_" if seconds > 0 else "n_") + ("hms" if s else "hm" if m else "h")
            text = (
                forms[kind].replace("{HH}", f"{h:02d}").replace("{H}", str(h))
                .replace("{mm}", f"{m:02d}").replace("{ss}", f"{s:02d}")
            )  # fmt: skip
        return str(text).translate(str.maketrans("0123456789", self.o["digits"]))

    def range(self, method: str, start: Any, end: Any) -> Any:
        """``formatRange`` / ``formatRangeToParts``: V8's errors, and ICU's answer where the
        two dates agree down to the pattern's smallest field (one date's text, every part
        "shared"), by ICU's interval pattern where measured (``_interval``) or its fallback
        (``_fallback``), else as ICU's DateIntervalFormat builds it (``intervals``), which
        refuses what it does not know."""
        if start is UNDEFINED or end is UNDEFINED:
            raise JsError("Invalid time value")
        x, y = to_number(start), to_number(end)
        if x != x or y != y or abs(x) > 8.64e15 or abs(y) > 8.64e15:
            raise JsError("Invalid time value")
        x, y = float(math.trunc(x)) + 0.0, float(math.trunc(y)) + 0.0
        self._known()
        differing = self._greatest_difference(x, y)
        if differing is not None and differing <= self._finest_level(x):
            interval = self._interval(differing)
            if interval is None:
                fallback = self._fallback(differing, x, y)
                if fallback is None:  # ICU's DateIntervalFormat, built (``intervals``)
                    fallback = intervals.range_parts(self, x, y, differing)
                if fallback is not None:
                    if method == "formatRange":
                        return "".join(v for _, v, _ in fallback)
                    return [{"type": k, "value": v, "source": s} for k, v, s in fallback]
                if method == "formatRange":  # (no field written twice: V8's own pattern)
                    return self.format(x)
                return [{"type": k, "value": v, "source": "shared"} for k, v in self.parts(x)]
            template, periods = interval
            pieces = [p if not (self.skeleton is None and p == ["dayPeriod", "t"]) else ["a", 0]
                      for p, _ in template]  # fmt: skip
            first, second = self.parts(x, pieces, periods), self.parts(y, pieces, periods)
            # ICU writes the interval pattern's first part with the start date and the rest,
            # from the end's own fields on, with the end date: a shared zone name after them is
            # the end's (a range across a change to winter time ends in the winter offset)
            split = next((i for i, (_, s) in enumerate(template) if s == "endRange"), None)
            found = [
                (*(second[i] if split is not None and i >= split else first[i]), source)
                for i, (_, source) in enumerate(template)
            ]
            if method == "formatRange":
                return "".join(v for _, v, _ in found)
            return [{"type": k, "value": v, "source": s} for k, v, s in found]
        if method == "formatRange":
            return self.format(x)
        return [{"type": k, "value": v, "source": "shared"} for k, v in self.parts(x)]

    def _fallback(self, level: int, x: float, y: float) -> list[tuple[str, str, str]] | None:
        """ICU's fallback where it has no interval pattern: both dates written in full, joined by
        the locale's fallback pattern (tables/rangefallbacks), None where flowctx does not know
        it. ICU has interval patterns only for times with an hour: a time without one falls
        back alone (with the year, month and day ICU adds where the days differ; the same day
        where it shows seconds) and beside a date differing in the day or above. Not with an
        hour: ICU writes the dates by its generator's best pattern for the skeleton of V8's
        pattern, whose hours are the locale's own width, not the option's (measured: bg, de);
        nor in the other calendars (ICU's patterns there differ from V8's more often)."""
        pattern = self.skeleton["t"] if self.skeleton is not None else self.row[self.kind]
        shown = {p[0] for p in pattern if isinstance(p, list)}
        timed = shown & {"minute", "second", "fractionalSecond", "dayPeriod"} or (
            "timeZoneName" in shown and self.o.get("zoneStyle") in _ZONE_LETTERS
        )
        if "hour" in shown or not timed or self.o["calendar"] != "gregory":
            return None
        if self.o.get("zoneStyle") in ("shortOffset", "longOffset"):
            return None  # (ICU's interval skeleton leaves the localized GMT format out)
        dated = shown & {"era", "year", "month", "day", "weekday"}
        if level == 0 or (dated and level > 30):
            # (two eras, and a date beside the time's fallback: not measured)
            return None
        if level > 30 and not shown & {"second", "fractionalSecond"}:
            return None  # (the same day without seconds: not measured)
        # ICU writes the dates by its generator's best pattern for the skeleton of V8's
        # pattern, which is V8's where V8 writes each field as asked (ja's long month is
        # numeric in its pattern: ICU's is 1980/11/27 there) and no era is asked (ICU appends
        # a month beside an era where V8 does not: "(mes: 7)")
        made = self.o.get("made")
        if made is None or "era" in made[1] or made[1].get("month") == "narrow":
            return None
        if "weekday" in made[1] and "day" not in made[1]:
            # (a weekday without its day: V8 and ICU append the month or year each their way,
            # "1 petak" and "petak (mesec: 1)")
            return None
        try:
            resolved = self.resolved()
        except Unsupported:
            return None
        if any(resolved.get(k) != v for k, v in made[1].items() if k in _FIELD_NAMES):
            return None
        if dated and level > max(_FIELD_LEVELS[n] for n in shown - {"dayPeriod", "timeZoneName"}):
            # ICU counts neither a day period nor a zone's name where it has no interval
            # pattern: one date's text (ICU's pattern's)
            return [(k, v, "shared") for k, v in self.parts(x)]
        writer: DateTimeFormat = self
        if level <= 30 and not dated:
            added = {"year": "numeric", "month": "numeric", "day": "numeric"}
            try:
                writer = construct(made[0], {**made[1], **added})
            except Unsupported:
                return None
            if writer.refused is not None or writer.o["calendar"] != "gregory":
                return None
        tag = self.o["locale"].split("-u-")[0]
        found = inherited(table("rangeFallbacks"), tag)
        if found is None or tag in table("rangeFallbacksRefused"):
            return None
        pre, mid, post = found
        out: list[tuple[str, str, str]] = [("literal", pre, "shared")]
        for t, source, after in ((x, "startRange", mid), (y, "endRange", post)):
            parts = writer.parts(t)
            fields = [i for i, (k, _) in enumerate(parts) if k != "literal"]
            for i, (k, v) in enumerate(parts):
                # a date's own text before its first field and after its last is the
                # pattern's, as V8 reads ICU's spans
                inside = fields and fields[0] <= i <= fields[-1]
                out.append((k, v, source if inside else "shared"))
            out.append(("literal", after, "shared"))
        merged: list[tuple[str, str, str]] = []
        for k, v, src in out:
            if not v:
                continue
            if k == "literal" and merged and merged[-1][0] == "literal" and merged[-1][2] == src:
                merged[-1] = (k, merged[-1][1] + v, src)
            else:
                merged.append((k, v, src))
        return merged

    def _interval(self, level: int) -> tuple[list[Any], list[str] | None] | None:
        """ICU's interval pattern for the set's options and the greatest differing field,
        measured in the locale's own Gregorian calendar (tables/dateranges)."""
        key = self.o.get("rangeKey")
        if key is None or self.o["calendar"] != "gregory" or self.row["cal"] != "gregory":
            return None
        if self.o.get("defaulted"):  # the date V8 adds where no field was asked
            added = ("day=numeric", "month=numeric", "year=numeric")
            key = ",".join(k for k in key.split(",") if k not in added)
        ranges = table("dateRanges")
        tag = self.o["locale"].split("-u-")[0]
        while True:
            levels = ranges["tags"].get(tag, {}).get(key)
            if levels is not None:
                break
            if "-" not in tag:
                return None
            tag = tag.rsplit("-", 1)[0]
        base = self.o["locale"].split("-u-")[0]
        if base not in _own_patterns() and intervals.own_below(base, tag):
            # (a regional locale scripts/intl_date_ranges.mjs did not measure whose interval
            # patterns are not its parent's, tables/dateintervals: fr-CD's "y – y")
            return None
        at = levels.get(str(level), -1)
        if at < 0:
            return None
        found = ranges["pool"][at]
        if isinstance(found, dict):
            return list(found["t"]), list(found["dp"])
        return list(found), None

    def _greatest_difference(self, x: float, y: float) -> int | None:
        """The level of the greatest calendar field two instants differ in (ICU's order: era,
        year, month, day, am/pm, hour, minute, second, millisecond), None where none does."""
        from flowctx_core.expressions.js import dates

        zone = self.o["timeZone"]
        fields = []
        for t in (x, y):
            local = t + _offset(zone, t)
            yy, mo, d, h, mi, s, ms, _ = dates._fields(local)
            era = 1 if yy > 0 else 0
            if self.o["calendar"] in calendars.CALENDARS:
                era, yy, mo, d = calendars.fields(self.o["calendar"], local)
            elif self.o["calendar"] != "gregory":
                raise Unsupported(f"flowctx does not reproduce formatRange in {self.o['calendar']}")
            fields.append((era, yy, mo, d, h >= 12, h % 12, mi, s, ms))
        for level, (a, b) in zip(_RANGE_LEVELS, zip(*fields, strict=True), strict=True):
            if a != b:
                return level
        return None

    def _finest_level(self, t: float) -> int:
        """The level of the pattern's finest field (a zone's name counts for none, as
        measured)."""
        if self.skeleton is None:
            pattern = self.row[self.kind]
        else:
            pattern = self.skeleton["t"]
        levels = [_FIELD_LEVELS.get(p[0], -1) for p in pattern if isinstance(p, list)]
        return max(levels, default=-1)

    def format(self, t: float) -> str:
        # V8 11.3 swaps ICU's narrow no-break spaces for plain ones in format's text (not in
        # formatToParts')
        return "".join(v for _, v in self.parts(t)).replace("\u202f", " ")

    def parts_objects(self, t: float) -> list[dict[str, Any]]:
        return [{"type": k, "value": v} for k, v in self.parts(t)]

    def parts(
        self, t: float, template: list[Any] | None = None, periods: list[str] | None = None
    ) -> list[tuple[str, str]]:
        """The parts of one instant, by the set's pattern or by ``template`` (a range's, with
        its own day periods where they are not the set's). A text with U+FFFD is refused: the
        measuring scripts read a child's output chunk by chunk, and a character split between
        two came out as U+FFFD in a few thousand rows (the scripts join the chunks now; the
        rows are to be measured again)."""
        found = self._parts(t, template, periods)
        if any("\ufffd" in v for _, v in found):
            raise Unsupported(
                "flowctx does not reproduce this DateTimeFormat text: a character of its "
                "measured pattern was lost"
            )
        return found

    def _parts(
        self, t: float, template: list[Any] | None, periods: list[str] | None
    ) -> list[tuple[str, str]]:
        from flowctx_core.expressions.js import dates

        if t != t:
            raise JsError("Invalid time value")
        self._known()
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
        if self.o["calendar"] in calendars.LUNISOLAR:  # the cycle's number, the related year
            values.update(era=era, relatedYear=calendars.related_year(era, y))
        table = str.maketrans("0123456789", self.o["digits"])
        out: list[tuple[str, str]] = []
        if sk is None:
            pattern = row[self.kind]
        else:
            # every pattern's year is y or yy (measured down to the year 5): never padded
            pattern = sk["tm"][mo] if sk["tm"] is not None else sk["t"]
        if template is not None:
            pattern = template
        for piece in pattern:
            if isinstance(piece, str):
                out.append(("literal", piece))
            elif piece[0] == "a":  # a range's own day periods (B where the set has a)
                out.append(("dayPeriod", periods[h] if periods else row["am" if h < 12 else "pm"]))
            elif sk is not None and piece[1] == "t":
                name = piece[0]
                if name == "weekday":
                    out.append((name, sk["w"][dates._fields(t_local)[7]]))
                elif name == "dayPeriod":
                    out.append((name, periods[h] if periods else self._period(pattern, h, mi, s)))
                elif name == "month" and (
                    self.o["calendar"] in calendars.LUNISOLAR
                    and any(
                        isinstance(p, list) and p[0] == "month" and p[1] != "t" for p in sk["t"]
                    )
                ):  # a leap month's number (2bis, 闰2) in the numbering system asked, where the
                    # other months are numbers (a name asked is never one)
                    own = str.maketrans(self.row["digits"], self.o["digits"])
                    out.append((name, str(sk["m"][mo]).translate(own)))
                elif name == "month":
                    out.append((name, sk["m"][mo]))
                elif name == "yearName" and sk.get("yn"):  # the Chinese calendars' years' names
                    out.append((name, sk["yn"][y - 1]))
                elif name == "day" and sk.get("dn"):  # and their days' (zh's 初六)
                    out.append((name, sk["dn"][d - 1]))
                elif name == "era":  # the Gregorian's: before the year 1 and after
                    out.append((name, sk["e"][era]))
                elif name == "timeZoneName" and self.o.get("zoneStyle") is None and zone == "UTC":
                    # measured in the locale's own digits (dz's +༠༠:༠༠), written in the
                    # numbering system asked
                    own = str.maketrans(self.row["digits"], self.o["digits"])
                    out.append((name, str(sk["z"]).translate(own)))
                elif name == "timeZoneName" and self.o.get("zoneStyle") is not None:
                    # (in the style the pattern writes, where it is not the one asked: el's
                    # 24-hour times write each in its long width)
                    written = piece[2] if len(piece) > 2 else None
                    out.append((name, self._zone_name(t_local - t, t, written)))
                elif name == "timeZoneName" and self.o.get("timeStyle") in ("full", "long"):
                    locale = self.o["locale"].split("-u-")[0]
                    style = zonenames.time_style(locale, self.o["timeStyle"])
                    out.append((name, self._zone_name(t_local - t, t, style)))
                elif name == "timeZoneName":
                    raise Unsupported(f"flowctx does not reproduce the time zone name of {zone}")
                elif name == "fractionalSecond":
                    ms = f"{dates._fields(t_local)[6]:03d}"[: self.o["fsd"]]
                    if out and out[-1][0] == "literal" and out[-1][1][-1:] in _SEPARATORS:
                        # ICU's generator writes the locale's decimal separator (in its
                        # numbering system) before the fraction: de-CH's is not de's
                        out[-1] = ("literal", out[-1][1][:-1] + self._decimal())
                    out.append((name, ms.translate(table)))
                else:
                    raise Unsupported(f"flowctx does not reproduce the {name} field")
            else:
                name, width = piece[0], piece[1]
                n = values[name]
                if name == "relatedYear":  # padded to two digits where the pattern says, never cut
                    out.append((name, self._related(n, width)))
                    continue
                if n < 0:  # a year before a calendar's first, as the locale writes -5
                    out.append((name, self._negative(n, width)))
                    continue
                text = (
                    f"{n % 100:02d}"
                    if name == "year" and width == 2
                    else (f"{n:02d}" if width == 2 else str(n))
                )
                if name == "month" and sk is not None and sk["r"].get("month") in _NAMED:
                    # month names that are digits (zh's narrow ones) keep the locale's own; where
                    # those are not Latin, a name may be written in either (dz's short months
                    # beside a year are Latin, alone Tibetan) and the rows do not tell which
                    if self.row["digits"] != "0123456789":
                        raise Unsupported(
                            "flowctx does not reproduce month names written in digits in "
                            f"{self.o['locale']!r} (node writes some in Latin digits, some in the "
                            "locale's own)"
                        )
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


def _written_style(pattern: list[Any]) -> str | None:
    """The style a pattern writes the zone's name in where it is not the one asked (the
    zone's piece's third item, scripts/intl_zone_parts.mjs), else None."""
    for piece in pattern:
        if isinstance(piece, list) and piece[0] == "timeZoneName" and len(piece) > 2:
            return str(piece[2])
    return None


def _offset(zone: str, t: float) -> float:
    return zones.offset_ms(zone, t)


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


def _time_zone(value: Any) -> str:
    from flowctx_core.expressions.js import dates

    if value is UNDEFINED:
        # node's own zone: TZ as written (ICU reads it case and all), UTC where it is unset
        own = dates.zone_name()
        if own == "UTC":
            return "UTC"
        if own not in table("zoneSpellings"):
            raise Unsupported(f"flowctx does not reproduce node's time zone TZ={own!r}")
        return zones.named(own) or own
    name = to_string(value)
    found = zones.named(name)
    if found is None:
        raise JsError(f"Invalid time zone specified: {name}")
    return found


#: ICU's levels of the calendar fields an interval compares, and of a pattern's fields
_RANGE_LEVELS: Final = (0, 10, 20, 30, 40, 50, 60, 70, 80)
_FIELD_LEVELS: Final = {
    "era": 0, "year": 10, "month": 20, "day": 30, "weekday": 30, "dayPeriod": 40, "hour": 50,
    "minute": 60, "second": 70, "fractionalSecond": 80,
    # the Chinese calendars' years: their related Gregorian year and the cycle's name
    "relatedYear": 10, "yearName": 10,
}  # fmt: skip
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
    fsd = get_number_option(opts, "fractionalSecondDigits", 1, 3, UNDEFINED)
    zone_style = option("timeZoneName", _ZONE_STYLES)
    option("formatMatcher", ("basic", "best fit"))
    date_style = option("dateStyle", _STYLES)
    time_style = option("timeStyle", _STYLES)
    styled = date_style is not UNDEFINED or time_style is not UNDEFINED
    if styled and (fields or fsd is not UNDEFINED or zone_style is not UNDEFINED):
        # V8 names the first of the components, then timeZoneName, then the digits
        first = next(iter(fields), "timeZoneName" if zone_style is not UNDEFINED else None)
        style = "dateStyle" if date_style is not UNDEFINED else "timeStyle"
        raise JsError(f"Can't set option {first or 'fractionalSecondDigits'} when {style} is used")
    locale, found = resolve_keywords("date", requested)
    defaulted = False
    if not styled:
        wanted = {"date": _DATE_FIELDS, "time": _TIME_FIELDS}.get(
            required, _DATE_FIELDS + _TIME_FIELDS
        )
        defaulted = not any(name in fields for name in wanted) and (
            fsd is UNDEFINED or required == "date"
        )
        if defaulted:
            if defaults in ("date", "all"):
                fields.update(year="numeric", month="numeric", day="numeric")
            if defaults in ("time", "all"):
                fields.update(hour="numeric", minute="numeric", second="numeric")
        if fsd is not UNDEFINED:
            fields["fractionalSecondDigits"] = "*"
        if zone_style is not UNDEFINED:
            fields["timeZoneName"] = zone_style
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
    if ca is not None and ca == own_calendar and locale in table("localeExplicit"):
        # (scripts/intl_locale_heirs.mjs: node writes uz-AF's Persian dates with their era when
        # the calendar is asked by name, and the tables hold the locale's default ones)
        raise Unsupported(
            f"flowctx does not reproduce {locale!r}'s own calendar asked by name "
            "(node's patterns for it are not the locale's default ones)"
        )
    if chosen != "gregory" and chosen not in calendars.CALENDARS:
        where = "" if ca else f" of {locale!r}"
        raise Unsupported(f"flowctx does not reproduce the {chosen} calendar{where}")
    # the Gregorian patterns of a locale whose own calendar is another, and every other
    # calendar's, are tables/calendars' rows
    other = None if chosen == own_calendar == "gregory" else chosen
    # the numbering system, as NumberFormat resolves it
    if locale.startswith("ff-Adlm"):
        # its own digits are Adlam's, two UTF-16 units each: the measured rows read a field's
        # width from its length in units, so a day's 5 counted as two digits
        raise Unsupported(f"flowctx does not reproduce DateTimeFormat in {locale!r}")
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
                "hourCycle": None, "fsd": None if fsd is UNDEFINED else fsd,
                "zoneStyle": None if zone_style is UNDEFINED else zone_style,
                "timeStyle": None if time_style is UNDEFINED else time_style,
                "dayPeriod": fields.get("dayPeriod"), "defaulted": defaulted}  # fmt: skip
    if not styled:  # what a range's fallback writes its dates with, fields added
        made: dict[str, Any] = {
            k: v for k, v in fields.items() if k not in ("fractionalSecondDigits", "timeZoneName")
        }
        made.update(timeZone=zone, calendar=chosen, numberingSystem=numbering)
        extra = {"hour12": hour12, "hourCycle": hour_cycle, "fractionalSecondDigits": fsd,
                 "timeZoneName": zone_style}  # fmt: skip
        for name, value in extra.items():
            if value is not UNDEFINED:
                made[name] = value
        options_["made"] = (options_["locale"], made)
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
        options_["rangeKey"] = None if "hc" in kept else ",".join(names)
        # the time form in another calendar is the own calendar's, but where node's differs
        # (tables/calendartimes: es-MX's hours are 2-digit in the Islamic calendars)
        # (where the calendar's own rows have the form, scripts/intl_calendar_parts.mjs's, those)
        other_time = (
            form == "time"
            and chosen in _OWN_TIMES
            and f"{locale}:{chosen}" not in _calendar_times()
            and (other is None or _skeleton(locale, ",".join(names), other) is None)
        )
        if form is not None and plain and (other is None or other_time):
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
    options_["rangeKey"] = None if "hc" in kept else key
    skeleton = _skeleton(locale, key, other, None if fsd is UNDEFINED else int(fsd))
    if skeleton is not None and _field_renames(locale):
        skeleton = _renamed(skeleton, _field_renames(locale))
    refused = None
    if skeleton is None:
        refused = (
            f"flowctx does not reproduce DateTimeFormat with these options ({key}) in {locale!r}"
        )
    return DateTimeFormat(options_, row, "skeleton", skeleton, refused)


@functools.cache
def _field_renames(locale: str) -> tuple[tuple[str, str], ...]:
    """The fields' names a locale the part tables did not measure (its rows are a parent's)
    names otherwise than that parent: ICU appends a field its pattern lacks with the
    locale's own name (sw-CD's "├Muda wa siku: usiku┤", sw's "├AM/PM: usiku┤")."""
    measured = table("zoneParts")["tags"]
    if locale in measured or locale in table("dateParts")["tags"]:
        return ()
    own_row = inherited(table("dates"), locale) or table("dates")["en"]
    if own_row["cal"] != "gregory":  # (its rows are measured in its own calendar: uz-AF's)
        return ()
    source = locale
    while source not in measured and "-" in source:
        source = source.rsplit("-", 1)[0]
    out = []
    for field in ("era", "year", "month", "weekday", "day", "dayPeriod", "hour", "minute",
                  "second", "timeZoneName"):  # fmt: skip
        own, theirs = displaynames.field_name(locale, field), displaynames.field_name(source, field)
        if own is not None and theirs is not None and own != theirs:
            out.append((f"{theirs}: ", f"{own}: "))
    return tuple(out)


def _renamed(skeleton: dict[str, Any], renames: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The row with the parent's names of appended fields written as the locale's."""

    def text(piece: Any) -> Any:
        if not isinstance(piece, str):
            return piece
        for theirs, own in renames:
            piece = piece.replace(theirs, own)
        return piece

    from flowctx_core.expressions.js.intl.patternread import read

    found = dict(skeleton)
    found["t"] = [text(p) for p in skeleton["t"]]
    before = "".join(p for p in skeleton["t"] if isinstance(p, str))
    after = "".join(p for p in found["t"] if isinstance(p, str))
    if before != after and (
        read(before) != read(after) or any(before.count(c) != after.count(c) for c in _UNREAD)
    ):
        # V8 reads options from the words' letters too (sw-CD's "Muda wa siku" is a month, a
        # day, an hour and a second): the parent's measured reading is not the locale's
        found["renamedWords"] = True
    if skeleton.get("tm"):
        found["tm"] = [[text(p) for p in t] if isinstance(t, list) else t for t in skeleton["tm"]]
    return found


@functools.cache
def _calendar_times() -> frozenset[str]:
    return frozenset(table("calendarTimesOwn"))


def _skeleton(
    locale: str, key: str, calendar: str | None = None, digits: int | None = None
) -> dict[str, Any] | None:
    """The pattern, names and resolved options node has for one option set in a locale, in
    its own Gregorian calendar (None) or in another calendar: measured for the set itself, or
    composed from its date's and its time's as ICU's pattern generator composes them (with
    ``digits`` fractional seconds, where the set asks for them)."""
    special = any(f"{n}=" in key for n in _SPECIAL)
    if calendar is not None:
        # a set of components from its calendar's own file first (tables/calendars, with the
        # styles of every calendar, is read only where that has none)
        if "Style" not in key:
            found = None if special else _part(locale, key, calendar)
            found = found or _composed(locale, key, calendar, digits)
            if found is not None:
                return found
        if special:
            # a time alone with hours, minutes or seconds: its row in the calendar
            time = [p.split("=", 1) for p in key.split(",")]
            names = {n for n, _ in time}
            if names & _DATE_PART or not names & {"hour", "minute", "second"}:
                return None
            return _time_part(locale, time, calendar, digits)
        if key in _key_index("calendarStyles"):
            # the styles with a zone's name, and those with an hour cycle where the locale's own
            # calendar is another, have a table of their own (tables/calendarstyles, with UTC's
            # name as the style writes it)
            return _row("calendarStyles", calendar, locale, key)
        return _row("calendarSkeletons", calendar, locale, key)
    if special:
        return _zone_skeleton(locale, key, digits)
    found = _row("skeletons", None, locale, key)
    if found is not None or _parts_left_out(locale):
        return found
    return _part(locale, key, None) or _composed(locale, key, None)


#: the time fields tables/zoneparts measures (beside the hours, minutes and seconds)
_SPECIAL: Final = ("timeZoneName", "fractionalSecondDigits", "dayPeriod")
_CYCLE_KEYS: Final = frozenset(("hour12", "hourCycle", "hc"))


def _composed(
    locale: str, key: str, calendar: str | None, digits: int | None = None
) -> dict[str, Any] | None:
    """A set of date and time components that node has no pattern of its own for, as ICU's
    pattern generator builds it: the date's pattern and the time's (each the generator's own
    for its fields alone, measured) joined by the locale's date-and-time pattern that the
    date's month and weekday choose; V8 then reads the resolved options back from the whole
    pattern, the join's words too (``patternread``). Where the generator has a pattern of its
    own for the whole set (a weekday with hours: Ehm, EBhm) the set is a measured row or
    refused."""
    from flowctx_core.expressions.js.intl.patternread import fraction_digits, read, variants

    pairs = [p.split("=", 1) for p in key.split(",")]
    date = [(n, v) for n, v in pairs if n in _DATE_PART]
    time = [(n, v) for n, v in pairs if n not in _DATE_PART]
    if not date or not {n for n, _ in time} - _CYCLE_KEYS:
        return None
    names = {n for n, _ in time}
    # ICU has patterns of its own for a weekday with hours (Ehm, EBhm, ...): the Gregorian
    # ones are measured (scripts/intl_date_parts.mjs keeps a row where the join is not node's)
    measured = calendar is None and not names & set(_SPECIAL)
    if (
        [n for n, _ in date] == ["weekday"]
        and not measured
        and ("dayPeriod" in names or ("hour" in names and "timeZoneName" not in names))
    ):
        return None
    d = _date_part(locale, date, calendar)
    t = _time_part(locale, time, calendar, digits)
    joins = inherited(
        table("dateJoins") if calendar is None else table("calendarJoins").get(calendar, {}),
        locale,
    )
    if joins is None or d is None or t is None:
        return None
    join = joins[_join_style(date)]
    asked = dict(pairs)
    # the whole pattern as V8 reads it; where a part's letters are not known (a month alone
    # is L or M) and the reading depends on them, refused
    readings = set()
    # (a time's row of its own count of digits may not show the fraction: hi's hour and second)
    shown = any(isinstance(p, list) and p[0] == "fractionalSecond" for p in t["t"])
    for date_pattern in variants(d["t"], asked, d["r"]):
        for time_pattern in variants(t["t"], asked, t["r"]):
            pattern = "".join(_joined(join, [date_pattern], [time_pattern]))
            # the S a word has beside the fraction's own (de's 'Sekunde')
            words = fraction_digits(pattern) - shown
            readings.add((tuple(read(pattern).items()), words))
    if len(readings) != 1:
        return None
    found, words = readings.pop()
    resolved: dict[str, Any] = {k: t["r"][k] for k in ("hourCycle", "hour12") if k in t["r"]}
    for name, value in found:
        if name == "timeZoneName":
            resolved["fractionalSecondDigits"] = words  # V8 reads the digits before the zone
        resolved[name] = value
    resolved.setdefault("fractionalSecondDigits", words)
    return {
        "read": True,
        "t": _joined(join, d["t"], t["t"]),
        "tm": None if d["tm"] is None else [_joined(join, x, t["t"]) for x in d["tm"]],
        "m": d["m"], "w": d["w"], "dp": t["dp"], "r": resolved, "e": d["e"], "z": None,
        "yn": d.get("yn"), "dn": d.get("dn"), "fs": shown,
    }  # fmt: skip


def _date_part(locale: str, date: list[Any], calendar: str | None) -> dict[str, Any] | None:
    """The pattern of a set's date fields alone: measured, or an era alone (V8 never asks ICU
    for one: it adds a date to it) the era's name, as the generator writes a field it has no
    pattern for."""
    if [n for n, _ in date] == ["era"]:
        width = date[0][1]
        named = _part(locale, f"era={width},year=numeric", calendar)
        if named is None or named["e"] is None:
            return None
        return {"t": [["era", "t"]], "tm": None, "m": None, "w": None, "r": {"era": width},
                "e": named["e"]}  # fmt: skip
    return _part(locale, ",".join(f"{n}={v}" for n, v in date), calendar)


#: the time fields that are written alone as themselves (a zone's name and a day period are
#: measured with the date V8 adds to them)
_ALONE: Final = ({"timeZoneName"}, {"dayPeriod"}, {"fractionalSecondDigits"})


def _time_part(
    locale: str, time: list[Any], calendar: str | None, digits: int | None = None
) -> dict[str, Any] | None:
    """The pattern of a set's time fields alone: tables/dateparts' hours, minutes and seconds,
    tables/zoneparts' with a zone's name, fractional seconds or a day period (in another
    calendar than the locale's own, where the calendar writes the hours as the locale's own
    does, else tables/calendarzones' row of the calendar's own)."""
    key = ",".join(f"{n}={v}" for n, v in time)
    names = {n for n, _ in time} - _CYCLE_KEYS
    if not names & set(_SPECIAL):
        return _part(locale, key, calendar)
    # (a locale whose own calendar is another has tables/zoneparts' times in it: fa's Persian)
    if _parts_left_out(locale) or _left_out(locale, table("zonePartsRefused")):
        return None
    if calendar is not None and names not in _ALONE:
        # a calendar's patterns of hours with a zone or a day period are not always the
        # Gregorian's (en's in 24 hours with a generic zone name, id's dot after a fraction):
        # tables/calendarzones has the calendar's own rows where they differ; the field alone
        # is the field itself beside any calendar's date
        own = _calendar_zone(calendar, locale, key)
        if own is not _GREGORIAN:
            return own
    t = _zone_row(locale, key, digits)
    if t is not None and names in _ALONE[:2]:
        # measured with the date V8 adds to a zone or a day period alone: the field itself
        field = next(iter(names))
        own_r = {k: v for k, v in t["r"].items() if k == field}
        t = {**t, "t": [[field, "t"]], "tm": None, "r": own_r}
    return t


@functools.cache
def _calendar_zone_places(calendar: str, tag: str) -> dict[int, int] | None:
    """A measured locale's differences in a calendar (tables/calendarzones: a set's place
    among the keys and its row, -1 refused), None where the locale was not measured."""
    zones = table("calendarZones")
    at = zones["calendars"].get(calendar, {}).get(tag)
    if at is None:
        return None
    text = zones["profiles"][at]
    places = (p.split(":") for p in text.split(",") if p)
    return {int(k, 36): int(v, 36) for k, v in places}


@functools.cache
def _calendar_zone_keys() -> dict[str, int]:
    return {k: i for i, k in enumerate(table("calendarZones")["keys"])}


def _calendar_zone(calendar: str, locale: str, key: str) -> dict[str, Any] | None:
    """A time set with a zone's name, fractional seconds or a day period in a calendar, as
    scripts/intl_calendar_zones.mjs measured it for the locale whose patterns ``locale`` has:
    ``_GREGORIAN`` where node writes the locale's Gregorian row, the calendar's own row, or
    None (not measured, or a row it could not rebuild: refused)."""
    at = _calendar_zone_keys().get(key)
    if at is None or not _measured_in(calendar, locale):
        return None
    aborted = table("calendarZones")["aborted"]
    tag = locale
    while True:
        if tag in aborted:  # (node aborted on it: not measured)
            return None
        places = _calendar_zone_places(calendar, tag)
        if places is not None:
            break
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]
    index = places.get(at)
    if index is None:
        return _GREGORIAN
    if index < 0:
        return None
    zones = table("calendarZones")
    return _built(zones["pool"], zones["rows"][index])


def _join_style(date: Any) -> str:
    """Which of the locale's date-and-time joins ICU's generator takes: the month's width
    decides (a long month with a weekday is the full one)."""
    fields = dict(date)
    month = fields.get("month")
    if month == "long":
        return "full" if "weekday" in fields else "long"
    return "medium" if month == "short" else "short"


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


def _zone_skeleton(locale: str, key: str, digits: int | None) -> dict[str, Any] | None:
    """A set with a zone's name, fractional seconds or a day period: ICU's generator takes
    them as time fields, so a time alone is its row of tables/zoneparts, a date with a time
    their composition as any other's."""
    pairs = [p.split("=", 1) for p in key.split(",")]
    if any(n in _DATE_PART for n, _ in pairs):
        return _composed(locale, key, None, digits)
    if _parts_left_out(locale) or _left_out(locale, table("zonePartsRefused")):
        return None
    return _zone_row(locale, key, digits)


def _zone_row(locale: str, key: str, digits: int | None) -> dict[str, Any] | None:
    """tables/zoneparts' row of a set of time fields: with fractional seconds, the row of
    their own count of digits where ICU's pattern for it is not the three digits' with fewer
    (its generator matches a fraction by its count of digits: an hour and a second without
    the minute, a 2-digit second, each its way), with the count V8 reads from it measured
    ("fixed"); else the set's."""
    if digits is not None and "fractionalSecondDigits=*" in key:
        own = key.replace("fractionalSecondDigits=*", f"fractionalSecondDigits={digits}")
        found = _row("zoneParts", None, locale, own)
        if found is not None:
            return {**found, "fixed": True}
    return _row("zoneParts", None, locale, key)


def _left_out(locale: str, tags: list[str]) -> bool:
    """Whether the locale or a parent is one a script left out."""
    tag = locale
    while True:
        if tag in tags:
            return True
        if "-" not in tag:
            return False
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


#: the calendars scripts/intl_calendar_times.mjs compared with the locales' own
_OWN_TIMES: Final = frozenset(
    ("japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla", "gregory")
)
_DATE_PART: Final = frozenset(("weekday", "era", "year", "month", "day"))


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


class _Pool:
    """A pool whose values are kept as JSON text (tables/dateparts), read on first use."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, at: int) -> Any:
        return _pooled(self.name, at)


@functools.cache
def _pooled(name: str, at: int) -> Any:
    import json

    return json.loads(table(name)["pool"][at])


@functools.cache
def _heirs(calendar: str) -> frozenset[str]:
    """The locales whose dates node writes otherwise than their parent's in a calendar
    (scripts/intl_locale_heirs.mjs)."""
    return frozenset(table("localeHeirs").get(calendar, ()))


@functools.cache
def _listed(name: str, calendar: str | None, tag: str) -> list[int | None]:
    """A locale's list over a table's keys (None where it is the parent's); a list kept as
    text (base 36, tables/zoneparts) is read on its first use."""
    if name == "calendarParts":  # one file per calendar
        found = calendar_parts(str(calendar))["tags"][tag]
    else:
        skeletons = table(name)
        found = (skeletons["tags"] if calendar is None else skeletons["calendars"][calendar])[tag]
    if isinstance(found, str):
        return [None if x == "" else int(x, 36) for x in found.split(",")]
    return list(found)


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
    # a locale with no rows of its own in a calendar reads its parent's, but not where node
    # writes its dates otherwise (tables/heirs: fa-AF's Afghan month names are not fa's)
    heirs = _heirs(str(calendar)) if name == "calendarParts" else frozenset()
    tag = locale
    while True:
        found = _listed(name, calendar, tag) if tag in tags else None
        index = None if found is None else found[at]
        if index is not None:
            break
        if "-" not in tag or (found is None and tag in heirs):
            return None
        tag = tag.rsplit("-", 1)[0]
    if index < 0:
        return _GREGORIAN if index == -2 else None
    pool = _Pool(name) if skeletons.get("texts") else skeletons["pool"]
    return _built(pool, skeletons["rows"][index])


def _built(pool: Any, row: Any) -> dict[str, Any]:
    """A pooled row's values: [pattern, patterns by month, months, weekdays, day periods,
    resolved options, eras, zone's name, years' names, days' names], -1 where none."""
    if isinstance(row, str):  # a row as text (base 36), tables/dateparts
        row = [int(x, 36) for x in row.split(",")]
    t, tm, months, weekdays, periods, resolved, eras, *more = row
    # after a zone's name's place, the Chinese calendars' year and day names
    yn, dn = (more[1], more[2]) if len(more) > 2 else (-1, -1)
    return {
        "yn": pool[yn] if yn >= 0 else None, "dn": pool[dn] if dn >= 0 else None,
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
