"""``Intl.RelativeTimeFormat`` with ``numeric: 'auto'`` near its phrases, against
MemberJunction 5.51.3 under node in one batch: ICU says a phrase (tomorrow, last week, now) for
an offset within 1% of -2 to 2, and the number otherwise; a text without a number that is a
plural category's (ar's "خلال ثانية واحدة", one second) is no phrase, so 1.0049 seconds is
"خلال ١٫٠٠٥ ثانية" (scripts/intl_relative.mjs measures the phrases off the whole offsets).
Every locale, style and unit; whole offsets, offsets within 1% and just outside."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 45
UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"]
OFFSETS = [-2, -1, 0, 1, 2, -2.004, -0.996, 0.004, -0.004, 1.0049, 1.005, 2.003, 1.006, -1.0051,
           0.0051, 1.99, -2.006]  # fmt: skip
FORMS = [
    "new Intl.RelativeTimeFormat(payload.l, payload.o).format(payload.v, payload.u)",
    "JSON.stringify(new Intl.RelativeTimeFormat(payload.l, payload.o).formatToParts(payload.v,"
    " payload.u))",
]


def test_auto_phrases_near_whole_offsets_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    every = sorted(table("relativeLocales"))
    cases = []
    for i in range(3000):
        # (ar and he first: their plural categories have texts without a number)
        tag = r.choice(["ar", "ar-EG", "he", "ar-SA"] if i % 3 == 0 else every)
        options = {"numeric": "auto", "style": r.choice(["long", "short", "narrow"])}
        payload = {"l": tag, "o": options, "v": r.choice(OFFSETS), "u": r.choice(UNITS)}
        cases.append(("relative", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["relative"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] == 3000, tally.table(examples=True)
