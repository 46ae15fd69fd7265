"""``formatRange`` and ``formatRangeToParts`` of the option sets tables/dateranges did not measure
whole, built as ICU's DateIntervalFormat builds them for V8 (node 20's ICU), from what
scripts/intl_date_intervals.mjs measured of each locale (tables/dateintervals).

V8 gives ICU the skeleton of its own pattern (its fields' letters and widths in ICU's order),
with the hour cycle as the locale's -u-hc-; ICU then

- writes the hour of that skeleton as the locale's generator writes it alone (its hour letter,
  and the day period letter: a, or zh-Hant's flexible B), and splits the skeleton into a date
  skeleton and a time skeleton, each normalized (MM is M, dd d, EEE E; one h, m, z or v);
- picks the interval skeleton of the locale (CLDR's intervalFormats) nearest the time skeleton,
  else the date skeleton: the same fields, then the nearest widths (a name against a number
  counts 256, each letter of width 1); a skeleton with other fields is none (-1), and so is a
  time with seconds. Its pattern for the greatest differing field (y, M, d, a, h, m) is
  widened to the asked widths where it writes a field at the skeleton's own width
  (MMM d – d to MMMM d – d), z where the skeleton has v, K and k where it has h and H. Where
  the skeleton has no pattern for a date field, ICU takes the pattern of the skeleton with that
  field added (y for MMMd's years: yMMMd's); a time without a date is written with the year,
  month and day ("yMd" added to its skeleton) where the days differ;
- for a date with a time: where the day or more differs, both dates in full (the skeleton with
  the day, month and year added where it has none: a weekday with hours writes the day);
  else the date once, joined by the locale's date-and-time pattern to the time's interval
  pattern (or, with seconds, to both times in full);
- formats an interval pattern's first part (up to the first field written twice) with the
  first date and the rest with the second; else both dates written in full, joined by the
  locale's fallback pattern ("{0} – {1}", tables/rangefallbacks);
- ICU's dates written in full are its generator's patterns for their skeletons, which are
  V8's patterns for the same fields but for the hour's width, the locale's own (tables/
  dateintervals "w": de's 03:04 where format writes 3:04).

V8 reads the parts back: the fields ICU wrote twice make each date's span (their first writing
the start's, their second the end's), everything else is "shared"; where no field is written
twice, V8 writes the start date by its own pattern instead.

Where ICU writes dates in full by its generator's own patterns, they are V8's for the same fields
but where the table measured otherwise for a set of date fields ("D": a stand-alone month or
weekday reads otherwise, ja's M/dEEEE; refused there), and V8's pattern must write the fields as
asked (a weekday without its day beside other fields, or a field V8's generator appended by
its name, "G (Month: M)", ICU reads back otherwise: refused).

Refused (the reason named): other calendars than the Gregorian (and locales whose own calendar
is another), a -u-hc- in the locale, fractional seconds (node aborts on formatRangeToParts) and
the dayPeriod option, flexible day periods (zh-Hant's B), two dates in different eras, equally
near interval skeletons (ICU takes the first in its hash table's order), and whatever the
table did not measure."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import zonenames, zones
from flowctx_core.expressions.js.intl.data import inherited, table

#: ICU's calendar fields an interval compares, by flowctx's levels (datetimeformat's)
ERA, YEAR, MONTH, DATE, AM_PM, HOUR, MINUTE, SECOND, MILLISECOND = range(0, 90, 10)
#: the letter ICU's interval data keys each field by (fgCalendarFieldToPatternLetter)
_FIELD_LETTER: Final = {ERA: "G", YEAR: "y", MONTH: "M", DATE: "d", AM_PM: "a", HOUR: "h",
                        MINUTE: "m", SECOND: "s", MILLISECOND: "S"}  # fmt: skip
#: a pattern letter's calendar level (SimpleDateFormat's; a zone's name is the era's)
_LEVEL: Final = {
    "G": 0, "y": 10, "Y": 10, "u": 10, "U": 10, "r": 10, "Q": 20, "q": 20, "M": 20, "L": 20,
    "w": 20, "W": 30, "d": 30, "D": 30, "E": 30, "e": 30, "c": 30, "F": 30, "g": 0, "a": 40,
    "A": 40, "h": 50, "H": 50, "k": 50, "K": 50, "m": 60, "s": 70, "S": 80, "z": 0, "Z": 0,
    "v": 0, "V": 0, "O": 0, "X": 0, "x": 0,
}  # fmt: skip
#: V8's part type of each letter
_TYPES: Final = {
    "G": "era", "y": "year", "M": "month", "L": "month", "d": "day", "E": "weekday",
    "c": "weekday", "a": "dayPeriod", "b": "dayPeriod", "B": "dayPeriod", "h": "hour",
    "H": "hour", "K": "hour", "k": "hour", "m": "minute", "s": "second",
    "S": "fractionalSecond", "z": "timeZoneName", "v": "timeZoneName", "O": "timeZoneName",
}  # fmt: skip
_CYCLE_LETTER: Final = {"h11": "K", "h12": "h", "h23": "H", "h24": "k"}
_LETTER_CYCLE: Final = {v: k for k, v in _CYCLE_LETTER.items()}
_TEXT_COUNT: Final = {"short": 3, "long": 4, "narrow": 5}
_COUNT_TEXT: Final = {3: "short", 4: "long", 5: "narrow"}
_ZONE_LETTERS: Final = {
    "short": ("z", 1), "long": ("z", 4), "shortGeneric": ("v", 1), "longGeneric": ("v", 4),
    "shortOffset": ("O", 1), "longOffset": ("O", 4),
}  # fmt: skip
_LETTERS_ZONE: Final = {v: k for k, v in _ZONE_LETTERS.items()}

Skeleton = tuple[tuple[str, int], ...]


def refuse(why: str) -> Unsupported:
    return Unsupported(f"flowctx does not reproduce formatRange of two dates {why}")


# ---- the measured table ---------------------------------------------------------------------


@functools.cache
def _shape_index(kind: str) -> dict[str, int]:
    return {k: i for i, k in enumerate(table("dateIntervals")[kind])}


def _own(tag: str, key: str) -> Any:
    """A locale's entry of the table: its own, else its nearest measured parent's."""
    tags = table("dateIntervals")["tags"]
    while True:
        found = tags.get(tag, {}).get(key)
        if found is not None:
            return found
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]


@functools.cache
def _measured(tag: str) -> bool:
    tags = table("dateIntervals")["tags"]
    while tag not in tags:
        if "-" not in tag:
            return False
        tag = tag.rsplit("-", 1)[0]
    return True


@functools.cache
def _intervals(tag: str) -> dict[str, dict[str, Any]]:
    """A locale's interval skeletons and their patterns by field letter (a parent's, but
    where the locale's own differ; null: the locale has none for it)."""
    chain = []
    t = tag
    while True:
        chain.append(t)
        if "-" not in t:
            break
        t = t.rsplit("-", 1)[0]
    tags = table("dateIntervals")["tags"]
    out: dict[str, dict[str, Any]] = {}
    for t in reversed(chain):
        for skeleton, levels in tags.get(t, {}).get("i", {}).items():
            if levels is None:
                out.pop(skeleton, None)
            else:
                out[skeleton] = levels
    return out


