"""The grammar of a MemberJunction condition: JavaScript expressions, as V8 parses the body
``return Boolean(<condition>);`` that MemberJunction 5.51.3 builds in strict mode.

So the condition is the argument list of ``Boolean(...)``: ``a, b`` is ``Boolean(a, b)`` (the
value of ``a`` decides), a trailing comma is allowed, and text can even close the call early
when its parentheses balance (``'(' ), (')'``). Strict-mode early errors are syntax errors here
as there (``a ?? b || c``, ``delete x``, ``let``, ``-a ** 2``). Names through which the
runtime would execute code (``globalThis``, ``Function``, ``import(...)``...) are collected
and refused once the text parses; JavaScript this module does not reproduce (regular
expressions, ``new``, destructuring) is refused as not predicted rather than guessed.
"""

from __future__ import annotations

import ast
from typing import Any, Final

from flowctx_core.expressions.js.arrays import MUTATING_METHODS
from flowctx_core.expressions.js.globals import (
    EXECUTING_GLOBALS,
    GLOBALS,
    HOST_CALLEES,
    HOST_REASONS,
    HOST_TYPES,
)
from flowctx_core.expressions.js.regexp import FLAG_ORDER, RegExpSyntaxError, literal, validate
from flowctx_core.expressions.js.values import OBJECT_MODEL_KEYS
from flowctx_core.expressions.mj.errors import SecurityRefusal, Unpredicted
from flowctx_core.expressions.mj.lexer import JsSyntaxError, Token, next_octals, scan
from flowctx_core.expressions.mj.nodes import (
    JsArrow,
    JsAssign,
    JsBinary,
    JsBindDefault,
    JsChain,
    JsCoalesce,
    JsDelete,
    JsHole,
    JsNew,
    JsOptional,
    JsPattern,
    JsRegexLiteral,
    JsSequence,
    JsSpread,
    JsTypeof,
    JsUpdate,
    JsVoid,
)
from flowctx_core.expressions.sandbox import (
    ExpressionError,
    deep_recursion,
    set_span,
    span_of,
    tree_depth,
)

RESERVED: Final = frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
    ]
)
STRICT_RESERVED: Final = frozenset(
    [
        "implements",
        "interface",
        "let",
        "package",
        "private",
        "protected",
        "public",
        "static",
        "yield",
    ]
)
ENGINE: Final = "MemberJunction 5.51.3"
_ASSIGN_OPS: Final = frozenset(
    {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=",
     "||=", "??="}
)  # fmt: skip
_BINARY_LEVELS: Final[tuple[frozenset[str], ...]] = (
    frozenset({"|"}),
    frozenset({"^"}),
    frozenset({"&"}),
    frozenset({"==", "!=", "===", "!=="}),
    frozenset({"<", ">", "<=", ">=", "instanceof", "in"}),
    frozenset({"<<", ">>", ">>>"}),
    frozenset({"+", "-"}),
    frozenset({"*", "/", "%"}),
)
_LEVEL_OF: Final[dict[str, int]] = {
    op: level for level, ops in enumerate(_BINARY_LEVELS) for op in ops
}
_COMPARE: Final[dict[str, type[ast.cmpop]]] = {
    "==": ast.Eq, "!=": ast.NotEq, "===": ast.Is, "!==": ast.IsNot,
    "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "in": ast.In,
}  # fmt: skip
_ARITH: Final[dict[str, type[ast.operator]]] = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "%": ast.Mod, "**": ast.Pow,
    "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor,
}  # fmt: skip
_UNARY: Final[dict[str, type[ast.unaryop]]] = {
    "!": ast.Not, "-": ast.USub, "+": ast.UAdd, "~": ast.Invert,
}  # fmt: skip
_LOAD: Final = ast.Load()
MAX_PARSE_DEPTH: Final = 2000  # V8 nests far deeper than 1000 characters allow


def _parameters(head: ast.expr) -> bool:
    """Whether a parenthesised expression also reads as an arrow's parameter list (names,
    ``name = default``, array patterns of those, separated by commas)."""
    if isinstance(head, JsSequence):
        return all(_parameter(item) for item in head.values)
    if getattr(head, "fx_rest_head", False):
        return True
    # the head's own parentheses are the list's: only parentheses inside it are refused
    return _parameter(head, own=True)


def _parameter(item: ast.expr, own: bool = False) -> bool:
    if getattr(item, "fx_paren", 0) > (1 if own else 0):
        return False
    if getattr(item, "fx_rest_param", False):
        return True  # ``...name`` or ``...[pattern]`` ending a list an '=>' follows
    if isinstance(item, ast.Name):
        return True
    if isinstance(item, JsAssign):
        return item.op == "=" and _parameter(item.target)
    if isinstance(item, ast.List):
        return all(
            isinstance(e, JsHole)
            or _parameter(e)
            or (
                isinstance(e, JsSpread)  # a rest element, last
                and getattr(e, "fx_comma", None) is None
                and _parameter(e.value)
            )
            for e in item.elts
        )
    return False


_INVALID_TARGET: Final = "Invalid destructuring assignment target"
_PROPERTY_TARGET: Final = "Illegal property in declaration context"
_REST_NOT_LAST: Final = "Rest element must be last element"
HeadError = tuple[str, ast.expr]


def _head_error(items: list[ast.expr], own: bool = False) -> HeadError | None:
    """V8's error for a parenthesised list an '=>' makes parameters, and where it places it.
    V8 records two kinds as it reads the list: what can declare no name (an element that is
    neither a name, an array pattern nor an assignment, or is parenthesised; a property
    where a name is declared), of which the last recorded is reported; failing that, what
    is no pattern (an array element that is no target, a rest element not last), of which
    the first is (measured: ``(a.b = 1, 1)`` and ``(1, a.b = 1)`` are the second's errors,
    ``([...a, b], [1])`` the first's; a name bound twice is of the second kind, where it
    stands). Eval and arguments are judged after. ``own``: the one element carries the
    list's own parentheses."""
    declared: list[HeadError] = []
    patterns: list[HeadError] = []
    seen: dict[str, list[HeadError]] = {}
    for item in items:
        seen[""] = []  # the names this element binds twice, recorded once it is read whole
        if getattr(item, "fx_rest_param", False):
            if isinstance(item, JsSpread):
                _pattern_errors(item.value, (declared, patterns, seen))
        elif isinstance(item, ast.Name | ast.List) or (
            isinstance(item, JsAssign) and item.op == "="
        ):
            _pattern_errors(item, (declared, patterns, seen), own)
        patterns.extend(seen[""])
        if getattr(item, "fx_rest_param", False):
            continue
        if (
            getattr(item, "fx_paren", 0) > (1 if own else 0)
            or not isinstance(item, ast.Name | ast.List | JsAssign)
            or (isinstance(item, JsAssign) and item.op != "=")  # `a += 1`
        ):
            declared.append((_INVALID_TARGET, item))
    if declared:
        return declared[-1]
    return patterns[0] if patterns else None


def tok_at(node: ast.expr) -> Token:
    """A token spanning ``node``, to place an error there."""
    start, end = span_of(node)
    return Token("name", "", start, end)


def _duplicate(items: list[ast.expr]) -> ast.Name | None:
    """The first name a parameter list binds twice (patterns' and defaults' targets too)."""
    seen: set[str] = set()
    stack = list(reversed(items))
    while stack:
        node = stack.pop()
        if isinstance(node, JsSpread):
            stack.append(node.value)
        elif isinstance(node, JsAssign):
            stack.append(node.target)
        elif isinstance(node, ast.List):
            stack.extend(reversed([e for e in node.elts if not isinstance(e, JsHole)]))
        elif isinstance(node, ast.Name):
            if node.id in seen:
                return node
            seen.add(node.id)
    return None


def _shallow(node: ast.expr) -> ast.expr:
    """A copy of ``node`` sharing its children and attributes."""
    copy = type(node).__new__(type(node))
    copy.__dict__.update(node.__dict__)
    return copy


