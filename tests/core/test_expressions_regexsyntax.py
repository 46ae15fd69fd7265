"""V8's words for a pattern's structural syntax errors (``js/regexsyntax.py``), measured on
node 20 through MemberJunction 5.51.3: the first error V8 meets, left to right."""

from __future__ import annotations

import pytest

from flowctx_core.expressions import evaluate

CASES = [
    ("/?a/", "", "Nothing to repeat"), ("/a**/", "", "Nothing to repeat"),
    ("/a|*/", "", "Nothing to repeat"), ("/^*/", "", "Nothing to repeat"),
    ("/\\b+/", "", "Nothing to repeat"), ("/a*??/", "", "Nothing to repeat"),
    ("/(\\)-(\\d+)/", "", "Unterminated group"), ("/(?<=a\\)/", "", "Unterminated group"),
    ("/(?i:a)/", "", "Invalid group"),
    ("/(?x)/", "", "Invalid group"), ("/(?<1a>x)/", "", "Invalid capture group name"),
    ("/(?<=a)*/", "", "Invalid quantifier"), ("/(?=a)*/u", "", "Invalid quantifier"),
    ("/]/u", "", "Lone quantifier brackets"),
    ("/\\k<x>/u", "", "Invalid named capture referenced"),
    ("/\\k<a>(?<b>x)/", "", "Invalid named capture referenced"),
    ("/\\k/u", "", "Invalid named reference"), ("/\\c/u", "", "Invalid Unicode escape"),
    ("/\\u12/u", "", "Invalid Unicode escape"), ("/\\q/u", "", "Invalid escape"),
    ("/\\-/u", "", "Invalid escape"), ("/[b-a]/", "", "Range out of order in character class"),
]  # fmt: skip


@pytest.mark.parametrize(("literal", "_", "reason"), CASES)
def test_a_pattern_fails_with_v8s_first_reason(literal: str, _: str, reason: str) -> None:
    result = evaluate(f"{literal}.test('a')", {})
    assert result.error is not None
    assert result.error.message == f"Invalid regular expression: {literal}: {reason}"


@pytest.mark.parametrize(
    "literal", ["/(?=a)*/", "/(?!a)+/", "/]/", "/\\k<a>/", "/\\k/", "/a*?/", "/[^-]/"]
)
def test_what_v8_reads_without_the_u_flag_is_no_error(literal: str) -> None:
    result = evaluate(f"{literal}.test('a') || true", {})
    assert result.value is True, result.error


def test_a_pattern_built_at_run_time_says_the_same() -> None:
    result = evaluate("new RegExp(payload.p).test('a')", {"payload": {"p": "a)b"}})
    assert result.error is not None
    assert result.error.message == "Invalid regular expression: /a)b/: Unmatched ')'"
