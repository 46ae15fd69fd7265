"""Cases for running AG2's ContextExpression (ag2 0.14.0) beside flowctx's ``ag2`` dialect.

``real`` calls the installed engine itself; ``compare`` says whether flowctx agrees with it on
success and on the boolean value. Generated text is built from a small alphabet and a closed
set of names: the real engine ``eval``s what it builds, so no generated case can spell a call
that reaches the system (letters are limited to the variable names and ``len``).
"""

from __future__ import annotations

import builtins
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from autogen.agentchat.group.context_expression import ContextExpression
from autogen.agentchat.group.context_variables import ContextVariables
from hypothesis import strategies as st

from flowctx_core.expressions import EvalResult
from flowctx_core.expressions.ag2 import _OPAQUE_FRAME, ENGINE, FrameObject

#: variables a context may hold; the expressions also name ones it never holds
NAMES = ("a", "b", "n", "s", "items", "flag")
MISSING = ("missing", "gone")
ODD_NAMES = (" a ", "a.b", "1", "a b", "", "a]")

#: (success, bool of the value, the value itself or the error's text)
Outcome = tuple[bool, bool | None, Any]

#: the fixed text ContextExpression wraps each error in: it only repeats the expression, and
#: flowctx shows the expression itself (as it leaves out MemberJunction's wrapper)
_WRAPPERS = (
    ("Invalid expression syntax in '", "': "),
    ("Error validating expression '", "': "),
    ("Error evaluating expression '", "' (are you sure you're using ${my_context_variable_key}): "),
)


def engine_words(expr: str, exc: BaseException) -> str:
    """The engine's message for ``exc``, without the wrapper that repeats the expression (a
    KeyError's text without the quotes its str adds)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    for before, after in _WRAPPERS:
        head = before + expr + after
        if text.startswith(head):
            return text[len(head) :]
    return text


def real(expr: str, context: Mapping[str, Any]) -> Outcome:
    """The engine's own answer: (success, bool of its value, its value or its words)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compiled = ContextExpression(expr)
        except Exception as exc:
            return (False, None, engine_words(expr, exc))
        try:
            value = compiled.evaluate(ContextVariables(data=dict(context)))
        except Exception as exc:
            return (False, None, engine_words(expr, exc))
    return (True, bool(value), value)


def refused(result: EvalResult) -> bool:
    """flowctx declined to predict: the runtime would execute or read its internals, or the
    text passes one of flowctx's own bounds."""
    return (
        not result.success
        and result.error is not None
        and (
            result.error.message.startswith(f"{ENGINE} would")
            or "for flowctx" in result.error.message
            or result.error.message.startswith("refused:")
        )
    )


def _same_value(ours: Any, theirs: Any) -> bool:
    """The value evaluate returns, exactly: the type too (0 is not False); a name of the
    evaluator's frame is the builtin it names."""
    if isinstance(ours, FrameObject):
        return getattr(builtins, ours.name, None) is theirs or (
            ours.name in _OPAQUE_FRAME and not isinstance(theirs, (bool, int, float, str))
        )
    if type(ours) is not type(theirs):
        return False
    return ours == theirs or (ours != ours and theirs != theirs)  # nan is nan


def _same_words(ours: str, theirs: str) -> bool:
    """flowctx says the engine's words first, then may add why after "; "."""
    return ours == theirs or ours.startswith(theirs + "; ")


def compare(
    expr: str, context: Mapping[str, Any], evaluate: Callable[..., EvalResult]
) -> tuple[str, Outcome, Outcome]:
    """``("agree" | "refused" | "disagree", flowctx's outcome, the engine's outcome)``:
    success, the boolean, the exact value and the error's exact words are compared."""
    mine = evaluate(expr, dict(context), "ag2")
    theirs = real(expr, context)
    said = mine.raw if mine.success else (mine.error.message if mine.error else "")
    ours: Outcome = (mine.success, mine.value if mine.success else None, said)
    if refused(mine):
        return ("refused", ours, theirs)
    same = ours[:2] == theirs[:2] and (
        _same_value(ours[2], theirs[2]) if ours[0] else _same_words(ours[2], theirs[2])
    )
    return ("agree" if same else "disagree", ours, theirs)


def tally(
    cases: list[tuple[str, dict[str, Any]]], evaluate: Callable[..., EvalResult]
) -> tuple[Counter[str], list[tuple[str, dict[str, Any], Outcome, Outcome]]]:
    counts: Counter[str] = Counter()
    wrong = []
    for expr, context in cases:
        verdict, ours, theirs = compare(expr, context, evaluate)
        counts[verdict] += 1
        if verdict == "disagree":
            wrong.append((expr, context, ours, theirs))
    return counts, wrong


# --- generated cases -------------------------------------------------------------------------

