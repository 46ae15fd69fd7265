"""Conditions a held-out hunt found flowctx answering otherwise than MemberJunction 5.51.3
under node 20, with their neighbourhoods (the forms that already agreed beside them).

Each group is one rule: its cases failed before the fix named in its comment.
"""

from __future__ import annotations

from typing import Any

from tests.differential.compare import compare
from tests.differential.oracle import MjOracle

# MemberJunction drops the scope keys eval and Function before it builds its function, so
# the names are the host's own globals again: flowctx refuses them as code, as it does
# without the key, where it said "eval is not defined". Keys it keeps stay parameters.
DROPPED_HOST_KEYS: list[tuple[str, dict[str, Any]]] = [
    ("eval", {"eval": 1}),
    ("eval === 1", {"eval": 1, "x": 2}),
    ("eval", {"x": 2, "eval": 1}),
    ("Function", {"Function": 1}),
    ("Function === 1", {"Function": 1, "payload": 2}),
    ("typeof eval", {"eval": 1}),
    ("typeof Function", {"Function": 1}),
    ("payload", {"eval": 1, "payload": 2}),
    ("globalThis === 1", {"globalThis": 1}),
    ("console", {"console": 1}),
    ("process + 1", {"process": 1}),
    ("setTimeout", {"setTimeout": 1}),
]


def test_dropped_host_keys(mj_oracle: MjOracle) -> None:
    tally = compare(mj_oracle, DROPPED_HOST_KEYS, "mj dropped host keys")
    assert not tally.disagreements, tally.details()
    assert tally.refused == 5


# Array.prototype is itself an array (an Array exotic object), so Array.isArray says true of
# it, directly or through a Proxy around it; Object.prototype is none.
ARRAY_PROTOTYPE = [
    "Array.isArray(Object.getPrototypeOf([]))",
    "Array.isArray(Reflect.getPrototypeOf(payload.a))",
    "Array.isArray(new Proxy(Object.getPrototypeOf([]), payload.o))",
    "Array.isArray(Object.getPrototypeOf(payload.o))",
    "Array.isArray(Object.getPrototypeOf(Object.getPrototypeOf([])))",
    "Array.isArray(new Proxy(payload.a, payload.o))",
    "Object.getPrototypeOf([]).length",
    "JSON.stringify(Object.getPrototypeOf([]))",
    "String(Object.getPrototypeOf([])) === ''",
]


def test_array_prototype_is_an_array(mj_oracle: MjOracle) -> None:
    scope = {"payload": {"a": [1], "o": {}}}
    cases = [(expr, scope) for expr in ARRAY_PROTOTYPE]
    tally = compare(mj_oracle, cases, "mj Array.prototype")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)
