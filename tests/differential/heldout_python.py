"""Held-out ``${var}`` expressions for AG2's ContextExpression and Mozaiks' transition
evaluator, written apart from ``ag2_cases.py`` and ``mozaiks_strategies.py``.

A small grammar of what handoff and transition conditions are made of (variables, ``len``,
literals of every Python kind, comparisons and their chains, ``and``/``or``/``not`` and AG2's
``&``/``|``/``!``), the constructs neither engine allows (attributes, subscripts, arithmetic,
lambdas, comprehensions, f-strings, walrus), and text broken at every position. String values
never hold ``${``: AG2 pastes values into text it evaluates, and such a value could spell code.
"""

from __future__ import annotations

import random
from typing import Any, Final

NAMES: Final = ("approved", "attempts", "user_tier", "items", "score", "flag", "name", "note",
                "ratio")  # fmt: skip
_ODD: Final = ("missing", " approved ", "a-b", "1x", "", "items ", "_", "Score")
_STRINGS: Final = ("", "yes", "no", "gold", "It is", "O'Brien", 'say "hi"', "back\\slash", "é",
                   "0", "True", "None", "a b", "[1]", "100", "-1", "  ", "x\ty", "#hash",
                   "1e3")  # fmt: skip
_LITERALS: Final = ("True", "False", "None", "0", "1", "-1", "3", "2.5", "-2.5", "1e3", "0x10",
                    "0o7", "0b11", "1_000", "''", "'yes'", '"gold"', "'O\\'Brien'", "'é'",
                    "'a b'", "10", "100", ".5", "5.", "1j", "[]", "[1, 2]", "()", "(1,)",
                    "'True'", "'None'", "b'x'", "'\\n'", "'\\x41'", "'\\N{BULLET}'", "r'\\d'",
                    "f'x'", "u'x'", "...", "0.0", "-0", "00", "007", "1__0",
                    "9" * 25)  # fmt: skip
_COMPARE: Final = ("==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not")
_BOOL: Final = ("and", "or", "&", "|", "&&", "||")
_UNARY: Final = ("not ", "!", "! ", "-", "+", "~", "not not ")
_INSERTS: Final = ("(", ")", "[", "]", ",", "'", '"', "${", "}", "$", "==", "=", "!", "not",
                   "and", ":", "\\", "#", ";", "\n", "\t", " ", "lambda", "é", "\u00a0", "0_",
                   "1e", "@", "`", "?", "->")  # fmt: skip
_EVERYDAY: Final = ("${approved} == True", "${attempts} >= 3", "not ${flag}",
                    "${user_tier} == 'gold' and ${score} > 50", "len(${items}) > 0",
                    "len(${items}) == 0 | ${flag}", "!${approved} & ${flag}", "${name} != ''",
                    "${ratio} < 0.5 or ${attempts} > 2", "${score} >= 50 and ${score} < 90",
                    "${note} == None", "${name} in ['gold', 'yes']", "${score} is None",
                    "${approved} is True", "${items} == []", "len(${name}) >= 3",
                    "(${flag} or ${approved}) and not ${missing}")  # fmt: skip
_EXTRA: Final = ("${items}[0]", "${name}.upper()", "${a}()", "lambda: 1", "(x := 1)",
                 "1 if ${flag} else 0", "[x for x in ${items}]", "{1: 2}", "{1, 2}", "f'{1}'",
                 "*${items}", "${score} ** 2", "${score} * 2", "not-1", "--1", "+${score}",
                 "~${attempts}", "${name} % 2", "len(${items}) // 2", "()", "(1, 2) < (1, 3)",
                 "[1] < [2]", "'a' < 1", "None < 1", "${name} < ${score}", "${flag} < 'x'",
                 "${items} in ${name}", "'a' in ${score}", "1 in [1, 2]", "${score} is 3",
                 "${name} is not None", "True == 1 == 1.0", "0 < ${score} < 100",
                 "${approved} != ${approved} != ${approved}", "len(${items}) > len(${name})",
                 "len('${name}')", "len(\"${name}\")", "'${name}' == 'x'", "${name}${name}",
                 "${score}${score}", "${score}.5", "-${score}", "1e${attempts}",
                 "0x${attempts}", "${flag}and${flag}", "not${flag}", "${flag}or 1",
                 "${name}if 1 else 2", "len(${missing})", "len(${ items })", "len(${items}[0])",
                 "Ellipsis", "...", "None == None", "not ()", "[] == []", "[[]]",
                 "(${flag},)", "[${flag}, ${score}][0]", "'\\'", "'''x'''", '"""x"""',
                 "b'x' == 'x'", "1_0 == 10", "0_1", "1__0", "00", "0o8", "1e", "1.e3", ".e3",
                 "1j == 1j", "${score} == 1j")  # fmt: skip


