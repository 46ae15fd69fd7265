"""MemberJunction path conditions, predicted as ``SafeExpressionEvaluator`` of
``@memberjunction/global`` 5.51.3 evaluates them (its ``dist/SafeExpressionEvaluator.js``).

``precheck`` reproduces its pre-checks, ``lexer``/``parser`` read the text as the JavaScript it
becomes, ``evaluator`` gives it JavaScript semantics over the context (values in
``flowctx_core.expressions.js.values``, built-ins in ``flowctx_core.expressions.js``).
Nothing is ever
executed: text the runtime would run as code is refused with a message that says so.
"""

from __future__ import annotations

import ast
from typing import Final

from flowctx_core.expressions.engines import ENGINES
from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.js.globals import GLOBALS
from flowctx_core.expressions.mj.errors import EngineRefusal, SecurityRefusal, Unpredicted
from flowctx_core.expressions.mj.evaluator import MjEval, compile_tree, make_runner
from flowctx_core.expressions.mj.lexer import JsSyntaxError
from flowctx_core.expressions.mj.nodes import JsAssign
from flowctx_core.expressions.mj.parser import parse
from flowctx_core.expressions.mj.precheck import (
    EMPTY_MESSAGE,
    literal_warning,
    validate_expression,
)
from flowctx_core.expressions.sandbox import Compiled, deep_recursion, span_of

ENGINE: Final = ENGINES["mj"]
BUILTINS: Final = frozenset(GLOBALS)


def _missing(name: str) -> str:
    return f"{name} is not defined"


def _warnings(text: str, tree: ast.AST, mutates: bool) -> tuple[str, ...]:
    out: list[str] = []
    if not text.strip():
        out.append(
            "A condition of only whitespace is not empty for MemberJunction 5.51.3: it runs "
            "Boolean() and is false, so this path is never taken"
        )
    for node in ast.walk(tree) if mutates else ():
        if isinstance(node, JsAssign) and node.op == "=":
            start, end = span_of(node)
            out.append(
                f"'{text[start:end]}' assigns: MemberJunction 5.51.3 runs it on its copy of the "
                "context and takes the path when the assigned value is truthy; did you mean "
                "'===' (compare)?"
            )
            break
    return tuple(out)


def compile_mj(text: str, bound: frozenset[str] = frozenset()) -> Compiled:
    """``bound``: host-global names the scope provides, read as its values (see ``parse``)."""
    if not isinstance(text, str) or not text:
        raise EngineRefusal(EMPTY_MESSAGE, 0, 0)
    refusal = validate_expression(text)
    if refusal is not None:
        warning = literal_warning(text)
        raise EngineRefusal(*refusal, warnings=(warning,) if warning else ())
    result = parse(text, bound)
    tree = result.root
    assert tree is not None
    # The grammar is the allowlist, and the closure compiler is a second one: it has a builder
    # only for the node types below and refuses any other, so the tree is compiled right away.
    with deep_recursion(result.depth):
        tree.fx_fast = compile_tree(text, tree)  # type: ignore[attr-defined]
    tree.fx_wrapped = result.wrapped  # type: ignore[attr-defined]
    tree.fx_mutates = result.mutates  # type: ignore[attr-defined]
    tree.fx_depth = result.depth  # type: ignore[attr-defined]
    compiled = Compiled(
        text=text,
        dialect="mj",
        tree=tree,
        names=frozenset(result.names),
        required=(),  # free names are ReferenceErrors only when evaluated (short-circuit)
        evaluator=MjEval,
        truthy=js.truthy,
        builtins=BUILTINS,
        missing=_missing,
        warnings=_warnings(text, tree, result.mutates),
    )
    tree.fx_runner = make_runner(compiled)  # type: ignore[attr-defined]
    return compiled


__all__ = [
    "ENGINE",
    "EngineRefusal",
    "JsSyntaxError",
    "SecurityRefusal",
    "Unpredicted",
    "compile_mj",
]
