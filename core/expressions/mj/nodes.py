"""The tree of a MemberJunction condition: Python ``ast`` nodes where their shape fits
JavaScript, ``Js*`` nodes where JavaScript differs. Every node carries ``fx_start``/``fx_end``
(offsets into the condition text) for error spans and the explain tree."""

from __future__ import annotations

import ast


class JsChain(ast.expr):
    """An optional chain: a ``ShortCircuit`` inside makes the whole chain undefined."""

    _fields = ("value",)

    def __init__(self, value: ast.expr) -> None:
        super().__init__()
        self.value = value


class JsOptional(ast.expr):
    """The object of ``?.``: stops the chain when it is null or undefined."""

    _fields = ("value",)

    def __init__(self, value: ast.expr) -> None:
        super().__init__()
        self.value = value


class JsCoalesce(ast.expr):
    """``left ?? right``."""

    _fields = ("left", "right")

    def __init__(self, left: ast.expr, right: ast.expr) -> None:
        super().__init__()
        self.left, self.right = left, right


class JsBinary(ast.expr):
    """Binary operators Python's ``ast`` has no node for: ``>>>`` and ``instanceof``."""

    _fields = ("left", "right")

    def __init__(self, left: ast.expr, right: ast.expr, op: str = ">>>") -> None:
        super().__init__()
        self.left, self.right, self.op = left, right, op


class JsTypeof(ast.expr):
    """``typeof operand`` (an undeclared name gives 'undefined', not an error)."""

    _fields = ("operand",)

    def __init__(self, operand: ast.expr) -> None:
        super().__init__()
        self.operand = operand


class JsVoid(ast.expr):
    """``void operand``."""

    _fields = ("operand",)

    def __init__(self, operand: ast.expr) -> None:
        super().__init__()
        self.operand = operand


class JsDelete(ast.expr):
    """``delete obj.key`` (on MemberJunction's copy of the context)."""

    _fields = ("operand",)

    def __init__(self, operand: ast.expr) -> None:
        super().__init__()
        self.operand = operand


class JsArrow(ast.expr):
    """``(params) => body``; ``defaults`` holds each parameter's default (or None), ``rest``
    says the last parameter is ``...rest``."""

    _fields = ("body", "defaults", "patterns")

    def __init__(
        self,
        body: ast.expr,
        params: tuple[str, ...] = (),
        defaults: list[ast.expr | None] | None = None,
        rest: bool = False,
        patterns: list[JsPattern | None] | None = None,
    ) -> None:
        super().__init__()
        self.body, self.params = body, params
        self.defaults: list[ast.expr | None] = defaults or [None] * len(params)
        self.rest = rest
        # a destructured parameter's pattern (its slot in ``params`` is a name no source
        # text can spell); ``bound`` is every name the patterns bind
        self.patterns: list[JsPattern | None] = patterns or [None] * len(params)
        self.bound: tuple[str, ...] = ()


class JsPattern(ast.expr):
    """An array binding pattern (``[a, , [b, c] = d, ...e]``): each element is a JsHole, an
    ``ast.Name`` target, a nested JsPattern, a JsBindDefault, or a JsSpread (the rest)."""

    _fields = ("elts",)

    def __init__(self, elts: list[ast.expr]) -> None:
        super().__init__()
        self.elts = elts


class JsBindDefault(ast.expr):
    """``target = default`` inside a binding pattern."""

    _fields = ("target", "default")

    def __init__(self, target: ast.expr, default: ast.expr) -> None:
        super().__init__()
        self.target, self.default = target, default


class JsAssign(ast.expr):
    """``target op value`` for ``=``, ``+=``... and ``&&=``, ``||=``, ``??=``."""

    _fields = ("target", "value")

    def __init__(self, target: ast.expr, value: ast.expr, op: str = "=") -> None:
        super().__init__()
        self.target, self.value, self.op = target, value, op


class JsUpdate(ast.expr):
    """``++x``, ``x--``..."""

    _fields = ("target",)

    def __init__(self, target: ast.expr, op: str = "++", prefix: bool = True) -> None:
        super().__init__()
        self.target, self.op, self.prefix = target, op, prefix


class JsSequence(ast.expr):
    """``a, b``: evaluates both, the value is the last."""

    _fields = ("values",)

    def __init__(self, values: list[ast.expr]) -> None:
        super().__init__()
        self.values = values


class JsSpread(ast.expr):
    """``...items`` in a call or an array literal."""

    _fields = ("value",)

    def __init__(self, value: ast.expr) -> None:
        super().__init__()
        self.value = value


class JsHole(ast.expr):
    """An elided array element (``[, 1]``)."""

    _fields = ()


class JsRegexLiteral(ast.expr):
    """``/source/flags``: a new RegExp object each time it is evaluated."""

    _fields = ()

    def __init__(self, source: str = "", flags: str = "") -> None:
        super().__init__()
        self.source, self.flags = source, flags


class JsNew(ast.expr):
    """``new callee(args)`` (``args`` is None when written without parentheses)."""

    _fields = ("callee", "args")

    def __init__(self, callee: ast.expr, args: list[ast.expr] | None = None) -> None:
        super().__init__()
        self.callee, self.args = callee, args or []


JS_NODES: tuple[type[ast.expr], ...] = (
    JsChain, JsOptional, JsCoalesce, JsTypeof, JsVoid, JsDelete, JsArrow, JsAssign, JsUpdate,
    JsSequence, JsSpread, JsHole, JsBinary, JsRegexLiteral, JsNew,
)  # fmt: skip