def _pattern_errors(
    node: ast.expr,
    found: tuple[list[HeadError], list[HeadError], dict[str, list[HeadError]]],
    own: bool = False,
) -> None:
    """The errors V8 records in ``node`` read as a binding (see ``_head_error``), in order,
    into ``found`` (what declares no name, what is no pattern, the names bound so far with,
    under "", those of the element being read bound twice);
    ``own``: one pair of parentheses around it is the list's."""
    declared, patterns, seen = found
    if own and getattr(node, "fx_paren", 0) == 1:
        copy = _shallow(node)
        copy.fx_paren = 0  # type: ignore[attr-defined]
        node = copy
    if isinstance(node, JsAssign) and node.op == "=":
        target = node.target
        if isinstance(target, ast.Attribute | ast.Subscript):
            declared.append((_PROPERTY_TARGET, node))
        elif getattr(target, "fx_paren", 0) and not isinstance(target, ast.Name):
            patterns.append((_INVALID_TARGET, target))
        else:
            _pattern_errors(target, found)
        return
    if getattr(node, "fx_paren", 0) and isinstance(node, ast.Name):
        declared.append((_INVALID_TARGET, node))  # `[(e)]`: a name, yet declares none
        return
    if getattr(node, "fx_paren", 0) and not isinstance(node, ast.Attribute | ast.Subscript):
        patterns.append((_INVALID_TARGET, node))
        return
    if isinstance(node, ast.Name):
        if node.id in seen:
            seen[""].append(("Duplicate parameter name not allowed in this context", node))
        seen[node.id] = []
        return
    if isinstance(node, JsPattern):
        return  # a pattern read as a binding: its errors were its own
    if isinstance(node, ast.Attribute | ast.Subscript):
        declared.append((_PROPERTY_TARGET, node))
        return
    if isinstance(node, ast.List):
        for element in node.elts:
            if isinstance(element, JsHole):
                continue
            if isinstance(element, JsSpread):
                _pattern_errors(element.value, found)
                if getattr(element, "fx_comma", None) is not None:
                    patterns.append((_REST_NOT_LAST, element))
                continue
            _pattern_errors(element, found)
        return
    patterns.append((_INVALID_TARGET, node))


def _assignable(item: ast.expr) -> bool:
    """Whether V8 takes ``item`` as an element of an array destructuring assignment: a name
    or a member (parenthesised too), a nested array of such, one with a default, a rest."""
    if isinstance(item, ast.Name):
        return item.id not in ("eval", "arguments")  # strict mode
    if isinstance(item, ast.Attribute | ast.Subscript):
        return True
    if isinstance(item, ast.List) and not getattr(item, "fx_paren", 0):
        return all(isinstance(e, JsHole) or _assignable(e) for e in item.elts)
    if isinstance(item, JsAssign) and item.op == "=" and not getattr(item, "fx_paren", 0):
        return _assignable(item.target)
    if isinstance(item, JsSpread):
        return _assignable(item.value)
    return False


def _mark(node: ast.AST, start: int, end: int) -> Any:
    return set_span(node, start, end)


def _fold_string(node: ast.AST) -> str | None:
    """The value of a key built only from string literals (``'cons' + 'tructor'``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _fold_string(node.left), _fold_string(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def _ends_operand(tok: Token) -> bool:
    """Whether a '(' after ``tok`` opens a call's arguments (not a parenthesised expression)."""
    if tok.kind in ("num", "str", "regexp"):
        return True
    if tok.kind == "name":
        return tok.escaped or tok.value not in RESERVED or tok.value in ("this", "super")
    return tok.kind == "op" and tok.value in (")", "]", "?.")


#: a pattern's errors V8 records as it reads the pattern and reports only once the pattern
#: turns out to be a parameter (or an assignment's target)
_RECORDED: Final = frozenset(
    {
        "Invalid destructuring assignment target",
        "Illegal property in declaration context",
        "Rest element must be last element",
    }
)


class ParseResult:
    __slots__ = (
        "depth", "host", "mutates", "names", "root", "security", "unpredicted", "wrapped",
    )  # fmt: skip

    def __init__(self) -> None:
        self.root: ast.expr | None = None
        self.wrapped = False  # root is the argument of the Boolean(...) MemberJunction adds
        self.names: dict[str, None] = {}
        self.mutates = False
        self.depth = 0  # deepest nesting reached
        self.security: list[tuple[str, int, int]] = []
        # host globals named bare (name, message, start, end): refused unless the scope
        # provides the name (then it is the scope's value) or typeof reads only their type
        self.host: list[tuple[str, str, int, int]] = []
        self.unpredicted: list[tuple[str, int, int]] = []


