"""The ``ag2`` dialect: AG2's ContextExpression (ag2 0.14.0), text substitution and all.

Every expectation here is the real engine's answer (tests/differential runs them side by side).
"""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import ExpressionError, compile_expression, evaluate, referenced_names

CTX: dict[str, Any] = {
    "t": True,
    "f": False,
    "n": 10,
    "s": "hello",
    "items": [1, 2, 3],
    "empty": [],
    "none": None,
}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("${t}", True), ("not ${f}", True), ("!${t}", False), ("! ${f}", True),
     ("!(${t} and ${f})", True), ("${t} & ${f}", False), ("${t} | ${f}", True),
     ("${t} and not ${f}", True), ("${n} > 5 and ${n} <= 10", True), ("${n} != 10", False),
     ("${s} == 'hello'", True), ('${s} == "hello"', True), ("len(${items}) == 3", True),
     ("len(${empty}) > 0", False), ("${empty}", False), ("${n} > -1", True),
     ("${t} == True", True), ("${none} == None", True), ("${n} == 10.0", True),
     ("${t} == 1", True), ("-${n} < 0", True), ("len(${s}) == 5", True),
     ("len( ${s} ) == 5", True), ("(${t}\n and ${t})", True)],
)  # fmt: skip
def test_semantics(expr: str, expected: bool) -> None:
    result = evaluate(expr, CTX, "ag2")
    assert result.success, result.error
    assert result.value is expected
    assert result.engine == "AG2 ContextExpression 0.14.0"


def test_a_list_is_pasted_as_its_truthiness_and_says_so() -> None:
    result = evaluate("${x} == ${y}", {"x": [1], "y": [2]}, "ag2")
    assert result.success and result.value is True  # True == True
    assert any("${x} is a list" in w and "as True" in w for w in result.warnings)
    dict_result = evaluate("${d} == False", {"d": {}}, "ag2")
    assert dict_result.value is True
    assert any("is a dict" in w for w in dict_result.warnings)
    # a truthiness test needs no warning: the answer is what comparing values would give
    assert evaluate("${x}", {"x": [1]}, "ag2").warnings == ()


def test_len_of_a_value_without_a_length_is_zero() -> None:
    for value in (None, 12, True, 2.5):
        result = evaluate("len(${x}) == 0", {"x": value}, "ag2")
        assert result.success and result.value is True


def test_len_written_with_spaces_measures_only_strings() -> None:
    assert evaluate("len( ${x} ) == 2", {"x": "ab"}, "ag2").value is True
    result = evaluate("len( ${x} ) == 2", {"x": [1, 2]}, "ag2")
    assert not result.success  # len(True)
    assert any("not written len(${x})" in w for w in result.warnings)


def test_a_variable_in_len_and_on_its_own_never_evaluates() -> None:
    result = evaluate("len(${x}) > 0 and ${x}", {"x": [1]}, "ag2")
    assert not result.success
    assert "does not parse" in result.error.message
    assert any("both in len(${x}) and on its own" in w for w in result.warnings)


def test_a_string_value_with_a_line_break_breaks_the_expression() -> None:
    result = evaluate("${x} == 'a'", {"x": "a\nb"}, "ag2")
    assert not result.success
    assert "unterminated string literal" in result.error.message
    assert any("line break" in w for w in result.warnings)
    assert "a\nb" not in result.error.message


def test_a_variable_inside_a_string_literal_is_replaced_too() -> None:
    assert evaluate('"${x}" == "True"', {"x": True}, "ag2").value is True
    result = evaluate('${x} == "${x}"', {"x": "a"}, "ag2")
    assert result.success and result.value is False  # 'a' == "'a'"
    assert any("string literal holding ${x}" in w for w in result.warnings)
    # single quotes: the pasted quotes end the literal
    assert not evaluate("'${x}' == 'a'", {"x": "a"}, "ag2").success


def test_strings_are_escaped_so_quotes_cannot_inject() -> None:
    injected = {"s": "x' or '1'=='1"}
    assert evaluate("${s} == 'x'", injected, "ag2").value is False
    assert evaluate("${s} == 'path\\\\to'", {"s": "path\\to"}, "ag2").value is True


