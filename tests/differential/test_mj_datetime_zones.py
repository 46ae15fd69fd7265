"""Every time zone node's ICU knows, against MemberJunction 5.51.3 under node, in one batch:
each zone's spelling (as written, in lower case: resolvedOptions().timeZone), its wall time and
its offset's name (longOffset, shortOffset) at instants drawn from 1800 to the year 275760 in
locales drawn, day periods, fractional seconds and ranges in it; values and error texts
compared exactly (``draw.kind``)."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 36
LOCALES = ["en", "de", "fr-CA", "ja", "ar-EG", "hi", "es-MX", "zh-Hant", "ru", "fi", "en-GB",
           "pt-BR", "ko", "he", "sv"]  # fmt: skip
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "new Date(payload.t).toLocaleString(payload.l, payload.o)",
]
RANGE = "new Intl.DateTimeFormat(payload.l, payload.o).formatRange(payload.t, payload.u)"
#: the sets whose interval patterns tables/dateranges measures
RANGE_OPTIONS = [{"dateStyle": "medium", "timeStyle": "medium"}, {"dateStyle": "short",
                 "timeStyle": "short"}, {"month": "long", "day": "numeric"}, {"timeStyle": "short"},
                 {"hour": "numeric", "minute": "2-digit"}]  # fmt: skip
OPTIONS = [
    {"dateStyle": "medium", "timeStyle": "medium"},
    {"timeZoneName": "longOffset", "hour": "numeric", "minute": "2-digit"},
    {"timeZoneName": "shortOffset", "year": "numeric", "month": "short", "day": "numeric"},
    {"hour": "numeric", "minute": "2-digit", "second": "2-digit", "fractionalSecondDigits": 3},
    {"hour": "numeric", "minute": "2-digit", "dayPeriod": "long"},
    {"dateStyle": "short", "timeStyle": "short"},
    {"month": "long", "day": "numeric"},
]


def _instant(r: random.Random) -> int:
    if r.random() < 0.7:  # where the zones change: 1800 to 2160
        return r.randrange(-5364662400000, 5995987200000)
    return r.randrange(-8640000000000000, 8640000000000000)


def test_every_zone_agrees_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    spellings = sorted(table("zoneNames"))
    cases = []
    for name in spellings:
        written = r.choice([name, name.upper(), name.title()])
        cases.append(("zones.name", ("new Intl.DateTimeFormat('en', payload.o)"
                                     ".resolvedOptions().timeZone",
                                     {"payload": {"o": {"timeZone": written}}})))  # fmt: skip
    for zone in sorted(set(table("zoneNames").values())):
        for _ in range(2):
            options = {**r.choice(OPTIONS), "timeZone": zone}
            payload = {"l": r.choice(LOCALES), "o": options, "t": _instant(r)}
            cases.append(("zones.format", (r.choice(FORMS), {"payload": payload})))
        t = _instant(r)
        u = t + r.choice([0, 999, 60000, 3600000, 86400000, 4e10])
        options = {**r.choice(RANGE_OPTIONS), "timeZone": zone}
        payload = {"l": r.choice(LOCALES), "o": options, "t": t, "u": min(u, 8.64e15)}
        cases.append(("zones.range", (RANGE, {"payload": payload})))
    tally = judge(mj_oracle, cases)
    for family in ("zones.name", "zones.format", "zones.range"):
        counts = tally.counts[family]
        assert counts["disagree"] == 0, tally.table(examples=True)
        assert counts["refused-not-reproduced"] == 0, tally.table(examples=True)
        assert counts["agree"] > 400, family
