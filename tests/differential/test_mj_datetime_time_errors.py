"""V8's errors for a time value out of range from a DateTimeFormat whose pattern flowctx does not
know, against MemberJunction 5.51.3 under node in one batch: ``format``, ``formatToParts`` and
``formatRange`` check the time value before ICU's pattern is used, so ``format(NaN)`` is
"Invalid time value" whatever the options; flowctx refuses such a set only where its pattern is
used (``resolvedOptions`` and a valid time stay refused; they were all refused when the
DateTimeFormat was made)."""

from __future__ import annotations

import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 43
LOCALES = ["en", "de", "ja", "fr", "ar-EG", "hi", "ru", "th", "fa", "zh-Hant"]
CALENDARS = ["islamic", "hebrew", "japanese", "coptic", "persian", "buddhist", "indian"]
#: sets flowctx has no pattern for: a weekday with hours in another calendar (ICU has patterns
#: of its own), and a zone's name beside an era and minutes in another calendar
SETS: list[dict[str, Any]] = [
    {"weekday": "short", "hour": "numeric"},
    {"weekday": "narrow", "hour": "numeric", "minute": "2-digit", "hour12": False},
    {"era": "narrow", "minute": "numeric", "timeZoneName": "short"},
    {"weekday": "long", "hour": "2-digit", "dayPeriod": "short"},
]
#: time values V8 rejects (NaN, past 8.64e15, an invalid Date) and one range end it rejects
BAD = ["NaN", "8.64e15 + 1", "-8.64e15 - 1", "new Date(NaN)", "'x'"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format({t})",
    "new Intl.DateTimeFormat(payload.l, payload.o).formatToParts({t})",
    "new Intl.DateTimeFormat(payload.l, payload.o).formatRange(0, {t})",
    "new Intl.DateTimeFormat(payload.l, payload.o).formatRangeToParts({t}, 0)",
    "new Intl.DateTimeFormat(payload.l, payload.o).formatRange(0)",
]


def test_time_value_errors_come_before_an_unknown_pattern(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for _ in range(200):
        options = {**r.choice(SETS), "calendar": r.choice(CALENDARS), "timeZone": "UTC"}
        expr = r.choice(FORMS).format(t=r.choice(BAD))
        payload = {"l": r.choice(LOCALES), "o": options}
        cases.append(("time errors", (expr, {"payload": payload})))
    # and the same sets with a valid time: still refused (or answered), never wrong
    for _ in range(40):
        options = {**r.choice(SETS), "calendar": r.choice(CALENDARS), "timeZone": "UTC"}
        form = r.choice(
            [*FORMS[:2], "new Intl.DateTimeFormat(payload.l, payload.o).resolvedOptions().locale"]
        )
        payload = {"l": r.choice(LOCALES), "o": options}
        cases.append(("valid times", (form.format(t="1700000000000"), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    errors = tally.counts["time errors"]
    assert errors["disagree"] == 0, tally.table(examples=True)
    assert errors["agree"] == 200, tally.table(examples=True)
    assert tally.counts["valid times"]["disagree"] == 0, tally.table(examples=True)