_TEXT = st.text(alphabet="ab '\"\\\n\r$}{()_1é😀\t-", max_size=8)
_LEAF_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 10**30, 2**53 + 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    _TEXT,
    st.sampled_from(["", "a", "${a}", "${b}", "it's", 'say "hi"', "a\\", "x\ny", "é"]),
)
VALUES = st.recursive(
    _LEAF_VALUES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["k", "a", "é"]), inner, max_size=2),
    ),
    max_leaves=6,
)
#: most names present (so most cases get as far as evaluation), some absent, some odd keys
CONTEXTS = st.fixed_dictionaries(
    {name: VALUES for name in NAMES[:3]},
    optional={name: VALUES for name in (*NAMES[3:], " a ", "1")},
)


def _name() -> st.SearchStrategy[str]:
    known = st.sampled_from(NAMES)
    return st.one_of(known, known, known, known, st.sampled_from(MISSING + ODD_NAMES))


_VARIABLE = _name().map(lambda n: "${" + n + "}")
_LITERAL = st.one_of(
    st.sampled_from(["True", "False", "None", "0", "1", "-1", "2.5", "-0.0", "1e3", "''"]),
    st.integers(min_value=-1000, max_value=1000).map(str),
    _TEXT.filter(lambda t: "'" not in t and "\n" not in t and "\r" not in t).map(
        lambda t: f"'{t}'"
    ),
    st.sampled_from(NAMES + MISSING).map(lambda n: f"'${{{n}}}'"),
    st.sampled_from(NAMES).map(lambda n: f'"${{{n}}}"'),
    st.sampled_from(["'a'", '"a"', "'it\\'s'", "'\\\\'", "'é'"]),
)
_ATOM = st.one_of(
    _VARIABLE,
    _VARIABLE,
    _VARIABLE,
    _LITERAL,
    _name().map(lambda n: f"len(${{{n}}})"),
    _name().map(lambda n: f"len( ${{{n}}} )"),
    _LITERAL,
    st.sampled_from(["a", "b", "true", "len", "x"]),  # bare names
    st.sampled_from(["[1]", "(1, 2)", "{}", "${a}.b", "${a}[0]", "${a} + 1", "len(1, 2)"]),
)
_BINARY = st.sampled_from(
    [" and ", " or ", " & ", " | ", "&", " == ", " != ", " < ", " <= ", " > ", " >= ",
     " in ", " is ", " not in ", "==", " &  ", "\t|\t", " && ", " || "]
)  # fmt: skip
_UNARY = st.sampled_from(["not ", "!", "! ", "-", "not", "!!"])


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, _BINARY, inner).map("".join),
        st.tuples(_UNARY, inner).map("".join),
        inner.map(lambda e: f"({e})"),
        st.tuples(st.sampled_from(["!(", "not ("]), inner).map(lambda p: f"{p[0]}{p[1]})"),
    )


EXPRESSIONS = st.recursive(_ATOM, _extend, max_leaves=6).flatmap(
    lambda e: st.sampled_from([e, e, e, f" {e}", f"{e} ", f"{e}\n", f"{e} # ${{s}}"])
)


# --- the hand-written corpus -----------------------------------------------------------------
# The facts of AG2's own test file (test/agentchat/group/test_context_expression.py), with
# other names and values, then the text-substitution quirks of ag2 0.14.0's context_expression.py.

_FLAGS = {"on": True, "off": False}
_NUMS = {"zero": 0, "one": 1, "ten": 10, "minus": -5}
_WORDS = {"blank": "", "greet": "hi", "other": "yo"}
_USER = {
    "signed_in": True,
    "staff": False,
    "allowed": True,
    "age": 30,
    "adult_at": 18,
    "tries": 1,
    "tries_max": 4,
    "handle": "ada_l",
}
_SIZES = {
    "none_yet": [],
    "three": ["x", "y", "z"],
    "one_item": [7],
    "no_text": "",
    "word": "abcd",
    "no_keys": {},
    "one_key": {"k": 1},
}


def _each(context: dict[str, Any], *exprs: str) -> list[tuple[str, dict[str, Any]]]:
    return [(expr, context) for expr in exprs]


