"""``Date.parse`` for every text: V8's date parser (its ES5 ISO reader, then the legacy reader
it falls back to for whatever follows), as node 20 runs it.

The text is read as tokens (numbers with their digit count, the symbols ``: - + . )``, words
matched on their first three letters against month names, AM/PM, zone names and ``T``,
whitespace, parenthesised comments, anything else unknown). The ES5 reader takes the longest
ISO prefix it can (``[+-]yyyyyy|yyyy[-MM[-DD]][THH:mm[:ss[.sss]][Z|+-hh:mm]]``); if the text
goes on, the legacy reader continues from that token with what was read so far. The legacy
reader files numbers into a day (up to three parts), a time (hour, minute, second,
millisecond) and a zone, by what precedes and follows them, and then composes the day:
month-day-year unless the first number cannot be a day (``99-01`` is year 1999), two-digit
years 0-49 in the 2000s and 50-99 in the 1900s, missing parts 1 (so ``'5.'`` is May 1, 2001).
A text without a zone is local time; an invalid one is NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from flowctx_core.expressions.js.values import JS_WHITESPACE

NONE: Final = -(2**31)
_MAX_DIGITS: Final = 9
_MONTH, _AM_PM, _ZONE, _T, _INVALID = "month", "ampm", "zone", "t", "invalid"
_KEYWORDS: Final = [
    *((name, _MONTH, i + 1) for i, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])),
    ("am", _AM_PM, 0), ("pm", _AM_PM, 12), ("ut", _ZONE, 0), ("utc", _ZONE, 0), ("z", _ZONE, 0),
    ("gmt", _ZONE, 0), ("cdt", _ZONE, -5), ("cst", _ZONE, -6), ("edt", _ZONE, -4),
    ("est", _ZONE, -5), ("mdt", _ZONE, -6), ("mst", _ZONE, -7), ("pdt", _ZONE, -7),
    ("pst", _ZONE, -8), ("t", _T, 0),
]  # fmt: skip
_LINE_TERMINATORS: Final = "\n\r\u2028\u2029"
# What ends a word: white space, which U+2028 and U+2029 (line terminators) are not, so they
# are letters of a word, unknown, as V8 reads them ('2024-01-01\u2028' is NaN)
_WORD_ENDS: Final = JS_WHITESPACE.replace("\u2028", "").replace("\u2029", "")


@dataclass(frozen=True)
class _Token:
    kind: str  # "num", "sym", "word", "ws", "unknown", "end", "invalid"
    value: int | str = 0
    length: int = 0
    word: str = ""  # a keyword's type

    def sym(self, c: str) -> bool:
        return self.kind == "sym" and self.value == c

    def sign(self) -> bool:
        return self.kind == "sym" and self.value in ("+", "-")

    def fixed(self, n: int) -> bool:
        return self.kind == "num" and self.length == n


def _keyword(prefix: str, length: int) -> tuple[str, int]:
    for name, kind, value in _KEYWORDS:
        if prefix == name and (length <= 3 or kind == _MONTH):
            return kind, value
    return _INVALID, 0


class _Scanner:
    def __init__(self, text: str) -> None:
        self.s, self.i = text, 0
        self.next_token = self.scan()

    def scan(self) -> _Token:
        s, n, start = self.s, len(self.s), self.i
        if start >= n:
            return _Token("end")
        c = s[start]
        if "0" <= c <= "9":
            i = start
            while i < n and s[i] == "0":
                i += 1
            value, digits = 0, 0
            while i < n and "0" <= s[i] <= "9":
                if digits < _MAX_DIGITS:
                    value = value * 10 + ord(s[i]) - 48
                digits += 1
                i += 1
            self.i = i
            return _Token("num", value, i - start)
        if c in ":-+.)":
            self.i += 1
            return _Token("sym", c, 1)
        if c >= "A" and c not in _WORD_ENDS:
            i = start
            while i < n and s[i] >= "A" and s[i] not in _WORD_ENDS:
                i += 1
            self.i = i
            word = s[start:i]
            prefix = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in word[:3])
            kind, value = _keyword(prefix, len(word))
            return _Token("word", value, len(word), kind)
        if c in JS_WHITESPACE or c in _LINE_TERMINATORS:
            i = start
            while i < n and s[i] in _WORD_ENDS:  # a U+2028 after a space starts a word
                i += 1
            self.i = i
            return _Token("ws", 0, i - start)
        if c == "(":
            balance, i = 0, start
            while True:
                if s[i] == ")":
                    balance -= 1
                elif s[i] == "(":
                    balance += 1
                i += 1
                if not (balance > 0 and i < n):
                    break
            self.i = i
            return _Token("unknown")
        self.i += 1
        return _Token("unknown")

    def next(self) -> _Token:
        token = self.next_token
        self.next_token = self.scan()
        return token

    def peek(self) -> _Token:
        return self.next_token

    def skip(self, c: str) -> bool:
        if self.next_token.sym(c):
            self.next()
            return True
        return False


def _between(x: int, lo: int, hi: int) -> bool:
    return lo <= x <= hi


class _Day:
    def __init__(self) -> None:
        self.comp: list[int] = []
        self.named_month = NONE
        self.iso = False

    def add(self, n: int) -> bool:
        if len(self.comp) < 3:
            self.comp.append(n)
            return True
        return False

    def write(self) -> tuple[int, int, int] | None:
        if not self.comp:
            return None
        # the missing parts are 1, and V8 tells the orders apart after filling them in: a
        # lone '12' is December 1 of year 1 (2001), 'Jan 5' January 5, 2001
        comp = self.comp + [1] * (3 - len(self.comp))
        if self.named_month == NONE:
            if self.iso or not _between(comp[0], 1, 31):
                year, month, day = comp
            else:
                month, day, year = comp
        else:
            month = self.named_month
            if not _between(comp[0], 1, 31):
                year, day = comp[0], comp[1]
            else:
                day, year = comp[0], comp[1]
        if not self.iso:
            if _between(year, 0, 49):
                year += 2000
            elif _between(year, 50, 99):
                year += 1900
        if not (_between(month, 1, 12) and _between(day, 1, 31)):
            return None
        if not _between(year, -(2**30), 2**30 - 1):
            return None
        return year, month - 1, day


class _Time:
    def __init__(self) -> None:
        self.comp: list[int] = []
        self.hour_offset = NONE

    def empty(self) -> bool:
        return not self.comp

    def add(self, n: int) -> bool:
        if len(self.comp) < 4:
            self.comp.append(n)
            return True
        return False

    def add_final(self, n: int) -> bool:
        if not self.add(n):
            return False
        self.comp += [0] * (4 - len(self.comp))
        return True

    def expecting(self, n: int) -> bool:
        k = len(self.comp)
        return (
            (k == 1 and _between(n, 0, 59))
            or (k == 2 and _between(n, 0, 59))
            or (k == 3 and _between(n, 0, 999))
        )

    def write(self) -> tuple[int, int, int, int] | None:
        hour, minute, second, ms = self.comp + [0] * (4 - len(self.comp))
        if self.hour_offset != NONE:
            if not _between(hour, 0, 12):
                return None
            hour = hour % 12 + self.hour_offset
        if not (
            _between(hour, 0, 23)
            and _between(minute, 0, 59)
            and _between(second, 0, 59)
            and _between(ms, 0, 999)
        ) and (hour != 24 or minute or second or ms):
            return None
        return hour, minute, second, ms


class _Zone:
    def __init__(self) -> None:
        self.sign = NONE
        self.hour = NONE
        self.minute = NONE

    def set(self, hours: int) -> None:
        self.sign = -1 if hours < 0 else 1
        self.hour, self.minute = abs(hours), 0

    def empty(self) -> bool:
        return self.hour == NONE

    def utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def expecting(self, n: int) -> bool:
        return self.hour != NONE and self.minute == NONE and _between(n, 0, 59)

    def write(self) -> float | None:
        """The offset in seconds, NaN for local time; None when it cannot be."""
        if self.sign == NONE:
            return math.nan
        hour = 0 if self.hour == NONE else self.hour
        minute = 0 if self.minute == NONE else self.minute
        total = hour * 3600 + minute * 60
        if total > 2**30 - 1:
            return None
        return float(-total if self.sign < 0 else total)


def _milliseconds(token: _Token) -> int:
    number, length = int(token.value), token.length
    if length == 1:
        return number * 100
    if length == 2:
        return number * 10
    if length > 3:
        length = min(length, _MAX_DIGITS)
        return number // 10 ** (length - 3)
    return number


def _es5(scanner: _Scanner, day: _Day, time: _Time, zone: _Zone) -> _Token:
    """The ES5 ISO prefix; the first token it does not take ("end" when it took all)."""
    peek = scanner.peek()
    if peek.sign():
        sign_token = scanner.next()
        if not scanner.peek().fixed(6):
            return sign_token
        year = int(scanner.next().value)
        if sign_token.value == "-" and year == 0:
            return sign_token
        day.add(-year if sign_token.value == "-" else year)
    elif peek.fixed(4):
        day.add(int(scanner.next().value))
    else:
        return scanner.next()
    if scanner.skip("-"):
        p = scanner.peek()
        if not p.fixed(2) or not _between(int(p.value), 1, 12):
            return scanner.next()
        day.add(int(scanner.next().value))
        if scanner.skip("-"):
            p = scanner.peek()
            if not p.fixed(2) or not _between(int(p.value), 1, 31):
                return scanner.next()
            day.add(int(scanner.next().value))
    p = scanner.peek()
    if not (p.kind == "word" and p.word == _T):
        if p.kind != "end":
            return scanner.next()
    else:
        scanner.next()
        p = scanner.peek()
        if not p.fixed(2) or not _between(int(p.value), 0, 24):
            return _Token("invalid")
        hour_is_24 = p.value == 24
        time.add(int(scanner.next().value))
        if not scanner.skip(":"):
            return _Token("invalid")
        p = scanner.peek()
        if not p.fixed(2) or not _between(int(p.value), 0, 59) or (hour_is_24 and p.value):
            return _Token("invalid")
        time.add(int(scanner.next().value))
        if scanner.skip(":"):
            p = scanner.peek()
            if not p.fixed(2) or not _between(int(p.value), 0, 59) or (hour_is_24 and p.value):
                return _Token("invalid")
            time.add(int(scanner.next().value))
            if scanner.skip("."):
                p = scanner.peek()
                if p.kind != "num" or (hour_is_24 and p.value):
                    return _Token("invalid")
                time.add(_milliseconds(scanner.next()))
        p = scanner.peek()
        if p.kind == "word" and p.word == _ZONE and p.length == 1 and p.value == 0:
            scanner.next()  # Z
            zone.set(0)
        elif p.sign():
            zone.sign = 1 if scanner.next().value == "+" else -1
            p = scanner.peek()
            if p.fixed(4):
                hourmin = int(scanner.next().value)
                hour, minute = divmod(hourmin, 100)
                if not (_between(hour, 0, 23) and _between(minute, 0, 59)):
                    return _Token("invalid")
                zone.hour, zone.minute = hour, minute
            else:
                if not p.fixed(2) or not _between(int(p.value), 0, 23):
                    return _Token("invalid")
                zone.hour = int(scanner.next().value)
                if not scanner.skip(":"):
                    return _Token("invalid")
                p = scanner.peek()
                if not p.fixed(2) or not _between(int(p.value), 0, 59):
                    return _Token("invalid")
                zone.minute = int(scanner.next().value)
        if scanner.peek().kind != "end":
            return _Token("invalid")
    if zone.empty() and time.empty():
        zone.set(0)  # a date-only form is UTC
    day.iso = True
    return _Token("end")


def parse_fields(text: str) -> tuple[tuple[int, ...], float] | None:
    """(year, month0, day, hour, minute, second, ms) and the zone offset in seconds (NaN:
    local time), or None when V8 reads no date in ``text``."""
    scanner = _Scanner(text)
    day, time, zone = _Day(), _Time(), _Zone()
    token = _es5(scanner, day, time, zone)
    if token.kind == "invalid":
        return None
    has_number = bool(day.comp)
    while token.kind != "end":
        if token.kind == "num":
            has_number = True
            n = int(token.value)
            if scanner.skip(":"):
                if scanner.skip(":"):
                    if not time.empty():
                        return None
                    time.add(n)
                    time.add(0)
                else:
                    if not time.add(n):
                        return None
                    if scanner.peek().sym("."):
                        scanner.next()
            elif scanner.skip(".") and time.expecting(n):
                time.add(n)
                if scanner.peek().kind != "num":
                    return None
                ms = _milliseconds(scanner.next())
                if ms < 0:
                    return None
                time.add_final(ms)
            elif zone.expecting(n):
                zone.minute = n
            elif time.expecting(n):
                time.add_final(n)
                p = scanner.peek()
                if not (
                    p.kind in ("end", "ws")
                    or (p.kind == "word" and p.word == _ZONE and p.length == 1 and p.value == 0)
                    or p.sign()
                ):
                    return None
            else:
                if not day.add(n):
                    return None
                scanner.skip("-")
        elif token.kind == "word" and token.word != _INVALID:
            if token.word == _AM_PM and not time.empty():
                time.hour_offset = int(token.value)
            elif token.word == _MONTH:
                day.named_month = int(token.value)
                scanner.skip("-")
            elif token.word == _ZONE and has_number:
                zone.set(int(token.value))
            else:
                if has_number:
                    return None
                if scanner.peek().kind == "num":
                    return None
        elif token.kind == "word":
            if has_number:
                return None
            if scanner.peek().kind == "num":
                return None
        elif token.sign() and (zone.utc() or not time.empty()):
            zone.sign = 1 if token.value == "+" else -1
            n, length = 0, 0
            if scanner.peek().kind == "num":
                got = scanner.next()
                n, length = int(got.value), got.length
            has_number = True
            if scanner.peek().sym(":"):
                zone.hour, zone.minute = n, NONE
            elif length in (1, 2):
                zone.hour, zone.minute = n, 0
            elif length in (3, 4):
                zone.hour, zone.minute = n // 100, n % 100
            else:
                return None
        elif (token.sign() or token.sym(")")) and has_number:
            return None
        token = scanner.next()
    fields = day.write()
    clock = time.write()
    offset = zone.write()
    if fields is None or clock is None or offset is None:
        return None
    return (*fields, *clock), offset


def parse_date(
    text: str,
    make_day: Callable[[float, float, float], float],
    make_time: Callable[[float, float, float, float], float],
    to_utc: Callable[[float], float],
) -> float:
    """The time value ``Date.parse(text)`` gives (NaN when none)."""
    found = parse_fields(text)
    if found is None:
        return math.nan
    (year, month, day_, hour, minute, second, ms), offset = found
    date = make_day(year, month, day_) * 86_400_000 + make_time(hour, minute, second, ms)
    if date != date:
        return math.nan
    limit = 8.64e15
    if offset != offset:  # local time
        if abs(date) > limit + 864_000_000:
            return math.nan
        date = to_utc(date)
    else:
        date -= offset * 1000.0
        if abs(date) > limit:
            return math.nan
    if date != date or abs(date) > limit:
        return math.nan
    return float(math.trunc(date)) + 0.0
