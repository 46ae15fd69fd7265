"""formatRange and formatRangeToParts of option sets flowctx has no measured interval patterns
for, where ICU falls back to both dates written in full joined by the locale's fallback pattern
(times without hours: ICU has interval patterns only for times with an hour), against
MemberJunction 5.51.3 under node in one batch: a time alone (its dates written with the year,
month and day ICU adds where they differ in the day or above; the same day too where it shows
seconds) and a date beside such a time; texts and parts with their sources compared exactly,
the rest refused."""

from __future__ import annotations

import calendar
import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 36
#: languages whose fallback is not "{0} – {1}" (es's "a el", ja's "～", zh's "至", fi's "–"),
#: right-to-left ones, other digits, and fr-CA and bg, whose times ICU writes otherwise
LOCALES = ["en", "de", "fi", "ja", "zh", "zh-Hant", "ar", "ar-EG", "hi", "ko", "ru", "fr",
           "es", "es-MX", "sv", "he", "fa", "bn", "en-GB", "de-CH", "fr-CA", "bg", "nl",
           "id"]  # fmt: skip
DATE = {"weekday": ["narrow", "short", "long"], "year": ["numeric", "2-digit"],
        "month": ["numeric", "2-digit", "short", "long"],
        "day": ["numeric", "2-digit"]}  # fmt: skip
TIME = {"minute": ["numeric", "2-digit"], "second": ["numeric", "2-digit"],
        "dayPeriod": ["narrow", "short", "long"], "fractionalSecondDigits": [1, 2, 3],
        "timeZoneName": ["short", "long", "shortGeneric", "longGeneric"]}  # fmt: skip
_MADE = "new Intl.DateTimeFormat(payload.l, payload.o)"
FORMS = [
    f"{_MADE}.formatRange(payload.a, payload.b)",
    f"JSON.stringify({_MADE}.formatRangeToParts(payload.a, payload.b))",
]


def _options(r: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if r.random() < 0.5:  # a date beside the time
        options.update((k, r.choice(v)) for k, v in DATE.items() if r.random() < 0.4)
    options.update((k, r.choice(v)) for k, v in TIME.items() if r.random() < 0.4)
    if not any(k in options for k in TIME):
        options["second"] = r.choice(TIME["second"])
    options["timeZone"] = r.choice(["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"])
    return options


def _pair(r: random.Random) -> tuple[int, int]:
    """Two instants that differ first in one field (the year down to the millisecond)."""

    def fields() -> list[int]:
        return [1950 + r.randrange(100), r.randrange(12), 1 + r.randrange(28), r.randrange(24),
                r.randrange(60), r.randrange(60), r.randrange(1000)]  # fmt: skip

    first = fields()
    at = r.randrange(7)
    second = first[:at] + fields()[at:]

    def ms(f: list[int]) -> int:
        return calendar.timegm((f[0], f[1] + 1, f[2], f[3], f[4], f[5])) * 1000 + f[6]

    return ms(first), ms(second)


def test_range_fallbacks_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for _ in range(800):
        a, b = _pair(r)
        payload = {"l": r.choice(LOCALES), "o": _options(r), "a": a, "b": b}
        cases.append(("range.fallback", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["range.fallback"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    # (refused: a date beside a time that differs on the same day, which ICU joins to the
    # time's fallback; dates ICU writes otherwise than V8 (a weekday without its day, a field
    # V8 writes otherwise than asked); locales whose times ICU writes otherwise)
    assert counts["agree"] >= 220, tally.table(examples=True)
