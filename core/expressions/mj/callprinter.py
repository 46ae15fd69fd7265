"""How V8 shows the expression a TypeError is about (``x is not a function``, ``x is not
iterable``, ``x is not a constructor``): its call printer, over the condition's tree.

What V8 prints, node by node: names and paths as written (a string key as ``.key`` whatever it
holds, ``?.`` where the chain is optional), a call's arguments as ``(...)``, literals as
JavaScript writes them (strings in double quotes, regular expressions with their flags in
canonical order), operators inside parentheses with spaces, an assignment as its target, and
``(intermediate value)`` for what it does not print (functions, ``new``, BigInts, holes, an
optional chain inside parentheses; a conditional is three of them). Number literals are the
parser's: ``-1``, ``!0`` and ``2 ** 3`` are folded before anything prints them.
"""

from __future__ import annotations

import ast
import math
from typing import Any, Final

from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.mj.nodes import (
    JsArrow,
    JsAssign,
    JsBinary,
    JsChain,
    JsCoalesce,
    JsDelete,
    JsHole,
    JsNew,
    JsOptional,
    JsRegexLiteral,
    JsSequence,
    JsSpread,
    JsTypeof,
    JsUpdate,
    JsVoid,
)

INTERMEDIATE: Final = "(intermediate value)"

_BINARY: Final[dict[type[ast.operator], str]] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%", ast.Pow: "**",
    ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
_COMPARE: Final[dict[type[ast.cmpop], str]] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Is: "===", ast.IsNot: "!==", ast.Lt: "<", ast.LtE: "<=",
    ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
}  # fmt: skip
_UNARY: Final[dict[type[ast.unaryop], str]] = {
    ast.Not: "!", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~",
}  # fmt: skip
# V8 writes a regular expression's flags in this order, whatever the source's
_FLAG_ORDER: Final = "dgilmsuvy"
_MISSING: Final = object()


def _literal(node: ast.AST) -> Any:
    """The value of a literal after V8's parser folded it, or ``_MISSING``: number literals
    under ``-``, ``+``, ``~`` and between two of them, any literal under ``!``."""
    if isinstance(node, ast.Constant):
        v = node.value
        if v is None or type(v) in (bool, str, int, float):
            return v
        return _MISSING
    if isinstance(node, ast.UnaryOp):
        v = _literal(node.operand)
        if v is _MISSING:
            return _MISSING
        if isinstance(node.op, ast.Not):
            return not js.truthy(v)
        if type(v) not in (int, float):
            return _MISSING
        if isinstance(node.op, ast.USub):
            return -float(v) if v == 0 else -v
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Invert):
            return ~js.to_int32(v)
        return _MISSING
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        a, b = _literal(node.left), _literal(node.right)
        if type(a) not in (int, float) or type(b) not in (int, float):
            return _MISSING
        return _fold(_BINARY[type(node.op)], float(a), float(b))
    return _MISSING


def _fold(op: str, a: float, b: float) -> Any:
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            if b == 0:
                if a != a or a == 0:
                    return math.nan
                return math.copysign(math.inf, a) * math.copysign(1.0, b)
            return a / b
        if op == "%":
            if b == 0 or a in (math.inf, -math.inf):
                return math.nan
            return math.fmod(a, b)
        if op == "**":
            if b != b or (abs(a) == 1 and b in (math.inf, -math.inf)):
                return math.nan
            if a == 0 and b < 0:
                odd = b.is_integer() and b % 2 == 1
                return math.copysign(math.inf, a) if odd else math.inf
            try:
                return math.pow(a, b)
            except ValueError:  # a negative base to a fractional power
                return math.nan
        x, y = js.to_int32(a), js.to_uint32(b) & 31
        if op == "|":
            return js.to_int32(x | js.to_int32(b))
        if op == "&":
            return js.to_int32(x & js.to_int32(b))
        if op == "^":
            return js.to_int32(x ^ js.to_int32(b))
        if op == "<<":
            return js.to_int32(x << y)
        if op == ">>":
            return x >> y
    except (OverflowError, ZeroDivisionError):
        return _MISSING
    return _MISSING


def _show_literal(v: Any) -> str:
    if type(v) is str:
        return '"' + v + '"'
    if type(v) is float and v == 0:
        return "0"
    return js.to_string(v)