def own_below(tag: str, ancestor: str) -> bool:
    """Whether a locale, or a parent of it below ``ancestor``, has interval patterns or a
    date-and-time join of its own (not ``ancestor``'s)."""
    tags = table("dateIntervals")["tags"]
    while tag != ancestor and tag.startswith(ancestor):
        own = tags.get(tag, {})
        if "i" in own or "g" in own:
            return True
        tag = tag.rsplit("-", 1)[0]
    return False


def _standalone(tag: str, shape: str) -> bool | None:
    """Whether the set of date fields ``shape`` (no day) writes the stand-alone month (LLL),
    None where not measured."""
    at = _shape_index("monthShapes").get(shape)
    own = _own(tag, "L")
    if at is None or own is None:
        return None
    if f"{tag}:L:{at}" in _aborted():
        return None
    return at in own


def _generator_dates(tag: str, shape: str) -> str | None:
    """The fields (d, M, y; h for a day's two times; P for the dates alone) where ICU's
    generator writes a set of date fields' dates otherwise than V8 (scripts/intl_date_intervals.mjs
    "D"), None where not measured."""
    at = _shape_index("dateShapes").get(shape)
    if at is None or f"{tag}:D:{at}" in _aborted():
        return None
    tags = table("dateIntervals")["tags"]
    t = tag
    while True:
        own = tags.get(t, {}).get("D")
        if own is not None:
            return str(own.get(str(at), ""))
        if "-" not in t:
            return None
        t = t.rsplit("-", 1)[0]


@functools.cache
def _aborted() -> frozenset[str]:
    return frozenset(table("dateIntervalsAborted"))


def _hour_width(tag: str, shape: str) -> int | None:
    at = _shape_index("timeShapes").get(shape)
    widths = _own(tag, "w")
    if at is None or widths is None:
        return None
    width = int(widths[at])
    return width or None


# ---- skeletons ------------------------------------------------------------------------------


