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

from flowctx_core.base.diagnostics import Fix
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


def _assignment(text: str, tree: ast.AST, mutates: bool) -> tuple[str, Fix | None] | None:
    """The warning for the condition's first ``=`` assignment, and its fix: the same
    expression comparing with ``===``."""
    for node in ast.walk(tree) if mutates else ():
        if isinstance(node, JsAssign) and node.op == "=":
            start, end = span_of(node)
            written = text[start:end]
            message = (
                f"'{written}' assigns: MemberJunction 5.51.3 runs it on its copy of the "
                "context and takes the path when the assigned value is truthy; did you mean "
                "'===' (compare)?"
            )
            # the operator: the first '=' after the target, with only blanks between
            after = span_of(node.target)[1]
            at = text.find("=", after, end)
            if at < 0 or text[after:at].strip():
                return message, None
            return message, Fix(written, text[start:at] + "===" + text[at + 1 : end])
    return None


def assignment_fix(compiled: Compiled) -> tuple[str, Fix] | None:
    """(the warning, its fix) when an MJ condition assigns where it means to compare."""
    tree = compiled.tree
    found = _assignment(compiled.text, tree, bool(getattr(tree, "fx_mutates", False)))
    if found is None or found[1] is None:
        return None
    return found[0], found[1]


def _warnings(text: str, tree: ast.AST, mutates: bool) -> tuple[str, ...]:
    out: list[str] = []
    if not text.strip():
        out.append(
            "A condition of only whitespace is not empty for MemberJunction 5.51.3: it runs "
            "Boolean() and is false, so this path is never taken"
        )
    found = _assignment(text, tree, mutates)
    if found is not None:
        out.append(found[0])
    if "canParse" in text:
        out.append(CAN_PARSE_WARNING)
    return tuple(out)


#: measured with node 20: V8's fast path of URL.canParse, taken once the calls are optimized,
#: reads a host's letters from U+0080 to U+00FF as UTF-8 and fails
CAN_PARSE_WARNING: Final = (
    "URL.canParse in node 20 answers false for a URL whose host has a letter from U+0080 to "
    "U+00FF (like 'münchen.de') once V8 has optimized its calls, after many evaluations in "
    "one process; flowctx answers as the first evaluations do"
)


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
    "assignment_fix",
    "compile_mj",
]
