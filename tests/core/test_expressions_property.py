"""Property: for any text (from a grammar of all three dialects' tokens, or random) and any
JSON scope, ``evaluate`` returns an EvalResult, never raises, never mutates its inputs and
finishes quickly."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowctx_core.expressions import DIALECTS, EvalResult, evaluate

NAMES = ["payload", "data", "context", "stepResult", "flowContext", "x", "items", "s", "missing"]
TOKENS = [
    # shared
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    " ",
    "1",
    "0",
    "-1",
    "2.5",
    "1e308",
    "'a'",
    '"b"',
    "''",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "?",
    ":",
    # mj
    "===",
    "!==",
    "&&",
    "||",
    "??",
    "?.",
    "?.[",
    "=>",
    "x => x",
    "typeof",
    "in",
    "true",
    "false",
    "null",
    "undefined",
    "NaN",
    ".length",
    ".includes(",
    ".some(",
    ".map(",
    ".filter(",
    ".slice(",
    ".split(",
    ".replace(",
    "Math.max(",
    "Object.keys(",
    "JSON.stringify(",
    "parseInt(",
    "Number(",
    "String(",
    "this",
    "constructor",
    "__proto__",
    "['constructor']",
    "new",
    ";",
    "=",
    "++",
    "`",
    "{",
    "}",
    "eval(",
    # ag2
    "${x}",
    "${items}",
    "${s}",
    "${missing}",
    "${a.b}",
    " and ",
    " or ",
    " not ",
    " & ",
    " | ",
    " in ",
    " not in ",
    " is ",
    " is not ",
    "len(",
    "True",
    "False",
    "None",
    # python
    "**",
    "//",
    "__class__",
    ".__class__",
    ".format(",
    "lambda",
    " for ",
    " if ",
    " else ",
    "10**9",
    "9**9**9",
    "'x'*",
    ".get(",
    ".keys()",
    "sorted(",
    "sum(",
    "{}",
    ":=",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats()
    | st.sampled_from(["", "a", "x", "0", "1,2"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "x", "length", "apiKey"]), inner, max_size=3)
    ),
    max_leaves=6,
)
scopes = st.fixed_dictionaries({}, optional={name: json_values for name in NAMES})
texts = st.one_of(
    st.lists(st.sampled_from(NAMES + TOKENS), min_size=0, max_size=25).map("".join),
    st.lists(st.sampled_from(NAMES + TOKENS), min_size=1, max_size=12).map(" ".join),
    st.text(max_size=60),
    st.text(alphabet="()[]{}!?.:=&|<>+-*/%'\"`${}_ax1 ", max_size=80),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, scope=scopes, dialect=st.sampled_from(DIALECTS), explain=st.booleans())
def test_evaluate_is_total_and_read_only(
    text: str, scope: dict[str, Any], dialect: str, explain: bool
) -> None:
    before = copy.deepcopy(scope)
    result = evaluate(text, scope, dialect, explain=explain)
    assert isinstance(result, EvalResult)
    assert result.success == (result.error is None)
    assert result.value in ((True, False) if result.success else (None,))
    if explain:
        assert result.explain is not None
        result.explain.lines()
    result.to_json(explain=explain)
    # NaN != NaN, so compare reprs of the deep copy rather than values.
    assert repr(scope) == repr(before), "evaluation changed its scope"
