"""formatRange across a change of a zone's offset (summer time ending and starting, Lord Howe's
half hour), against MemberJunction 5.51.3 under node in one batch: ICU writes the interval
pattern's second part with the end date, so a zone's name shared after both times is the end's
(``3:59 – 3:00 AM GMT+2`` in Kyiv on the night winter time starts); values compared exactly."""

from __future__ import annotations

import random

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 43
#: a zone and an instant where its offset changes
CHANGES = [("Europe/Kyiv", 1792890000000), ("Europe/Berlin", 1792890000000),
           ("America/New_York", 1793599200000), ("America/New_York", 1773558000000),
           ("Europe/London", 1774746000000), ("Australia/Sydney", 1775318400000),
           ("Australia/Lord_Howe", 1775314800000)]  # fmt: skip
SETS = [
    {"hour": "numeric", "minute": "2-digit", "timeZoneName": "short"},
    {"hour": "numeric", "minute": "2-digit", "timeZoneName": "long"},
    {"hour": "numeric", "minute": "2-digit", "timeZoneName": "shortOffset"},
    {"timeStyle": "full"},
    {"timeStyle": "long"},
    {"dateStyle": "medium", "timeStyle": "long"},
]
LOCALES = ["en-US", "de", "fr", "ja", "en-GB", "es", "ko", "ru"]
FORMS = [
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatRangeToParts(payload.t,"
    " payload.u))",
    "new Intl.DateTimeFormat(payload.l, payload.o).formatRange(payload.t, payload.u)",
]


def test_a_range_across_an_offset_change_names_the_ends_zone(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for zone, change in CHANGES:
        for options in SETS:
            for _ in range(6):
                before = r.choice([1, 60000, 1800000, 3600000, 7200000])
                after = r.choice([0, 1, 60000, 1800000, 3600000])
                payload = {"l": r.choice(LOCALES), "o": {**options, "timeZone": zone},
                           "t": change - before, "u": change + after}  # fmt: skip
                cases.append(("ranges.dst", (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["ranges.dst"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 80, tally.table(examples=True)
