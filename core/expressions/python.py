"""Plain Python conditions over JSON data (the ``python`` dialect).

Python's own parser builds the tree; an allowlist of node types keeps it to expressions
(no lambdas, comprehensions, generators, f-strings, walrus or unpacking). Attribute access on a
JSON object reads its key (``payload.status`` is ``payload['status']``); on other values only a
small table of non-mutating methods is reachable, so ``format``, frames, dunders and mutation are
out of reach by construction rather than by pattern.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, ClassVar, Final

from core.expressions.sandbox import (
    MAX_STRING_LENGTH,
    PY_OPERATORS,
    Compiled,
    ExpressionError,
    SandboxError,
    SandboxEval,
    check_text,
    set_span,
    span_of,
    validate,
)


class PyMethod:
    """A bound, allowlisted method: the only kind of value a call may target besides functions."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn: Callable[..., Any]) -> None:
        self.name = name
        self.fn = fn

    def __repr__(self) -> str:
        return f"<method {self.name}>"


def _safe_replace(s: str, old: str, new: str, count: int = -1) -> str:
    if not (isinstance(old, str) and isinstance(new, str)):
        raise TypeError("replace() arguments must be str")
    hits = s.count(old) if old else len(s) + 1
    if count >= 0:
        hits = min(hits, count)
    if len(s) + hits * (len(new) - len(old)) > MAX_STRING_LENGTH:
        raise SandboxError("The replaced string is too large (refused to protect the evaluator)")
    return s.replace(old, new, count)


def _safe_join(sep: str, items: Iterable[Any]) -> str:
    parts = list(items)
    if any(not isinstance(p, str) for p in parts):
        raise TypeError("join() takes an iterable of str")
    if sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0) > MAX_STRING_LENGTH:
        raise SandboxError("The joined string is too large (refused to protect the evaluator)")
    return sep.join(parts)


def _safe_sum(items: Iterable[Any], start: Any = 0) -> Any:
    # sum() with a list or str start is quadratic concatenation; keep it to numbers.
    values = list(items)
    total = start
    for item in [start, *values]:
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise TypeError("sum() adds numbers only")
    for item in values:
        total += item
    return total


_STR_METHODS: Final[dict[str, Callable[..., Any]]] = {
    name: getattr(str, name)
    for name in (
        "lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "split",
        "rsplit", "splitlines", "count", "find", "rfind", "index", "rindex", "isdigit",
        "isalpha", "isalnum", "isspace", "islower", "isupper", "isnumeric", "isdecimal",
        "title", "capitalize", "casefold", "removeprefix", "removesuffix",
    )
} | {"replace": _safe_replace, "join": _safe_join}  # fmt: skip
_SEQ_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "index": lambda seq, *a: seq.index(*a),
    "count": lambda seq, x: seq.count(x),
}
_DICT_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "get": lambda d, key, default=None: d.get(key, default),
    "keys": lambda d: list(d.keys()),
    "values": lambda d: list(d.values()),
    "items": lambda d: [tuple(kv) for kv in d.items()],
}
_TYPE_METHODS: Final[dict[type, dict[str, Callable[..., Any]]]] = {
    str: _STR_METHODS,
    list: _SEQ_METHODS,
    tuple: _SEQ_METHODS,
}

FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {
    "len": len,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": _safe_sum,
    "round": round,
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "any": any,
    "all": all,
    "sorted": sorted,
    "list": list,
    "tuple": tuple,
}


def _type_name(value: Any) -> str:
    return "None" if value is None else type(value).__name__


