"""flowctx's ``ag2`` dialect beside the real AG2 ContextExpression (ag2 0.14.0, installed with
the test extra): the same text and context through both, compared on success and boolean."""

from __future__ import annotations

import importlib.metadata
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from flowctx_core.expressions import evaluate
from tests.differential.ag2_cases import CONTEXTS, CORPUS, EXPRESSIONS, compare, real, tally


def test_the_engine_under_test_is_ag2_0_14_0() -> None:
    assert importlib.metadata.version("ag2") == "0.14.0"


def test_the_hand_written_corpus_agrees() -> None:
    counts, wrong = tally(CORPUS, evaluate)
    assert wrong == [], f"ag2 corpus: {dict(counts)}"
    # The corpus reaches both outcomes of the engine, not only errors.
    outcomes = Counter(real(expr, context)[:2] for expr, context in CORPUS)
    assert outcomes[(True, True)] > 40 and outcomes[(True, False)] > 15
    assert outcomes[(False, None)] > 20


def test_generated_expressions_agree() -> None:
    counts: Counter[str] = Counter()
    wrong: list[tuple[str, dict[str, Any], Any, Any]] = []

    @settings(
        max_examples=2500,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(EXPRESSIONS, CONTEXTS)
    def run(expr: str, context: dict[str, Any]) -> None:
        verdict, ours, theirs = compare(expr, context, evaluate)
        counts[verdict] += 1
        counts["engine succeeded"] += theirs[0]
        if verdict == "disagree":
            wrong.append((expr, context, ours, theirs))

    run()
    assert wrong[:8] == [], f"ag2 generated: {dict(counts)}"
    # the generator reaches evaluation, not only errors
    assert counts["engine succeeded"] > 300, f"ag2 generated: {dict(counts)}"


@pytest.mark.parametrize(
    ("expr", "context"),
    [
        ("${a} == ${b}", {"a": "${b}", "b": '+ "xyz" +'}),
        ("${a} == 1 or __name__", {"a": 0}),
    ],
)
def test_where_the_runtime_would_run_text_flowctx_refuses_and_says_so(
    expr: str, context: dict[str, Any]
) -> None:
    verdict, ours, theirs = compare(expr, context, evaluate)
    assert verdict == "refused"
    assert ours[:2] == (False, None)
    assert theirs[0] is True  # the runtime did evaluate something outside its allowlist


@pytest.mark.parametrize(
    ("expr", "context"),
    [("${a} or print", {"a": 0}), ("not Ellipsis", {}), ("__debug__ == True", {}),
     ("self == self", {}), ("${a} == self", {"a": 1}), ("len == len", {}),
     ("${a} or not${i}", {"a": True, "i": 5}), ("${a} or not${i}", {"a": False, "i": 5}),
     ("${a} and not${i}", {"a": False, "i": None}), ("b'${s}' == b'a'", {"s": "a"}),
     ("b'${n}' == b'5'", {"n": 5}), ("b'${c}'", {"c": "#"}), ("rb'${s}'", {"s": "x"}),
     ("not " * 500 + "${a}", {"a": True}), ("!(" * 150 + "${a}" + ")" * 150, {"a": True})],
)  # fmt: skip
def test_issue_23_corners_agree_with_ag2(expr: str, context: dict[str, Any]) -> None:
    verdict, ours, theirs = compare(expr, context, evaluate)
    assert verdict == "agree", (ours, theirs)


@pytest.mark.parametrize(
    ("expr", "context"),
    [("Ellipsis == ...", {}), ("... == Ellipsis", {}), ("Ellipsis != ...", {}),
     ("not Ellipsis == ...", {}), ("${a} == Ellipsis", {"a": 1}), ("${a} or Ellipsis", {"a": 0}),
     ("Ellipsis", {}), ("len(Ellipsis)", {}), ("Ellipsis < ...", {}),
     ("${a} or " + "n" * 250, {"a": 0}), ("${a} or " + "\u00e9" * 150, {"a": 0}),
     ("${a} or " + "a" * 199 + "\u00e9b", {"a": 0}), ("not${a}", {"a": 10**250}),
     ("not${a}", {"a": "x" * 300}), ("${a} or " + "a" * 197 + "\U0001d49c", {"a": 0})],
)  # fmt: skip
def test_ellipsis_and_long_undefined_names_agree_with_ag2(
    expr: str, context: dict[str, Any]
) -> None:
    """`Ellipsis` is the constant `...`; Python cuts a NameError's name at 200 bytes."""
    verdict, ours, theirs = compare(expr, context, evaluate)
    assert verdict == "agree", (ours, theirs)


@pytest.mark.parametrize("name", ["print", "len", "abs", "int", "str", "Ellipsis", "min", "zip"])
def test_a_bare_builtin_is_what_ag2_returns_said_with_its_repr(name: str) -> None:
    from autogen.agentchat.group.context_expression import ContextExpression
    from autogen.agentchat.group.context_variables import ContextVariables

    theirs = ContextExpression(name).evaluate(ContextVariables(data={}))
    ours = evaluate(name, {}, "ag2")
    assert (ours.success, ours.value) == (True, bool(theirs))
    assert (
        ours.warnings
        and f"AG2's evaluate returns {theirs!r} here, not a boolean" in (ours.warnings[-1])
    )
    # a context variable's value is never described this way
    assert evaluate("${x} and 5", {"x": 1}, "ag2").warnings == ()


@pytest.mark.parametrize(
    ("expr", "context"),
    [("${a}${b}", {"a": 1, "b": -1}), ("${a}${b}", {"a": "x", "b": -1}),
     ("${a}${b} == 0", {"a": 1, "b": -1}), ("${a}${b}", {"a": None, "b": -2.5}),
     ("${a}${b}", {"a": 10**400, "b": -1.5}), ("(${a}and${a}) >= 1", {"a": -1}),
     ("${a}${b}${c}", {"a": 5, "b": -1, "c": -2}), ("${a}${b}", {"a": 1, "b": float("-inf")}),
     ("(not${f}) != 1", {"f": 1e300}), ("${a}${b}", {"a": 5, "b": 1e-300})],
)  # fmt: skip
def test_a_subtraction_pasting_makes_is_answered_as_python_answers_it(
    expr: str, context: dict[str, Any]
) -> None:
    """A negative number pasted after an operand is a binary '-' in the text AG2 evaluates:
    Python's value, or its TypeError/OverflowError words, not a refusal."""
    verdict, ours, theirs = compare(expr, context, evaluate)
    assert verdict == "agree", (ours, theirs)


def test_the_held_out_expressions_agree() -> None:
    """Expressions from a grammar written apart from this suite's (heldout_python.py): values
    and error words agree, and nothing is refused (none of them reaches code)."""
    from tests.differential import heldout_python

    counts: Counter[str] = Counter()
    wrong = []
    for expr, context in heldout_python.draw(3000, 36):
        verdict, ours, theirs = compare(expr, context, evaluate)
        counts[verdict] += 1
        counts["engine succeeded"] += theirs[0]
        if verdict != "agree":
            wrong.append((expr, context, ours, theirs))
    assert wrong[:5] == [], f"ag2 held-out: {dict(counts)}"
    assert counts["engine succeeded"] > 300, dict(counts)


#: rules a hunt aimed at one by one, each against values of every JSON type and a few more:
#: how each value pastes, len() of each type, !/&/| against not/and/or, chained comparisons,
#: literal forms, whitespace, comments, ${...} inside strings, odd names, missing variables
HUNTED_EXPRESSIONS = (
    "${a}", "!${a}", "! (${a})", "${a} == ${b}", "${a} < ${b}", "0 < ${a} < 10",
    "len(${a})", "len(${a}) == len(${b})", "len( ${a} )", "len(${a}) and ${a}",
    "${a} & ${b}", "${a}&${b}", "${a} | ${b} & ${a}", "${a}\u00a0&\u00a0${b}", "${a} &\n${b}",
    "not ${a} == ${b}", "!${a} == ${b}", "!!${a}", "${a} == -${b}", "${a}${b}", "not${a}",
    "${a} == 'it\\'s'", "'${a}' == 'x'", "${a} == 1 # ${b}", "(${a}\n== ${b})", " ${a}",
    "${a} == 0x10", "${a} == 1_000", "${a} == 01", "${a} == b'ab'", "${a} == 1j", "${a} == ...",
    "${a} == True", "${a} == None", "${a} in ${b}", "${a} is None", "${ a }", "${1}", "${}",
    "${a | b}", "len(${c})", "${a} == ${c}", "__STRING_LITERAL_0__ == 'x'", "${a} == inf",
)  # fmt: skip
HUNTED_VALUES = (
    None, True, False, 0, -1, 257, 10**20, 1.5, -0.0, 1e16, float("nan"), float("inf"), "",
    "it's", "a\\", "x\ny", "\u00e9", "${b}", "#", [], [1], {}, {"k": 1}, (1,),
)  # fmt: skip


def test_the_hunted_rules_agree() -> None:
    counts: Counter[str] = Counter()
    wrong = []
    for expr in HUNTED_EXPRESSIONS:
        for value in HUNTED_VALUES:
            for context in ({"a": value, "b": 1}, {"a": 1, "b": value}):
                verdict, ours, theirs = compare(expr, context, evaluate)
                counts[verdict] += 1
                if verdict == "disagree":
                    wrong.append((expr, context, ours, theirs))
    assert wrong[:5] == [], f"ag2 hunted: {dict(counts)}"
    assert counts["agree"] > 2000, dict(counts)