def _counts(skeleton: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in skeleton:
        out[c] = out.get(c, 0) + 1
    return out


def _text(skeleton: Skeleton) -> str:
    return "".join(c * n for c, n in skeleton)


def _normalize_hour(skeleton: str, flexible: bool) -> str:
    """ICU's normalizeHourMetacharacters: the hour as one letter (the locale's generator's for
    it alone, the same here) with the day period it writes (a; refused where flexible)."""
    hour = period = ""
    hour_at = hour_len = period_at = period_len = 0
    for i, c in enumerate(skeleton):
        if c in "jJChHkK":
            if not hour:
                hour, hour_at = c, i
            hour_len += 1
        elif c in "abB":
            if not period:
                period, period_at = c, i
            period_len += 1
        elif hour and period:
            break
    if not hour:
        return skeleton
    if hour in "hK" and flexible:
        raise refuse("the locale's intervals write with flexible day periods (B)")
    letter = hour if hour in "hHkK" else "H"
    period = period or "a"
    joined = letter
    if letter not in "Hk":
        n = 5 if period_len >= 5 or hour_len >= 5 else 3 if period_len >= 3 or hour_len >= 3 else 1
        joined += period * n
    out = skeleton[:hour_at] + joined + skeleton[hour_at + hour_len :]
    if period_at > hour_at:
        period_at += len(joined) - hour_len
    return out[:period_at] + out[period_at + period_len :]


def _split_skeleton(skeleton: str) -> tuple[str, str, str, str]:
    """ICU's getDateTimeSkeleton: the date skeleton, normalized date skeleton, time skeleton and
    normalized time skeleton (a zone's localized GMT format, O, is in neither)."""
    date = ndate = time = ntime = ""
    counts = {"E": 0, "d": 0, "M": 0, "y": 0, "m": 0, "z": 0, "v": 0}
    hour = ""
    for c in skeleton:
        if c in "EdMy":
            date += c
            counts[c] += 1
        elif c in "GYuQqLlWwDFgecUr":
            ndate += c
            date += c
        elif c in "hHkK":
            time += c
            hour = hour or c
        elif c in "mzv":
            time += c
            counts[c] += 1
        elif c in "aVZjsSAbB":
            time += c
            ntime += c
    ndate += "y" * counts["y"]
    if counts["M"]:
        ndate += "M" if counts["M"] < 3 else "M" * min(counts["M"], 5)
    if counts["E"]:
        ndate += "E" if counts["E"] <= 3 else "E" * min(counts["E"], 5)
    if counts["d"]:
        ndate += "d"
    ntime += hour + ("m" if counts["m"] else "") + ("z" if counts["z"] else "")
    ntime += "v" if counts["v"] else ""
    return date, ndate, time, ntime


def _best(skeletons: dict[str, Any], skeleton: str) -> tuple[str | None, int]:
    """ICU's getBestSkeleton: the nearest interval skeleton and how it differs (0 the same, 1
    widths, 2 only z/v, K/k or a/b, -1 other fields). ICU takes the first of equally near
    ones in its hash table's order: refused where they differ."""
    replaced = any(c in skeleton for c in "zkKab")
    asked = skeleton
    if replaced:
        asked = (
            skeleton.replace("z", "v").replace("k", "H").replace("K", "h").replace("a", "")
            .replace("b", "")
        )  # fmt: skip
    widths = _counts(asked)
    best: list[str] = []
    best_distance = 1 << 30
    best_info = 0
    for candidate in skeletons:
        theirs = _counts(candidate)
        distance = 0
        info = 1
        for c in set(widths) | set(theirs):
            a, b = widths.get(c, 0), theirs.get(c, 0)
            if a == b:
                continue
            if a == 0 or b == 0:
                info = -1
                distance += 0x1000
            elif c == "M" and (a <= 2 < b or b <= 2 < a):
                distance += 0x100
            else:
                distance += abs(a - b)
        if distance < best_distance:
            best, best_distance, best_info = [candidate], distance, info
        elif distance == best_distance:
            best.append(candidate)
    if not best:
        return None, 0
    if best_distance == 0:
        best_info = 0
    if len(best) > 1 and best_info != -1:
        raise refuse(
            "with this set of options (ICU picks among equally near interval skeletons "
            f"{sorted(best)} in its own order)"
        )
    if replaced and best_info != -1:
        best_info = 2
    return best[0], best_info


def _ignored(pattern: str, level: int) -> bool:
    """SimpleDateFormat::isFieldUnitIgnored: whether no letter of the pattern is that field's
    or a finer one."""
    quoted = False
    for c in pattern:
        if c == "'":
            quoted = not quoted
        elif not quoted and c.isascii() and c.isalpha() and level <= _LEVEL.get(c, -1):
            return False
    return True


# ---- patterns -------------------------------------------------------------------------------

#: a pattern's item: a literal text, a field ("F", letter, count) of an interval pattern, or a
#: whole date ("P", skeleton) written by ICU's generator for a skeleton
Item = Any


def parse(pattern: str) -> list[Item]:
    out: list[Item] = []
    i = 0

    def literal(s: str) -> None:
        if out and isinstance(out[-1], str):
            out[-1] += s
        else:
            out.append(s)

    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            if pattern[i + 1 : i + 2] == "'":
                literal("'")
                i += 2
                continue
            j, s = i + 1, ""
            while j < len(pattern):
                if pattern[j] == "'" and pattern[j + 1 : j + 2] == "'":
                    s += "'"
                    j += 2
                    continue
                if pattern[j] == "'":
                    break
                s += pattern[j]
                j += 1
            literal(s)
            i = j + 1
        elif c.isascii() and c.isalpha():
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            out.append(("F", c, j - i))
            i = j
        else:
            literal(c)
            i += 1
    return out


def _letters(items: list[Item]) -> list[str | None]:
    """Each item's letters (a generator's date: its fields', in order), None for a literal."""
    out: list[str | None] = []
    for it in items:
        if isinstance(it, str):
            out.append(None)
        elif it[0] == "F":
            out.append(it[1])
        else:
            out.append("".join(dict.fromkeys(it[1])))
    return out


def split_at(items: list[Item]) -> int:
    """ICU's splitPatternInto2Part: the second part starts at the first field whose letter was
    written before."""
    seen: set[str] = set()
    for i, letters in enumerate(_letters(items)):
        if letters is None:
            continue
        for c in letters:
            if c in seen:
                if len(letters) > 1:
                    raise refuse("with this set of options (ICU splits a date of its own)")
                return i
            seen.add(c)
    return len(items)


def _adjust(items: list[Item], asked: str, best: str, info: int) -> list[Item]:
    """ICU's adjustFieldWidth: a field the pattern writes at the skeleton's own width is widened
    to the asked one; z for v, K for h, k for H where asked."""
    if info == 2:
        swaps = {}
        if "z" in asked:
            swaps["v"] = "z"
        if "K" in asked:
            swaps["h"] = "K"
        if "k" in asked:
            swaps["H"] = "k"
        if "b" in asked:
            swaps["a"] = "b"
        items = [("F", swaps.get(it[1], it[1]), it[2]) if isinstance(it, tuple) else it
                 for it in items]  # fmt: skip
    theirs, ours = _counts(best), _counts(asked)
    if any(isinstance(it, tuple) and it[1] == "a" for it in items):
        theirs.setdefault("a", 1)
    if any(isinstance(it, tuple) and it[1] == "b" for it in items):
        theirs.setdefault("b", 1)
    out = []
    for it in items:
        if isinstance(it, tuple):
            c = "M" if it[1] == "L" else it[1]
            if theirs.get(c, 0) == it[2] and ours.get(c, 0) > it[2]:
                it = ("F", it[1], ours[c])
        out.append(it)
    return out


@dataclass
class _Info:
    """A field's interval pattern (its two parts, the later date first or not); an empty first
    part: both dates written in full by the second."""

    first: list[Item]
    second: list[Item]
    later: bool
    #: why it is refused, where it is
    unknown: str | None = None


def _info(items: list[Item], later: bool) -> _Info:
    cut = split_at(items)
    return _Info(items[:cut], items[cut:], later)


# ---- the builder ----------------------------------------------------------------------------


class _Builder:
    """ICU's DateIntervalFormat for one DateTimeFormat (initializePattern and formatImpl)."""

    def __init__(self, dtf: Any) -> None:
        self.dtf = dtf
        self.tag = dtf.o["locale"].split("-u-")[0]
        self.skeletons = _intervals(self.tag)
        self.patterns: dict[int, _Info] = {}
        self.date_pattern: Item | None = None
        self.time_pattern: Item | None = None
        letters = v8_skeleton(dtf, self.tag)
        self.skeleton = _text(letters)
        self.shape = _date_shape(letters)
        self.glue: list[str] | None = None
        self._build()

    # -- ICU's generator ----------------------------------------------------------------

    def generated(self, skeleton: str) -> Item:
        """The pattern ICU's generator writes for a skeleton (built where it is written: V8's
        for the same fields, with the hour at the locale's own width)."""
        return ("P", skeleton)

    # -- initializePattern --------------------------------------------------------------

    def _build(self) -> None:
        flexible = self._flexible()
        converted = _normalize_hour(self.skeleton, flexible)
        date, ndate, time, ntime = _split_skeleton(converted)
        self.has_date, self.has_time = bool(date), bool(time)
        if time and date:
            self.glue = _own(self.tag, "g")
        found = self._separate(ndate, ntime)
        if not found:
            if time and not date:
                self._days(time)
            return
        if not time:
            return
        if not date:
            self._days(time)
            return
        skeleton = self.skeleton
        for field, letter in ((DATE, "d"), (MONTH, "M"), (YEAR, "y"), (ERA, "G")):
            if letter not in date:
                skeleton = letter + skeleton
                self.patterns[field] = _Info([], [self.generated(skeleton)], False)
        if self.glue is None:  # (not measured: refused where it is needed)
            for field in (AM_PM, HOUR, MINUTE):
                if field in self.patterns:
                    self.patterns[field] = _Info(
                        [], [], False, "the locale's date-and-time pattern was not measured"
                    )
            return
        date_item = self.generated(date)
        for field in (AM_PM, HOUR, MINUTE):
            self._concat(date_item, field)

    def _flexible(self) -> bool:
        cycle = self.dtf.skeleton["r"].get("hourCycle") if self.dtf.skeleton else None
        cycle = self.dtf.o.get("hourCycle") or cycle
        return cycle in (_own(self.tag, "B") or ())

    def _days(self, time: str) -> None:
        """A time alone: the year, month and day added where the days differ."""
        item = self.generated("yMd" + time)
        for field in (DATE, MONTH, YEAR):
            self.patterns[field] = _Info([], [item], False)
        self.patterns[ERA] = _Info([], [self.generated("GyMd" + time)], False)

    def _separate(self, date: str, time: str) -> bool:
        """ICU's setSeparateDateTimePtn."""
        skeleton = time or date
        best, info = _best(self.skeletons, skeleton)
        if best is None:
            return False
        if date:
            self.date_pattern = self.generated(date)
        if time:
            self.time_pattern = self.generated(time)
        if info == -1:
            return False
        if not time:
            sk, bs = _Ref(skeleton), _Ref(best)
            ext, ext_best = _Ref(""), _Ref("")
            self._set(DATE, sk, bs, info, ext, ext_best)
            if self._set(MONTH, sk, bs, info, ext, ext_best):
                sk, bs = ext, ext_best
            self._set(YEAR, sk, bs, info, ext, ext_best)
            self._set(ERA, sk, bs, info, ext, ext_best)
        else:
            sk, bs = _Ref(skeleton), _Ref(best)
            for field in (MINUTE, HOUR, AM_PM):
                self._set(field, sk, bs, info, None, None)
        return True

    def _pattern(self, skeleton: str, field: int) -> list[Item] | None:
        levels = self.skeletons.get(skeleton)
        if levels is None:
            return None
        letter = _FIELD_LETTER[field]
        found = levels.get(letter)
        if found == "?":  # (refused where it is written)
            return [
                ("L", False),
                (
                    "?",
                    f"ICU's {skeleton} interval pattern for the {letter} "
                    "field did not rebuild node's parts",
                ),
            ]
        if not found:
            return None
        later = found.startswith("latestFirst:")
        items = parse(found.removeprefix("latestFirst:"))
        return [("L", later), *items]

    def _set(self, field: int, skeleton: _Ref, best: _Ref, info: int, ext: _Ref | None,
             ext_best: _Ref | None) -> bool:  # fmt: skip
        """ICU's setIntervalPattern (the extended skeletons ICU shares between the date
        fields' calls, so that a month's extension carries to the year's)."""
        best_value = best.value
        pattern = self._pattern(best_value, field)
        if pattern is None:
            if _ignored(best_value, field):
                return False
            if field == AM_PM:
                pattern = self._pattern(best_value, HOUR)
                if pattern is not None:
                    self._store(field, pattern, skeleton.value, best_value, info)
                return False
            if ext is not None and ext_best is not None:
                letter = _FIELD_LETTER[field]
                ext.value = letter + skeleton.value
                ext_best.value = letter + best.value
                best_value = ext_best.value
                pattern = self._pattern(best_value, field)
                if pattern is None and info == 0:
                    tmp, tmp_info = _best(self.skeletons, ext_best.value)
                    if tmp is not None and tmp_info != -1:
                        pattern = self._pattern(tmp, field)
                        best_value = tmp
                    info = tmp_info
        if pattern is not None:
            self._store(field, pattern, skeleton.value, best_value, info)
            if ext is not None and ext.value:
                return True
        return False

    def _store(self, field: int, pattern: list[Item], asked: str, best: str, info: int) -> None:
        (_, later), *items = pattern
        if items and items[0][0] == "?":
            self.patterns[field] = _Info([], [], False, items[0][1])
            return
        if info != 0:
            items = _adjust(items, asked, best, info)
        self.patterns[field] = _info(items, later)

    def _concat(self, date_item: Item, field: int) -> None:
        """ICU's concatSingleDate2TimeInterval: the date once, joined to the time's interval
        pattern by the date-and-time pattern."""
        found = self.patterns.get(field)
        if found is None or not found.first:
            return
        assert self.glue is not None
        order, pre, mid, post = self.glue
        time = [*found.first, *found.second]
        parts = [date_item, mid, *time] if order == "dt" else [*time, mid, date_item]
        items = [it for it in [pre, *parts, post] if it != ""]
        self.patterns[field] = _info(_merged(items), found.later)

    # -- formatImpl ---------------------------------------------------------------------

    def _check(self, level: int, whole: bool = False) -> None:
        """Refused where ICU's generator writes the set's dates otherwise than V8 for the
        fields it asks (measured per set of date fields)."""
        if not self.shape:
            return
        fields = set(dict(p.split("=") for p in self.shape.split(",")))
        made = self.dtf.o.get("made")
        asked = set(made[1]) & {"era", "year", "month", "weekday", "day"} if made else fields
        if any("weekday" in f and "day" not in f and len(f) > 1 for f in (fields, asked)):
            # (V8's generator appends the other fields to the weekday, "EEE (month: MM)",
            # which ICU reads back as a skeleton of stand-alone fields: "MM EEE")
            raise refuse(
                "with this set of options (a weekday without its day, beside other date "
                "fields: ICU's generator writes them otherwise than V8)"
            )
        if _appended(self.dtf):
            # (V8's generator appended a field it has no pattern with, "EEE (month: MM)" or
            # "G (Month: M)", and wrote it otherwise than asked: ICU reads the pattern back as a
            # skeleton of its own and writes it otherwise, "MM EEE", "G (Month: MM)")
            raise refuse(
                "with this set of options (V8's generator writes its date fields otherwise than "
                "asked)"
            )
        found = _generator_dates(self.tag, self.shape)
        letters = {{YEAR: "y", MONTH: "M", DATE: "d"}.get(level, "h")}
        if whole and level < AM_PM:  # (both dates in full by the set's own skeleton: "P" too)
            letters.add("P")
        if found is None or letters & set(found):
            raise refuse(
                "with this set of options (ICU's generator writes its dates otherwise than V8)"
                if found is not None
                else "with this set of "
                "options (how ICU's generator writes its dates was not measured)"
            )

    def format(self, x: float, y: float, level: int) -> list[tuple[str, str, str]] | None:
        """The parts of the range (type, value, source), None where ICU writes no field twice
        (V8 writes the start date by its own pattern)."""
        if level == ERA:
            raise refuse("in different eras")
        same_day = level >= AM_PM
        found = self.patterns.get(level)
        if found is not None and found.unknown is not None:
            raise refuse(f"with this set of options ({found.unknown})")
        if found is None:
            if _ignored(self.skeleton, level):
                return None
            self._check(level, whole=True)
            pieces = self._fallback(x, y, same_day, None)
        elif not found.first:
            self._check(level)
            pieces = self._fallback(x, y, same_day, found.second)
        else:
            if any(isinstance(it, tuple) and it[0] == "P" for it in found.first + found.second):
                self._check(level)
            first, second = (y, x) if found.later else (x, y)
            pieces = self._render(found.first, first) + self._render(found.second, second)
        return _v8_parts(pieces, 1 if found is not None and found.first and found.later else 0)

    def _fallback(self, x: float, y: float, same_day: bool, pattern: list[Item] | None
                  ) -> list[tuple[str, str | None]]:  # fmt: skip
        if same_day and self.date_pattern is not None and self.time_pattern is not None:
            if self.glue is None:
                raise refuse(
                    "with this set of options (the locale's date-and-time pattern was not measured)"
                )
            order, pre, mid, post = self.glue
            time = self._range([self.time_pattern], x, y)
            date = self._render([self.date_pattern], x)
            parts = [*date, (mid, None), *time] if order == "dt" else [*time, (mid, None), *date]
            return [(pre, None), *parts, (post, None)]
        return self._range(pattern or [self.generated(self.skeleton)], x, y)

    def _range(self, pattern: list[Item], x: float, y: float) -> list[tuple[str, str | None]]:
        found = inherited(table("rangeFallbacks"), self.tag)
        if found is None or self.tag in table("rangeFallbacksRefused"):
            raise refuse(
                "with this set of options (the locale's fallback pattern was not measured)"
            )
        pre, mid, post = found
        return [(pre, None), *self._render(pattern, x), (mid, None), *self._render(pattern, y),
                (post, None)]  # fmt: skip

    def _render(self, items: list[Item], t: float) -> list[tuple[str, str | None]]:
        out: list[tuple[str, str | None]] = []
        for it in items:
            if isinstance(it, str):
                out.append((it, None))
            elif it[0] == "F":
                out.append((_field_text(self.dtf, it[1], it[2], t), _TYPES.get(it[1], "?")))
            elif set(it[1]) == {"G"}:  # an era alone (V8 adds a date to it): its name
                out.append((_field_text(self.dtf, "G", len(it[1]), t), "era"))
            else:
                found = _generated(self.dtf, self.tag, it[1])
                out.extend((v, None if k == "literal" else k) for k, v in _p_parts(found, t))
        return out


class _Ref:
    """A skeleton ICU passes by pointer (setSeparateDateTimePtn's extended ones)."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value


def _merged(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for it in items:
        if isinstance(it, str) and out and isinstance(out[-1], str):
            out[-1] += it
        else:
            out.append(it)
    return out


def _v8_parts(pieces: list[tuple[str, str | None]], first_index: int
              ) -> list[tuple[str, str, str]] | None:  # fmt: skip
    """V8's parts of ICU's text: its fields, the literal text between them, and each one's
    source by ICU's spans (the first and second writing of the fields written twice)."""
    fields = []
    pos = 0
    text = ""
    for value, kind in pieces:
        start = pos
        pos += len(value)
        text += value
        if kind is not None and value:
            fields.append((start, pos, kind, value))
    spans: list[tuple[int, int]] = []
    s1a, s1b, s2a, s2b = 1 << 30, 0, 1 << 30, 0
    for i, (a, b, kind, _) in enumerate(fields):
        for c, d, other, _ in fields[i + 1 :]:
            if other == kind:
                s1a, s1b = min(s1a, a), max(s1b, b)
                s2a, s2b = min(s2a, c), max(s2b, d)
                break
    if s1a == 1 << 30:
        return None
    spans = [(s1a, s1b), (s2a, s2b)]
    if first_index == 1:
        spans.reverse()

    def source(a: int, b: int) -> str:
        if spans[0][0] <= a and b <= spans[0][1]:
            return "startRange"
        if spans[1][0] <= a and b <= spans[1][1]:
            return "endRange"
        return "shared"

    out: list[tuple[str, str, str]] = []
    prev = 0
    for a, b, kind, value in fields:
        if a > prev:
            out.append(("literal", text[prev:a], source(prev, a)))
        out.append((kind, value, source(a, b)))
        prev = b
    if len(text) > prev:
        out.append(("literal", text[prev:], source(prev, len(text))))
    return out


# ---- V8's pattern, as ICU reads its skeleton -----------------------------------------------


def v8_skeleton(dtf: Any, tag: str) -> Skeleton:
    """The skeleton of V8's pattern for the set (ICU's staticGetSkeleton: each field's letter
    and width, in the generator's order): the widths the resolved options read, the hour's
    letter its cycle, a month's name without a day the stand-alone L where the table says."""
    sk = dtf.skeleton
    if sk is None:
        raise refuse("with this set of options (the Date methods' default forms)")
    made = dtf.o.get("made")
    asked = made[1] if made is not None else {}
    r = sk["r"]
    cycle = dtf.o.get("hourCycle") or r.get("hourCycle")
    out: dict[str, tuple[str, int]] = {}
    for piece in sk["t"]:
        if isinstance(piece, str):
            continue
        name, width = piece[0], piece[1] if len(piece) > 1 else 0
        if name == "year":
            out["y"] = (
                "y",
                2 if r.get("year", "2-digit" if width == 2 else "") == "2-digit" else 1,
            )
        elif name == "month":
            # (V8's resolved options read the pattern's letters: he's narrow months are
            # numbers, written by MMMMM)
            dated = any(isinstance(p, list) and p[0] == "day" for p in sk["t"])
            month = r.get("month")
            if month is None and width == "t":  # (a style's: told by its names)
                month = _width_of(dtf, "month", sk["m"], dated)
            count = {"numeric": 1, "2-digit": 2, **_TEXT_COUNT}.get(month or "")
            if count is None:
                count = 2 if width == 2 else 1
            out["M"] = ("M" if dated else _month_letter(tag, asked), count)
        elif name == "day":
            out["d"] = ("d", 2 if r.get("day", "2-digit" if width == 2 else "") == "2-digit" else 1)
        elif name == "weekday":
            weekday = r.get("weekday") or _width_of(dtf, "weekday", sk["w"], True)
            out["E"] = ("E", _TEXT_COUNT[weekday])
        elif name == "era":
            era = r.get("era") or _width_of(dtf, "era", sk["e"], True)
            out["G"] = ("G", {"short": 1, "long": 4, "narrow": 5}[era])
        elif name == "hour":
            if cycle not in _CYCLE_LETTER:
                raise refuse("with this set of options (the hour cycle)")
            wide = r.get("hour", "2-digit" if width == 2 else "") == "2-digit"
            out["h"] = (_CYCLE_LETTER[cycle], 2 if wide else 1)
        elif name in ("minute", "second"):
            wide = r.get(name, "2-digit" if width == 2 else "") == "2-digit"
            out[name[0]] = (name[0], 2 if wide else 1)
        elif name in ("dayPeriod", "a"):
            if dtf.o.get("dayPeriod") is not None:
                raise refuse("with the dayPeriod option (ICU's flexible day periods)")
            periods = sk.get("dp") or []
            if set(periods) - {dtf.row["am"], dtf.row["pm"], ""}:
                raise refuse("with this set of options (flexible day periods)")
            out["a"] = ("a", 1)
        elif name == "timeZoneName":
            if len(piece) > 2:  # (a pattern that writes the zone in another style: el's)
                raise refuse("with this set of options (the zone's name)")
            style = dtf.o.get("zoneStyle")
            if style is None and dtf.o.get("timeStyle") in ("full", "long"):
                style = zonenames.time_style(tag, dtf.o["timeStyle"])
            if style not in _ZONE_LETTERS:
                raise refuse("with this set of options (the zone's name)")
            out["z"] = _ZONE_LETTERS[style]
        elif name == "fractionalSecond":
            raise refuse("with fractionalSecondDigits (node aborts on formatRangeToParts)")
        else:
            raise refuse(f"with this set of options (the {name} field)")
    order = {"G": 0, "y": 1, "M": 2, "E": 3, "d": 4, "a": 5, "h": 6, "m": 7, "s": 8, "z": 9}
    return tuple(v for _, v in sorted(out.items(), key=lambda kv: order[kv[0]]))


def _appended(dtf: Any) -> bool:
    """Whether V8's pattern writes the asked date fields otherwise than asked (a field left
    out, or a number's width not the one its resolved options read): its generator appended
    them."""
    sk = dtf.skeleton
    made = dtf.o.get("made")
    if sk is None or made is None:
        return False
    pieces = {p[0]: p[1] if len(p) > 1 else 0 for p in sk["t"] if isinstance(p, list)}
    for name in ("era", "year", "month", "weekday", "day"):
        if name in made[1] and name not in pieces:
            return True
        width = sk["r"].get(name)
        numeric = name in pieces and pieces[name] != "t" and width in ("numeric", "2-digit")
        if numeric and (pieces[name] == 2) != (width == "2-digit"):
            return True
    return False


def _date_shape(letters: Skeleton) -> str:
    """The V8 options of a skeleton's date fields (the sets scripts/intl_date_intervals.mjs
    checked ICU's generator's dates of), "" where it has none."""
    o: dict[str, str] = {}
    for c, n in letters:
        if c == "G":
            o["era"] = "short" if n <= 3 else _COUNT_TEXT[min(n, 5)]
        elif c == "y":
            o["year"] = "2-digit" if n == 2 else "numeric"
        elif c in "ML":
            o["month"] = {1: "numeric", 2: "2-digit"}.get(n) or _COUNT_TEXT[min(n, 5)]
        elif c in "Ec":
            o["weekday"] = "short" if n <= 3 else _COUNT_TEXT[min(n, 5)]
        elif c == "d":
            o["day"] = "numeric"
    return ",".join(f"{k}={o[k]}" for k in sorted(o))


def _width_of(dtf: Any, name: str, names: Any, dated: bool) -> str:
    """A style's month, weekday or era width (its resolved options have none): the one whose
    names are its pattern's (a month's with a day where the pattern has one, else alone)."""
    key = {"month": "m", "weekday": "w", "era": "e"}[name]
    found = []
    for width in ("short", "long", "narrow"):
        options: dict[str, Any] = {name: width, "timeZone": dtf.o["timeZone"],
                                   "numberingSystem": dtf.o["numberingSystem"]}  # fmt: skip
        if name == "era":
            options["year"] = "numeric"
        elif dated:
            options["day"] = "numeric"
        source = _constructed(dtf.o["locale"].split("-u-")[0], tuple(sorted(options.items())))
        if source.refused is None and (source.skeleton or {}).get(key) == names:
            found.append(width)
    if len(found) != 1:
        raise refuse(f"with this set of options (the width of the style's {name} names)")
    return found[0]


def _month_letter(tag: str, asked: dict[str, Any]) -> str:
    """M, or L where the set's pattern writes the stand-alone month (a month without a day,
    as scripts/intl_date_intervals.mjs measured each set of date fields)."""
    shape = ",".join(f"{k}={asked[k]}" for k in sorted(asked)
                     if k in ("era", "year", "month", "weekday"))  # fmt: skip
    found = _standalone(tag, shape)
    if found is None:
        raise refuse(
            "with this set of options (whether its month is the stand-alone one was not measured)"
        )
    return "L" if found else "M"


# ---- ICU's generator's patterns and the fields' texts --------------------------------------


#: the option each skeleton letter asks for (None: none V8 has)
_KINDS: Final = {
    "G": "era", "y": "year", "M": "month", "L": "month", "E": "weekday", "c": "weekday",
    "d": "day", "h": "hour", "H": "hour", "K": "hour", "k": "hour", "m": "minute",
    "s": "second", "z": "zone", "v": "zone", "O": "zone", "a": "period", "b": "flexible",
    "B": "flexible", "S": "fraction",
}  # fmt: skip


def _options_of(skeleton: str) -> dict[str, Any]:
    """The V8 options whose pattern is the generator's for a skeleton (a later letter of a
    field wins, as the generator reads a skeleton)."""
    counts: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(skeleton):
        c = skeleton[i]
        j = i
        while j < len(skeleton) and skeleton[j] == c:
            j += 1
        n = j - i
        kind = _KINDS.get(c)
        if kind is None or kind in ("flexible", "fraction"):
            raise refuse(f"with this set of options (ICU's generator's pattern for {skeleton})")
        counts[kind] = (c, n)
        i = j
    o: dict[str, Any] = {}
    for kind, (c, n) in counts.items():
        if kind == "era":
            o["era"] = "short" if n <= 3 else "long" if n == 4 else "narrow"
        elif kind == "year":
            o["year"] = "2-digit" if n == 2 else "numeric"
        elif kind == "month":
            o["month"] = {1: "numeric", 2: "2-digit"}.get(n) or _COUNT_TEXT.get(n, "narrow")
        elif kind == "weekday":
            o["weekday"] = "short" if n <= 3 else "long" if n == 4 else "narrow"
        elif kind == "day":
            o["day"] = "2-digit" if n == 2 else "numeric"
        elif kind == "hour":
            o["hour"] = "2-digit" if n == 2 else "numeric"
            o["hourCycle"] = _LETTER_CYCLE[c]
        elif kind in ("minute", "second"):
            o[kind] = "2-digit" if n == 2 else "numeric"
        elif kind == "zone":
            style = _LETTERS_ZONE.get((c, 1 if n < 4 else 4))
            if style is None:
                raise refuse(f"with this set of options (ICU's generator's pattern for {skeleton})")
            o["timeZoneName"] = style
    return o


def _generated(dtf: Any, tag: str, skeleton: str) -> tuple[Any, int | None]:
    """V8's format for the generator's fields of a skeleton, and the hour's width ICU's
    generator writes them at (None: no hour)."""
    o = _options_of(skeleton)
    width = None
    if "hour" in o:
        shape = {"hour": "numeric", "hourCycle": o["hourCycle"]}
        if "minute" in o:
            shape["minute"] = "2-digit"
        if "second" in o:
            shape["second"] = "2-digit"
        date = {k for k in o if k in ("era", "year", "month", "day", "weekday")}
        if date == {"weekday"} and "minute" in o and "second" in o and "timeZoneName" not in o:
            shape["weekday"] = "short"
        elif date == {"weekday"} and "minute" in o:
            raise refuse(
                "with this set of options (ICU's own pattern of a weekday with hours "
                "and minutes was not measured)"
            )
        if "timeZoneName" in o:
            shape["timeZoneName"] = o["timeZoneName"]
        key = ",".join(f"{k}={shape[k]}" for k in sorted(shape))
        width = _hour_width(tag, key)
        if width is None:
            raise refuse(
                f"with this set of options (the hour's width of ICU's {skeleton} was not measured)"
            )
    full = {**o, "timeZone": dtf.o["timeZone"], "numberingSystem": dtf.o["numberingSystem"]}
    found = _constructed(dtf.o["locale"].split("-u-")[0], tuple(sorted(full.items())))
    if found.refused is not None:
        raise refuse(f"with this set of options (V8's pattern for {skeleton}: {found.refused})")
    return found, width


@functools.cache
def _constructed(locale: str, options: tuple[tuple[str, Any], ...]) -> Any:
    # (through Intl's registry: datetimeformat imports this module)
    from flowctx_core.expressions.js import intl

    try:
        return intl.service("datetimeformat").construct(locale, dict(options))
    except Unsupported as exc:  # (kept as refused)
        return _Refused(str(exc))


class _Refused:
    def __init__(self, why: str) -> None:
        self.refused = why


def _p_parts(found: tuple[Any, int | None], t: float) -> list[tuple[str, str]]:
    """A generator's date at an instant: V8's parts of its pattern, the hour at ICU's width."""
    from flowctx_core.expressions.js import dates

    dtf, width = found
    sk = dtf.skeleton
    if sk is None:
        pattern = dtf.row[dtf.kind]
        pattern = [p if p != ["dayPeriod", "t"] else ["a", 0] for p in pattern]
    elif sk["tm"] is not None:
        mo = dates._fields(t + zones.offset_ms(dtf.o["timeZone"], t))[1]
        pattern = sk["tm"][mo]
    else:
        pattern = sk["t"]
    if width is not None:
        pattern = [["hour", 2 if width == 2 else 0] if isinstance(p, list) and p[0] == "hour"
                   else p for p in pattern]  # fmt: skip
    return list(dtf.parts(t, pattern))


def _field_text(dtf: Any, letter: str, count: int, t: float) -> str:
    """One field of an interval pattern at an instant, in the set's numbering system: a name
    as V8 writes it for the option set whose pattern has that letter (a month's with a day,
    a stand-alone month's alone)."""
    from flowctx_core.expressions.js import dates

    local = t + zones.offset_ms(dtf.o["timeZone"], t)
    y, mo, d, h, mi, s, _, _ = dates._fields(local)
    digits = str.maketrans("0123456789", dtf.o["digits"])

    def num(n: int, width: int) -> str:
        return f"{n:0{width}d}".translate(digits)

    if letter == "y":
        if y < 1:
            raise refuse("before the year 1")
        return num(y % 100, 2) if count == 2 else num(y, count)
    if letter in "ML" and count <= 2:
        return num(mo + 1, count)
    if letter == "d":
        return num(d, count)
    if letter == "h":
        return num(h % 12 or 12, count)
    if letter == "K":
        return num(h % 12, count)
    if letter == "H":
        return num(h, count)
    if letter == "k":
        return num(h or 24, count)
    if letter == "m":
        return num(mi, count)
    if letter == "s":
        return num(s, count)
    if letter == "a" and count == 1:
        return str(dtf.row["am"] if h < 12 else dtf.row["pm"])
    options: dict[str, Any]
    if letter in "ML":
        options = {"month": _COUNT_TEXT[min(count, 5)]}
        if letter == "M":
            options["day"] = "numeric"
        name = "month"
    elif letter in "Ec":
        options = {"weekday": "short" if count <= 3 else _COUNT_TEXT[min(count, 5)]}
        if letter == "E":
            options["day"] = "numeric"
        name = "weekday"
    elif letter == "G":
        options = {"era": "short" if count <= 3 else _COUNT_TEXT[min(count, 5)], "year": "numeric"}
        name = "era"
    elif letter in "zvO" and (letter, 1 if count < 4 else 4) in _LETTERS_ZONE:
        options = {
            "hour": "numeric",
            "timeZoneName": _LETTERS_ZONE[(letter, 1 if count < 4 else 4)],
        }
        name = "timeZoneName"
    else:
        raise refuse(f"with this set of options (ICU's {letter * count} in an interval)")
    options.update(timeZone=dtf.o["timeZone"], numberingSystem=dtf.o["numberingSystem"])
    source = _constructed(dtf.o["locale"].split("-u-")[0], tuple(sorted(options.items())))
    if source.refused is not None:
        raise refuse(f"with this set of options ({letter * count}: {source.refused})")
    # (a name: where the option set writes a number instead, pt's narrow month beside a day,
    # the names are not known)
    resolved = source.skeleton["r"] if source.skeleton is not None else {}
    if name == "month" and resolved.get("month") != options["month"]:
        raise refuse(f"with this set of options (ICU's {letter * count} in an interval)")
    for kind, value in source.parts(t):
        if kind == name:
            return str(value)
    raise refuse(f"with this set of options (ICU's {letter * count} in an interval)")


# ---- the entry point ------------------------------------------------------------------------


def range_parts(dtf: Any, x: float, y: float, level: int) -> list[tuple[str, str, str]] | None:
    """formatRangeToParts' parts (type, value, source) of two instants differing first at
    ``level``, None where V8 writes the start date alone (no field written twice)."""
    o = dtf.o
    if o["calendar"] != "gregory" or dtf.row["cal"] != "gregory":
        raise refuse(f"in the {o['calendar']} calendar (ICU's interval patterns)")
    if "-u-" in o["locale"] and "hc-" in o["locale"].split("-u-")[1]:
        raise refuse("with a -u-hc- in the locale (ICU's interval patterns)")
    tag = o["locale"].split("-u-")[0]
    if not _measured(tag):
        raise refuse(f"in {tag!r} (ICU's interval patterns were not measured)")
    return _Builder(dtf).format(x, y, level)
