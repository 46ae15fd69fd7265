"""MemberJunction path conditions, predicted as ``SafeExpressionEvaluator`` of
``@memberjunction/global`` 5.51.3 evaluates them (REFERENCE.md section 7).

``precheck`` reproduces its pre-checks, ``lexer``/``parser`` read the text as the JavaScript it
becomes, ``evaluator`` gives it JavaScript semantics over the context (values in
``core.expressions.jsvalues``, built-ins in ``core.expressions.jsbuiltins``). Nothing is ever
executed: text the runtime would run as code is refused with a message that says so.
"""

from __future__ import annotations

import ast
from typing import Final

from core.expressions import jsvalues as js
from core.expressions.jsbuiltins import GLOBALS
from core.expressions.mj.errors import EngineRefusal, SecurityRefusal, Unpredicted
from core.expressions.mj.evaluator import MjEval
from core.expressions.mj.lexer import JsSyntaxError
from core.expressions.mj.nodes import JS_NODES, JsAssign
from core.expressions.mj.parser import parse
from core.expressions.mj.precheck import (
    EMPTY_MESSAGE,
    MAX_LENGTH,
    literal_warning,
    validate_expression,
)
from core.expressions.sandbox import Compiled, span_of, validate

ENGINE: Final = "MemberJunction SafeExpressionEvaluator 5.51.3"
BUILTINS: Final = frozenset(GLOBALS)
ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.Constant, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Call,
        ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.Invert,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.Pow, ast.LShift,
        ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor,
        ast.BoolOp, ast.And, ast.Or,
        ast.Compare, ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
        ast.In, ast.IfExp, ast.List, *JS_NODES,
    }
)  # fmt: skip
_CONSTANT_TYPES: Final = (str, int, float, bool, type(None))


def _check(node: ast.AST) -> None:
    """Defence in depth: the parser never builds these, so seeing one means a bug."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, _CONSTANT_TYPES):
        raise JsSyntaxError("Unsupported literal", *span_of(node))


def _missing(name: str) -> str:
    return f"{name} is not defined"


def _warnings(text: str, tree: ast.AST) -> tuple[str, ...]:
    out: list[str] = []
    if not text.strip():
        out.append(
            "A condition of only whitespace is not empty for MemberJunction 5.51.3: it runs "
            "Boolean() and is false, so this path is never taken"
        )
    for node in ast.walk(tree):
        if isinstance(node, JsAssign) and node.op == "=":
            start, end = span_of(node)
            out.append(
                f"'{text[start:end]}' assigns: MemberJunction 5.51.3 runs it on its copy of the "
                "context and takes the path when the assigned value is truthy; did you mean "
                "'===' (compare)?"
            )
            break
    return tuple(out)


def compile_mj(text: str) -> Compiled:
    if not isinstance(text, str) or not text:
        raise EngineRefusal(EMPTY_MESSAGE, 0, 0)
    refusal = validate_expression(text)
    if refusal is not None:
        warning = literal_warning(text)
        raise EngineRefusal(*refusal, warnings=(warning,) if warning else ())
    result = parse(text)
    tree = result.root
    assert tree is not None
    validate(tree, ALLOWED_NODES, _check, max_depth=4 * MAX_LENGTH)
    tree.fx_wrapped = result.wrapped  # type: ignore[attr-defined]
    tree.fx_mutates = result.mutates  # type: ignore[attr-defined]
    tree.fx_depth = result.depth  # type: ignore[attr-defined]
    return Compiled(
        text=text,
        dialect="mj",
        tree=tree,
        names=frozenset(result.names),
        required=(),  # free names are ReferenceErrors only when evaluated (short-circuit)
        evaluator=MjEval,
        truthy=js.truthy,
        builtins=BUILTINS,
        missing=_missing,
        warnings=_warnings(text, tree),
    )


__all__ = [
    "ENGINE",
    "EngineRefusal",
    "JsSyntaxError",
    "SecurityRefusal",
    "Unpredicted",
    "compile_mj",
]
