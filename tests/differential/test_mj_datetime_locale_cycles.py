"""A locale's own hour cycle (its ``-u-hc-``) with a zone's name, fractional seconds or a day
period, against MemberJunction 5.51.3 under node in one batch: ICU's patterns for the locale's
cycle are not V8's for the ``hourCycle`` option (de's ``-u-hc-h12`` writes ``"05:30 PM"`` where
``hourCycle: 'h12'`` writes ``"5:30 PM"``), so scripts/intl_zone_parts.mjs measures them as rows
of their own; times alone and beside a date, every zone style, 1 to 3 fraction digits, each day
period width; format, formatToParts and resolvedOptions compared exactly, nothing refused."""

from __future__ import annotations

import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 41
LOCALES = ["en", "de", "ja", "ko", "fr", "es-MX", "ar-EG", "zh-Hant", "hi", "ru", "fi", "pt-BR",
           "en-GB", "sv", "tr", "he", "cs", "pl"]  # fmt: skip
CYCLES = ["h11", "h12", "h23", "h24"]
ZONES = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]
#: dates beside the time: none, and the sets people write (never a weekday or an era alone,
#: whose patterns with hours are ICU's own)
DATES: list[dict[str, str]] = [{}, {}, {"year": "numeric", "month": "numeric", "day": "numeric"},
                               {"year": "numeric", "month": "short", "day": "numeric"},
                               {"month": "long", "day": "numeric"},
                               {"weekday": "long", "month": "long", "day": "numeric"}]  # fmt: skip
TIME_ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Tokyo"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).resolvedOptions())",
    "new Date(payload.t).toLocaleTimeString(payload.l, payload.o)",
]


def _options(r: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = dict(r.choice(DATES))
    options["hour"] = r.choice(["numeric", "2-digit"])
    if r.random() < 0.8:
        options["minute"] = r.choice(["numeric", "2-digit"])
        if r.random() < 0.5:
            options["second"] = r.choice(["numeric", "2-digit"])
    kind = r.choice(["zone", "zone", "fraction", "period"])
    if kind == "zone" or (kind == "fraction" and "minute" not in options):
        options["timeZoneName"] = r.choice(ZONES)
    elif kind == "fraction":
        options["fractionalSecondDigits"] = r.choice([1, 2, 3])
        if r.random() < 0.3:
            options["timeZoneName"] = r.choice(ZONES)
    else:
        options["dayPeriod"] = r.choice(["narrow", "short", "long"])
    options["timeZone"] = r.choice(TIME_ZONES)
    return options


def test_a_locales_own_hour_cycle_with_a_zone_a_fraction_or_a_day_period(
    mj_oracle: MjOracle,
) -> None:
    r = random.Random(SEED)
    cases = []
    for _ in range(600):
        locale = f"{r.choice(LOCALES)}-u-hc-{r.choice(CYCLES)}"
        t = r.randrange(-2208988800000, 4102444800000)  # 1900 to 2100
        payload = {"l": locale, "o": _options(r), "t": t}
        cases.append(("cycles.zone", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["cycles.zone"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["refused-not-reproduced"] == 0, tally.table(examples=True)
    assert counts["agree"] == 600
