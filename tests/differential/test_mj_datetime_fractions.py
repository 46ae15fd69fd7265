"""Fractional seconds in DateTimeFormat, against MemberJunction 5.51.3 under node in one batch:
ICU's pattern generator matches a fraction by the count of its digits, so a count's pattern
is not always the three digits' with fewer. An hour without its minute appends the fraction
with its field's name ("5 AM ├F14: 12┤"); an hour and a second without the minute show the
fraction at one digit and the second's name at two or three ("5 AM (second: 8)"), a 2-digit
second without its minute is the fraction before the second's name at one ("1 (second: 8)"),
and V8 reads the count back from the pattern's S, a word's too (de's "Sekunde": 2 at one
digit). Each set is drawn with a date beside it or none, a zone's name or none, in format,
formatToParts and resolvedOptions.
"""

from __future__ import annotations

import random

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

DTF = "new Intl.DateTimeFormat(payload.l, payload.o)"
LOCALES = ["en", "en-GB", "de", "fr", "ja", "zh", "ar", "ru", "es-MX", "hi", "ko", "he", "el",
           "bn", "pt-BR", "it", "sv", "pl", "tr", "vi", "fi", "da", "sw", "ta", "bg"]  # fmt: skip
TIMES = [
    {"hour": "numeric"}, {"hour": "2-digit"}, {"hour": "numeric", "second": "numeric"},
    {"hour": "numeric", "second": "2-digit"}, {"second": "numeric"}, {"second": "2-digit"},
    {"hour": "2-digit", "second": "2-digit"}, {}, {"minute": "numeric"},
    {"hour": "numeric", "minute": "2-digit"},
]  # fmt: skip
DATES = [{}, {}, {"day": "numeric"}, {"month": "long", "day": "numeric"}, {"year": "numeric"}]


def test_each_count_of_fractional_digits_has_icus_own_pattern(mj_oracle: MjOracle) -> None:
    r = random.Random(14)
    cases = []
    for i in range(360):
        o: dict[str, object] = {**TIMES[i % len(TIMES)], **r.choice(DATES)}
        o["fractionalSecondDigits"] = 1 + i // len(TIMES) % 3
        o["timeZone"] = r.choice(["UTC", "Asia/Tokyo", "America/New_York"])
        if r.random() < 0.25:
            o["timeZoneName"] = r.choice(["short", "longOffset"])
        if "hour" in o and r.random() < 0.3:
            o["hour12"] = r.choice([True, False])
        method = r.choice(["format(payload.t)", "formatToParts(payload.t)", "resolvedOptions()"])
        payload = {"l": r.choice(LOCALES), "o": o, "t": r.choice([1773000000123, 1234567890987])}
        cases.append(("dtf.fraction", (f"JSON.stringify({DTF}.{method})", {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["dtf.fraction"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    # (refused: el, whose zones' widths its patterns choose, and a date beside a second
    # without its minute, which ICU appends with its field's name: "2026 klo 1 (sekunti: 0)")
    assert counts["agree"] >= len(cases) * 0.8, tally.table(examples=True)
