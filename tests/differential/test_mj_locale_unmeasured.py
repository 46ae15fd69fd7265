"""The locales node has that flowctx's tables do not (pcm, kab, syr and 80 more, with their
regions), against MemberJunction 5.51.3 under node in one batch: flowctx resolved them to en-US
and answered with its data (pcm's full date is "Tọ́zdè, 1 Jénúári 1970", not "Thursday,
January 1, 1970"); now each service refuses them, supportedLocalesOf lists them as node does,
and the Segmenter, whose rules they share with root, resolves to them.
"""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

EXPRESSIONS = {
    "number": "new Intl.NumberFormat(payload.l).format(-1234.5)",
    "date": "new Intl.DateTimeFormat(payload.l, payload.o).format(0)",
    "relative": "new Intl.RelativeTimeFormat(payload.l).format(-1, 'day')",
    "plural": "new Intl.PluralRules(payload.l).select(2)",
    "list": "new Intl.ListFormat(payload.l).format(['a', 'b', 'c'])",
    "segmenter": "new Intl.Segmenter(payload.l).resolvedOptions().locale",
}
NAMES = {"number": "NumberFormat", "date": "DateTimeFormat", "relative": "RelativeTimeFormat",
         "plural": "PluralRules", "list": "ListFormat", "segmenter": "Segmenter"}  # fmt: skip


def test_locales_node_has_and_flowctx_did_not_measure_are_refused(mj_oracle: MjOracle) -> None:
    r = random.Random(103)
    missing = table("unmeasuredLocales")
    cases = []
    for service, expr in EXPRESSIONS.items():
        for tag in r.sample(missing[service], 8):
            payload = {"l": tag, "o": {"dateStyle": "full", "timeZone": "UTC"}}
            cases.append((service, (expr, {"payload": payload})))
            supported = f"Intl.{NAMES[service]}.supportedLocalesOf(payload.l).join()"
            payload = {"l": [tag, f"{tag}-u-nu-latn", "en-GB"]}
            cases.append(("supported", (supported, {"payload": payload})))
    tally = judge(mj_oracle, cases)
    for family, counts in tally.counts.items():
        assert counts["disagree"] == 0, tally.table(examples=True)
        if family in ("supported", "segmenter"):
            assert counts["agree"] == sum(counts.values()), tally.table(examples=True)
