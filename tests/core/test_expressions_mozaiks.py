"""The ``mozaiks`` dialect: the Mozaiks transition_graph.yaml evaluator, rule by rule.

Each rule of mozaiks 0.2.0's evaluator, ``mozaiksai/core/adapters/ag2_transition_conditions.py``
(class ``_MozaiksExpression``) and the graph compiler that strips the text,
``mozaiksai/core/workflow/execution/network_graph.py`` (``compile_transition_rules_to_graph``
and ``_optional_text``), with flowctx's own messages and warnings. The answers themselves are
compared against the installed release in
``tests/differential/test_mozaiks_differential.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import ExpressionError, compile_expression, evaluate, referenced_names

COMPILE_FAILS = "WorkflowGraphCompileError"


def ok(expr: str, scope: dict[str, Any]) -> bool:
    result = evaluate(expr, scope, "mozaiks")
    assert result.success, result.error
    assert result.engine.startswith("Mozaiks transition evaluator")
    assert result.value is not None
    return result.value


def refused(expr: str) -> str:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mozaiks")
    return info.value.error.message


# network_graph.py, _optional_text: the text is stripped; empty or "null" is no expression
def test_the_text_is_stripped_and_empty_or_null_is_no_expression() -> None:
    assert ok("  ${a} == 1\n", {"a": 1}) is True
    for text in ("", "   ", "null", " NULL "):
        assert refused(text).startswith(
            "invalid syntax (<unknown>, line 0); the context_expression is empty"
        )
        assert "condition_type='context_expression' requires context_expression" in refused(text)


# _MozaiksExpression.__init__: _CONTEXT_REF_RE, \$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}
def test_names_allow_spaces_inside_the_braces() -> None:
    assert ok("${ status } == 'approved'", {"status": "approved"}) is True
    assert ok("${\tstatus\t} == 'approved'", {"status": "approved"}) is True
    assert referenced_names("${ a } and ${b_2}", "mozaiks") == {"a", "b_2"}


# _CONTEXT_REF_RE only takes an ASCII name: anything else stays "${...}", a syntax error
@pytest.mark.parametrize("text", ["${user.tier} == 1", "${a[0]}", "${é} == 1", "${1a}"])
def test_other_references_do_not_parse(text: str) -> None:
    message = refused(text)
    assert "(<unknown>, line 1)" in message and COMPILE_FAILS in message


# _CONTEXT_REF_RE.sub rewrites everywhere, string literals and comments included
def test_references_are_rewritten_inside_strings_and_comments() -> None:
    # "${a}" becomes the string "__ctx('a')": it never reads the variable
    result = evaluate('"${a}" == "x"', {"a": "x"}, "mozaiks")
    assert result.success and result.value is False
    assert any("inside a string literal" in w for w in result.warnings)
    # in single quotes the inserted quotes end the string
    assert "(<unknown>, line 1)" in refused("'${a}' == 'x'")
    assert ok("${a} # ${b}", {"a": True}) is True


# _MozaiksExpression.evaluate, _ctx: context_variables.get(key) -> None when missing
def test_a_missing_variable_reads_as_none() -> None:
    result = evaluate("${non_existent_var} == None", {"var_true": True}, "mozaiks")
    assert result.success and result.value is True
    assert any("reads it as None" in w for w in result.warnings)
    assert ok("not ${gone}", {}) is True


# _ALLOWED_EXPRESSION_NODES: BoolOp, UnaryOp(Not), Compare (all ten operators), Call, Name,
# Constant, List, Tuple
@pytest.mark.parametrize(
    ("expr", "expected"),
    [("${a} and not ${b}", True), ("${a} or ${b}", True), ("${n} > 2", True),
     ("${n} >= 3 and ${n} <= 3", True), ("${n} != 3", False), ("${n} < 3", False),
     ("${s} in ('approved', 'rejected')", True), ("${s} not in ['x']", True),
     ("'pro' in ${s}", True), ("${none} is None", True), ("${a} is not False", True),
     ("${items} == [1, 2]", True), ("${items} == (1, 2)", False), ("1 < ${n} < 5", True),
     ("${a} == 1", True), ("${d} == {'k': 1}", None)],
)  # fmt: skip
def test_allowed_operators_compare_values(expr: str, expected: bool | None) -> None:
    scope = {"a": True, "b": False, "n": 3, "s": "approved", "items": [1, 2], "none": None}
    if expected is None:  # a dict literal is not allowed
        assert "unsupported context_expression syntax: Dict" in refused(expr)
    else:
        assert ok(expr, scope) is expected


# _ALLOWED_EXPRESSION_CALLS = {"len", "__ctx"}; len is Python's (no 0 for None, unlike AG2)
def test_len_is_pythons() -> None:
    assert ok("len(${items}) > 0", {"items": [1]}) is True
    result = evaluate("len(${x}) == 0", {"x": None}, "mozaiks")
    assert not result.success and "has no len()" in result.error.message
    assert not evaluate("len(${a}, ${b})", {"a": [], "b": []}, "mozaiks").success


# __ctx is a name the text may use itself
def test_the_lookup_function_may_be_written_out() -> None:
    assert ok("__ctx('a') == 1", {"a": 1}) is True
    assert ok("__ctx(1) is None", {}) is True


@pytest.mark.parametrize(
    ("expr", "said"),
    [("__ctx()", "missing 1 required positional argument: 'key'"),
     ("__ctx('a', 'b')", "takes 1 positional argument but 2 were given"),
     ("len(${a}) > 0 or __ctx(1, 2, 3)", "takes 1 positional argument but 3 were given")],
)  # fmt: skip
def test_a_wrong_call_of_the_lookup_is_named_as_python_names_the_runtimes(
    expr: str, said: str
) -> None:
    result = evaluate(expr, {"a": []}, "mozaiks")
    assert not result.success and result.error
    assert result.error.message == f"_MozaiksExpression.evaluate.<locals>._ctx() {said}"


# _compile: "unsupported context_expression name" for any other Name
def test_bare_names_are_refused_at_compile_time() -> None:
    message = refused("${a} == true")
    assert "unsupported context_expression name: true" in message and COMPILE_FAILS in message
    assert ok("${a} == True", {"a": True}) is True  # True is a constant, not a name


# _compile: calls only to len/__ctx, and without keywords
def test_other_calls_and_keywords_are_refused() -> None:
    # the runtime walks breadth first, so the call is met before its parts
    assert "function call" in refused("max(${a}) > 1")
    assert "keywords" in refused("len(${a}, key=1) > 1")
    assert "function call" in refused("${s}.upper() == 'A'")
    assert "Attribute" in refused("${s}.upper")


# Not rewritten, as AG2 would: "!" is a syntax error, "&" and "|" are BinOp, "-1" is USub
def test_ag2_spellings_and_negative_literals_refuse_the_graph() -> None:
    bang = refused("!${var_true}")
    assert "(<unknown>, line 1)" in bang and "write not" in bang and COMPILE_FAILS in bang
    amp = refused("${var_true} & ${var_false}")
    assert "BinOp" in amp and "write and" in amp
    assert "write or" in refused("${a} | ${b}")
    negative = refused("${n} > -1")
    assert "USub" in negative and "negative literal" in negative


# _MozaiksExpression.evaluate: bool(eval(...)); eval errors propagate
def test_the_answer_is_the_truthiness_and_type_errors_fail() -> None:
    assert ok("${items}", {"items": [0]}) is True
    assert ok("${items}", {"items": []}) is False
    assert not evaluate("${s} < 1", {"s": "a"}, "mozaiks").success


def test_identity_is_warned_about() -> None:
    result = evaluate("${s} is 'approved'", {"s": "approved"}, "mozaiks")
    assert result.success
    assert any("'is' compares identity" in w for w in result.warnings)
    assert evaluate("${s} is None", {"s": None}, "mozaiks").warnings == ()


def test_error_spans_point_into_the_authors_text() -> None:
    text = "  ${a} and ${n} > -1"
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, "mozaiks")
    start, end = info.value.error.start, info.value.error.end
    assert text[start:end] == "-1"


def test_explain_names_the_variables() -> None:
    result = evaluate("${a} and ${n} > 2", {"a": True, "n": 3}, "mozaiks", explain=True)
    lines = result.explain.lines()
    assert lines[0].startswith("+ ${a} and ${n} > 2 -> True")
    assert any("${n} > 2 -> True (got 3)" in line for line in lines)


def test_flowctx_bounds_nesting_and_says_it_is_its_own_limit() -> None:
    # as deep as the runtime goes in practice is evaluated (its compiler stops near 990)
    assert evaluate("not " * 800 + "${a}", {"a": True}, "mozaiks").value is True
    message = refused("not " * 950 + "${a}")
    assert "nested too deeply for flowctx (more than 900 levels" in message


def test_the_reference_hint_is_given_only_for_a_reference_the_runtime_does_not_read() -> None:
    # '${x} >' is an incomplete comparison; its ${x} is fine, and the hint about names sent
    # a newcomer to fix the wrong part
    incomplete = refused("${x} >")
    assert "invalid syntax (<unknown>, line 1)" in incomplete and COMPILE_FAILS in incomplete
    assert "plain ASCII name" not in incomplete
    assert "plain ASCII name" in refused("${a.b} > 1")


def test_len_is_named_as_python_names_it() -> None:
    result = evaluate("len < ${x}", {"x": 1}, "mozaiks")
    assert not result.success
    assert result.error.message == (
        "'<' not supported between instances of 'builtin_function_or_method' and 'int'"
    )


def test_a_number_out_of_a_bytes_range_fails_in_pythons_words() -> None:
    # `in` over bytes takes an int 0..255: Python's ValueError holds no value, said as it is
    for n in (300, -1, 10**20):
        result = evaluate("${n} in b'ab'", {"n": n}, "mozaiks")
        assert not result.success and result.error
        assert result.error.message == "byte must be in range(0, 256)"
    assert ok("${n} in b'ab'", {"n": 97}) is True
