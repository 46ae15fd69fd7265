"""``dumps_indented`` writes what ``json.dumps(value, indent=2, default=str)`` writes, to the
byte, on every kind of value a matrix can hold, and raises what json raises."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import OrderedDict
from enum import IntEnum
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flowctx_core.base.jsonwrite import dumps_indented


def expected(value: Any) -> str:
    return json.dumps(value, indent=2, default=str)


class Level(IntEnum):
    HIGH = 3


class Tagged(str):
    pass


ODD_VALUES: list[Any] = [
    {},
    [],
    (),
    "",
    'é ✓ \u2028 \x00 \x7f \ud800 "quoted" \\ back',
    0,
    -0.0,
    1e300,
    2**70,
    math.nan,
    math.inf,
    -math.inf,
    True,
    None,
    Level.HIGH,
    Tagged("sub"),
    {"a": {"b": [1, {"c": []}, {}]}, "d": ()},
    {1: "int key", 2.5: "float key", False: "bool key", None: "none key"},
    {"when": dt.datetime(2026, 1, 2, 3, 4, 5), "day": dt.date(2026, 1, 2)},
    {"set": {3, 1}},
    OrderedDict([("z", 1), ("a", [OrderedDict(b=2)])]),
    {"proxy": MappingProxyType({"x": 1})},
    [[[[[["deep"]]]]]],
    {"k": [None, False, 1.5, "s", {"n": [[]]}]},
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=range(len(ODD_VALUES)))
def test_the_text_is_jsons_own(value: Any) -> None:
    assert dumps_indented(value) == expected(value)


def test_deeper_than_the_writer_goes_is_still_jsons_text() -> None:
    value: Any = "leaf"
    for i in range(150):
        value = [value] if i % 2 else {"k": value}
    assert dumps_indented(value) == expected(value)


def test_a_value_that_contains_itself_raises_what_json_raises() -> None:
    loop: list[Any] = []
    loop.append({"again": loop})
    with pytest.raises(ValueError, match="Circular reference detected"):
        dumps_indented({"x": loop})


def test_a_key_json_refuses_is_refused_alike() -> None:
    with pytest.raises(TypeError, match="keys must be str"):
        dumps_indented({"x": {("a", "b"): 1}})


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=5) | st.integers(), children, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_like_value_is_written_as_json_writes_it(value: Any) -> None:
    assert dumps_indented(value) == expected(value)
