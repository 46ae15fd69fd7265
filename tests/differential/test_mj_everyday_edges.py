"""Everyday conditions at the edges of what they read, against the real MemberJunction evaluator.

Each group below was a wrong answer of flowctx found by drawing conditions of the kind flow
agents' paths carry (dates, strings, numbers, arrays) with values at their edges; the cases
keep the whole neighbourhood of each, the valid forms beside the invalid ones.
"""

from __future__ import annotations

from typing import Any

from tests.differential.compare import compare
from tests.differential.oracle import MjOracle

# An ISO date-time's offset past 23:59 (+24:00, +0060) makes the whole text invalid: V8's ISO
# reader gives up and the legacy reader is not tried; without the T it is the legacy reader's.
ISO_OFFSETS = [
    f"Date.parse('{text}')"
    for text in (
        "2024-01-01T00:00:00+24:00",
        "2024-01-01T00:00+24:00",
        "2024-01-01T00:00:00.1234+24:00",
        "2024-01-01T00:00:00+25:00",
        "2024-01-01T10:00:00.5+99:00",
        "2024-01-01T00:00:00+23:59",
        "2024-01-01T00:00:00+23:60",
        "2024-01-01T00:00-23:60",
        "2024-01-01T00:00+2400",
        "2024-01-01T00:00+0060",
        "2024-01-01T10:00-2359",
        "+084249-12-23T04:17:11.133883+24:00",
        "2024-01-01 00:00:00+24:00",
        "2024-01-01T00:00:00 +24:00",
    )
] + ["isNaN(new Date(payload.d))", "new Date(payload.d).getTime() || 'none'"]

SCOPES: list[dict[str, Any]] = [
    {"payload": {"d": "2024-06-01T12:00:00+24:00"}},
    {"payload": {"d": "2024-06-01T12:00:00+05:30"}},
]


def test_iso_offsets_past_the_day(mj_oracle: MjOracle) -> None:
    cases = [(expr, scope) for expr in ISO_OFFSETS for scope in SCOPES]
    tally = compare(mj_oracle, cases, "mj ISO offsets")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)
