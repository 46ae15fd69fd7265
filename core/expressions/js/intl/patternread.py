"""What V8's ``resolvedOptions`` reads back from a DateTimeFormat's pattern: for each option in
its order, the first of the option's letter runs (longest first, in V8's order) found anywhere in
the pattern, its words' letters too (fi's 'klo' is an hour, cs's 'v' a generic zone name, an
appended field's name such as 'AM/PM' a month). flowctx keeps patterns as parts (a field and its
width, or text): the pattern is written back from them, each field in the letters of the width
the option set asked for."""

from __future__ import annotations

import itertools
from typing import Any, Final

#: V8's options and their letter runs, in the order it reads them
_ITEMS: Final = (
    ("weekday", (("EEEEE", "narrow"), ("EEEE", "long"), ("EEE", "short"), ("ccccc", "narrow"),
                 ("cccc", "long"), ("ccc", "short"))),
    ("era", (("GGGGG", "narrow"), ("GGGG", "long"), ("GGG", "short"))),
    ("year", (("yy", "2-digit"), ("y", "numeric"))),
    ("month", (("MMMMM", "narrow"), ("MMMM", "long"), ("MMM", "short"), ("MM", "2-digit"),
               ("M", "numeric"), ("LLLLL", "narrow"), ("LLLL", "long"), ("LLL", "short"),
               ("LL", "2-digit"), ("L", "numeric"))),
    ("day", (("dd", "2-digit"), ("d", "numeric"))),
    ("dayPeriod", (("BBBBB", "narrow"), ("bbbbb", "narrow"), ("BBBB", "long"), ("bbbb", "long"),
                   ("B", "short"), ("b", "short"))),
    ("hour", (("HH", "2-digit"), ("H", "numeric"), ("hh", "2-digit"), ("h", "numeric"),
              ("kk", "2-digit"), ("k", "numeric"), ("KK", "2-digit"), ("K", "numeric"))),
    ("minute", (("mm", "2-digit"), ("m", "numeric"))),
    ("second", (("ss", "2-digit"), ("s", "numeric"))),
    ("timeZoneName", (("zzzz", "long"), ("z", "short"), ("OOOO", "longOffset"),
                      ("O", "shortOffset"), ("vvvv", "longGeneric"), ("v", "shortGeneric"))),
)  # fmt: skip
_NAMED: Final = {"narrow": 5, "long": 4, "short": 3}
_PERIODS: Final = {"narrow": 5, "long": 4, "short": 1}
_HOURS: Final = {"h11": "K", "h12": "h", "h23": "H", "h24": "k"}
#: fields whose letters V8 reads as no option (the related Gregorian year r, the cycle's U)
_UNREAD: Final = {"relatedYear": "r", "yearName": "U"}
_ZONES: Final = {"short": "z", "long": "zzzz", "shortOffset": "O", "longOffset": "OOOO",
                 "shortGeneric": "v", "longGeneric": "vvvv"}  # fmt: skip


def written(
    pieces: list[Any], asked: dict[str, str], cycle: str | None, standalone: bool = False
) -> str | None:
    """The pattern of a template: its texts as they are, each field in the letters of its width
    (a named field's as ``asked``, hours in the ``cycle``'s letter, the month and weekday in
    their stand-alone letters L and c where ``standalone``); None for a field flowctx cannot
    write back."""
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        name, width = piece[0], piece[1]
        # (a zone's piece may name the style its pattern writes: el's 24-hour times)
        want = piece[2] if len(piece) > 2 else asked.get(name)
        if name == "era" and want is None:
            out.append("G")  # an era V8 does not read (the calendars' own beside a year)
        elif name in ("weekday", "era"):
            if want not in _NAMED:
                return None
            letter = "G" if name == "era" else "c" if standalone else "E"
            out.append(letter * _NAMED[want])
        elif name == "month":
            # (a month asked by name may be written in digits: az's narrow ones)
            letter = "L" if standalone else "M"
            if want in _NAMED:
                out.append(letter * _NAMED[want])
            elif width == "t":
                return None
            else:
                out.append(letter * (2 if width == 2 else 1))
        elif name in ("year", "day", "minute", "second"):
            if width == "t":
                return None
            letter = {"year": "y", "day": "d", "minute": "m", "second": "s"}[name]
            out.append(letter * (2 if width == 2 else 1))
        elif name == "hour":
            if cycle not in _HOURS or width == "t":
                return None
            out.append(_HOURS[cycle] * (2 if width == 2 else 1))
        elif name == "dayPeriod":
            # ICU's am/pm (a) where the set asked for no flexible day period
            out.append("B" * _PERIODS[want] if want in _PERIODS else "a")
        elif name == "fractionalSecond":
            out.append("S")
        elif name == "timeZoneName":
            if want not in _ZONES:
                return None
            out.append(_ZONES[want])
        elif name in _UNREAD:
            out.append(_UNREAD[name])  # the Chinese calendars' years: letters V8 never reads
        else:
            return None
    return "".join(out)


def read(pattern: str) -> dict[str, str]:
    """The options V8 reads from a pattern, in its order (hourCycle, hour12 and the fractional
    second's digits are not read here)."""
    found: dict[str, str] = {}
    for name, runs in _ITEMS:
        for letters, value in runs:
            if letters in pattern:
                found[name] = value
                break
    return found


def variants(pieces: list[Any], asked: dict[str, str], resolved: dict[str, Any]) -> list[str]:
    """The patterns a measured template may have been: written in the formatting or the
    stand-alone letters, each kept where its reading is the options node resolved for it (both
    may be: a month alone is L or M to V8's reading, but not beside another word's M)."""
    cycle = resolved.get("hourCycle")
    own = {k: v for k, v in resolved.items() if k not in ("hourCycle", "hour12")}
    # (an era V8 resolves no width for is one letter G: the calendars' own beside a year)
    wanted = {k: v for k, v in asked.items() if k != "era"}
    found = []
    # a field in the width V8 read, else in the width asked (de's month alone is LLLL, read
    # as numeric for the M of its appended 'Monat')
    for widths, standalone in itertools.product(
        ({**wanted, **own}, {**own, **wanted}), (False, True)
    ):
        pattern = written(pieces, widths, cycle, standalone)
        if pattern is None or pattern in found:
            continue
        reading = read(pattern)
        if "timeZoneName" not in own:  # (the zone tables leave the zone's name out)
            reading.pop("timeZoneName", None)
        if reading == own:
            found.append(pattern)
    return found


def fraction_digits(pattern: str) -> int:
    """V8's fractionalSecondDigits of a pattern: its letters S, three at most."""
    return min(pattern.count("S"), 3)
