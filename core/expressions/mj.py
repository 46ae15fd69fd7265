"""MemberJunction path conditions: a JavaScript-flavoured expression language.

A tokenizer and a recursive-descent parser produce a Python ``ast`` tree (standard nodes where
Python's shape fits, a few ``Js*`` nodes where JavaScript differs); ``MjEval`` gives the nodes
JavaScript semantics over JSON data (``jsvalues``). The grammar is the allowlist: statements,
assignment, blocks, templates, ``new``, ``this`` and the object model (``constructor``,
``prototype``, ``__proto__``) have no production, and computed keys are checked again when
evaluated, so ``x['constr' + 'uctor']`` stops at the key.
"""

from __future__ import annotations

import ast
import contextlib
import math
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from core.expressions import jsvalues as js
from core.expressions.sandbox import (
    MAX_CALLBACKS,
    Compiled,
    ExpressionError,
    SandboxEval,
    ShortCircuit,
    TooMuchWork,
    check_text,
    set_span,
    span_of,
    validate,
)

# --- the nodes JavaScript needs beyond Python's ----------------------------------------------


class JsChain(ast.expr):
    """An optional chain: a ``ShortCircuit`` inside makes the whole chain undefined."""

    _fields = ("value",)


class JsOptional(ast.expr):
    """The object of ``?.``: stops the chain when it is null or undefined."""

    _fields = ("value",)


class JsCoalesce(ast.expr):
    """``left ?? right``."""

    _fields = ("left", "right")


class JsTypeof(ast.expr):
    """``typeof operand`` (an undeclared name gives 'undefined', not an error)."""

    _fields = ("operand",)


class JsArrow(ast.expr):
    """``(params) => body``, only as the argument of some/every/filter/find/map."""

    _fields = ("body",)
    params: tuple[str, ...] = ()


# --- tokens ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num", "str", "name", "op", "eof"
    value: Any
    start: int
    end: int


_PUNCTUATORS: Final = sorted(
    [
        "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "=>",
        "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ".", ",", "?", ":",
        # recognised only to be refused with a clear message
        ">>>=", "<<=", ">>=", "**=", "&&=", "||=", "??=", ">>>", "...",
        "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "**", "<<", ">>",
        "//", "/*", "=", ";", "{", "}", "&", "|", "^", "~", "`", "#", "@", "\\",
    ],
    key=len,
    reverse=True,
)  # fmt: skip
_ASSIGNMENT: Final = frozenset(
    {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=",
     "||=", "??="}
)  # fmt: skip
_REFUSED_PUNCT: Final[dict[str, str]] = {
    ";": "Statements are not allowed (';' ends a statement; write a single expression)",
    "{": "Blocks and object literals are not allowed",
    "}": "Blocks and object literals are not allowed",
    "`": "Template literals are not allowed",
    "++": "Increment and decrement (++, --) are not allowed",
    "--": "Increment and decrement (++, --) are not allowed",
    "...": "Spread syntax (...) is not allowed",
    "//": "Comments are not allowed",
    "/*": "Comments are not allowed",
    "**": "The ** operator is not supported",
}
_WHITESPACE: Final = " \t\n\r\v\f\u00a0\ufeff\u2028\u2029"
_DIGITS: Final = "0123456789"
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}


def _is_ident_start(c: str) -> bool:
    return c.isalpha() or c in "_$"


def _is_ident_part(c: str) -> bool:
    return c.isalnum() or c in "_$"


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _WHITESPACE:
            i += 1
        elif c in _DIGITS or (c == "." and i + 1 < n and text[i + 1] in _DIGITS):
            tok = _number(text, i)
            tokens.append(tok)
            i = tok.end
        elif c in "'\"":
            tok = _string(text, i)
            tokens.append(tok)
            i = tok.end
        elif _is_ident_start(c):
            j = i + 1
            while j < n and _is_ident_part(text[j]):
                j += 1
            tokens.append(Token("name", text[i:j], i, j))
            i = j
        else:
            for p in _PUNCTUATORS:
                if text.startswith(p, i):
                    break
            else:
                raise ExpressionError(f"Unexpected character {c!r}", i, i + 1)
            if p == "?." and i + 2 < n and text[i + 2] in _DIGITS:
                p = "?"  # `a?.5:1` is a conditional, as in JavaScript
            if p in _ASSIGNMENT:
                raise ExpressionError(
                    f"Assignment ('{p}') is not allowed; compare with === or ==", i, i + len(p)
                )
            if p in _REFUSED_PUNCT:
                raise ExpressionError(_REFUSED_PUNCT[p], i, i + len(p))
            if p in ("&", "|", "^", "~", "<<", ">>", ">>>", "#", "@", "\\"):
                hint = " (did you mean '&&' or '||'?)" if p in ("&", "|") else ""
                raise ExpressionError(f"Operator '{p}' is not supported{hint}", i, i + len(p))
            tokens.append(Token("op", p, i, i + len(p)))
            i += len(p)
    tokens.append(Token("eof", None, n, n))
    return tokens


