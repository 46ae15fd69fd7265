"""The Mozaiks ``transition_graph.yaml`` evaluator (``_MozaiksExpression``), predicted.

Read from ``mozaiksai/core/adapters/ag2_transition_conditions.py`` in BlocUnited-LLC/mozaiks
(commit 12f31eb). The graph compiler (``compile_transition_rules_to_graph``,
``mozaiksai/core/workflow/execution/network_graph.py``) builds one evaluator per
``context_expression`` rule when the workflow starts; a refusal there is a
``WorkflowGraphCompileError`` and the workflow does not start.

- The compiler strips the text (``_optional_text``); empty or ``null`` is no expression at all.
- ``${ name }`` (an ASCII name, optional whitespace inside the braces) becomes the lookup
  ``__ctx('name')`` everywhere, inside quotes and comments too; a missing variable reads None.
- Python parses the result; every node must be a boolean operator, ``not``, one of the ten
  comparisons (``in``, ``not in``, ``is``, ``is not`` included), a call, a constant, a list or
  a tuple; the only names are ``len`` and ``__ctx``, the only calls are to them, without
  keywords. The value is ``bool()`` of Python's answer.
- Nothing is rewritten: ``!`` is a syntax error, ``&``/``|`` are refused binary operators and a
  negative literal (``> -1``) is a refused unary minus.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar, Final

from flowctx_core.expressions.engines import ENGINES
from flowctx_core.expressions.python import PyMethod
from flowctx_core.expressions.sandbox import (
    Compiled,
    ExpressionError,
    SandboxEval,
    Trace,
    deep_recursion,
    merge_constants,
    named_type,
    set_span,
    span_of,
    tree_depth,
)
from flowctx_core.expressions.textmap import MappedText, parse_mapped

ENGINE: Final = ENGINES["mozaiks"]

_NAME_CHARS: Final = re.compile(r"[A-Za-z0-9_]+\Z")
_REF: Final = re.compile(r"\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}")
ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.BoolOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Name, ast.Load, ast.Constant,
        ast.List, ast.Tuple, ast.And, ast.Or, ast.Not, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
        ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
    }
)  # fmt: skip
CALLABLE: Final = frozenset({"len", "__ctx"})
_HINTS: Final[dict[type, str]] = {
    ast.USub: "a negative literal is refused (unary minus is not in its allowlist): "
    "compare the other way, e.g. ${n} >= 0 rather than ${n} > -1",
    ast.UAdd: "unary plus is not in its allowlist",
    ast.BitAnd: "'&' is not 'and' here: write and",
    ast.BitOr: "'|' is not 'or' here: write or",
}
_COMPILE_FAILS: Final = (
    "the graph does not compile (WorkflowGraphCompileError), so the workflow does not start"
)


class CtxRef(ast.Name):
    """``${name}``: the context lookup the runtime writes as ``__ctx('name')``."""


def _refused(message: str, node: ast.AST, hint: str = "") -> ExpressionError:
    text = f"{message}; {hint}" if hint else message
    return ExpressionError(f"{text} ({_COMPILE_FAILS})", *span_of(node))


def _validate(tree: ast.expr) -> None:
    """The runtime's walk, in its order (breadth first), with its messages."""
    queue: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
    while queue:
        node, parent = queue.pop(0)
        shown = node if hasattr(node, "fx_start") else parent
        if type(node) not in ALLOWED_NODES:
            hint = _HINTS.get(type(node), "")
            if isinstance(node, ast.BinOp):
                hint = _HINTS.get(type(node.op), "arithmetic is not in its allowlist")
            message = f"unsupported context_expression syntax: {type(node).__name__}"
            raise _refused(message, shown, hint)
        if isinstance(node, ast.Name) and node.id not in CALLABLE:
            raise _refused(
                f"unsupported context_expression name: {node.id}",
                shown,
                f"a context variable is written ${{{node.id}}}",
            )
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in CALLABLE:
                raise _refused("unsupported context_expression function call", shown, "only len()")
            if node.keywords:
                raise _refused("context_expression function keywords are not supported", shown)
        queue.extend((child, shown) for child in ast.iter_child_nodes(node))


#: how deep flowctx follows a text (``not not ...``): the runtime compiles the tree with
#: Python's compiler, which stops at its recursion limit, about 990 levels less the depth it is
#: called at; Python's parser stops nested parentheses at 200 on its own (said in its words)
MOZAIKS_MAX_DEPTH: Final = 900


def _depth(tree: ast.AST) -> int:
    """How deep ``tree`` nests, refused past flowctx's own bound (counted without recursion:
    the tree may be deeper than the interpreter's recursion limit)."""
    depth = tree_depth(tree)
    if depth > MOZAIKS_MAX_DEPTH:
        raise ExpressionError(
            f"Expression is nested too deeply for flowctx (more than {MOZAIKS_MAX_DEPTH} "
            f"levels; flowctx's bound: {ENGINE} goes on to Python's recursion limit, about "
            "990 levels less the depth it is called at)",
            0,
            None,
        )
    return depth


def _syntax_hint(text: str) -> str:
    if re.search(r"!(?!=)", text):
        return "the Mozaiks evaluator has no '!': write not"
    if "&&" in text or "||" in text:
        return "write and / or"
    if "${" in _REF.sub("", text):  # a ${...} the runtime does not rewrite, not '${x} >'
        return "it reads ${name} with a plain ASCII name only (no dots, brackets or quotes)"
    return ""