class Parser:
    def __init__(self, text: str, bound: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.bound = bound  # host-global names the scope provides: the scope's values
        expr_tokens, self.octals = scan(text)
        self.octal = self.octals[-1] if self.octals else None
        n = len(text)
        eof = expr_tokens[-1]
        # MemberJunction's body: Boolean( <condition> ); -- a // comment that runs to the end
        # of the condition also comments out the ");", and the next token V8 meets is the
        # "}" that closes the try block around it on the next line.
        head = [Token("name", "Boolean", 0, 0), Token("op", "(", 0, 0)]
        tail = (
            [Token("op", "}", n, n)]
            if eof.value
            else [Token("op", ")", n, n), Token("op", ";", n, n)]
        )
        self.tokens = [*head, *expr_tokens[:-1], *tail, Token("eof", None, n, n)]
        self.pos = 0
        self.depth = 0
        self.update_operand = -1  # the token position of a '++'/'--' operand, as it is read
        self.params: list[frozenset[str]] = []
        self.result = ParseResult()
        self.synthetic_call: ast.Call | None = None

    # --- token helpers ----------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        if not ahead:
            return self.tokens[self.pos]
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def at(self, value: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.kind == "op" and tok.value == value

    def at_word(self, word: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.kind == "name" and tok.value == word and not tok.escaped

    def expect(self, value: str) -> Token:
        if not self.at(value):
            if value == ")" and self.peek().kind == "eof":
                raise self.error("missing ) after argument list", self.peek())
            raise self.unexpected()
        return self.advance()

    def error(self, message: str, tok: Token) -> JsSyntaxError:
        n = len(self.text)
        return JsSyntaxError(message, min(tok.start, n), min(tok.end, n))

    def private(self, tok: Token) -> JsSyntaxError:
        """An undeclared private name (a brand check ``#x in o``, a member ``a.#x``): V8
        places it at the token before the name (a strict-mode 07 ending right there loses to
        it: ``07,#x``, ``07.#x``)."""
        error = self.error(
            f"Private field '{tok.value}' must be declared in an enclosing class", tok
        )
        index = self.tokens.index(tok)
        error.v8_start = self.tokens[index - 1].start if index > 0 else tok.start
        return error

    def unexpected(self, tok: Token | None = None, operand: bool = False) -> JsSyntaxError:
        """V8's words for a token that cannot stand here; ``operand``: where an operand was
        expected (an ``=>`` there is a token like any other, not a parameter list)."""
        tok = tok or self.peek()
        if tok.kind == "private":
            # only where a binary expression starts is it read as a private name (and then
            # fails as undeclared, see ``binary``); anywhere else it is a token out of place
            return self.error(f"Unexpected identifier '{tok.value}'", tok)
        if tok.kind == "illegal":
            return self.scanner_failure(tok)
        if tok.kind == "eof":
            return self.error("Unexpected end of input", tok)
        if tok.kind == "str":
            return self.error("Unexpected string", tok)
        if tok.kind == "num":
            return self.error("Unexpected number", tok)
        if (
            tok.kind == "name"
            and tok.escaped
            and (tok.value in RESERVED or tok.value in STRICT_RESERVED)
        ):
            return self.error("Keyword must not contain escaped characters", tok)
        if tok.kind == "name" and tok.value == "enum":
            return self.error("Unexpected reserved word", tok)
        if tok.kind == "name" and tok.value in ("get", "set"):
            # V8 scans them as tokens of their own (for accessors) and names the token
            return self.error(f"Unexpected token '{tok.value}'", tok)
        if tok.kind == "name" and tok.value in STRICT_RESERVED:
            return self.error("Unexpected strict mode reserved word", tok)
        if tok.kind == "name" and tok.value not in RESERVED:
            return self.error(f"Unexpected identifier '{tok.value}'", tok)
        shown = self.text[tok.start : tok.end] or str(tok.value)
        if shown == "=>" and not tok.nl_before and not operand:
            # a line break before => keeps V8 from reading an arrow at all (no LineTerminator
            # there): it is then a token like any other
            return self.error("Malformed arrow function parameter list", tok)
        return self.error(f"Unexpected token '{shown}'", tok)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > self.result.depth:
            self.result.depth = self.depth
        if self.depth > MAX_PARSE_DEPTH:
            tok = self.peek()
            raise ExpressionError(
                f"Expression is nested too deeply (more than {MAX_PARSE_DEPTH} levels)",
                tok.start,
                tok.end,
            )

    def leave(self) -> None:
        self.depth -= 1

    def refuse(self, what: str, start: int, end: int) -> None:
        self.result.security.append((f"{ENGINE} would execute this as code ({what})", start, end))

    def unsupported(self, what: str, start: int, end: int) -> None:
        self.result.unpredicted.append((f"flowctx does not reproduce {what}", start, end))

    # --- entry ------------------------------------------------------------------------------

    def parse(self) -> ParseResult:
        """The condition's tree; a strict-mode octal error comes after the parse, unless the
        parse failed: then the last octal V8's scanner has read (it reads one token past the
        one that failed) wins where it lies before that token (``08 * >= 1 08`` is the
        octal's error, ``08 * >= 08`` the '>=''s: the second octal was read, and it is
        after)."""
        try:
            result = self.parse_body()
        except JsSyntaxError as exc:
            where = exc.v8_start if exc.v8_start is not None else (exc.error.start or 0)
            failed = exc.error.start or 0
            after = [t for t in self.tokens if t.start >= failed and t.kind != "eof"]
            if exc.peeked:
                after = after[:1]  # V8 saw the failing token without taking it
            elif exc.taken is not None:
                taken = exc.taken
                after = [t for t in self.tokens if t.start >= taken and t.kind != "eof"][:1]
            else:
                # the token V8 had taken last is the error's last one: it read one past it
                last = max(failed, exc.error.end or failed)
                after = [t for t in after[1:] if t.start >= last][:1]
            read_to = after[0].end if after else len(self.text)
            scanned = [o for o in self.octals if (o.error.start or 0) < read_to]
            octal = scanned[-1] if scanned else None
            if octal is not None and (octal.error.end or 0) < where:
                raise octal from None
            raise
        if self.octal is not None:
            raise self.octal
        return result

    def parse_body(self) -> ParseResult:
        root = self.expression()
        if self.at("}"):
            self.advance()  # a complete return statement before the block's "}" (ASI)
        else:
            self.expect(";")
        if self.peek().kind != "eof":
            raise self.unexpected()
        result = self.result
        call = self.synthetic_call
        if (
            call is not None
            and root is call
            and len(call.args) == 1
            and not isinstance(call.args[0], JsSpread)
        ):
            result.root, result.wrapped = call.args[0], True
        else:
            _mark(root, 0, len(self.text))
            result.root = root
        # A chain the parser reads in a loop (a+a+…, a.b.c…, f()()…) costs it no frames but
        # builds a tree as deep as it is long, and every walker after it (compiler, evaluator,
        # explain) recurses on the tree: the room they get is the tree's depth.
        result.depth = max(result.depth, tree_depth(result.root))
        return result

    # --- expressions ------------------------------------------------------------------------

    def expression(self) -> ast.expr:
        first = self.assignment()
        if not self.at(","):
            return first
        values = [first]
        while self.at(","):
            self.advance()
            after = self.peek(1)
            if self.at(")") and after.kind == "op" and after.value == "=>":
                break  # V8 allows a trailing comma where the list is an arrow's parameters
            values.append(self.assignment())
        if len(values) == 1:
            return first  # `(a,) => a`: a list of one is that one
        return _mark(JsSequence(values=values), span_of(first)[0], span_of(values[-1])[1])

    def assignment(self) -> ast.expr:
        self.enter()
        try:
            if self.arrow_ahead():
                return self.arrow()
            start = self.peek().start
            target = self.conditional()
            tok = self.peek()
            if tok.kind == "op" and tok.value == "=>":
                self.stray_arrow(target, tok)
            if tok.kind == "op" and tok.value in _ASSIGN_OPS:
                self.check_target(target, tok, "assignment")
                self.advance()
                value = self.assignment()
                node = JsAssign(target=target, value=value)
                node.op = tok.value
                self.result.mutates = True
                return _mark(node, start, span_of(value)[1])
            return target
        finally:
            self.leave()

    def check_target(self, target: ast.expr, tok: Token, what: str) -> None:
        if isinstance(target, ast.Name):
            if target.id in ("eval", "arguments"):
                # strict mode: neither is assigned to, parenthesised or not
                error = self.error("Unexpected eval or arguments in strict mode", tok)
                error.v8_start = span_of(target)[0]
                raise error
            return
        if isinstance(target, ast.Attribute | ast.Subscript) and not self.in_optional_chain(target):
            return
        if isinstance(target, ast.Call) and tok.value not in ("&&=", "||=", "??="):
            # V8 (node 20) keeps a call as the target of '=', of an arithmetic 'op=' or of
            # '++'/'--' for web compatibility: a ReferenceError at run time, after the call
            # has run, so a branch that is never taken does not fail. A logical assignment
            # or a call inside an optional chain is an early SyntaxError.
            return
        if (
            isinstance(target, ast.List)
            and tok.value == "="
            and what == "assignment"
            and not getattr(target, "fx_paren", 0)  # `([a]) = 1` is no pattern to V8
        ):
            self.check_pattern(target, tok)
            return
        message = (
            f"Invalid left-hand side expression in {what}"
            if what != "assignment"
            else "Invalid left-hand side in assignment"
        )
        error = self.error(message, tok)
        error.v8_start = span_of(target)[0]  # V8 places it at the target (a 08 there loses)
        # judged as soon as the target is read, its operator (or the token after a prefix
        # operator's operand) not yet taken
        error.taken = span_of(target)[1]
        raise error

    def check_pattern(self, target: ast.List, tok: Token) -> None:
        """V8's early errors of an array destructuring assignment, nested arrays included."""
        for item in target.elts:
            if isinstance(item, JsHole):
                continue
            comma = getattr(item, "fx_comma", None)
            if comma is not None:  # `[...a, b] = c`, `[...a,] = c`
                raise self.error("Rest element must be last element", comma)
            if not _assignable(item):
                error = self.error("Invalid destructuring assignment target", tok)
                error.v8_start = span_of(item)[0]
                raise error
            inner = item.target if isinstance(item, JsAssign) else item
            inner = inner.value if isinstance(inner, JsSpread) else inner
            if isinstance(inner, ast.List):
                self.check_pattern(inner, tok)

    @staticmethod
    def in_optional_chain(node: ast.AST) -> bool:
        return isinstance(node, JsChain)

    def conditional(self) -> ast.expr:
        start = self.peek().start
        test = self.short_circuit()
        if not self.at("?"):
            return test
        self.advance()
        body = self.assignment()
        self.expect(":")
        orelse = self.assignment()
        return _mark(ast.IfExp(test=test, body=body, orelse=orelse), start, span_of(orelse)[1])

    def short_circuit(self) -> ast.expr:
        head = self.binary(0)
        if self.at("??"):
            node = head
            while self.at("??"):
                self.advance()
                right = self.binary(0)
                node = _mark(
                    JsCoalesce(left=node, right=right), span_of(head)[0], span_of(right)[1]
                )
            # ``??`` mixed with ``||``/``&&`` ends the expression here: what encloses it says
            # why (V8's "missing ) after argument list" in a call, "Unexpected token" else)
            return node
        node = self.and_tail(head)
        while self.at("||"):
            self.advance()
            right = self.and_tail(self.binary(0))
            node = self.boolop(ast.Or, node, right)
        return node

    def and_tail(self, left: ast.expr) -> ast.expr:
        while self.at("&&"):
            self.advance()
            left = self.boolop(ast.And, left, self.binary(0))
        return left

    @staticmethod
    def boolop(kind: type[ast.boolop], left: ast.expr, right: ast.expr) -> ast.expr:
        # a && b && c is one node with three operands: shallower and a flatter explain.
        if (
            isinstance(left, ast.BoolOp)
            and isinstance(left.op, kind)
            and not getattr(left, "fx_paren", False)
        ):
            node = ast.BoolOp(op=left.op, values=[*left.values, right])
        else:
            node = ast.BoolOp(op=kind(), values=[left, right])
        return _mark(node, span_of(left)[0], span_of(right)[1])

    def binary_op(self) -> str | None:
        tok = self.peek()
        if tok.kind == "op":
            return str(tok.value)
        if tok.kind == "name" and tok.value in ("in", "instanceof") and not tok.escaped:
            return str(tok.value)
        return None

    def binary(self, min_level: int) -> ast.expr:
        """Precedence climbing over the binary levels (one Python frame per operand, so deep
        texts stay far from the interpreter's recursion limit)."""
        tok = self.peek()
        if tok.kind == "private":
            # V8 reads ``#x`` where a binary expression starts as a private brand check
            # (``#x in o``), which outside a class fails as undeclared
            raise self.private(tok)
        left = self.exponent()
        while True:
            op = self.binary_op()
            level = _LEVEL_OF.get(op) if op is not None else None
            if level is None or level < min_level:
                return left
            self.advance()
            right = self.binary(level + 1)
            left = self.combine(op, left, right)  # type: ignore[arg-type]

    @staticmethod
    def combine(op: str, left: ast.expr, right: ast.expr) -> ast.expr:
        node: ast.expr
        if op in _COMPARE:
            node = ast.Compare(left=left, ops=[_COMPARE[op]()], comparators=[right])
        elif op in _ARITH:
            node = ast.BinOp(left=left, op=_ARITH[op](), right=right)
        else:
            node = JsBinary(left=left, right=right)
            node.op = op
        return _mark(node, span_of(left)[0], span_of(right)[1])

    def exponent(self) -> ast.expr:
        tok = self.peek()
        if self.is_unary(tok):
            node = self.unary()
            if self.at("**"):
                raise self.unary_power(tok)
            return node
        left = self.update()
        if not self.at("**"):
            return left
        self.advance()
        if self.peek().kind == "private":
            # V8's right operand of ** is a binary one too
            raise self.private(self.peek())
        self.enter()
        right = self.exponent()
        self.leave()
        return self.combine("**", left, right)

    @staticmethod
    def is_unary(tok: Token) -> bool:
        if tok.kind == "op":
            return tok.value in _UNARY
        return tok.kind == "name" and tok.value in ("typeof", "void", "delete") and not tok.escaped

    def unary(self) -> ast.expr:
        tok = self.peek()
        if not self.is_unary(tok):
            return self.update()
        self.advance()
        self.enter()
        host = len(self.result.host)
        operand = self.unary()
        self.leave()
        end = span_of(operand)[1]
        node: ast.expr
        if tok.value == "typeof" and isinstance(operand, ast.Name) and operand.id in HOST_TYPES:
            del self.result.host[host:]  # typeof reads the binding's type only: predicted
        if tok.kind == "op":
            node = ast.UnaryOp(op=_UNARY[tok.value](), operand=operand)
        elif tok.value == "typeof":
            node = JsTypeof(operand=operand)
        elif tok.value == "void":
            node = JsVoid(operand=operand)
        else:
            if isinstance(operand, ast.Name):
                error = self.error("Delete of an unqualified identifier in strict mode.", tok)
                error.taken = span_of(operand)[1]  # judged once the operand is read
                raise error
            self.result.mutates = True
            node = JsDelete(operand=operand)
        if self.at("**"):
            # V8 checks it as soon as the unary expression ends, even inside '++'/'--'
            raise self.unary_power(tok)
        return _mark(node, tok.start, end)

    def unary_power(self, operator: Token) -> JsSyntaxError:
        """``-x ** 2``: shown at the ``**``, placed by V8 at the unary operator (so a strict-mode
        octal literal after that operator loses to it: ``-010 ** 2``)."""
        error = self.error(
            "Unary operator used immediately before exponentiation expression. "
            "Parenthesis must be used to disambiguate operator precedence",
            self.peek(),
        )
        error.v8_start = operator.start
        return error

    def update(self) -> ast.expr:
        tok = self.peek()
        if tok.kind == "op" and tok.value in ("++", "--"):
            self.advance()
            self.enter()
            self.update_operand = self.pos
            target = self.unary()
            self.leave()
            self.check_target(target, tok, "prefix operation")
            node = JsUpdate(target=target)
            node.op, node.prefix = tok.value, True
            self.result.mutates = True
            return _mark(node, tok.start, span_of(target)[1])
        target = self.lhs()
        tok = self.peek()
        if tok.kind == "op" and tok.value in ("++", "--") and not tok.nl_before:
            self.check_target(target, tok, "postfix operation")
            self.advance()
            node = JsUpdate(target=target)
            node.op, node.prefix = tok.value, False
            self.result.mutates = True
            return _mark(node, span_of(target)[0], tok.end)
        return target

    def lhs(self) -> ast.expr:
        start = self.peek().start
        node = self.new_expression() if self.at_word("new") else self.primary()
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
                target = _mark(JsOptional(value=node), *span_of(node))
                if self.at("("):
                    args = self.arguments()
                    node = ast.Call(func=target, args=args, keywords=[])
                elif self.at("["):
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
                callee = node
                args = self.arguments()
                self.host_callee(callee)
                node = ast.Call(func=callee, args=args, keywords=[])
                if self.synthetic_call is None and start == 0 and self.pos_is_synthetic(callee):
                    self.synthetic_call = node
                if isinstance(callee, ast.Attribute) and callee.attr in MUTATING_METHODS:
                    self.result.mutates = True
                elif isinstance(callee, ast.Subscript):
                    self.result.mutates = True  # x['pu' + 'sh'](...) may mutate
            else:
                break
            _mark(node, start, self.tokens[self.pos - 1].end)
        if optional:
            node = _mark(JsChain(value=node), *span_of(node))
        return node

    def pos_is_synthetic(self, callee: ast.expr) -> bool:
        return getattr(callee, "fx_synthetic", False) is True

    def new_expression(self) -> ast.expr:
        tok = self.advance()
        if self.at("."):
            return self.new_target(tok)
        nxt = self.peek()
        bare = nxt.value in HOST_CALLEES and self.peek(1).value not in (".", "[", "?.")
        if nxt.kind == "name" and nxt.value in EXECUTING_GLOBALS | {"Function"} and not bare:
            self.refuse(f"new {nxt.value}", tok.start, nxt.end)
        self.enter()
        callee = self.member_no_call()
        args: list[ast.expr] | None = None
        end = span_of(callee)[1]
        if self.at("("):
            args = self.arguments()
            end = self.tokens[self.pos - 1].end
        self.host_callee(callee)
        self.leave()
        return _mark(JsNew(callee=callee, args=args), tok.start, end)

    def new_target(self, new: Token) -> ast.expr:
        """``new.target``: MemberJunction calls its function, never constructs it, so it is
        undefined (in an arrow function too, which sees the enclosing function's)."""
        self.advance()  # '.'
        tok = self.peek()
        if tok.kind != "name" or tok.value != "target":
            raise self.unexpected(operand=True)  # V8 takes any token there: `new.=>` too
        if tok.escaped:
            raise self.error("'new.target' must not contain escaped characters", tok)
        self.advance()
        zero = _mark(ast.Constant(value=0), new.start, tok.end)
        node = _mark(JsVoid(operand=zero), new.start, tok.end)
        node.fx_new_target = True  # V8's call printer names it by its variable, .new.target
        return node

    def member_no_call(self) -> ast.expr:
        """The callee of ``new``: a member expression without calls (``new a.b[c]``)."""
        start = self.peek().start
        node = self.new_expression() if self.at_word("new") else self.primary()
        while True:
            if self.at("."):
                self.advance()
                name = self.property_name()
                node = ast.Attribute(value=node, attr=name.value, ctx=_LOAD)
            elif self.at("["):
                self.advance()
                key = self.computed_key()
                node = ast.Subscript(value=node, slice=key, ctx=_LOAD)
            elif self.at("?."):
                # reported at '?.', which V8 has not read: an argument list around it then
                # reports its own at the token before, which wins when it ends earlier
                chain = self.peek()
                before = self.tokens[self.pos - 1]
                if before.end < chain.start and self.in_arguments(self.pos):
                    raise self.error("missing ) after argument list", before)
                raise self.error("Invalid optional chain from new expression", chain)
            else:
                return node
            _mark(node, start, self.tokens[self.pos - 1].end)

    def property_name(self) -> Token:
        tok = self.peek()
        if tok.kind == "private":
            raise self.private(tok)
        if tok.kind != "name":
            raise self.unexpected(operand=True)
        self.advance()
        if tok.value in OBJECT_MODEL_KEYS:
            self.refuse(f"reading '{tok.value}' reaches Function", tok.start, tok.end)
        return tok

    def computed_key(self) -> ast.expr:
        self.enter()
        key = self.expression()
        self.leave()
        self.expect("]")
        folded = _fold_string(key)
        if folded is not None and folded in OBJECT_MODEL_KEYS:
            self.refuse(f"reading '{folded}' reaches Function", *span_of(key))
        return key

    def arguments(self) -> list[ast.expr]:
        self.expect("(")
        self.enter()
        args: list[ast.expr] = []
        compound = False  # an argument before was a compound assignment (`a += 1`)
        while not self.at(")"):
            if self.at("..."):
                tok = self.advance()
                value = self.assignment()
                args.append(_mark(JsSpread(value=value), tok.start, span_of(value)[1]))
            else:
                arg = self.assignment()
                if isinstance(arg, JsAssign) and not getattr(arg, "fx_paren", 0):
                    if compound and isinstance(arg.target, ast.List) and arg.op == "=":
                        # V8 (node 20) fails a destructuring assignment as an argument after
                        # a compound one (`f(a += 1, [b] = c)`), as it does no other
                        error = self.error("Invalid destructuring assignment target", self.peek())
                        error.v8_start = span_of(arg.target)[0]
                        raise error
                    compound = compound or arg.op != "="
                args.append(arg)
            if not self.at(","):
                break
            self.advance()
        self.leave()
        if self.at("=>") and not self.peek().nl_before:
            raise self.unexpected()  # "Malformed arrow function parameter list"
        if not self.at(")"):
            # V8 says so whatever stands there (another token, an illegal character), and
            # places it at the argument's last token (which decides which of two errors wins)
            error = self.error("missing ) after argument list", self.peek())
            error.v8_start = self.tokens[self.pos - 1].start
            error.peeked = True
            raise error
        self.advance()
        return args

    # --- arrow functions ---------------------------------------------------------------------

    def arrow_ahead(self) -> bool:
        tok = self.peek()
        if tok.kind == "name":  # an escaped name is a parameter too (`\u0078 => x`)
            if tok.value in RESERVED and not tok.escaped:
                return False  # `null => 1`: a literal, then a stray '=>'
            nxt = self.peek(1)
            return nxt.kind == "op" and nxt.value == "=>" and not nxt.nl_before
        if not self.at("("):
            return False
        close = self.closing(self.pos)
        if close is None:
            return False
        nxt = self.tokens[close + 1]  # the token list ends with eof
        return nxt.kind == "op" and nxt.value == "=>" and not nxt.nl_before

    def scanner_failure(self, tok: Token) -> JsSyntaxError:
        """The error V8 reports at a token its scanner failed on: its own, or, when it has
        none, the error of the token scanned after it (``lexer._resumes``). Reported there,
        past the failed token, it loses to the "missing ) after argument list" an argument
        list reports at the failed token, if that list is what the token ends (the one
        around the condition counts: MemberJunction calls ``Boolean(...)``)."""
        own: JsSyntaxError = tok.value
        after = own.lookahead
        if after is None or own.resume is None:
            return own
        index = self.tokens.index(tok)
        before = self.tokens[index - 1]
        past = own.resume < (after.error.start or 0)  # the next error starts past the token
        prefix = before.kind == "op" and before.value in ("++", "--")
        if index == self.update_operand and prefix and past:
            # the operand of a prefix '++'/'--': V8 then finds it no reference and says so,
            # placed at the failed token, before the error reported past it
            return self.error("Invalid left-hand side expression in prefix operation", tok)
        if self.in_arguments(index) and past:
            return self.error("missing ) after argument list", tok)
        return after

    def in_arguments(self, index: int) -> bool:
        """Whether the token at ``index`` stands directly in a call's arguments: no bracket
        open around it inside them, and no ``?`` whose ``:`` V8 would still expect. Where it
        follows an operand inside parentheses that are no call (``-(a 1e '\\u1')``), it is
        the token V8 takes for their ')': nothing more is read, and what encloses the
        parentheses decides."""
        depth = colons = 0
        prev = self.tokens[index - 1] if index > 0 else None
        postfix = (
            prev is not None
            and prev.kind == "op"
            and prev.value in ("++", "--")
            and not prev.nl_before
            and index > 1
            and _ends_operand(self.tokens[index - 2])
        )
        after_operand = prev is not None and (
            (_ends_operand(prev) and prev.value != "?.")
            or (prev.kind == "name" and prev.value in ("null", "true", "false"))
            or postfix
        )
        for k in range(index - 1, -1, -1):
            t = self.tokens[k]
            if t.kind != "op":
                continue
            if t.value in (")", "]", "}"):
                depth += 1
            elif t.value in ("(", "[", "{"):
                if depth == 0:
                    call = k > 0 and _ends_operand(self.tokens[k - 1])
                    # parentheses that are no call, or a computed member's brackets, take
                    # the failed token for their closing one
                    closes = (t.value == "(" and not call) or (t.value == "[" and call)
                    if closes and after_operand:
                        # only the innermost: an outer one takes the token after it
                        colons, after_operand = 0, False
                        continue
                    return t.value == "(" and call
                depth -= 1
            elif depth == 0 and t.value == ":":
                colons += 1
            elif depth == 0 and t.value == "?":
                if colons == 0:
                    return False
                colons -= 1
        return True

    def rest_failed(self, dots: Token, exc: JsSyntaxError, first: int) -> JsSyntaxError:
        """The error V8 reports when the binding after a rest parameter's '...' fails. V8
        reports its own errors as it meets them, stops its scanner, and then, the binding not
        being followed by ``) =>``, reports the '...' too; of two reports the earlier in the
        text stays, so '...' wins unless the binding's error starts right where it ends
        (``(... 1)`` is "Unexpected token '...'", ``(...1)`` "Unexpected number"). A pattern's
        invalid targets are only recorded, reported once ``) =>`` makes it a parameter."""
        if exc.error.message in _RECORDED:
            close = self.closing(first)
            after = self.tokens[close + 1 : close + 3] if close is not None else []
            if [t.value for t in after if t.kind == "op"] == [")", "=>"]:
                return exc
            return self.unexpected(dots)
        where = exc.v8_start if exc.v8_start is not None else (exc.error.start or 0)
        return self.unexpected(dots) if dots.end < where else exc

    def closing(self, opening: int) -> int | None:
        """The index of the token that closes the bracket at ``opening``, if the text has it."""
        depth = 0
        for index in range(opening, len(self.tokens)):
            t = self.tokens[index]
            if t.kind == "op" and t.value in ("(", "[", "{"):
                depth += 1
            elif t.kind == "op" and t.value in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    return index
        return None

    @staticmethod
    def peeked(error: JsSyntaxError) -> JsSyntaxError:
        """An error V8 reports on seeing the token it is placed at, without taking it (an
        '=>' after what is no parameter list): its scanner has read nothing past it."""
        error.peeked = True
        return error

    def stray_arrow(self, head: ast.expr, tok: Token) -> None:
        """``=>`` after an expression that was not read as an arrow's head (a line break
        before it, or a head that is no parameter list). V8 judges the head first: neither a
        name nor parenthesised is a malformed list; a parenthesised one must be a parameter
        list; only then does the line break end the arrow, and the token is left to what
        encloses it (``missing ) after argument list`` in a call)."""
        parenthesised = getattr(head, "fx_paren", False)
        last = _last_operand(head)
        if getattr(last, "fx_paren", False) and not getattr(last, "fx_rest_head", False):
            # the parenthesised operand before the '=>' is read as a parameter list first
            # (`1 + (1) => 1`), whatever comes after
            self.judge_head(last, tok)
        if not parenthesised and not isinstance(head, ast.Name):
            error = self.error("Malformed arrow function parameter list", tok)
            # V8 places it at the operand right before the '=>' (an octal before it wins,
            # one there loses: `08 + x => 1` is the octal's error, `08 => 1` the arrow's)
            error.v8_start = self.v8_position(head)
            raise self.peeked(error)

    def judge_head(self, head: ast.expr, tok: Token) -> None:
        """V8's error for a parenthesised ``head`` an '=>' (``tok``) makes a parameter list,
        if it is none (see ``_head_error``; then a name bound twice)."""
        items = head.values if isinstance(head, JsSequence) else [head]
        found = _head_error(items, own=not isinstance(head, JsSequence))
        if found is not None:
            error = self.error(found[0], tok)
            error.v8_start = span_of(found[1])[0]
            raise self.peeked(error)
        if not _parameters(head):
            raise self.peeked(self.error(_INVALID_TARGET, tok))
        twice = _duplicate(items)
        if twice is not None:
            message = "Duplicate parameter name not allowed in this context"
            raise self.peeked(self.error(message, tok_at(twice)))

    def v8_position(self, node: ast.expr) -> int:
        """Where V8 places an expression: a call at its callee's last token when that is a
        name, else at its '('; a member at its name after '.', or at its '['; anything else
        where it starts (``08(a) => 1`` and ``08[1] => 1`` are the octal's errors)."""
        start, _ = span_of(node)
        if getattr(node, "fx_paren", False):
            return start
        if isinstance(node, ast.BoolOp):
            if len(node.values) > 2:  # an n-ary chain: V8 places it at its first operand
                return self.v8_position(node.values[0])
            return self.token_after(span_of(node.values[0])[1], "", start)
        kind = _chain_kind(node)
        if kind is not None or isinstance(node, ast.Compare | JsBinary):
            left = node.left  # type: ignore[attr-defined]
            if kind is not None and _chain_kind(left) == kind and not getattr(left, "fx_paren", 0):
                # ``a + b + c`` is one n-ary operation to V8, placed where its first operand is
                while _chain_kind(left) == kind and not getattr(left, "fx_paren", 0):
                    left = left.left
                return self.v8_position(left)
            return self.token_after(span_of(left)[1], "", start)  # at its operator
        if isinstance(node, JsUpdate):
            if node.prefix:  # V8 places '++x' at the last token of its operand
                _, end = span_of(node)
                return max((int(t.start) for t in self.tokens if t.end <= end), default=start)
            return self.token_after(span_of(node.target)[1], "", start)
        if isinstance(node, ast.Call):
            inner = span_of(node.func)[1]
            before = [t for t in self.tokens if t.end <= inner and t.start >= start]
            if before and before[-1].kind == "name":
                return int(before[-1].start)
            return self.token_after(inner, "(", start)
        if isinstance(node, ast.Attribute):
            return self.token_after(span_of(node.value)[1], node.attr, start)
        if isinstance(node, ast.Subscript):
            return self.token_after(span_of(node.value)[1], "[", start)
        return start

    def token_after(self, at: int, value: str, default: int) -> int:
        """The start of the first token ``value`` (any, if empty) at or after ``at`` (``default``
        if none)."""
        for t in self.tokens:
            if t.start >= at and (not value or (t.value == value and t.kind != "str")):
                return int(t.start)
        return default

    def arrow(self) -> ast.expr:
        opening = self.pos
        try:
            return self._arrow()
        except JsSyntaxError as exc:
            if not exc.cover or not self.tokens[opening].value == "(":
                raise
            # V8 reads the parentheses as an expression first, and only then as parameters:
            # text that is no expression fails as such, an expression that is no parameter
            # list is an invalid target
            self.pos = opening
            self.advance()
            head = self.expression()
            self.expect(")")
            items = head.values if isinstance(head, JsSequence) else [head]
            found = _head_error(items)
            twice = _duplicate(items) if found is None else None
            if twice is not None:
                error = self.error(
                    "Duplicate parameter name not allowed in this context", tok_at(twice)
                )
                raise self.peeked(error) from None
            if found is None and exc.keep:
                # eval or arguments, judged after the list's elements, once the body is read
                if exc.error.message.startswith("Unexpected eval") and self.at("=>"):
                    self.advance()
                    raise self.after_body(exc) from None
                raise exc from None
            message, node = found or (_INVALID_TARGET, head)
            error = self.error(message, self.peek())
            # placed at the element (measured: it decides whether a strict-mode 08 before
            # it wins)
            error.v8_start = span_of(node)[0] if found else self.tokens[opening].start
            raise self.peeked(error) from None

    def _arrow(self, head_only: bool = False) -> ast.expr:
        """The arrow function ahead; ``head_only``: its parameter list, read up to its '=>'
        (left to what encloses it), as a parenthesised operand that is no reference."""
        start = self.peek().start
        names: list[Token] = []  # every name bound, in order (patterns' names included)
        slots: list[str] = []
        patterns: list[JsPattern | None] = []
        defaults: list[ast.expr | None] = []
        rest = False
        if self.at("("):
            self.advance()
            while not self.at(")"):
                if rest:
                    raise self.error("Rest parameter must be last formal parameter", self.peek())
                dots = self.advance() if self.at("...") else None
                tok = self.peek()
                first = self.pos
                pattern: JsPattern | None = None
                try:
                    if tok.kind == "op" and tok.value == "[":
                        pattern = self.binding_pattern(names)
                        slots.append(f"[{len(slots)}]")  # no source text spells it
                    elif tok.kind != "name":
                        if dots is not None:
                            # V8 reads a binding right after '...' (only a rest parameter may
                            # start so): what stands there instead is its error, no cover
                            raise self.no_expression(tok)
                        raise self.unexpected().as_cover()
                    else:
                        try:
                            self.check_binding(tok)
                        except JsSyntaxError as exc:
                            exc.cover = exc.cover and dots is None  # after '...': a binding
                            raise
                        names.append(self.advance())
                        slots.append(tok.value)
                except JsSyntaxError as exc:
                    if dots is None:
                        raise
                    raise self.rest_failed(dots, exc, first) from None
                patterns.append(pattern)
                default: ast.expr | None = None
                if self.at("=") and dots is None:
                    self.advance()
                    default = self.binding_default(names)
                elif self.at("="):
                    raise self.error("Rest parameter may not have a default initializer", tok)
                defaults.append(default)
                rest = dots is not None
                if self.at(","):
                    if rest:
                        # said on seeing the ',' (nothing past it read), placed at the binding
                        error = self.error(
                            "Rest parameter must be last formal parameter", self.peek()
                        )
                        error.v8_start = tok.start
                        error.taken = self.peek().start
                        raise error
                    self.advance()
                elif not self.at(")"):
                    raise self.unexpected().as_cover()
            self.advance()
        else:
            try:
                self.check_binding(self.peek())
            except JsSyntaxError as exc:
                name = self.advance()
                if not exc.keep or head_only or not self.at("=>"):
                    raise
                # eval or arguments: reported once the body is read, after any error there
                # that V8 places no later than the name's end (a private name right after
                # `arguments=>` is placed at the '=>')
                self.advance()
                raise self.after_body(exc, before=name.end) from None
            names.append(self.advance())
            slots.append(names[-1].value)
            patterns.append(None)
            defaults.append(None)
        self.expect("=>")
        seen: set[str] = set()
        for tok in names:
            if tok.value in seen:
                # judged on seeing the '=>', before anything past it is read
                error = self.error("Duplicate parameter name not allowed in this context", tok)
                error.taken = self.tokens[self.pos - 1].start
                raise error
            seen.add(tok.value)
        if head_only:
            self.pos -= 1
            head = _mark(ast.Constant(value=None), start, self.tokens[self.pos - 1].end)
            head.fx_paren = 1
            head.fx_rest_head = True  # a parameter list, whatever its node
            return head  # type: ignore[no-any-return]
        if self.at("{"):
            raise self.unexpected()
        self.params.append(frozenset(seen))
        try:
            body = self.assignment()
        finally:
            self.params.pop()
        self.octal_in(start, span_of(body)[1])
        node = JsArrow(body=body, defaults=defaults, rest=rest, patterns=patterns)
        node.params = tuple(slots)
        node.bound = tuple(t.value for t in names)
        return _mark(node, start, span_of(body)[1])

    def after_body(self, error: JsSyntaxError, before: int = -1) -> JsSyntaxError:
        """``error`` of an arrow's parameters (eval or arguments among them) as V8 reports
        it: once the body is read (the '=>' just taken), so its scanner has read that far
        (an octal in the body is the last one, after the error). An error of the body V8
        places at or before ``before`` stays, the later report ending no earlier."""
        try:
            error.taken = span_of(self.assignment())[1]
        except JsSyntaxError as exc:
            where = exc.v8_start if exc.v8_start is not None else (exc.error.start or 0)
            if where <= before:
                return exc
            error.taken = exc.error.end if exc.error.end is not None else exc.error.start
        return error

    def octal_in(self, start: int, end: int) -> None:
        """V8 checks an arrow function for strict-mode octal errors as it ends: the last one
        its scanner has read (up to the token after the body) fails there, when it lies
        inside the arrow, before any error the rest of the condition would give."""
        if not self.octals:
            return
        read_to = self.peek().end
        scanned = [o for o in self.octals if (o.error.start or 0) < read_to]
        if scanned:
            last = scanned[-1]
            if start <= (last.error.start or 0) and (last.error.end or 0) <= end:
                raise last

    def binding_default(self, names: list[Token]) -> ast.expr:
        """A parameter's or a pattern element's default: it sees the names bound before it."""
        self.params.append(frozenset(t.value for t in names))
        try:
            return self.assignment()
        finally:
            self.params.pop()

    def binding_pattern(self, names: list[Token]) -> JsPattern:
        """``[a, , [b] = c, ...d]`` as a parameter (braces are refused before parsing)."""
        start = self.advance().start  # '['
        elts: list[ast.expr] = []
        while not self.at("]"):
            if self.at(","):
                self.advance()
                elts.append(JsHole())
                continue
            dots = self.advance() if self.at("...") else None
            tok = self.peek()
            target: ast.expr
            if tok.kind == "op" and tok.value == "[":
                target = self.binding_pattern(names)
            elif tok.kind == "name":
                if tok.value in ("eval", "arguments"):
                    # recorded, as V8 reads the parentheses as an expression first: a
                    # syntax error after it wins (`([arguments k]) =>` fails at k)
                    raise self.error("Invalid destructuring assignment target", tok).as_cover()
                self.check_binding(tok)
                names.append(self.advance())
                target = ast.Name(id=tok.value, ctx=ast.Store())
                if self.at(".") or self.at("["):
                    # only once the parentheses read as an expression (`[k.,v]` does not)
                    raise self.error("Illegal property in declaration context", tok).as_cover(
                        keep=True
                    )
                if self.at("?.") or self.at("("):
                    # once the parentheses read as an expression (`[k ?. , v]` does not)
                    raise self.error("Invalid destructuring assignment target", tok).as_cover()
            else:
                # whatever expression it is, V8 names it an invalid target, once the
                # parentheses read as an expression (`[k, 1n v]` does not)
                raise self.error("Invalid destructuring assignment target", tok).as_cover()
            if dots is not None:
                # both recorded as the previous: `[...a = 1]` and `[...a, b]` are expressions
                if self.at("="):
                    raise self.error("Invalid destructuring assignment target", tok).as_cover()
                if not self.at("]"):
                    raise self.error("Rest element must be last element", dots).as_cover(keep=True)
                elts.append(JsSpread(value=target))
                break
            if self.at("="):
                self.advance()
                target = JsBindDefault(target=target, default=self.binding_default(names))
            elts.append(target)
            if self.at(","):
                self.advance()
            elif not self.at("]"):
                raise self.unexpected().as_cover()
        self.expect("]")
        return _mark(JsPattern(elts=elts), start, start + 1)

    def stop_in_function(self) -> JsSyntaxError:
        """The token where a function's head stops: where V8 reads no expression, its scanner
        gives a '/' (or '/=') alone, never a regular expression (``function */``)."""
        return self.no_expression(self.peek())

    def no_expression(self, tok: Token) -> JsSyntaxError:
        """``tok`` where V8 reads no expression (a function's head, a binding after '...'):
        a '/' there is a division sign alone (or '/='), never a regular expression."""
        text = self.text[tok.start : tok.end]
        regexp = tok.kind == "regexp" or (
            tok.kind == "illegal" and str(tok.value).startswith("Invalid regular expression")
        )
        if regexp and text.startswith("/"):
            return self.error(f"Unexpected token '{'/=' if text.startswith('/=') else '/'}'", tok)
        return self.unexpected(tok, operand=True)

    def function_expression(self) -> JsSyntaxError:
        """V8's error for ``function [*] [name] (params)``: its body's '{' can never follow
        (MemberJunction refuses braces), so the token where it stops is the error."""
        if self.at("*"):
            self.advance()
        tok = self.peek()
        if tok.kind == "name" and not (tok.value in RESERVED and not tok.escaped):
            self.check_binding(tok)
            self.advance()
        if not self.at("("):
            return self.stop_in_function()  # `function f => 1`: '=>' is a token here
        self.advance()
        names: list[Token] = []
        while not self.at(")"):
            dots = self.advance() if self.at("...") else None
            tok = self.peek()
            if tok.kind == "op" and tok.value == "[":
                self.binding_pattern(names)
            elif tok.kind == "name":
                try:
                    self.check_binding(tok)
                except JsSyntaxError as exc:
                    exc.cover = False
                    raise
                self.advance()
            else:
                return self.stop_in_function()
            if self.at("=") and dots is None:
                self.advance()
                self.binding_default(names)
            if dots is not None and not self.at(")"):
                return self.error("Rest parameter must be last formal parameter", self.peek())
            if not self.at(","):
                break
            self.advance()
        if not self.at(")"):
            return self.stop_in_function()
        self.advance()
        return self.stop_in_function()  # where the body's '{' should stand

    def check_binding(self, tok: Token) -> None:
        name = tok.value
        if name in ("eval", "arguments"):
            # in parentheses, once they read as an expression (`(arguments a)` does not)
            raise self.error("Unexpected eval or arguments in strict mode", tok).as_cover(keep=True)
        if tok.escaped and (name in STRICT_RESERVED or name in RESERVED):
            # V8 scans an escaped keyword as a token of its own, refused as soon as it is read
            raise self.error("Keyword must not contain escaped characters", tok)
        if name in STRICT_RESERVED:
            raise self.error("Unexpected strict mode reserved word", tok)
        if name in RESERVED:
            # in parentheses V8 reads an expression first: `(null, b) => 1` is one, and its
            # `null` no target
            raise self.error(f"Unexpected token '{name}'", tok).as_cover()

    # --- primaries ---------------------------------------------------------------------------

    def primary(self) -> ast.expr:
        tok = self.peek()
        if tok.kind in ("num", "str"):
            self.advance()
            return _mark(ast.Constant(value=tok.value), tok.start, tok.end)
        if tok.kind == "regexp":
            self.advance()
            try:
                return _mark(regex_literal(tok, self.text), tok.start, tok.end)
            except JsSyntaxError as exc:
                if exc.error.message == "Invalid regular expression flags":
                    self.flag_octals(tok)
                raise
        if tok.kind == "name":
            return self.identifier()
        if tok.kind == "op" and tok.value == "(":
            if self.arrow_ahead():
                # an arrow function where only a higher-precedence operand may stand: V8
                # reads the parentheses as an expression, then as parameters; an expression
                # that is no parameter list is an invalid target (`1 + (1) => 1`)
                malformed = self.error("Malformed arrow function parameter list", tok)
                start = self.pos
                if self.peek(1).kind == "op" and self.peek(1).value == ")":
                    return self._arrow(head_only=True)  # `()`: a list, and no expression
                try:
                    self.advance()
                    head = self.expression()
                    end = self.expect(")").end
                except JsSyntaxError as exc:
                    if not exc.cover and not exc.keep:
                        raise  # V8 reports it as it meets it, before the '=>'
                    self.pos = start
                    try:  # a list with a rest parameter is no expression, yet a list
                        return self._arrow(head_only=True)
                    except JsSyntaxError:
                        self.pos = start
                        raise malformed from None
                items = head.values if isinstance(head, JsSequence) else [head]
                found = _head_error(items)
                if found is not None:
                    error = self.error(found[0], self.peek())
                    error.v8_start = span_of(found[1])[0]
                    raise self.peeked(error)
                twice = _duplicate(items)
                if twice is not None:
                    raise self.peeked(
                        self.error(
                            "Duplicate parameter name not allowed in this context", tok_at(twice)
                        )
                    )
                # a parameter list where an operand stands: what encloses it fails (V8 checks
                # the operand of '++'/'--' as a reference first; anything else reaches the
                # '=>' as the end of an expression that is no parameter list, placed where
                # that expression is)
                set_span(head, tok.start, end)
                head.fx_paren = getattr(head, "fx_paren", 0) + 1  # type: ignore[attr-defined]
                return head
            after = self.peek(2)
            if self.peek(1).value == ")" and after.kind == "op" and after.value == "=>":
                # `()` then '=>' after a line break: still a parameter list to V8 (it looks
                # at the next token, not at the line), and the '=>' is left to what encloses it
                return self._arrow(head_only=True)
            self.advance()
            if self.at(")"):
                raise self.unexpected()
            self.enter()
            inner = self.expression()
            self.leave()
            end = self.expect(")").end
            # The span keeps the parentheses so that spans of enclosing nodes stay contiguous.
            set_span(inner, tok.start, end)
            # how many parentheses enclose it: ``((a))`` is no parameter list, ``(a)`` is
            inner.fx_paren = getattr(inner, "fx_paren", 0) + 1  # type: ignore[attr-defined]
            return inner
        if tok.kind == "op" and tok.value == "[":
            return self.array()
        if tok.kind == "op" and tok.value == "..." and self.pos > 0:
            before = self.tokens[self.pos - 1]
            after = self.peek(1)
            if before.kind == "op" and before.value in ("(", ",", "["):
                # where a list of expressions starts or goes on (parentheses, a computed key)
                # V8 reads '...' as a rest parameter's start: a token that starts no binding
                # after it is the error; a binding then a ',' is a rest that is not last
                binding = (
                    after.kind == "name" and not (after.value in RESERVED and not after.escaped)
                ) or (after.kind == "op" and after.value == "[")
                self.advance()
                first = self.pos
                try:
                    if not binding:
                        raise self.no_expression(after)
                    if after.value == "[":
                        target: ast.expr = self.binding_pattern([])
                    else:
                        target = _mark(ast.Name(id=after.value, ctx=_LOAD), after.start, after.end)
                        self.advance()
                except JsSyntaxError as exc:
                    raise self.rest_failed(tok, exc, first) from None
                if self.at("="):
                    # said on seeing the '=', placed at the binding before it
                    error = self.error(
                        "Rest parameter may not have a default initializer", self.peek()
                    )
                    error.v8_start = after.start
                    error.taken = self.tokens[self.pos - 1].end
                    raise error
                if self.at(","):
                    # said on seeing the ',' (nothing past it read), placed at the binding
                    error = self.error("Rest parameter must be last formal parameter", self.peek())
                    error.v8_start = after.start
                    raise self.peeked(error)
                nxt = self.peek(1)
                if before.value != "[" and self.at(")") and nxt.kind == "op" and nxt.value == "=>":
                    # a rest parameter closing a list an '=>' follows: V8 takes the list as it
                    # is and judges it as parameters at the '=>' (`(1, ...r) => r` fails at
                    # its 1 as an invalid target)
                    rest = _mark(JsSpread(value=target), tok.start, span_of(target)[1])
                    rest.fx_rest_param = True
                    return rest  # type: ignore[no-any-return]
                error = self.unexpected(tok)
                # said on seeing what follows the binding, not taking it: read up to it
                error.taken = self.tokens[self.pos - 1].end
                raise error
        raise self.unexpected(operand=True)

    def import_arguments(self) -> None:
        """``import(specifier[, options][,])``: no argument list, V8's own grammar (no spread,
        at most two, a ')' it takes as any other token)."""
        opening = self.advance()
        if self.at(")"):
            error = self.error("import() requires a specifier", self.peek())
            error.v8_start = opening.start  # placed at the '(', said on seeing the ')'
            error.peeked = True
            raise error
        self.enter()
        self.import_argument()
        if self.at(","):
            self.advance()
            if not self.at(")"):
                self.import_argument()
                if self.at(","):
                    self.advance()
        self.leave()
        if not self.at(")"):
            raise self.unexpected()
        self.advance()

    def flag_octals(self, tok: Token) -> None:
        """V8 stops reading a regular expression's flags at the first that is no flag or
        comes twice, and takes the literal before it reports it: the token it scans next
        starts there (`/a/07` reads the octal 07), and its octals are read."""
        text = self.text[tok.start : tok.end]
        at = text.rindex("/") + 1
        seen: set[str] = set()
        while at < len(text) and text[at] in FLAG_ORDER and text[at] not in seen:
            seen.add(text[at])
            at += 1
        if at < len(text):
            found = next_octals(self.text, tok.start + at)
            self.octals = sorted([*self.octals, *found], key=lambda o: o.error.start or 0)

    def import_argument(self) -> None:
        if self.at("..."):
            raise self.unexpected()  # no spread, and no rest parameter either
        self.assignment()

    def identifier(self) -> ast.expr:
        tok = self.advance()
        name: str = tok.value
        if tok.start == tok.end == 0 and name == "Boolean" and self.pos == 1:
            node = _mark(ast.Name(id=name, ctx=_LOAD), 0, 0)
            node.fx_synthetic = True
            return node  # type: ignore[no-any-return]
        if not tok.escaped:
            if name == "true" or name == "false" or name == "null":
                value = {"true": True, "false": False, "null": None}[name]
                return _mark(ast.Constant(value=value), tok.start, tok.end)
            if name == "import":
                if self.at("("):
                    self.refuse("import() loads and runs a module", tok.start, self.peek().end)
                    self.import_arguments()
                    return _mark(ast.Constant(value=None), tok.start, self.tokens[self.pos - 1].end)
                if self.at("."):
                    self.advance()
                    meta = self.peek()
                    if meta.kind == "name" and meta.value == "meta" and meta.escaped:
                        raise self.error("'import.meta' must not contain escaped characters", meta)
                    if meta.kind == "name" and meta.value == "meta":
                        raise self.error("Cannot use 'import.meta' outside a module", tok)
                    raise self.unexpected(meta)  # only `meta` may follow `import.`
                raise self.error("Cannot use import statement outside a module", tok)
            if name == "super":
                raise self.error("'super' keyword unexpected here", tok)
            if name == "function":
                raise self.function_expression()
            if name in RESERVED:
                raise self.unexpected(tok)
            if name in STRICT_RESERVED:
                raise self.error("Unexpected strict mode reserved word", tok)
        elif name in RESERVED or name in STRICT_RESERVED:
            raise self.error("Keyword must not contain escaped characters", tok)
        local = any(name in frame for frame in self.params)
        if not local:
            if name in EXECUTING_GLOBALS and name not in self.bound:
                what = HOST_REASONS.get(name, f"'{name}' reaches code execution or the host")
                message = f"{ENGINE} would execute this as code ({what})"
                entry = (name, message, tok.start, tok.end)
                self.result.host.append(entry)
                node = _mark(ast.Name(id=name, ctx=_LOAD), tok.start, tok.end)
                node.fx_host = entry  # type: ignore[attr-defined]
                return node  # type: ignore[no-any-return]
            if name in EXECUTING_GLOBALS or name not in GLOBALS:
                self.result.names[name] = None
        return _mark(ast.Name(id=name, ctx=_LOAD), tok.start, tok.end)

    def host_callee(self, callee: ast.expr) -> None:
        """A host global that is only called or constructed (``globalThis(1)``, ``new
        Promise(1)``) reaches nothing before the engine throws: its refusal is lifted and the
        evaluator decides from the arguments (``hostcalls``)."""
        entry = getattr(callee, "fx_host", None)
        if entry is None or not isinstance(callee, ast.Name) or callee.id not in HOST_CALLEES:
            return
        self.result.host[:] = [e for e in self.result.host if e is not entry]
        callee.fx_host_call = True  # type: ignore[attr-defined]

    def array(self) -> ast.expr:
        start = self.advance().start
        self.enter()
        items: list[ast.expr] = []
        while not self.at("]"):
            if self.at(","):
                tok = self.advance()
                items.append(_mark(JsHole(), tok.start, tok.start))
                continue
            spread = None
            if self.at("..."):
                tok = self.advance()
                value = self.assignment()
                spread = _mark(JsSpread(value=value), tok.start, span_of(value)[1])
                items.append(spread)
            else:
                items.append(self.assignment())
            if not self.at(","):
                break
            if spread is not None:
                spread.fx_comma = self.peek()  # type: ignore[attr-defined]  # a rest not last
            self.advance()
        end = self.expect("]").end
        self.leave()
        return _mark(ast.List(elts=items, ctx=_LOAD), start, end)


def regex_literal(tok: Token, text: str) -> JsRegexLiteral:
    """A regular expression literal, checked as V8 checks it when it compiles the function
    (an invalid pattern or flags is an early SyntaxError of the whole condition)."""
    source, flags = literal(tok.value)
    try:
        validate(source, flags, literal=True)
    except RegExpSyntaxError as exc:
        error = JsSyntaxError(str(exc), tok.start, min(tok.end, len(text)))
        if str(exc) == "Invalid regular expression flags":
            # V8 refuses the flags as it reads them, before it scans the token after them
            # (a pattern's error comes once the literal is taken, that token scanned)
            error.taken = tok.start
        raise error from None
    return JsRegexLiteral(source, flags)


def parse(text: str, bound: frozenset[str] = frozenset()) -> ParseResult:
    """Parse ``text`` (already past MemberJunction's pre-checks); raises ``ExpressionError``.

    ``bound``: host-global names the scope provides (``{"globalThis": 3}``), read as scope
    values; a refusal that only names host globals carries them (``host_names``) so that the
    caller can parse again with the scope's names bound."""
    try:
        with deep_recursion(text.count("(") + text.count("[") + text.count("!") + text.count("-")):
            result = Parser(text, bound).parse()
    except RecursionError:
        raise ExpressionError("Expression is nested too deeply", 0, len(text)) from None
    refusals = sorted(
        [*result.security, *((m, a, b) for _, m, a, b in result.host)], key=lambda r: r[1]
    )
    if refusals:
        message, start, end = refusals[0]
        refusal = SecurityRefusal(message, start, end)
        if not result.security:
            refusal.host_names = frozenset(name for name, *_ in result.host)
        raise refusal
    if result.unpredicted:
        message, start, end = result.unpredicted[0]
        raise Unpredicted(message, start, end)
    return result


def _chain_kind(node: ast.expr) -> Any:
    """The operator of a binary operation V8 may collapse into one n-ary operation (any but
    a comparison, ``in`` and ``instanceof``), or None."""
    if isinstance(node, ast.BinOp):
        return type(node.op)
    if isinstance(node, JsBinary) and node.op == ">>>":
        return ">>>"
    if isinstance(node, JsCoalesce):
        return "??"
    return None


def _last_operand(node: ast.expr) -> ast.expr:
    """The operand a binary or logical expression ends with (its last, recursively):
    ``x`` of ``08 != x``, the parenthesised ``(08 != x)`` of ``1 + (08 != x)``."""
    while not getattr(node, "fx_paren", False):
        if isinstance(node, ast.BinOp):
            node = node.right
        elif isinstance(node, ast.Compare):
            node = node.comparators[-1]
        elif isinstance(node, ast.BoolOp):
            node = node.values[-1]
        else:
            break
    return node
