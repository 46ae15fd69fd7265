"""Rules a fourth held-out hunt found wrong, each against the real engine: AG2 0.14.0's
ContextExpression in process, Mozaiks 0.2.0's transition evaluator through its harness."""

from __future__ import annotations

import pytest

from flowctx_core.expressions import evaluate
from tests.differential.ag2_cases import compare

#: ints str() refuses (over 4,300 digits) and ones it writes, beside other values
_HUGE = (10**4300, -(10**4300), 10**5000, 2**14300, 10**4299, -(10**4299))
_OTHER = (True, 1.5, float("nan"), "x", [10**5000], None)
#: a missing ${m} in each position of AG2's lookup order: len() names first, then the others
#: in text order (a huge ${h} pasted before ${m} raises Python's ValueError, after it never)
_ORDERS = (
    "${h} == ${m}", "${h} or ${m}", "not ${h} and ${m}", "${m} or ${h}", "len(${m}) or ${h}",
    "len(${h}) == ${m}", "${a} and ${h} == ${m}", "${h} == ${h} or ${m}", "'${h}' == ${m}",
    "${h} # ${m}", "${a} < ${h} < ${m}", "!${h} | ${m}", "${m} & ${h}", "${h} == len(${m})",
    "${a} or len(${h}) or ${m}", "(${h}, ${m})", "${h}${m}",
)  # fmt: skip


@pytest.mark.parametrize("expr", _ORDERS)
def test_ag2_pastes_a_huge_int_before_it_looks_up_a_later_variable(expr: str) -> None:
    wrong = []
    for h in (*_HUGE, *_OTHER):
        for context in ({"h": h, "a": 1}, {"h": h, "a": 1, "m": 2}):
            verdict, ours, theirs = compare(expr, context, evaluate)
            if verdict != "agree":
                wrong.append((type(h).__name__, sorted(context), ours[2][:90], theirs[2]))
    assert wrong == []
