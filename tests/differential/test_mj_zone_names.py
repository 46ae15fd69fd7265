"""Every time zone's own name (timeZoneName short, long, shortGeneric, longGeneric, and the names
timeStyle full and long print) against MemberJunction 5.51.3 under node, in one batch: each zone
twice, in locales of many languages and regions, at instants drawn where the names change (1800
to 2050: metazones, daylight time, partial locations) and far from them (before 1800, after
10002); values and error texts compared exactly (``draw.kind``)."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 3636
LOCALES = ["en", "en-GB", "en-CA", "de", "de-CH", "fr", "fr-CA", "ja", "zh-Hant", "ar-EG", "ru",
           "es-MX", "pt-BR", "it-VA", "sr", "fi", "hi", "ko", "he", "tr", "pl", "nl", "sv", "ca",
           "en-u-nu-arab", "uk", "hr-BA", "sw", "sr-Latn-ME", "ar-MA"]  # fmt: skip
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "new Date(payload.t).toLocaleString(payload.l, payload.o)",
    "new Date(payload.t).toLocaleTimeString(payload.l, payload.o)",
]
OPTIONS = [
    {"timeZoneName": "short"},
    {"timeZoneName": "long"},
    {"timeZoneName": "shortGeneric"},
    {"timeZoneName": "longGeneric"},
    {"timeZoneName": "short", "hour": "numeric", "minute": "2-digit"},
    {"timeZoneName": "longGeneric", "year": "numeric", "month": "short", "day": "numeric"},
    {"timeStyle": "full"},
    {"timeStyle": "long"},
    {"dateStyle": "medium", "timeStyle": "long"},
]


def _instant(r: random.Random) -> int:
    roll = r.random()
    if roll < 0.75:  # where the names change: 1800 to 2050
        return r.randrange(-5364662400000, 2524608000000)
    if roll < 0.85:
        return r.randrange(-8640000000000000, -5364662400000)
    return r.randrange(253528675200000, 8640000000000000)  # after 10002


def test_every_zone_name_agrees_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for zone in sorted(table("zoneNameZones")):
        for _ in range(2):
            options = {**r.choice(OPTIONS), "timeZone": zone}
            payload = {"l": r.choice(LOCALES), "o": options, "t": _instant(r)}
            cases.append(("zones.names", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["zones.names"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["refused-not-reproduced"] == 0, tally.table(examples=True)
    assert counts["agree"] > 800