def _number(text: str, i: int) -> Token:
    n = len(text)
    j = i
    if text[i] == "0" and i + 1 < n and text[i + 1] in "xXoObB":
        base = {"x": 16, "o": 8, "b": 2}[text[i + 1].lower()]
        j = i + 2
        while j < n and text[j].isalnum():
            j += 1
        try:
            value: int | float = int(text[i + 2 : j], base)
        except ValueError:
            raise ExpressionError(f"Invalid number {text[i:j]!r}", i, j) from None
        return Token("num", js.number(value), i, j)
    while j < n and text[j] in _DIGITS:
        j += 1
    is_float = False
    if j < n and text[j] == ".":
        is_float = True
        j += 1
        while j < n and text[j] in _DIGITS:
            j += 1
    if j < n and text[j] in "eE":
        k = j + 1
        if k < n and text[k] in "+-":
            k += 1
        if k < n and text[k] in _DIGITS:
            is_float = True
            j = k
            while j < n and text[j] in _DIGITS:
                j += 1
    if j < n and (_is_ident_part(text[j]) or text[j] == "."):
        end = j + 1
        raise ExpressionError(f"Invalid number {text[i:end]!r}", i, end)
    literal = text[i:j]
    value = float(literal) if is_float else js.number(int(literal))
    return Token("num", value, i, j)


def _string(text: str, i: int) -> Token:
    quote, n = text[i], len(text)
    out: list[str] = []
    j = i + 1
    while j < n:
        c = text[j]
        if c == quote:
            value = "".join(out)
            if not value.isascii():
                # '\\uD83D\\uDE00' is one character in JavaScript: join surrogate pairs.
                with contextlib.suppress(UnicodeDecodeError):  # a lone surrogate stays as is
                    value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            return Token("str", value, i, j + 1)
        if c in "\n\r\u2028\u2029":
            break
        if c == "\\":
            j += 1
            if j >= n:
                break
            e = text[j]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
            elif e == "0" and not (j + 1 < n and text[j + 1] in _DIGITS):
                out.append("\0")
            elif e in "xu":
                ch, j = _hex_escape(text, j)
                out.append(ch)
                continue
            elif e == "\r" and j + 1 < n and text[j + 1] == "\n":
                j += 1  # line continuation
            elif e in "\n\r\u2028\u2029":
                pass  # line continuation
            else:
                out.append(e)
            j += 1
            continue
        out.append(c)
        j += 1
    raise ExpressionError("Unterminated string literal", i, n)


def _hex_escape(text: str, j: int) -> tuple[str, int]:
    """Decode ``\\xHH``, ``\\uHHHH`` or ``\\u{H...}`` from the letter; return (char, next)."""
    kind, start = text[j], j - 1
    if kind == "u" and text.startswith("{", j + 1):
        close = text.find("}", j + 2)
        digits, nxt = (text[j + 2 : close], close + 1) if close > 0 else ("", j + 1)
    else:
        width = 2 if kind == "x" else 4
        digits, nxt = text[j + 1 : j + 1 + width], j + 1 + width
        if len(digits) != width:
            digits = ""
    if not digits or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise ExpressionError("Invalid escape sequence", start, min(nxt, len(text)))
    code = int(digits, 16)
    if code > 0x10FFFF:
        raise ExpressionError("Invalid escape sequence", start, min(nxt, len(text)))
    return chr(code), nxt


# --- the parser ------------------------------------------------------------------------------

