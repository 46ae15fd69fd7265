"""Mozaiks/AG2 context expressions: ``${name}`` conditions over context variables.

The text is rewritten into Python (``${x}`` becomes a placeholder name, ``!`` before ``${`` or
``(`` becomes ``not``, `` & `` / `` | `` become ``and``/``or``), parsed by Python and checked
against a small allowlist: boolean logic, comparisons, literals, lists/tuples and ``len(x)``.
Unlike the original, which substitutes each value's text into the expression, names stay names
and values are compared as values, so a string holding quotes can never change the expression.
"""

from __future__ import annotations

import ast
import re
from typing import Any, ClassVar, Final

from core.expressions.python import PyEval, parse_python
from core.expressions.sandbox import (
    Compiled,
    ExpressionError,
    check_text,
    set_span,
    span_of,
    validate,
)

_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLACEHOLDER: Final = "_ctx{}_"


def _rewrite(text: str) -> tuple[str, list[int], dict[str, tuple[str, int, int]]]:
    """Python source for ``text``, a map from each source character to a text offset, and
    the placeholders: ``{placeholder: (variable, start, end)}``."""
    out: list[str] = []
    where: list[int] = []
    holes: dict[str, tuple[str, int, int]] = {}

    def emit(chunk: str, first: int, rest: int | None = None) -> None:
        out.append(chunk)
        where.extend([first] + [first if rest is None else rest] * (len(chunk) - 1))

    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"":
            # Copy string literals untouched: '${x}' inside quotes is text, not a variable.
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            where.extend(range(i, j))
            i = j
        elif text.startswith("${", i):
            close = text.find("}", i + 2)
            if close < 0:
                raise ExpressionError("Unclosed '${' (expected '}')", i, n)
            name = text[i + 2 : close].strip()
            if "." in name or "[" in name:
                raise ExpressionError(
                    f"Attribute access and indexing are not supported in context expressions "
                    f"(${{{name}}}); expose the value as its own context variable",
                    i,
                    close + 1,
                )
            if not _IDENT.fullmatch(name):
                raise ExpressionError(f"Invalid context variable name '${{{name}}}'", i, close + 1)
            hole = _PLACEHOLDER.format(len(holes))
            holes[hole] = (name, i, close + 1)
            emit(hole, i, close)
            i = close + 1
        elif c == "!" and not text.startswith("!=", i):
            k = i + 1
            while k < n and text[k] in " \t":
                k += 1
            if not (text.startswith("${", k) or text.startswith("(", k)):
                raise ExpressionError(
                    "'!' must be followed by ${...} or '(' (or write 'not')", i, i + 1
                )
            emit(" not ", i)
            i += 1
        elif c in "&|":
            spaced = 0 < i < n - 1 and text[i - 1] in " \t" and text[i + 1] in " \t"
            if not spaced:
                word = "and" if c == "&" else "or"
                raise ExpressionError(
                    f"Write '{word}' (or '{c}' with a space on each side)", i, i + 1
                )
            emit("and" if c == "&" else "or", i)
            i += 1
        else:
            out.append(c)
            where.append(i)
            i += 1
    where.append(n)  # the end of the source maps to the end of the text
    return "".join(out), where, holes


class Ag2Eval(PyEval):
    """Python semantics restricted to the ag2 grammar; only ``len`` can be called."""

    FUNCTIONS: ClassVar = {"len": len}

    def handlers(self) -> dict[type, Any]:
        return {
            ast.Constant: self._eval_constant,
            ast.Name: self._eval_name,
            ast.Call: self._eval_call,
            ast.UnaryOp: self._eval_unaryop,
            ast.BoolOp: self._eval_boolop,
            ast.Compare: self._eval_compare,
            ast.List: self._eval_list,
            ast.Tuple: self._eval_tuple,
        }

    @staticmethod
    def missing(name: str) -> str:
        return f"Missing context variable: '{name}'"


ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.Constant, ast.Name, ast.Load, ast.Call,
        ast.UnaryOp, ast.Not, ast.USub,
        ast.BoolOp, ast.And, ast.Or,
        ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
        ast.Is, ast.IsNot,
        ast.List, ast.Tuple,
    }
)  # fmt: skip
_NODE_WORDS: Final[dict[type, str]] = {
    ast.Attribute: "Attribute access",
    ast.Subscript: "Indexing",
    ast.BinOp: "Arithmetic",
    ast.IfExp: "A conditional expression",
    ast.Dict: "A dict literal",
    ast.Set: "A set literal",
}


def _check(node: ast.AST) -> None:
    span = span_of(node)
    if isinstance(node, ast.Constant) and not isinstance(
        node.value, (str, int, float, bool, type(None))
    ):
        raise ExpressionError(f"{type(node.value).__name__} literals are not allowed", *span)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = node.operand
        if not (isinstance(operand, ast.Constant) and type(operand.value) in (int, float)):
            raise ExpressionError("Arithmetic is not allowed in a context expression", *span)
    if isinstance(node, ast.Call):
        func = node.func
        if not (isinstance(func, ast.Name) and func.id == "len"):
            raise ExpressionError(
                "The only function in a context expression is len()", *span_of(func)
            )
        if len(node.args) != 1 or node.keywords:
            raise ExpressionError("len() takes exactly one argument", *span)


def compile_ag2(text: str) -> Compiled:
    check_text(text)
    source, where, holes = _rewrite(text)
    stripped = source.lstrip()
    lead = len(source) - len(stripped)
    remap = where[lead:]
    tree = parse_python(stripped, text, remap)
    for node in ast.walk(tree):
        if type(node) not in ALLOWED_NODES and type(node) in _NODE_WORDS:
            raise ExpressionError(
                f"{_NODE_WORDS[type(node)]} is not allowed in a context expression",
                *span_of(node),
            )
    validate(tree, ALLOWED_NODES, _check)
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    required: dict[str, tuple[str, int, int]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or id(node) in callees:
            continue
        hole = holes.get(node.id)
        start, end = span_of(node)
        if hole is None or (start, end) != (hole[1], hole[2]):
            raise ExpressionError(
                f"Bare name '{text[start:end]}' is not allowed; write ${{{text[start:end]}}}",
                start,
                end,
            )
        node.id = hole[0]  # the placeholder only existed to get through Python's parser
        set_span(node, hole[1], hole[2])
        required.setdefault(hole[0], hole)
    ordered = tuple(sorted(required.values(), key=lambda r: r[1]))
    return Compiled(
        text=text,
        dialect="ag2",
        tree=tree,
        names=frozenset(required),
        required=ordered,
        evaluator=Ag2Eval,
        truthy=bool,
        builtins=frozenset(),
        missing=Ag2Eval.missing,
    )


def variables(text: str) -> frozenset[str]:
    """The ``${names}`` an expression reads (without evaluating it)."""
    return compile_ag2(text).names