def test_missing_variable_is_a_key_error_even_where_short_circuit_skips_it() -> None:
    result = evaluate("${t} or ${missing}", CTX, "ag2")
    assert not result.success
    assert result.error.message == "Missing context variable: 'missing'"
    assert (result.error.start, result.error.end) == (8, 18)
    assert not evaluate("${t} # ${missing}", CTX, "ag2").success


def test_names_are_looked_up_as_written() -> None:
    # the name is ' t ', spaces included (and at the start, ' t ' is an indented line)
    assert not evaluate("(${ t })", CTX, "ag2").success
    assert evaluate("(${ t })", {" t ": True}, "ag2").value is True
    assert not evaluate("${ t }", {" t ": True}, "ag2").success
    assert evaluate("${1} == 'one'", {"1": "one"}, "ag2").value is True
    warned = evaluate("(${ t })", {" t ": True}, "ag2").warnings
    assert any("spaces included" in w for w in warned)


def test_bare_names() -> None:
    undefined = evaluate("${f} or nope", CTX, "ag2")
    assert not undefined.success and "name 'nope' is not defined" in undefined.error.message
    assert evaluate("${t} or nope", CTX, "ag2").value is True  # never reached
    # AG2's eval reads its own names: builtins, __debug__, self are predicted (reading them
    # runs nothing; len() is the only call it allows)
    assert evaluate("${f} or print", CTX, "ag2").value is True
    assert evaluate("not Ellipsis", CTX, "ag2").value is False
    assert evaluate("__debug__ == True", CTX, "ag2").value is True
    assert evaluate("self == self", CTX, "ag2").value is True
    assert evaluate("${t} == self", CTX, "ag2").value is False
    internal = evaluate("${f} or eval_expr", CTX, "ag2")
    assert not internal.success
    assert "flowctx does not reproduce that value" in internal.error.message


def test_a_name_pasted_from_a_value_is_read_only_when_reached() -> None:
    # `not${i}` with 5 pastes `not5`: a NameError only if `or` does not short-circuit first
    assert evaluate("${t} or not${n}", {**CTX, "n": 5}, "ag2").value is True
    failed = evaluate("${f} or not${n}", {**CTX, "n": 5}, "ag2")
    # Python's words, which name what the value made
    assert not failed.success
    assert failed.error.message.startswith("name 'not5' is not defined; pasting the values")
    # a secret-looking variable's value is never shown, even inside a name
    hidden = evaluate("${f} or not${api_key}", {**CTX, "api_key": 12345}, "ag2")
    assert not hidden.success and "NameError" in hidden.error.message
    assert "12345" not in hidden.error.message


def test_nesting_as_deep_as_ag2_follows_it() -> None:
    assert evaluate("not " * 500 + "${t}", CTX, "ag2").value is True
    deep = evaluate("not " * 950 + "${t}", CTX, "ag2")
    assert not deep.success and "flowctx's bound" in deep.error.message


def test_a_variable_inside_a_bytes_literal_is_pasted_there_too() -> None:
    # AG2 pastes the value inside b'...' as well: b''a'' does not parse
    assert not evaluate("b'${s}' == b'a'", {"s": "a"}, "ag2").success
    assert evaluate("b'${n}' == b'5'", {"n": 5}, "ag2").value is True


def test_text_the_runtime_would_execute_is_refused() -> None:
    context = {"a": "${b}", "b": '+ "x" +'}
    result = evaluate("${a} == ${b}", context, "ag2")
    assert not result.success
    assert result.error.message.startswith("AG2 ContextExpression 0.14.0 would execute this")


BINOP = "Operation type BinOp is not allowed in logical expressions"
SYNTAX = "invalid syntax (<unknown>, line 1)"


