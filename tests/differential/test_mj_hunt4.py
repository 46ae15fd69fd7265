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


# A locale list that is no string or array is read as ECMA-402's CanonicalizeLocaleList reads
# any object: its elements by index up to its length (an array-like's strings, a String
# object's characters), an Intl.Locale as its tag; a function (its length its parameter
# count, no elements), a RegExp, a BigInt, a Symbol or a Date is the empty list. flowctx
# refused all of these, and read an array-like of the scope as no list at all.
LOCALE_LISTS = [
    "x => x",
    "(a, b) => a",
    "Symbol()",
    "1n",
    "/x/",
    "new Date(0)",
    "new String('de')",
    "new String('')",
    "new Intl.Locale('de')",
    "payload.one",
    "payload.two",
    "payload.bad",
    "payload.neg",
    "payload.holey",
    "payload.nolen",
    "Object(5)",
    "new Map([[0, 'de']])",
    "[new Intl.Locale('fr')]",
    "Math",
    "Object('de')",
]
LOCALE_USES = [
    "Intl.getCanonicalLocales({l}).join()",
    "'a'.localeCompare('B', {l})",
    "(1234.5).toLocaleString({l})",
    "new Date(0).toLocaleDateString({l}, payload.utc)",
    "'i'.toLocaleUpperCase({l})",
    "new Intl.NumberFormat({l}).resolvedOptions().locale",
    "[1.5, 2].toLocaleString({l})",
]
LOCALE_SCOPE = {
    "payload": {
        "one": {"length": 1, "0": "de"},
        "two": {"length": "2", "1": "fr", "0": "de-AT"},
        "bad": {"length": 1, "0": 5},
        "neg": {"length": -1, "0": "de"},
        "holey": {"length": 3, "2": "tr"},
        "nolen": {"0": "de"},
        "utc": {"timeZone": "UTC"},
    }
}


def test_locale_lists_of_any_object(mj_oracle: MjOracle) -> None:
    cases = [(use.format(l=lst), LOCALE_SCOPE) for use in LOCALE_USES for lst in LOCALE_LISTS]
    tally = compare(mj_oracle, cases, "mj locale lists")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)
