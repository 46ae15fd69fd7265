"""Long operator chains against the real MemberJunction evaluator.

The parser reads ``a+a+…``, ``a.b.c…`` and ``f()()…`` in a loop, so they cost it no stack, but
the tree they build is as deep as the chain is long; the compiler and evaluator recurse on it
and died with "Internal error: RecursionError" before they were given room for that depth.
Every chain here fits MemberJunction's 1000-character limit, so the real engine answers each.
"""

from __future__ import annotations

from typing import Any

from tests.differential.compare import compare
from tests.differential.oracle import MjOracle

SCOPES: list[dict[str, Any]] = [
    {},
    {"context": {"a": {"b": 1}, "n": 1, "s": "x"}},
]
CHAINS = [
    "1" + "+1" * 499,
    "context.n" + "+context.n" * 98,
    "a" + "+a" * 499,
    "1" + "-1" * 499,
    "2" + "*1" * 499,
    "1" + "<1" * 499,
    "1" + "===1" * 249,
    "1" + "&&1" * 332,
    "0" + "||0" * 332,
    "1" + "??1" * 332,
    "1" + "|0" * 499,
    "'s'" + "+'s'" * 249,
    "context" + ".a" * 496,
    "context" + "?.a" * 330,
    "context.a" + "[0]" * 330,
    "f" + "()" * 499,
    "!" * 998 + "1",
    "(" * 499 + "1" + ")" * 499,
    "1" + "?1:1" * 249,
    "x => " * 199 + "x",
    "context.s" + ".length" * 140,
]


def test_long_chains_agree_with_the_real_evaluator(mj_oracle: MjOracle) -> None:
    cases = [(expr, scope) for expr in CHAINS for scope in SCOPES]
    assert all(len(expr) <= 1000 for expr in CHAINS)
    tally = compare(mj_oracle, cases, "mj long chains")
    assert not tally.disagreements, f"{tally.summary()}\n{tally.details()}"
    assert tally.agree == len(cases)