class _Refs(ast.NodeTransformer):
    """Turn ``__ctx('name')`` into a ``CtxRef`` (same lookup) so explain lines and masking see
    the variable's name."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "__ctx"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            ref = CtxRef(id=node.args[0].value, ctx=ast.Load())
            return set_span(ref, *span_of(node))
        return node


def _static_warnings(tree: ast.AST, text: str) -> tuple[str, ...]:
    out: list[str] = []
    strings = [
        span_of(n)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]
    for match in _REF.finditer(text):
        if any(start <= match.start() < end for start, end in strings):
            out.append(
                f"{match.group(0)} is inside a string literal: the Mozaiks evaluator rewrites "
                f"it there too, so the string reads __ctx('{match.group(1)}'), not the value"
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                if not isinstance(op, (ast.Is, ast.IsNot)):
                    continue
                pair = operands[i : i + 2]
                if not any(
                    isinstance(o, ast.Constant)
                    and o.value in (None, True, False)
                    and type(o.value) in (type(None), bool)
                    for o in pair
                ):
                    out.append(
                        "'is' compares identity, not value: two equal strings, lists or large "
                        "numbers are usually not the same object; write == instead"
                    )
    return tuple(dict.fromkeys(out))


def _value_warnings(names: tuple[str, ...], scope: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(
        f"${{{name}}} is not in context: the Mozaiks evaluator reads it as None"
        for name in names
        if name not in scope
    )


def compile_mozaiks(text: str) -> Compiled:
    if not isinstance(text, str):
        raise ExpressionError("Expression must be a non-empty string", 0, 0)
    stripped = text.strip()
    if not stripped or stripped.lower() == "null":
        raise ExpressionError(
            # Python's own words for an empty expression, and the runtime's for the rule
            "invalid syntax (<unknown>, line 0); the context_expression is empty: "
            "condition_type='context_expression' requires context_expression "
            f"({_COMPILE_FAILS})",
            0,
            len(text),
        )
    lead = len(text) - len(text.lstrip())
    source = MappedText.of(text).slice(lead, lead + len(stripped))

    def lookup(match: re.Match[str], src: MappedText) -> MappedText:
        start, end = src.span(match.start(), match.end(), len(text))
        return MappedText.inserted(f"__ctx({match.group(1)!r})", start, end)

    rewritten = source.sub(_REF, lookup)
    try:
        tree = parse_mapped(rewritten, text)
    except ExpressionError as exc:
        hint = _syntax_hint(stripped)
        message = f"{exc.error.message}; {hint}" if hint else exc.error.message
        raise ExpressionError(
            f"{message} ({_COMPILE_FAILS})", exc.error.start, exc.error.end
        ) from None
    depth = _depth(tree)
    # every walk below is recursive: room for a text nested as deep as the runtime takes
    with deep_recursion(depth):
        _validate(tree)
        merge_constants(tree)  # `1000 is 1000` is True under eval, as CPython merges constants
        tree = _Refs().visit(tree)
    tree.fx_depth = depth  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        # Python's compiler interns constant strings made of name characters, which is what
        # an ``is`` against a context value compares with
        if not isinstance(node, ast.Constant) or type(node.value) is not str:
            continue
        if _NAME_CHARS.match(node.value):
            node.value = sys.intern(node.value)
    refs = tuple(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, CtxRef)))
    return Compiled(
        text=text,
        dialect="mozaiks",
        tree=tree,
        names=frozenset(refs),
        required=(),  # a missing variable reads as None
        evaluator=MozaiksEval,
        truthy=bool,
        builtins=frozenset(),
        missing=MozaiksEval.missing,
        warnings=_static_warnings(tree, text),
        warn=partial(_value_warnings, refs),
    )


#: the qualified name of the runtime's lookup function, which its TypeErrors say
_CTX_QUALNAME: Final = "_MozaiksExpression.evaluate.<locals>._ctx"


class MozaiksEval(SandboxEval):
    """Python's semantics; ``len`` and the context lookup are the only functions."""

    FUNCTIONS: ClassVar = {"len": len}

    def __init__(self) -> None:
        super().__init__()
        # One object each, as the runtime's are within a run (``len is len``); wrapped so that
        # a bare ``len`` never hands a caller a live callable.
        self.functions_by_name = {
            "len": named_type(PyMethod, "builtin_function_or_method")("len", len),
            "__ctx": named_type(PyMethod, "function")("__ctx", self._lookup()),
        }

    def handlers(self) -> dict[type, Any]:
        return {
            ast.Constant: self._eval_constant,
            CtxRef: self._eval_ref,
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
        return f"'{name}' is not in context (reads as None)"

    def run(self, compiled: Compiled, scope: Mapping[str, Any]) -> Any:
        with deep_recursion(getattr(compiled.tree, "fx_depth", 0)):
            return super().run(compiled, scope)

    def run_traced(self, compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
        with deep_recursion(getattr(compiled.tree, "fx_depth", 0)):
            return super().run_traced(compiled, scope)

    def _lookup(self) -> Callable[[Any], Any]:
        """The runtime's lookup as the author may also call it (``__ctx('a')``): a function of
        one parameter ``key``, named as Python names the runtime's own in a wrong call's
        TypeError ("_MozaiksExpression.evaluate.<locals>._ctx() takes 1 positional argument
        but 2 were given")."""

        def _ctx(key: Any) -> Any:
            return self.names.get(key)

        _ctx.__qualname__ = _CTX_QUALNAME
        _ctx.__code__ = _ctx.__code__.replace(co_qualname=_CTX_QUALNAME)
        return _ctx

    def _eval_ref(self, node: CtxRef) -> Any:
        return self.names.get(node.id)

    def _eval_name(self, node: ast.Name) -> Any:
        return self.functions_by_name[node.id]  # validated: len or __ctx

    def _eval_call(self, node: ast.Call) -> Any:
        fn = self._eval_name(node.func)  # type: ignore[arg-type]
        return fn.fn(*[self._eval(arg) for arg in node.args])