class PyEval(SandboxEval):
    """Python semantics; every attribute goes through the key/method tables above."""

    OPERATORS: ClassVar = PY_OPERATORS
    FUNCTIONS: ClassVar = FUNCTIONS

    def handlers(self) -> dict[type, Any]:
        return {
            ast.Constant: self._eval_constant,
            ast.Name: self._eval_name,
            ast.Attribute: self._eval_attribute,
            ast.Subscript: self._eval_subscript,
            ast.Slice: self._eval_slice,
            ast.Call: self._eval_call,
            ast.UnaryOp: self._eval_unaryop,
            ast.BinOp: self._eval_binop,
            ast.BoolOp: self._eval_boolop,
            ast.Compare: self._eval_compare,
            ast.IfExp: self._eval_ifexp,
            ast.List: self._eval_list,
            ast.Tuple: self._eval_tuple,
            ast.Dict: self._eval_dict,
            ast.Set: self._eval_set,
        }

    @staticmethod
    def missing(name: str) -> str:
        return f"name '{name}' is not defined"

    def _source(self, node: ast.AST) -> str:
        start, end = span_of(node)
        return self.expr[start:end]

    def _eval_name(self, node: ast.Name) -> Any:
        try:
            return self.names[node.id]
        except KeyError:
            raise SandboxError(self.missing(node.id)) from None

    def _eval_attribute(self, node: ast.Attribute) -> Any:
        obj = self._eval(node.value)
        attr = node.attr
        if isinstance(obj, Mapping):
            if attr in obj:
                return obj[attr]
            method = _DICT_METHODS.get(attr)
            if method is not None:
                return PyMethod(attr, partial(method, obj))
            raise SandboxError(f"{self._source(node.value)} has no key '{attr}'")
        methods = _TYPE_METHODS.get(type(obj))
        if methods is not None and attr in methods:
            return PyMethod(attr, partial(methods[attr], obj))
        raise SandboxError(f"'{attr}' is not available on a {_type_name(obj)} value")

    def _eval_subscript(self, node: ast.Subscript) -> Any:
        obj = self._eval(node.value)
        key = self._eval(node.slice)
        if not isinstance(obj, (Mapping, list, tuple, str)):
            raise SandboxError(f"a {_type_name(obj)} value cannot be indexed")
        try:
            return obj[key]
        except KeyError:
            # Quote the key only when it is written in the expression (it may be a secret).
            shown = f" {key!r}" if isinstance(node.slice, ast.Constant) else ""
            raise SandboxError(f"key{shown} not found in {self._source(node.value)}") from None
        except IndexError:
            raise SandboxError(f"index out of range in {self._source(node)}") from None

    def _eval_call(self, node: ast.Call) -> Any:
        func = node.func
        if type(func) is ast.Name:
            fn = self.functions[func.id]  # validated at compile time
        else:
            method = self._eval(func)
            if type(method) is not PyMethod:
                raise SandboxError(f"{self._source(func)} is not callable")
            fn = method.fn
        args = [self._eval(arg) for arg in node.args]
        kwargs = {kw.arg: self._eval(kw.value) for kw in node.keywords if kw.arg}
        return fn(*args, **kwargs)

    def _eval_dict(self, node: ast.Dict) -> dict[Any, Any]:
        return {
            self._eval(k): self._eval(v) for k, v in zip(node.keys, node.values, strict=True) if k
        }

    def _eval_set(self, node: ast.Set) -> set[Any]:
        return {self._eval(item) for item in node.elts}


# --- spans -----------------------------------------------------------------------------------


def add_spans(tree: ast.AST, source: str, remap: list[int] | None = None) -> None:
    """Give every node ``fx_start``/``fx_end``: character offsets into the original text.

    Python reports UTF-8 byte columns per line; ``remap`` maps offsets in a rewritten source
    (the ag2 front end) back to the text the author wrote.
    """
    starts = [0]
    for i, c in enumerate(source):
        if c == "\n":
            starts.append(i + 1)
    lines = source.split("\n")
    ascii_only = source.isascii()

    def offset(line: int, col: int) -> int:
        if ascii_only:
            return starts[line - 1] + col
        encoded = lines[line - 1].encode("utf-8")
        return starts[line - 1] + len(encoded[:col].decode("utf-8", "ignore"))

    for node in ast.walk(tree):
        end_line = getattr(node, "end_lineno", None)
        if end_line is None:
            continue
        start = offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = offset(end_line, node.end_col_offset)  # type: ignore[attr-defined]
        if remap is not None:
            start, end = remap[start], (remap[end - 1] + 1 if end > start else remap[start])
        set_span(node, start, end)