@pytest.mark.parametrize(
    ("expr", "said"),
    [("${user.is_premium}", "Operation type Attribute is not allowed in logical expressions"),
     ("${items[0]}", "Operation type Subscript is not allowed in logical expressions"),
     ("${n} + 1 > 2", BINOP),
     ("${s}.upper() == 'X'", "Only the len() function is allowed, got: unknown"),
     ("max(${items}) > 1", "Only the len() function is allowed, got: max"),
     ("len(${items}, 2) > 1", "len() function must have exactly one argument, got 2"),
     ("${t} && ${f}", f"{SYNTAX}; write and / or (or & / | between spaces)"),
     ("${t} || ${f}", f"{SYNTAX}; write and / or (or & / | between spaces)"),
     ("${t}&${f}", f"{BINOP}; AG2 reads & and | as and / or only with whitespace on both sides"),
     ("!x", f"{SYNTAX}; AG2 reads ! as not only before ${{ or ("),
     ("${}", "invalid syntax (<unknown>, line 0)"),
     ("${a b}", SYNTAX),
     ("${n} if ${t} else 0", "Operation type IfExp is not allowed in logical expressions"),
     ("", "invalid syntax (<unknown>, line 0)"),
     # the comparison's operators are checked before its operands, as AG2 walks
     ("${x} in ('a', 'b')", "Comparison operator In is not allowed"),
     ("${x} is None", "Comparison operator Is is not allowed"),
     ("${x} == [1]", "Operation type List is not allowed in logical expressions"),
     ("  ${t}", "unexpected indent (<unknown>, line 1)"),
     ("+${n} > 1", "Operation type UAdd is not allowed in logical expressions")],
)  # fmt: skip
def test_refused_when_parsed_in_the_engines_words(expr: str, said: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "ag2")
    assert info.value.error.message == said


def test_referenced_names_are_every_substitution() -> None:
    text = "${ready} and ${mode} == 'batch' and len(${caps}) > 0"
    assert referenced_names(text, "ag2") == {"ready", "mode", "caps"}
    # AG2 replaces ${...} inside quotes too, so the quoted variable must exist
    assert referenced_names("'${quoted}' == 'x'", "ag2") == {"quoted"}


def test_error_span_maps_back_to_the_original_text() -> None:
    text = "${t} and ${n}.real"
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, "ag2")
    start, end = info.value.error.start, info.value.error.end
    assert text[start:end] == "${n}.real"


def test_explain_shows_the_pasted_values_and_the_warnings() -> None:
    result = evaluate("${x} == ${y} & !${f}", {"x": [1], "y": [2], "f": False}, "ag2", explain=True)
    assert result.success and result.value is True
    lines = result.explain.lines()
    assert any("${x} == ${y} -> True (got True, True)" in line for line in lines)
    assert any(line.startswith("! warning: ${x} is a list") for line in lines)


def test_a_name_that_comes_out_of_a_value_is_never_quoted() -> None:
    context = {"a": "${b}", "b": "+ hunter2 +"}
    result = evaluate("${a} == ${b}", context, "ag2")
    assert not result.success and "would execute this as code" in result.error.message
    assert "hunter2" not in result.error.message


@pytest.mark.parametrize(
    ("expr", "said"),
    [("-len", "bad operand type for unary -: 'builtin_function_or_method'"),
     ("print < 1", "'<' not supported between instances of 'builtin_function_or_method' and 'int'"),
     ("int < 1", "'<' not supported between instances of 'type' and 'int'"),
     ("-self", "bad operand type for unary -: 'ContextExpression'")],
)  # fmt: skip
def test_a_name_of_the_evaluators_frame_is_named_by_its_real_type(expr: str, said: str) -> None:
    # Python's messages name the object's type: the stand-in says the type it stands for
    result = evaluate(expr, {}, "ag2")
    assert not result.success and result.error.message == said


def test_the_builtin_ellipsis_is_the_constant_it_names() -> None:
    # builtins' Ellipsis is `...` itself: equal to the literal, and what evaluate returns
    assert evaluate("Ellipsis == ...", CTX, "ag2").value is True
    assert evaluate("... != Ellipsis", CTX, "ag2").value is False
    bare = evaluate("Ellipsis", CTX, "ag2")
    assert bare.raw is ... and bare.value is True
    assert bare.warnings and "returns Ellipsis here, not a boolean" in bare.warnings[-1]
    assert "returns Ellipsis here" in evaluate("${f} or ...", CTX, "ag2").warnings[-1]


@pytest.mark.parametrize(
    ("name", "shown"),
    [("a" * 250, "a" * 200), ("\u00e9" * 150, "\u00e9" * 100),
     ("a" * 199 + "\u00e9", "a" * 199 + "\ufffd"), ("a" * 200, "a" * 200)],
)  # fmt: skip
def test_an_undefined_name_is_cut_at_200_bytes_as_python_says_it(name: str, shown: str) -> None:
    result = evaluate(f"${{f}} or {name}", CTX, "ag2")
    assert not result.success and result.error
    assert result.error.message == f"name '{shown}' is not defined"