CORPUS: list[tuple[str, dict[str, Any]]] = [
    # boolean operators, words and symbols
    *_each(
        _FLAGS,
        "${on}",
        "${off}",
        "not ${on}",
        "not ${off}",
        "${on} and ${off}",
        "${off} or ${on}",
        "${off} or ${off}",
        "!${on}",
        "!${off}",
        "${on} & ${off}",
        "${on} | ${off}",
        "${off} | ${off}",
        "${on} & !${off}",
        "!${on} | ${on}",
        "${on} and !${off}",
        "not ${on} | ${on}",
        "${on} & (${off} or ${on})",
        "${on} & !${off} | ${off}",
        "!(${on} | ${off}) & ${on}",
        "!${on} | ${off} & ${on}",
        "${on}&${off}",
        "${on} && ${off}",
        "${on} || ${off}",
        "! ${off}",
        "!(${off})",
        "${on}\t&\t${off}",
    ),
    # numbers
    *_each(
        _NUMS,
        "${zero} == 0",
        "${one} == 2",
        "${zero} != 1",
        "${ten} > 5",
        "${one} < 5",
        "${ten} >= 11",
        "${one} <= 1",
        "${minus} < 0",
        "${minus} == -5",
        "${minus} > -10",
        "${ten} > 5 & ${one} < 5",
        "${ten} == 10 | ${one} == 0",
        "!(${one} > 5) & ${ten} >= 10",
        "${one} == True",
        "-${minus} == 5",
        "${zero} < ${one} < ${ten}",
        "${one} + 1 == 2",
    ),
    # strings
    *_each(
        _WORDS,
        "${greet} == 'hi'",
        "${greet} == 'yo'",
        '${greet} == "hi"',
        "${greet} != 'yo'",
        "${blank} == ''",
        "${greet} != ${other}",
        "${greet} == ${greet}",
        "${greet} < ${other}",
        "${greet} > 1",
    ),
    # mixed, as in a real routing rule
    *_each(
        _USER,
        "${signed_in} and (${staff} or ${allowed})",
        "${signed_in} and ${age} >= ${adult_at}",
        "${handle} == 'ada_l' and ${allowed}",
        "${signed_in} & (${staff} | ${allowed}) & ${age} > ${adult_at}",
        "!${staff} & (${handle} == 'ada_l' | ${age} > 40) & ${tries} < ${tries_max}",
        "(${signed_in} & ${allowed}) | (${staff} & ${age} >= 21)",
    ),
    # lengths
    *_each(
        _SIZES,
        "len(${none_yet}) == 0",
        "len(${none_yet}) > 0",
        "len(${three}) == 3",
        "len(${one_item}) == 1",
        "len(${no_text}) == 0",
        "len(${word}) == 4",
        "len(${word}) > len(${no_text})",
        "len(${no_keys}) == 0",
        "len(${one_key}) == 1",
        "len(${three}) > 0 & len(${none_yet}) == 0",
        "!(len(${none_yet}) > 0)",
        "len(${three}) > 0 and ${three}",
        "${three} and len(${three}) == 3",
        "len( ${word} ) == 4",
        "len( ${three} ) == 3",
        "len(len(${word})) == 1",
    ),
    # missing variables are a KeyError, whatever short-circuiting would skip
    ("${nowhere}", {"on": True}),
    ("${on} or ${nowhere}", {"on": True}),
    ("!${nowhere}", {"on": True}),
    ("len(${nowhere}) == 0", {"on": True}),
    ("${on} # ${nowhere}", {"on": True}),
    # values pasted as text
    ("${x} == ${y}", {"x": [1], "y": [2]}),
    ("${x} == True", {"x": {"k": 1}}),
    ("${x} == False", {"x": []}),
    ("len(${x}) == 0", {"x": None}),
    ("len(${x}) == 0", {"x": 12}),
    ("len(${x}) == 0", {"x": True}),
    ("${x} == 'a'", {"x": "a\nb"}),
    ("${x} == 'a'", {"x": "a\rb"}),
    ("${x} == 'it\\'s'", {"x": "it's"}),
    ("${x} == 'safe'", {"x": "' or MARK('PWNED') or '"}),
    ("${x} == 'other'", {"x": "path\\to\\file"}),
    ("${x} == 'a'", {"x": "a\x00"}),
    ("${x} == 1", {"x": float("inf")}),
    ("${x} == 1", {"x": 10**5000}),
    ("${x} == ${y}", {"x": "${y}", "y": 5}),
    ("${x} == ${y}", {"x": "${y}", "y": "${x}"}),
    ("'${x}' == 'a'", {"x": "a"}),
    ('"${x}" == "True"', {"x": True}),
    ('"${x}" == "\'a\'"', {"x": "a"}),
    ("'len(${x})' == '2'", {"x": [1, 2]}),
    ("${x}${y} == 'ab'", {"x": "a", "y": "b"}),
    ("not${x}", {"x": "a"}),
    ("${x} is None", {"x": None}),
    ("${x} in ('a', 'b')", {"x": "a"}),
    ("${x} == [1]", {"x": [1]}),
    ("${user.is_premium}", {"user": {"is_premium": True}}),
    ("${ x } == 1", {"x": 1}),
    ("${ x } == 1", {" x ": 1}),
    ("${1} == 'one'", {"1": "one"}),
    ("${x} == true", {"x": True}),
    ("${x} or print", {"x": 0}),
    ("${x} or missing_name", {"x": 1}),
    ("${x} or missing_name", {"x": 0}),
    ("  ${x}", {"x": True}),
    ("${x}\n", {"x": True}),
    ("(${x} and\n ${y})", {"x": True, "y": True}),
    ("${x} and\n ${y}", {"x": True, "y": True}),
    ("", {}),
    ("${x} == 1e309", {"x": 1}),
    ("${x} == -0.0", {"x": 0}),
    ("${x} > 1.5", {"x": 2.5}),
    ("${x} == 'é😀'", {"x": "é😀"}),
    ("${x} == 'a'", {"x": "\ud800"}),
]
