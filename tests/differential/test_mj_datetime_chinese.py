"""The Chinese and Korean (dangi) calendars against MemberJunction 5.51.3 under node, in one
batch: random sets of components in every width and the styles, in locales drawn, at instants
drawn over the years flowctx measured (-3000 to 3500, leap months and their neighbours most
often), with format, formatToParts (the related year, the cycle's year names, zh's day names),
resolvedOptions, formatRange and the Date methods; values and error texts compared exactly, and
the dates outside the measured years refused by name."""

from __future__ import annotations

import random

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.intl import calendars
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 2637
LOCALES = ["en", "zh", "zh-Hant", "ko", "ja", "de", "fr", "vi", "ar", "ru", "hi", "th", "fa",
           "es-MX", "en-GB", "pt", "he", "zh-Hant-HK", "sr-Latn", "fi", "mn", "ko-KP",
           "yue"]  # fmt: skip
WIDTHS = {
    "weekday": ["narrow", "short", "long"], "era": ["narrow", "short", "long"],
    "year": ["numeric", "2-digit"], "month": ["numeric", "2-digit", "narrow", "short", "long"],
    "day": ["numeric", "2-digit"], "hour": ["numeric", "2-digit"],
    "minute": ["numeric", "2-digit"], "second": ["numeric", "2-digit"],
}  # fmt: skip
STYLES = ["full", "long", "medium", "short"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).resolvedOptions())",
    "new Date(payload.t).toLocaleString(payload.l, payload.o)",
    "new Date(payload.t).toLocaleDateString(payload.l, payload.o)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatRangeToParts(payload.t, "
    "payload.t))",
]
DAY = 86_400_000


def _options(r: random.Random) -> dict[str, object]:
    if r.random() < 0.25:
        options: dict[str, object] = {"dateStyle": r.choice(STYLES)}
        if r.random() < 0.4:
            options["timeStyle"] = r.choice(STYLES[1:])
        return options
    options = {k: r.choice(v) for k, v in WIDTHS.items() if r.random() < 0.4}
    if r.random() < 0.15:
        options["hourCycle"] = r.choice(["h11", "h12", "h23", "h24"])
    if r.random() < 0.15:
        options["numberingSystem"] = r.choice(["arab", "hanidec", "thai", "latn"])
    return options


def _instant(r: random.Random, calendar: str) -> int:
    starts, months, _ = calendars._lunisolar_months(calendar)
    if r.random() < 0.5:  # in a leap month or beside one
        leap = [i for i, m in enumerate(months) if m >= 12]
        at = min(max(r.choice(leap) + r.choice([-1, 0, 0, 1]), 0), len(months) - 1)
        day = starts[at] + r.choice([0, 1, 14, starts[at + 1] - starts[at] - 1])
    else:
        day = r.randrange(starts[0], starts[-1])
    return day * DAY + r.randrange(DAY)


def test_chinese_and_dangi_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for _ in range(360):
        calendar = r.choice(["chinese", "dangi"])
        locale, options = r.choice(LOCALES), _options(r)
        if r.random() < 0.5:
            locale = f"{locale}-u-ca-{calendar}"
        else:
            options["calendar"] = calendar
        options["timeZone"] = r.choice(["UTC", "Asia/Shanghai", "Asia/Seoul", "America/New_York"])
        payload = {"l": locale, "o": options, "t": _instant(r, calendar)}
        cases.append(("chinese", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["chinese"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] > 300, tally.table(examples=True)


def test_dates_outside_the_measured_years_are_refused() -> None:
    for calendar in ("chinese", "dangi"):
        expr = f"new Date(Date.UTC(-3200, 0, 1)).toLocaleDateString('zh-u-ca-{calendar}')"
        result = evaluate(expr, {}, "mj")
        assert not result.success and result.error is not None
        assert result.error.message == (
            f"flowctx does not reproduce the {calendar} calendar's dates outside the years "
            "related to the Gregorian -3000 to 3500"
        )