def _flatten(node: ast.AST, same: Any) -> list[ast.AST]:
    """A left-nested run of one operator, as V8's parser collapses it (``a + b + c``)."""
    parts: list[ast.AST] = []
    while same(node):
        parts.append(node.right)  # type: ignore[attr-defined]
        node = node.left  # type: ignore[attr-defined]
    parts.append(node)
    return parts[::-1]


def printed(node: ast.AST, it: bool = False) -> str:
    """The text V8's call printer gives for ``node``; ``it``: for an iterator's error, which
    prints a ``new`` expression as its callee (``[...new Date(0).getTime()]``: ``Date.getTime``).
    """
    v = _literal(node)
    if v is not _MISSING:
        return _show_literal(v)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return _member(node.value, it) + node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and type(key.value) is str:
            return _member(node.value, it) + key.value
        optional = isinstance(node.value, JsOptional)
        head = printed(node.value.value if optional else node.value, it)  # type: ignore[attr-defined]
        return head + ("?.[" if optional else "[") + printed(key, it) + "]"
    if isinstance(node, JsOptional):
        return printed(node.value, it)
    if isinstance(node, ast.Call):
        # an iterator's error prints a call as its callee (``[...f(x) + 1]``: ``(f + 1)``)
        return printed(node.func, it) + ("" if it else "(...)")
    if isinstance(node, JsSequence):
        return "(" + " , ".join(printed(v, it) for v in node.values) + ")"
    if isinstance(node, ast.BoolOp):
        op = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + op.join(printed(v, it) for v in node.values) + ")"
    if isinstance(node, JsCoalesce):
        parts = _flatten(node, lambda n: isinstance(n, JsCoalesce))
        return "(" + " ?? ".join(printed(p, it) for p in parts) + ")"
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        kind = type(node.op)
        if kind is ast.Pow:
            parts = [node.left, node.right]
        else:
            parts = _flatten(node, lambda n: isinstance(n, ast.BinOp) and type(n.op) is kind)
        return "(" + f" {_BINARY[kind]} ".join(printed(p, it) for p in parts) + ")"
    if isinstance(node, JsBinary):
        if node.op == ">>>":
            parts = _flatten(node, lambda n: isinstance(n, JsBinary) and n.op == ">>>")
            return "(" + " >>> ".join(printed(p, it) for p in parts) + ")"
        return f"({printed(node.left, it)} {node.op} {printed(node.right, it)})"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        op = _COMPARE[type(node.ops[0])]
        left, right = printed(node.left, it), printed(node.comparators[0], it)
        if op in ("!=", "!=="):  # V8 parses a != b as !(a == b), and prints it so
            return f"(!({left} {'=' + op[1:]} {right}))"
        return f"({left} {op} {right})"
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return f"({_UNARY[type(node.op)]}{printed(node.operand, it)})"
    if isinstance(node, JsTypeof):
        return f"(typeof {printed(node.operand, it)})"
    if isinstance(node, JsVoid):
        if getattr(node, "fx_new_target", False):
            return ".new.target"
        return f"(void {printed(node.operand, it)})"
    if isinstance(node, JsDelete):
        return f"(delete {printed(node.operand, it)})"
    if isinstance(node, JsUpdate):
        inner = printed(node.target, it)
        return f"({node.op}{inner})" if node.prefix else f"({inner}{node.op})"
    if isinstance(node, JsAssign):
        return printed(node.target, it)
    if isinstance(node, ast.IfExp):
        return INTERMEDIATE * 3
    if isinstance(node, ast.List):
        return "[" + ",".join(printed(e, it) for e in node.elts) + "]"
    if isinstance(node, JsSpread):
        return f"(...{printed(node.value, it)})"
    if isinstance(node, JsRegexLiteral):
        flags = "".join(f for f in _FLAG_ORDER if f in node.flags)
        return f"/{node.source}/{flags}"
    if it and isinstance(node, JsNew):
        return printed(node.callee, it)
    if isinstance(node, JsHole | JsArrow | JsNew | JsChain):
        return INTERMEDIATE
    return INTERMEDIATE


def _member(obj: ast.AST, it: bool = False) -> str:
    """The object of a property read and the dot after it (``?.`` on an optional link)."""
    if isinstance(obj, JsOptional):
        return printed(obj.value, it) + "?."
    return printed(obj, it) + "."
