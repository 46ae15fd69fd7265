"""The names of months, weekdays, eras and day periods in every locale node has, regional ones
above all, against MemberJunction 5.51.3 under node in one batch: a locale with no rows of its
own reads its parent's only where node writes its dates as the parent's (tables/heirs,
scripts/intl_locale_heirs.mjs: fa-AF's Afghan month names, de-AT's Jänner in the Japanese
calendar), a locale's own calendar asked by name is refused where node's patterns for it are not
the default ones (uz-AF), and month names written in digits are refused where the locale's digits
are not Latin (dz writes some in Latin, some in Tibetan digits). Every month of two years in the
locale's own calendar and in four others; nothing may disagree."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 44
SETS = [{"month": "short", "day": "numeric"}, {"month": "long"}, {"month": "narrow"},
        {"month": "long", "day": "numeric", "year": "numeric"},
        {"month": "short", "year": "numeric"}, {"weekday": "long", "day": "numeric"},
        {"weekday": "short"}, {"era": "long", "year": "numeric"},
        {"hour": "numeric", "dayPeriod": "long"}]  # fmt: skip
CALENDARS = [None, "persian", "japanese", "buddhist", "islamic-civil"]


def test_regional_names_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    every = sorted(table("locales")["date"])
    regional = [tag for tag in every if "-" in tag]
    cases = []
    for i in range(4000):
        tag = r.choice(regional if i % 4 else every)
        options = {**r.choice(SETS), "timeZone": "UTC"}
        calendar = r.choice(CALENDARS)
        if calendar is not None:
            options["calendar"] = calendar
        t = 1672531200000 + r.randrange(0, 730) * 86400000 + r.randrange(0, 86400000)
        expr = "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)"
        cases.append(("names", (expr, {"payload": {"l": tag, "o": options, "t": t}})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["names"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 3500, tally.table(examples=True)
