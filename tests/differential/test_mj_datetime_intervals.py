"""formatRange and formatRangeToParts of the option sets tables/dateranges did not measure whole,
built as ICU's DateIntervalFormat builds them (core/expressions/js/intl/intervals.py, from
tables/dateintervals), against MemberJunction 5.51.3 under node in one batch: sets of components
no table measured (a month and day with hours, a weekday with hours and minutes, a year and a
long month, hours, minutes and seconds with a date, 2-digit widths, hour12 and hourCycle, eras,
zones' names) in languages of other scripts, digits and interval patterns, each for two instants
differing first in the year, month, day, am/pm, hour, minute and second; then sets drawn at
random. Texts and parts with their sources compared exactly; the rest refused."""

from __future__ import annotations

import calendar
import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 47
LOCALES = ["en", "en-GB", "de", "fr", "ja", "zh", "ko", "ar", "hi", "ru", "fi", "pt-BR", "es",
           "it", "nl", "pl", "tr", "sv", "he", "id", "vi", "uk", "cs", "es-MX", "de-CH",
           "ca"]  # fmt: skip
#: sets no table measured whole (scripts/intl_date_ranges.mjs measures their neighbours)
SETS: list[dict[str, Any]] = [
    {"month": "short", "day": "numeric", "hour": "numeric"},
    {"month": "long", "day": "numeric", "hour": "numeric", "minute": "2-digit"},
    {"weekday": "long", "hour": "numeric", "minute": "2-digit"},
    {"weekday": "short", "day": "numeric", "hour": "numeric", "hour12": False},
    {"year": "2-digit", "month": "long"},
    {"year": "numeric", "month": "long", "day": "2-digit"},
    {
        "year": "numeric",
        "month": "short",
        "day": "numeric",
        "hour": "numeric",
        "minute": "2-digit",
        "second": "2-digit",
    },
    {
        "year": "numeric",
        "month": "numeric",
        "day": "numeric",
        "hour": "numeric",
        "minute": "numeric",
        "second": "numeric",
        "hour12": True,
    },
    {"hour": "2-digit", "minute": "2-digit", "second": "2-digit", "hourCycle": "h23"},
    {"month": "2-digit", "day": "2-digit", "hour": "2-digit", "minute": "2-digit"},
    {"day": "numeric", "hour": "numeric", "minute": "2-digit", "hourCycle": "h23"},
    {"hour": "numeric", "minute": "2-digit", "hourCycle": "h11"},
    {"hour": "numeric", "hour12": False},
    {"era": "short", "year": "numeric", "month": "short", "day": "numeric"},
    {"era": "long", "year": "numeric", "month": "long", "day": "numeric", "weekday": "long"},
    {"weekday": "long", "year": "2-digit", "month": "long", "day": "numeric"},
    {"month": "narrow", "day": "numeric", "year": "numeric"},
    {"hour": "2-digit", "minute": "2-digit", "timeZoneName": "shortGeneric"},
    {
        "month": "short",
        "day": "numeric",
        "hour": "numeric",
        "minute": "2-digit",
        "timeZoneName": "shortOffset",
    },
    {"hour": "numeric", "minute": "2-digit", "second": "2-digit", "timeZoneName": "long"},
    {"month": "long", "day": "numeric", "weekday": "narrow"},
    {"weekday": "short", "hour": "2-digit"},
]
#: the fields two instants differ in first (year down to second), as UTC fields
_INDEX = {"year": 0, "month": 1, "day": 2, "ampm": 3, "hour": 3, "minute": 4, "second": 5}
ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Tokyo"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).formatRange(payload.a, payload.b)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatRangeToParts(payload.a,"
    " payload.b))",
]


def _ms(f: list[int]) -> int:
    return calendar.timegm((f[0], f[1] + 1, f[2], f[3], f[4], f[5])) * 1000 + f[6]


def _pair(r: random.Random, level: str, offset_hours: int) -> tuple[int, int]:
    """Two instants whose local fields (the zone's offset) differ first at ``level``."""
    first = [1950 + r.randrange(100), r.randrange(12), 1 + r.randrange(28), r.randrange(24),
             r.randrange(60), r.randrange(60), r.randrange(1000)]  # fmt: skip
    second = list(first)
    at = _INDEX[level]
    second[at:] = [2000 + r.randrange(40), r.randrange(12), 1 + r.randrange(28), r.randrange(24),
                   r.randrange(60), r.randrange(60), r.randrange(1000)][at:]  # fmt: skip
    if level == "ampm":
        second[3] = (first[3] + 12) % 24
    elif level == "hour":  # the same half of the day
        second[3] = first[3] - first[3] % 12 + (first[3] % 12 + 1 + r.randrange(10)) % 12
    if second[at] == first[at]:
        second[at] = {0: first[0] + 3, 1: (first[1] + 1) % 12, 2: first[2] % 28 + 1,
                      4: (first[4] + 1) % 60, 5: (first[5] + 1) % 60}[at]  # fmt: skip
    a, b = sorted([_ms(first), _ms(second)])
    shift = -offset_hours * 3600000
    return a + shift, b + shift


#: the zones' offsets the built pairs are shifted by (their local fields differ as built;
#: Europe/Berlin and New York in winter)
_OFFSETS = {"UTC": 0, "Asia/Tokyo": 9, "Asia/Kolkata": 5}


def _built(r: random.Random) -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    cases = []
    for options in SETS:
        for locale in r.sample(LOCALES, 6):
            for level in _INDEX:
                zone = r.choice(list(_OFFSETS))
                a, b = _pair(r, level, _OFFSETS[zone])
                payload = {"l": locale, "o": {**options, "timeZone": zone}, "a": a, "b": b}
                cases.append(("intervals.built", (r.choice(FORMS), {"payload": payload})))
    return cases


FIELDS = {"weekday": ["long", "short", "narrow"], "era": ["short", "long", "narrow"],
          "year": ["numeric", "2-digit"],
          "month": ["numeric", "2-digit", "long", "short", "narrow"],
          "day": ["numeric", "2-digit"], "hour": ["numeric", "2-digit"],
          "minute": ["numeric", "2-digit"], "second": ["numeric", "2-digit"],
          "timeZoneName": ["short", "long", "shortOffset", "longOffset", "shortGeneric",
                           "longGeneric"]}  # fmt: skip


def _drawn(r: random.Random) -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    cases = []
    for _ in range(300):
        options: dict[str, Any] = {}
        for name in r.sample(list(FIELDS), r.randint(1, 4)):
            options[name] = r.choice(FIELDS[name])
        if r.random() < 0.25:
            options["hour12"] = r.choice([True, False])
        elif r.random() < 0.15:
            options["hourCycle"] = r.choice(["h11", "h12", "h23", "h24"])
        options["timeZone"] = r.choice(ZONES)
        level = r.choice(list(_INDEX))
        a, b = _pair(r, level, 0)
        payload = {"l": r.choice(LOCALES), "o": options, "a": a, "b": b}
        cases.append(("intervals.drawn", (r.choice(FORMS), {"payload": payload})))
    return cases


def test_built_intervals_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    tally = judge(mj_oracle, _built(r))
    counts = tally.counts["intervals.built"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 880, tally.table(examples=True)


def test_drawn_intervals_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED + 1)
    tally = judge(mj_oracle, _drawn(r))
    counts = tally.counts["intervals.drawn"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 240, tally.table(examples=True)