def _value(rng: random.Random, depth: int = 0) -> Any:
    p = rng.random()
    if p < 0.2:
        return rng.choice((True, False))
    if p < 0.45:
        return rng.choice((0, 1, -1, 3, 10, 2**63, -(2**40), 100))
    if p < 0.55:
        return rng.choice((0.0, -0.0, 0.5, 2.5, 1e300, float("nan"), 1e-5, 3.0, -2.5))
    if p < 0.75:
        return rng.choice(_STRINGS)
    if p < 0.82 or depth > 1:
        return None
    if p < 0.92:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {k: _value(rng, depth + 1) for k in rng.sample(("k", "a", "é"), rng.randint(0, 2))}


def context(rng: random.Random) -> dict[str, Any]:
    return {n: _value(rng) for n in NAMES if rng.random() < 0.8}


def _var(rng: random.Random) -> str:
    name = rng.choice(NAMES) if rng.random() < 0.88 else rng.choice(_ODD)
    return rng.choice(("${%s}", "${%s}", "${ %s }", "len(${%s})")) % name


def _atom(rng: random.Random) -> str:
    p = rng.random()
    if p < 0.55:
        return _var(rng)
    if p < 0.85:
        return rng.choice(_LITERALS)
    if p < 0.9:
        return rng.choice(("len('abc')", "len([1, 2])", "len(${items}, 1)", "len()", "len",
                           "abs(1)", "x", "true", "null"))  # fmt: skip
    return f"[{_var(rng)}, {rng.choice(_LITERALS)}]"


def _expr(rng: random.Random, depth: int = 0) -> str:
    if depth > 3:
        return _atom(rng)
    p = rng.random()
    if p < 0.3:
        return _atom(rng)
    if p < 0.55:
        text = f"{_expr(rng, depth + 1)} {rng.choice(_COMPARE)} {_expr(rng, depth + 1)}"
        if rng.random() < 0.2:
            text += f" {rng.choice(_COMPARE)} {_atom(rng)}"
        return text
    if p < 0.75:
        return f"{_expr(rng, depth + 1)} {rng.choice(_BOOL)} {_expr(rng, depth + 1)}"
    if p < 0.85:
        return f"{rng.choice(_UNARY)}{_expr(rng, depth + 1)}"
    if p < 0.95:
        return f"({_expr(rng, depth + 1)})"
    op = rng.choice(("+", "-", "*", "/", "%", "//", "**", "if", "else", ","))
    return f"{_expr(rng, depth + 1)} {op} {_expr(rng, depth + 1)}"


def _broken(rng: random.Random) -> str:
    text = _expr(rng)
    at = rng.randint(0, len(text))
    how = rng.random()
    if how < 0.4:
        return text[:at] + rng.choice(_INSERTS) + text[at:]
    if how < 0.7:
        return text[:at]
    return text[:at] + text[at + rng.randint(1, 3) :]


def case(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """One expression and one context."""
    p = rng.random()
    if p < 0.15:
        text = rng.choice(_EVERYDAY)
    elif p < 0.4:
        text = _broken(rng)
    else:
        text = _expr(rng)
    if rng.random() < 0.5:
        extra = rng.choice(_EXTRA)
        text = rng.choice((extra, f"{extra} {rng.choice(_BOOL)} {text}",
                           f"{text} {rng.choice(_COMPARE)} {extra}",
                           f"({extra}) {rng.choice(_COMPARE)} {_atom(rng)}"))  # fmt: skip
    if rng.random() < 0.05:
        text = rng.choice((" ", "", "  \n")) + text + rng.choice((" ", "\n", "  # c"))
    return text, context(rng)


def draw(count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    return [case(rng) for _ in range(count)]