_REFUSED_NAMES: Final = frozenset(
    {
        "this", "new", "eval", "Function", "require", "import", "process", "globalThis",
        "window", "global", "module", "exports", "constructor", "prototype", "__proto__",
        "arguments", "Reflect", "Proxy", "Symbol", "Promise", "setTimeout", "setInterval",
        "setImmediate", "queueMicrotask", "fetch", "XMLHttpRequest", "document", "Buffer",
        "WebAssembly", "Atomics", "SharedArrayBuffer", "function", "class", "var", "let",
        "const", "return", "if", "else", "for", "while", "do", "switch", "case", "default",
        "break", "continue", "throw", "try", "catch", "finally", "with", "debugger", "delete",
        "void", "yield", "async", "await", "super", "extends", "export", "instanceof", "enum",
        "in", "of", "static", "implements", "interface", "package", "private", "protected",
        "public",
    }
)  # fmt: skip
_LITERALS: Final[dict[str, Any]] = {
    "true": True,
    "false": False,
    "null": None,
    "undefined": js.UNDEFINED,
    "NaN": math.nan,
    "Infinity": math.inf,
}
_PRECEDENCE: Final[dict[str, int]] = {
    "??": 1, "||": 2, "&&": 3,
    "==": 4, "!=": 4, "===": 4, "!==": 4,
    "<": 5, "<=": 5, ">": 5, ">=": 5, "in": 5,
    "+": 6, "-": 6,
    "*": 7, "/": 7, "%": 7,
}  # fmt: skip
_COMPARE: Final[dict[str, type[ast.cmpop]]] = {
    "==": ast.Eq, "!=": ast.NotEq, "===": ast.Is, "!==": ast.IsNot,
    "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "in": ast.In,
}  # fmt: skip
_ARITH: Final[dict[str, type[ast.operator]]] = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "%": ast.Mod,
}  # fmt: skip
_UNARY: Final[dict[str, type[ast.unaryop]]] = {"!": ast.Not, "-": ast.USub, "+": ast.UAdd}
_LOAD: Final = ast.Load()
MAX_PARSE_DEPTH: Final = 50  # nested parentheses/arrays/calls/unary operators


def _refused_name(name: str, start: int, end: int) -> ExpressionError:
    if name in js.FORBIDDEN_KEYS or "__" in name:
        return ExpressionError(
            f"'{name}' is not allowed (no access to the object model)", start, end
        )
    return ExpressionError(f"'{name}' is not allowed in a condition", start, end)


