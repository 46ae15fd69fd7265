"""Compact percents in every locale node has, against MemberJunction 5.51.3 under node in one
batch: ICU groups a compact percent's digits as the locale's decimal pattern does, not its
percent pattern (or's and bn's 1,00,00,00,00,000, where their percent pattern groups by three);
a compact currency keeps its own pattern's groups; a sign inside a compact word (yrl's
"tiriliãu-ita") is ICU's minus symbol unless a plus is shown."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 46
OPTIONS = [{"notation": "compact", "style": "percent"},
           {"notation": "compact", "style": "percent", "compactDisplay": "long"},
           {"notation": "compact", "style": "unit", "unit": "percent"},
           {"notation": "compact", "style": "percent", "useGrouping": "always"},
           {"notation": "compact", "style": "currency", "currency": "INR"},
           {"notation": "compact"},
           {"notation": "compact", "compactDisplay": "long", "signDisplay": "always"}]  # fmt: skip
NUMBERS = [1e21, 1.23e17, -4.5e19, 1.2345678901234568e23, 0.5, 1234.5, 5e9]


def test_compact_percents_group_as_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    every = sorted(table("locales")["number"])
    cases = []
    for tag in every:
        for _ in range(4):
            payload = {"l": tag, "o": r.choice(OPTIONS), "n": r.choice(NUMBERS)}
            expr = "new Intl.NumberFormat(payload.l, payload.o).format(payload.n)"
            cases.append(("compact", (expr, {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["compact"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] == len(cases), tally.table(examples=True)
