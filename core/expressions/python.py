"""Plain Python conditions over JSON data (the ``python`` dialect).

Python's own parser builds the tree; an allowlist of node types keeps it to expressions
(no lambdas, comprehensions, generators, f-strings, walrus or unpacking). Attribute access on a
JSON object reads its key (``payload.status`` is ``payload['status']``); on other values only a
small table of non-mutating methods is reachable, so ``format``, frames, dunders and mutation are
out of reach by construction rather than by pattern.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sized
from contextlib import suppress
from functools import partial
from typing import Any, ClassVar, Final

from flowctx_core.expressions.budget import charge, check_items, deep_size
from flowctx_core.expressions.sandbox import (
    MAX_STRING_LENGTH,
    PY_OPERATORS,
    Compiled,
    ExpressionError,
    SandboxError,
    SandboxEval,
    check_text,
    merge_constants,
    name_error,
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
    size = len(s) + hits * (len(new) - len(old))
    if size > MAX_STRING_LENGTH:
        raise SandboxError("The replaced string is too large (refused to protect the evaluator)")
    charge(size)
    return s.replace(old, new, count)


def _safe_join(sep: str, items: Iterable[Any]) -> str:
    if isinstance(items, Sized):
        charge(len(items))
    parts = list(items)
    if any(not isinstance(p, str) for p in parts):
        raise TypeError("join() takes an iterable of str")
    size = sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0)
    if size > MAX_STRING_LENGTH:
        raise SandboxError("The joined string is too large (refused to protect the evaluator)")
    charge(size)
    return sep.join(parts)


def _safe_sum(items: Iterable[Any], start: Any = 0) -> Any:
    # sum() with a list or str start is quadratic concatenation; keep it to numbers.
    if isinstance(items, Sized):
        charge(2 * len(items))  # an interpreted loop over the items
    values = list(items)
    total = start
    for item in [start, *values]:
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise TypeError("sum() adds numbers only")
    for item in values:
        total += item
    return total


def _charged_text(fn: Callable[..., Any], shift: int) -> Callable[..., Any]:
    """A str method charged for the characters it scans or copies (a C loop: 2**shift
    characters a step; splits build an object per part, so they charge every character)."""

    def method(s: str, *args: Any, **kwargs: Any) -> Any:
        charge((len(s) >> shift) + 1)
        return fn(s, *args, **kwargs)

    return method


_SPLITS: Final = frozenset({"split", "rsplit", "splitlines"})
_SCANS: Final = frozenset({"startswith", "endswith", "count", "find", "rfind", "index", "rindex"})
_STR_METHODS: Final[dict[str, Callable[..., Any]]] = {
    name: _charged_text(getattr(str, name), 0 if name in _SPLITS else 3 if name in _SCANS else 2)
    for name in (
        "lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "split",
        "rsplit", "splitlines", "count", "find", "rfind", "index", "rindex", "isdigit",
        "isalpha", "isalnum", "isspace", "islower", "isupper", "isnumeric", "isdecimal",
        "title", "capitalize", "casefold", "removeprefix", "removesuffix",
    )
} | {"replace": _safe_replace, "join": _safe_join}  # fmt: skip


def _seq_index(seq: list[Any] | tuple[Any, ...], *args: Any) -> int:
    charge(deep_size(seq))  # each item is compared, as deep as it goes
    return seq.index(*args)


def _seq_count(seq: list[Any] | tuple[Any, ...], x: Any) -> int:
    charge(deep_size(seq))
    return seq.count(x)


def _listed(d: Mapping[Any, Any], what: str) -> list[Any]:
    charge(len(d))
    if what == "keys":
        return list(d.keys())
    if what == "values":
        return list(d.values())
    return [tuple(kv) for kv in d.items()]


_SEQ_METHODS: Final[dict[str, Callable[..., Any]]] = {"index": _seq_index, "count": _seq_count}
_DICT_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "get": lambda d, key, default=None: d.get(key, default),
    "keys": lambda d: _listed(d, "keys"),
    "values": lambda d: _listed(d, "values"),
    "items": lambda d: _listed(d, "items"),
}


def _length(x: Any) -> int:
    return len(x) if isinstance(x, (str, list, tuple, dict, set, frozenset)) else 0


def _safe_str(*args: Any, **kwargs: Any) -> str:
    if args and isinstance(args[0], (list, tuple, dict, set, frozenset)):
        # the text of a container is at least one character per item it holds, deep
        size = deep_size(args[0])
        check_items(size, "the text str() builds")
        charge(size)
    return str(*args, **kwargs)


def _copied(fn: Callable[..., Any]) -> Callable[..., Any]:
    def copy(*args: Any, **kwargs: Any) -> Any:
        if args:
            charge(_length(args[0]))
        return fn(*args, **kwargs)

    copy.__name__ = fn.__name__
    return copy


def _safe_sorted(*args: Any, **kwargs: Any) -> list[Any]:
    # each item meets about log2(n) others, and each comparison goes as deep as the items
    if args:
        n = _length(args[0])
        charge(deep_size(args[0]) * max(1, n.bit_length()))
    return sorted(*args, **kwargs)


def _extreme(fn: Callable[..., Any]) -> Callable[..., Any]:
    def pick(*args: Any, **kwargs: Any) -> Any:
        # every item is compared once with the best so far
        if args:
            charge(2 * deep_size(args[0] if len(args) == 1 else args))
        return fn(*args, **kwargs)

    pick.__name__ = fn.__name__
    return pick


_LOG10_2: Final = 0.30103


def _safe_round(*args: Any, **kwargs: Any) -> Any:
    number: Any = args[0] if args else kwargs.get("number")
    ndigits: Any = args[1] if len(args) > 1 else kwargs.get("ndigits")
    if (
        type(number) in (int, bool)
        and type(ndigits) in (int, bool)
        and ndigits < 0
        and -ndigits > (number.bit_length() + 1) * _LOG10_2 + 1
        and len(args) + len(kwargs) == 2
    ):
        # int.__round__ computes 10**-ndigits first: round(1, -10**8) would take minutes.
        # Past the number's own digits 10**k >= 2*|number|, so Python's answer is 0.
        return 0
    return round(*args, **kwargs)


def _parsed(fn: Callable[..., Any]) -> Callable[..., Any]:
    def parse(*args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], str):
            charge((len(args[0]) >> 3) + 1)
        return fn(*args, **kwargs)

    parse.__name__ = fn.__name__
    return parse


_TYPE_METHODS: Final[dict[type, dict[str, Callable[..., Any]]]] = {
    str: _STR_METHODS,
    list: _SEQ_METHODS,
    tuple: _SEQ_METHODS,
}

# Every function that traverses or copies a value is charged for it first (budget.py).
FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {
    "len": len,
    "abs": abs,
    "min": _extreme(min),
    "max": _extreme(max),
    "sum": _safe_sum,
    "round": _safe_round,
    "int": _parsed(int),
    "float": _parsed(float),
    "str": _safe_str,
    "bool": bool,
    "any": _copied(any),
    "all": _copied(all),
    "sorted": _safe_sorted,
    "list": _copied(list),
    "tuple": _copied(tuple),
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
        return name_error(name)

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
        if type(key) is slice and not isinstance(obj, Mapping):
            with suppress(TypeError):  # a bad slice: Python's own error follows
                charge(len(range(*key.indices(len(obj)))))  # a slice copies its items
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


_LINE_BREAK: Final = re.compile(r"\r\n?|\n")


def line_starts(source: str) -> list[int]:
    """Where each line Python numbers begins: its tokenizer ends a line at \\n, \\r\\n and a
    lone \\r alike (a text with a carriage return has more lines than its \\n say)."""
    return [0, *(m.end() for m in _LINE_BREAK.finditer(source))]


def add_spans(tree: ast.AST, source: str, remap: list[int] | None = None) -> None:
    """Give every node ``fx_start``/``fx_end``: character offsets into the original text.

    Python reports UTF-8 byte columns per line; ``remap`` maps offsets in a rewritten source
    (the ag2 front end) back to the text the author wrote.
    """
    starts = line_starts(source)
    lines = [source[a:b] for a, b in zip(starts, [*starts[1:], len(source)], strict=True)]
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
        if exc.offset == 0:
            # Python's offset 0 in eval mode is the end of the input ('x >', 'a and'): point
            # there, not at the first character
            start = end = len(text.rstrip())
        elif exc.lineno is not None and exc.offset is not None:
            starts = line_starts(source)
            base = starts[min(exc.lineno, len(starts)) - 1]
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
    merge_constants(tree)  # `1000 is 1000` is True under eval, as CPython merges constants
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