def _fold_string(node: ast.AST) -> str | None:
    """The value of a key built only from string literals (``'cons' + 'tructor'``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _fold_string(node.left), _fold_string(node.right)
        if left is not None and right is not None:
            return left + right
    return None


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0
        self.params: list[frozenset[str]] = []  # arrow parameters in scope
        self.refs: list[ast.Name] = []  # free names, in order
        self.typeof_only: set[int] = set()  # ids of names read only by typeof

    # token helpers

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def at(self, value: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.kind == "op" and tok.value == value

    def expect(self, value: str) -> Token:
        if not self.at(value):
            raise self.unexpected(f" (expected '{value}')")
        return self.advance()

    def unexpected(self, hint: str = "") -> ExpressionError:
        tok = self.peek()
        if tok.kind == "eof":
            return ExpressionError(f"Unexpected end of expression{hint}", tok.start, tok.end)
        if tok.value == "=>":
            return ExpressionError(
                "Arrow functions are only allowed as the argument of some/every/filter/find/map",
                tok.start,
                tok.end,
            )
        shown = self.text[tok.start : tok.end]
        return ExpressionError(f"Unexpected token '{shown}'{hint}", tok.start, tok.end)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_PARSE_DEPTH:
            tok = self.peek()
            raise ExpressionError(
                f"Expression is nested too deeply (more than {MAX_PARSE_DEPTH} levels)",
                tok.start,
                tok.end,
            )

    # grammar

    def parse(self) -> ast.expr:
        node = self.expression()
        if self.peek().kind != "eof":
            raise self.unexpected()
        return node

    def expression(self) -> ast.expr:
        self.enter()
        try:
            test = self.binary(1)
            if not self.at("?"):
                return test
            self.advance()
            body = self.expression()
            self.expect(":")
            orelse = self.expression()
            node = ast.IfExp(test=test, body=body, orelse=orelse)
            return self.mark(node, test, orelse)
        finally:
            self.depth -= 1

    def binary(self, min_prec: int) -> ast.expr:
        left = self.unary()
        while True:
            tok = self.peek()
            op = (
                tok.value
                if tok.kind == "op" or (tok.kind == "name" and tok.value == "in")
                else None
            )
            prec = _PRECEDENCE.get(op) if isinstance(op, str) else None
            if prec is None or prec < min_prec:
                return left
            self.advance()
            right = self.binary(prec + 1)
            left = self.combine(op, left, right)  # type: ignore[arg-type]

    def combine(self, op: str, left: ast.expr, right: ast.expr) -> ast.expr:
        node: ast.expr
        if op in ("&&", "||"):
            kind = ast.And if op == "&&" else ast.Or
            # a && b && c is one node with three operands: shallower and a flatter explain.
            if (
                isinstance(left, ast.BoolOp)
                and isinstance(left.op, kind)
                and not getattr(left, "fx_paren", False)
            ):
                node = ast.BoolOp(op=left.op, values=[*left.values, right])
            else:
                node = ast.BoolOp(op=kind(), values=[left, right])
        elif op == "??":
            node = JsCoalesce(left=left, right=right)
        elif op in _COMPARE:
            node = ast.Compare(left=left, ops=[_COMPARE[op]()], comparators=[right])
        else:
            node = ast.BinOp(left=left, op=_ARITH[op](), right=right)
        return self.mark(node, left, right)

    def unary(self) -> ast.expr:
        tok = self.peek()
        if tok.kind == "op" and tok.value in _UNARY:
            self.advance()
            self.enter()
            operand = self.unary()
            self.depth -= 1
            node: ast.expr = ast.UnaryOp(op=_UNARY[tok.value](), operand=operand)
            return set_span(node, tok.start, span_of(operand)[1])  # type: ignore[return-value]
        if tok.kind == "name" and tok.value == "typeof":
            self.advance()
            self.enter()
            operand = self.unary()
            self.depth -= 1
            if isinstance(operand, ast.Name):
                self.typeof_only.add(id(operand))
            node = JsTypeof(operand=operand)
            return set_span(node, tok.start, span_of(operand)[1])  # type: ignore[return-value]
        return self.member_chain()

    def member_chain(self) -> ast.expr:
        start = self.peek().start
        node = self.primary()
        optional = False
        while True:
            tok = self.peek()
            if tok.kind != "op":
                break
            if tok.value == ".":
                self.advance()
                name = self.property_name()
                node = ast.Attribute(value=node, attr=name.value, ctx=_LOAD)
            elif tok.value == "?.":
                self.advance()
                optional = True
                target = set_span(JsOptional(value=node), *span_of(node))
                if self.at("("):
                    raise ExpressionError(
                        "Optional calls '?.()' are not supported", tok.start, tok.end + 1
                    )
                if self.at("["):
                    self.advance()
                    key = self.computed_key()
                    node = ast.Subscript(value=target, slice=key, ctx=_LOAD)
                else:
                    name = self.property_name()
                    node = ast.Attribute(value=target, attr=name.value, ctx=_LOAD)
            elif tok.value == "[":
                self.advance()
                key = self.computed_key()
                node = ast.Subscript(value=node, slice=key, ctx=_LOAD)
            elif tok.value == "(":
                args = self.arguments(node)
                node = ast.Call(func=node, args=args, keywords=[])
            else:
                break
            set_span(node, start, self.tokens[self.pos - 1].end)
        if optional:
            node = set_span(JsChain(value=node), *span_of(node))  # type: ignore[assignment]
        return node

    def property_name(self) -> Token:
        tok = self.peek()
        if tok.kind != "name":
            raise self.unexpected(" (expected a property name)")
        self.advance()
        if tok.value in js.FORBIDDEN_KEYS or "__" in tok.value:
            raise _refused_name(tok.value, tok.start, tok.end)
        return tok

    def computed_key(self) -> ast.expr:
        key = self.expression()
        self.expect("]")
        folded = _fold_string(key)
        if folded is not None and js.forbidden_key(folded):
            raise ExpressionError(
                f"Access to '{folded}' is not allowed (no access to the object model)",
                *span_of(key),
            )
        return key

    def arguments(self, callee: ast.expr) -> list[ast.expr]:
        self.expect("(")
        method = callee.attr if isinstance(callee, ast.Attribute) else None
        allow_arrow = method in js.ARROW_METHODS
        args: list[ast.expr] = []
        while not self.at(")"):
            args.append(self.arrow() if allow_arrow and self.arrow_ahead() else self.expression())
            if not self.at(","):
                break
            self.advance()
        self.expect(")")
        return args

    def arrow_ahead(self) -> bool:
        tok = self.peek()
        if tok.kind == "name":
            return self.peek(1).value == "=>" and self.peek(1).kind == "op"
        if not self.at("("):
            return False
        k = 1
        while True:
            t = self.peek(k)
            if t.kind == "op" and t.value == ")":
                nxt = self.peek(k + 1)
                return nxt.kind == "op" and nxt.value == "=>"
            if t.kind != "name":
                return False
            t = self.peek(k + 1)
            if t.kind == "op" and t.value == ",":
                k += 2
            else:
                k += 1

    def arrow(self) -> ast.expr:
        start = self.peek().start
        names: list[Token] = []
        if self.at("("):
            self.advance()
            while not self.at(")"):
                names.append(self.advance())
                if self.at(","):
                    self.advance()
            self.advance()
        else:
            names.append(self.advance())
        self.expect("=>")
        seen: set[str] = set()
        for tok in names:
            if tok.value in _REFUSED_NAMES or tok.value in _LITERALS or "__" in tok.value:
                raise _refused_name(tok.value, tok.start, tok.end)
            if tok.value in seen:
                raise ExpressionError(f"Duplicate parameter '{tok.value}'", tok.start, tok.end)
            seen.add(tok.value)
        self.params.append(frozenset(seen))
        try:
            body = self.expression()
        finally:
            self.params.pop()
        node = JsArrow(body=body)
        node.params = tuple(t.value for t in names)
        return set_span(node, start, span_of(body)[1])  # type: ignore[return-value]

    def primary(self) -> ast.expr:
        tok = self.peek()
        if tok.kind in ("num", "str"):
            self.advance()
            return set_span(ast.Constant(value=tok.value), tok.start, tok.end)  # type: ignore[return-value]
        if tok.kind == "name":
            return self.identifier()
        if tok.kind == "op" and tok.value == "(":
            self.advance()
            if self.at(")"):
                raise self.unexpected()
            inner = self.expression()
            end = self.expect(")").end
            # The span keeps the parentheses so that spans of enclosing nodes stay contiguous.
            set_span(inner, tok.start, end)
            inner.fx_paren = True  # type: ignore[attr-defined]
            return inner
        if tok.kind == "op" and tok.value == "[":
            return self.array()
        raise self.unexpected()

    def identifier(self) -> ast.expr:
        tok = self.advance()
        name: str = tok.value
        if name in _LITERALS:
            return set_span(ast.Constant(value=_LITERALS[name]), tok.start, tok.end)  # type: ignore[return-value]
        if name in _REFUSED_NAMES or "__" in name:
            raise _refused_name(name, tok.start, tok.end)
        local = any(name in frame for frame in self.params)
        end = tok.end
        if not local and name in js.NAMESPACES:
            allowed = ", ".join(f"{name}.{m}" for m in sorted(js.NAMESPACES[name]))
            if self.at(".") and self.peek(1).kind == "name":
                member = self.peek(1)
                if member.value not in js.NAMESPACES[name]:
                    raise ExpressionError(
                        f"{name}.{member.value} is not available (allowed: {allowed})",
                        tok.start,
                        member.end,
                    )
                self.pos += 2
                name, end = f"{name}.{member.value}", member.end
            elif name not in js.GLOBALS:
                raise ExpressionError(f"{name} can only be used as {allowed}", tok.start, tok.end)
        node = set_span(ast.Name(id=name, ctx=_LOAD), tok.start, end)
        if not local:
            self.refs.append(node)  # type: ignore[arg-type]
        return node  # type: ignore[return-value]

    def array(self) -> ast.expr:
        start = self.advance().start
        self.enter()
        items: list[ast.expr] = []
        while not self.at("]"):
            if self.at(","):
                raise self.unexpected(" (empty array slots are not supported)")
            items.append(self.expression())
            if not self.at(","):
                break
            self.advance()
        end = self.expect("]").end
        self.depth -= 1
        return set_span(ast.List(elts=items, ctx=_LOAD), start, end)  # type: ignore[return-value]

    @staticmethod
    def mark(node: ast.expr, first: ast.AST, last: ast.AST) -> ast.expr:
        return set_span(node, span_of(first)[0], span_of(last)[1])  # type: ignore[return-value]


# --- evaluation ------------------------------------------------------------------------------

_MISSING: Final = object()


class MjEval(SandboxEval):
    """simpleeval handlers with JavaScript semantics; member access never touches attributes."""

    OPERATORS: ClassVar = {
        ast.Add: js.js_add,
        ast.Sub: js.js_sub,
        ast.Mult: js.js_mul,
        ast.Div: js.js_div,
        ast.Mod: js.js_mod,
        ast.Eq: js.loose_eq,
        ast.NotEq: js.loose_ne,
        ast.Is: js.strict_eq,
        ast.IsNot: js.strict_ne,
        ast.Lt: js.js_lt,
        ast.LtE: js.js_le,
        ast.Gt: js.js_gt,
        ast.GtE: js.js_ge,
        ast.In: js.js_in,
        ast.Not: js.js_not,
        ast.USub: js.js_neg,
        ast.UAdd: js.js_pos,
    }

    def __init__(self) -> None:
        super().__init__()
        self._locals: list[dict[str, Any]] = []
        self._calls = 0

    def handlers(self) -> dict[type, Any]:
        return {
            ast.Constant: self._eval_constant,
            ast.Name: self._eval_name,
            ast.Attribute: self._eval_attribute,
            ast.Subscript: self._eval_subscript,
            ast.Call: self._eval_call,
            ast.UnaryOp: self._eval_unaryop,
            ast.BinOp: self._eval_binop,
            ast.BoolOp: self._eval_boolop,
            ast.Compare: self._eval_compare,
            ast.IfExp: self._eval_ifexp,
            ast.List: self._eval_list,
            JsChain: self._eval_chain,
            JsOptional: self._eval_optional,
            JsCoalesce: self._eval_coalesce,
            JsTypeof: self._eval_typeof,
            JsArrow: self._eval_arrow,
        }

    def prepare(self, compiled: Compiled, scope: Any) -> None:
        super().prepare(compiled, scope)
        self._locals = []
        self._calls = 0

    def _source(self, node: ast.AST) -> str:
        start, end = span_of(node)
        return self.expr[start:end]

    def _lookup(self, name: str) -> Any:
        if self._locals:
            for frame in reversed(self._locals):
                if name in frame:
                    return frame[name]
        try:
            return self.names[name]
        except KeyError:
            return js.GLOBALS.get(name, _MISSING)

    def _eval_name(self, node: ast.Name) -> Any:
        value = self._lookup(node.id)
        if value is _MISSING:
            raise js.JsError(f"{node.id} is not defined")
        return value

    def _eval_attribute(self, node: ast.Attribute) -> Any:
        # The property name was vetted by the parser; only the value is dynamic.
        return js.get_member(self._eval(node.value), node.attr)

    def _eval_subscript(self, node: ast.Subscript) -> Any:
        obj = self._eval(node.value)
        key = self._eval(node.slice)
        if type(key) is int and type(obj) is list:
            return obj[key] if 0 <= key < len(obj) else js.UNDEFINED
        k = js.property_key(key)
        if js.forbidden_key(k):
            shown = k if k in js.FORBIDDEN_KEYS else "a name containing '__'"
            raise js.JsError(f"Access to {shown!s} is not allowed (no access to the object model)")
        if obj is None or obj is js.UNDEFINED:
            # Name the key only when it is written in the expression (computed keys may
            # come from secrets).
            reading = f"'{k}'" if isinstance(node.slice, ast.Constant) else "a computed key"
            kind = "null" if obj is None else "undefined"
            raise js.JsError(f"Cannot read properties of {kind} (reading {reading})")
        return js.get_member(obj, k)

    def _eval_call(self, node: ast.Call) -> Any:
        fn = self._eval(node.func)
        if type(fn) is not js.JsFunction:
            raise js.JsError(f"{self._source(node.func)} is not a function")
        return fn.fn(*[self._eval(arg) for arg in node.args])

    def _eval_compare(self, node: ast.Compare) -> Any:
        # The parser builds one operator per Compare: JavaScript does not chain a < b < c.
        return self.operators[type(node.ops[0])](
            self._eval(node.left), self._eval(node.comparators[0])
        )

    def _eval_boolop(self, node: ast.BoolOp) -> Any:
        # && and || return an operand, chosen by JavaScript truthiness.
        value: Any = None
        if type(node.op) is ast.And:
            for operand in node.values:
                value = self._eval(operand)
                if not js.truthy(value):
                    return value
            return value
        for operand in node.values:
            value = self._eval(operand)
            if js.truthy(value):
                return value
        return value

    def _eval_ifexp(self, node: ast.IfExp) -> Any:
        if js.truthy(self._eval(node.test)):
            return self._eval(node.body)
        return self._eval(node.orelse)

    def _eval_chain(self, node: JsChain) -> Any:
        try:
            return self._eval(node.value)
        except ShortCircuit:
            return js.UNDEFINED

    def _eval_optional(self, node: JsOptional) -> Any:
        value = self._eval(node.value)
        if value is None or value is js.UNDEFINED:
            raise ShortCircuit
        return value

    def _eval_coalesce(self, node: JsCoalesce) -> Any:
        left = self._eval(node.left)
        if left is None or left is js.UNDEFINED:
            return self._eval(node.right)
        return left

    def _eval_typeof(self, node: JsTypeof) -> str:
        operand = node.operand
        if isinstance(operand, ast.Name) and self._lookup(operand.id) is _MISSING:
            return "undefined"
        return js.typeof(self._eval(operand))

    def _eval_arrow(self, node: JsArrow) -> js.JsFunction:
        params, body = node.params, node.body

        def call(*args: Any) -> Any:
            self._calls += 1
            if self._calls > MAX_CALLBACKS:
                raise TooMuchWork(
                    f"Expression does too much work (over {MAX_CALLBACKS} callback calls)"
                )
            frame = {p: args[i] if i < len(args) else js.UNDEFINED for i, p in enumerate(params)}
            self._locals.append(frame)
            try:
                return self._eval(body)
            finally:
                self._locals.pop()

        return js.JsFunction("arrow", call)


# --- compile ---------------------------------------------------------------------------------

ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.Constant, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Call,
        ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod,
        ast.BoolOp, ast.And, ast.Or,
        ast.Compare, ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
        ast.In, ast.IfExp, ast.List,
        JsChain, JsOptional, JsCoalesce, JsTypeof, JsArrow,
    }
)  # fmt: skip
_CONSTANT_TYPES: Final = (str, int, float, bool, type(None), type(js.UNDEFINED))


def _check(node: ast.AST) -> None:
    """Defence in depth: the parser never builds these, so seeing one means a bug."""
    if isinstance(node, ast.Name) and "__" in node.id:
        raise ExpressionError(f"'{node.id}' is not allowed", *span_of(node))
    if isinstance(node, ast.Attribute) and js.forbidden_key(node.attr):
        raise ExpressionError(f"'{node.attr}' is not allowed", *span_of(node))
    if isinstance(node, ast.Constant) and not isinstance(node.value, _CONSTANT_TYPES):
        raise ExpressionError("Unsupported literal", *span_of(node))


def _missing(name: str) -> str:
    return f"{name} is not defined"


BUILTINS: Final = frozenset(js.GLOBALS)


def compile_mj(text: str) -> Compiled:
    check_text(text)
    try:
        parser = _Parser(text)
        tree = parser.parse()
    except RecursionError:
        raise ExpressionError("Expression is nested too deeply", 0, len(text)) from None
    validate(tree, ALLOWED_NODES, _check)
    names: dict[str, None] = {}
    required: dict[str, tuple[str, int, int]] = {}
    for ref in parser.refs:
        if ref.id in BUILTINS:
            continue
        names[ref.id] = None
        if id(ref) not in parser.typeof_only and ref.id not in required:
            required[ref.id] = (ref.id, *span_of(ref))
    return Compiled(
        text=text,
        dialect="mj",
        tree=tree,
        names=frozenset(names),
        required=tuple(required.values()),
        evaluator=MjEval,
        truthy=js.truthy,
        builtins=BUILTINS,
        missing=_missing,
    )