def parse_python(source: str, text: str, remap: list[int] | None = None) -> ast.expr:
    """``ast.parse`` in eval mode, with errors turned into ExpressionErrors with spans."""
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError as exc:
        start = end = None
        if exc.lineno is not None and exc.offset is not None:
            line_starts = [0] + [i + 1 for i, c in enumerate(source) if c == "\n"]
            base = line_starts[min(exc.lineno, len(line_starts)) - 1]
            start = min(base + max(exc.offset - 1, 0), max(len(source) - 1, 0))
            end = start + 1
            if exc.end_offset and exc.end_lineno == exc.lineno and exc.end_offset > exc.offset:
                end = min(base + exc.end_offset - 1, len(source))
            if remap is not None:
                start, end = remap[min(start, len(remap) - 1)], remap[min(end, len(remap)) - 1] + 1
        raise ExpressionError(f"Syntax error: {exc.msg}", start, end) from None
    except (RecursionError, MemoryError):
        raise ExpressionError("Expression is nested too deeply", 0, len(text)) from None
    except ValueError as exc:  # e.g. null bytes
        raise ExpressionError(f"Syntax error: {exc}", 0, len(text)) from None
    add_spans(tree, source, remap)
    return tree


# --- compile ---------------------------------------------------------------------------------

ALLOWED_NODES: Final[frozenset[type[ast.AST]]] = frozenset(
    {
        ast.Constant, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Slice,
        ast.Call, ast.keyword,
        ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.Invert,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
        ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor,
        ast.BoolOp, ast.And, ast.Or,
        ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
        ast.Is, ast.IsNot,
        ast.IfExp, ast.List, ast.Tuple, ast.Dict, ast.Set,
    }
)  # fmt: skip
_CONSTANT_TYPES: Final = (str, int, float, bool, type(None))
# Reachable through no table anyway; refused by name so the message is clear and early.
_REFUSED_ATTRS: Final = frozenset(
    {"format", "format_map", "mro", "tb_frame", "gi_frame", "ag_frame", "cr_frame", "f_globals",
     "f_locals", "f_builtins", "gi_code", "func_globals", "exec", "eval"}
)  # fmt: skip


def _check(node: ast.AST) -> None:
    span = span_of(node)
    if isinstance(node, ast.Name) and "__" in node.id:
        raise ExpressionError(f"Names containing '__' are not allowed ({node.id})", *span)
    if isinstance(node, ast.Attribute) and (
        node.attr.startswith("_") or node.attr in _REFUSED_ATTRS
    ):
        raise ExpressionError(f"Access to '.{node.attr}' is not allowed", *span)
    if isinstance(node, ast.Constant) and not isinstance(node.value, _CONSTANT_TYPES):
        raise ExpressionError(f"{type(node.value).__name__} literals are not allowed", *span)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            if func.id not in FUNCTIONS:
                available = ", ".join(sorted(FUNCTIONS))
                raise ExpressionError(
                    f"Function '{func.id}' is not available (available: {available})",
                    *span_of(func),
                )
        elif not isinstance(func, ast.Attribute):
            raise ExpressionError("Only functions and methods can be called", *span_of(func))
    if isinstance(node, ast.keyword) and node.arg is None:
        raise ExpressionError("'**' arguments are not allowed", *span)
    if isinstance(node, ast.Dict) and any(k is None for k in node.keys):
        raise ExpressionError("'**' unpacking is not allowed", *span)


def free_names(tree: ast.AST) -> tuple[frozenset[str], tuple[tuple[str, int, int], ...]]:
    """Names read from the scope (function names in call position excluded), with spans."""
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    found: dict[str, tuple[str, int, int]] = {}
    for node in sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in callees),
        key=lambda n: span_of(n)[0],
    ):
        found.setdefault(node.id, (node.id, *span_of(node)))
    return frozenset(found), tuple(found.values())


def compile_python(text: str) -> Compiled:
    check_text(text)
    # Leading indentation is harmless in a one-line condition but a SyntaxError to Python.
    stripped = text.lstrip()
    lead = len(text) - len(stripped)
    remap = list(range(lead, len(text) + 1)) if lead else None
    tree = parse_python(stripped, text, remap)
    validate(tree, ALLOWED_NODES, _check)
    names, required = free_names(tree)
    return Compiled(
        text=text,
        dialect="python",
        tree=tree,
        names=names,
        required=required,
        evaluator=PyEval,
        truthy=bool,
        builtins=frozenset(),
        missing=PyEval.missing,
    )
