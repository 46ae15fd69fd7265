"""``Intl.Locale``'s likely subtags and hour cycles for tags with the unknown script ``Zzzz``
and region ``ZZ``, against MemberJunction 5.51.3 under node in one batch: UTS #35 counts them as
absent (``sr-ZZ`` maximizes to ``sr-Cyrl-RS``, ``hi-Deva-ZZ`` minimizes to ``hi``) but ICU's
maximize leaves a tag with a language, a script and a region as it is (``en-Latn-ZZ``), and the
hour cycle of a tag in ``und`` is its likely locale's (``und-Deva-ZZ`` is hi-Deva-IN's h12,
``und-Latn-001`` en-001's); every language, script and region below in turn."""

from __future__ import annotations

import itertools

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

LANGUAGES = ["und", "en", "pt", "zh", "sr", "uz", "pa", "hi", "xx", "ar", "ku"]
SCRIPTS = ["", "Zzzz", "Latn", "Arab", "Cyrl", "Hant", "Deva"]
REGIONS = ["", "ZZ", "US", "CN", "RS", "PK", "001", "419", "IQ"]
FORMS = [
    "new Intl.Locale(payload.t).maximize().toString()",
    "new Intl.Locale(payload.t).minimize().toString()",
    "JSON.stringify(new Intl.Locale(payload.t).hourCycles)",
    "JSON.stringify(new Intl.Locale(payload.t).weekInfo)",
]


def test_unknown_subtags_agree_with_node(mj_oracle: MjOracle) -> None:
    cases = []
    for language, script, region in itertools.product(LANGUAGES, SCRIPTS, REGIONS):
        tag = "-".join(p for p in (language, script, region) if p)
        for form in FORMS:
            cases.append(("likely", (form, {"payload": {"t": tag}})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["likely"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] == len(cases), tally.table(examples=True)
