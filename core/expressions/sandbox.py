"""The sandbox every dialect runs in: an AST allowlist, resource limits and simpleeval.

Each front end (``mj``, ``ag2``, ``python``) turns text into a Python ``ast`` tree whose nodes
carry ``fx_start``/``fx_end`` (character offsets into the original text). ``validate`` walks the
tree against an explicit allowlist of node types, so anything the grammar does not name is
refused before evaluation. Evaluation is simpleeval's dispatch over the cached tree
(``SimpleEval._eval``), with dialect-specific handlers; one evaluator per thread because
simpleeval keeps per-call state on the instance.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import math
import operator as op
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Final

import simpleeval  # type: ignore[import-untyped]

from flowctx_core.base.record import Record
from flowctx_core.expressions import budget
from flowctx_core.expressions.budget import charge, check_items, deep_size
from flowctx_core.expressions.provenance import Flow

MAX_LENGTH: Final = 1000  # characters of expression text
MAX_DEPTH: Final = 100  # AST levels; keeps every recursive walk far from Python's stack limit
MAX_STRING_LENGTH: Final = 100_000  # longest string/list an operator may build
MAX_INT_BITS: Final = 10_000  # largest integer ** or * may build (2**10000 is ~3000 digits)
MAX_CALLBACKS: Final = 5_000  # arrow calls per evaluation: keeps nested map/filter in ms


@contextlib.contextmanager
def deep_recursion(depth: int) -> Iterator[None]:
    """Room on the interpreter's stack for a text nested ``depth`` deep: V8 parses and runs
    any nesting 1000 characters can write, and so must flowctx. Shallow texts (nearly all)
    leave the limit alone; pure-Python recursion does not grow the C stack in 3.11."""
    if depth <= 30:
        yield
        return
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 1000 + depth * 40))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def tree_depth(root: ast.AST) -> int:
    """How deep ``root`` nests, counted without recursion (the tree may be deeper than the
    interpreter's recursion limit)."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in ast.iter_child_nodes(node))
    return deepest


class ExprError(Record):
    """What went wrong, and where: ``start``/``end`` index the original text."""

    __slots__ = ("end", "message", "start")
    message: str
    start: int | None
    end: int | None

    def __init__(self, message: str, start: int | None = None, end: int | None = None) -> None:
        init = object.__setattr__
        init(self, "message", message)
        init(self, "start", start)
        init(self, "end", end)


class ExpressionError(Exception):
    """Raised by ``compile_expression``/``referenced_names`` for text that cannot be used.

    ``kind`` says why (``syntax``, ``security``: the runtime would execute it, ``engine``: the
    runtime's own pre-checks refuse it, ``unsupported``); ``warnings`` are surprises to show.
    """

    kind: str = "error"

    def __init__(
        self,
        message: str,
        start: int | None = None,
        end: int | None = None,
        warnings: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.error = ExprError(message, start, end)
        self.warnings = warnings


_quoting = threading.local()


def quoting_begin() -> None:
    """Start watching for error messages that quote a value."""
    _quoting.quoted = False


def quoting(message: str, anonymous: str) -> str:
    """A message that quotes a value, or its ``anonymous`` form while ``anonymous_errors``."""
    if getattr(_quoting, "anonymous", False):
        return anonymous
    _quoting.quoted = True
    return message


def quoted_a_value() -> bool:
    """Some message built since ``quoting_begin`` quoted a value."""
    return bool(getattr(_quoting, "quoted", False))


def anonymous_errors(on: bool) -> None:
    """While on, messages that would quote a value take their anonymous form."""
    _quoting.anonymous = on


class SandboxError(Exception):
    """An evaluation-time refusal or failure; the message never quotes scope values."""


class TooMuchWork(SandboxError):
    """A work budget ran out; re-running to locate it would only double the cost."""


class ShortCircuit(Exception):
    """``a?.b`` met null/undefined: the whole optional chain is undefined."""


def name_error(name: str) -> str:
    """Python's NameError words: CPython formats the name with ``%.200s``, so a name past 200
    bytes of UTF-8 is cut there (a character cut in two reads as U+FFFD)."""
    shown = name.encode("utf-8", "surrogatepass")[:200].decode("utf-8", "replace")
    return f"name '{shown}' is not defined"


@functools.cache
def named_type(base: type, name: str) -> type:
    """A subclass of ``base`` that Python's own messages call ``name``: a stand-in for an
    engine's object (``len``, ``print``) is then named as the object it stands for in the
    errors it meets ("'<' not supported between instances of 'builtin_function_or_method' and
    'int'")."""
    return type(name, (base,), {"__slots__": ()})


def span_of(node: ast.AST, default: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    return (getattr(node, "fx_start", default[0]), getattr(node, "fx_end", default[1]))


def set_span(node: ast.AST, start: int, end: int) -> ast.AST:
    node.fx_start = start  # type: ignore[attr-defined]
    node.fx_end = end  # type: ignore[attr-defined]
    return node


def check_text(text: object) -> str:
    """The refusals every dialect shares: not text, empty, too long."""
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("Expression must be a non-empty string", 0, 0)
    if len(text) > MAX_LENGTH:
        raise ExpressionError(
            f"Expression is too long ({len(text)} characters; the limit is {MAX_LENGTH})",
            MAX_LENGTH,
            len(text),
        )
    return text


def describe_node(node: ast.AST) -> str:
    names = {
        ast.Lambda: "lambda",
        ast.GeneratorExp: "a generator expression",
        ast.ListComp: "a list comprehension",
        ast.SetComp: "a set comprehension",
        ast.DictComp: "a dict comprehension",
        ast.JoinedStr: "an f-string",
        ast.NamedExpr: "assignment (:=)",
        ast.Starred: "unpacking (*)",
        ast.Await: "await",
        ast.Yield: "yield",
        ast.YieldFrom: "yield",
        ast.Attribute: "attribute access",
        ast.Subscript: "indexing",
        ast.BinOp: "arithmetic",
        ast.Call: "a function call",
    }
    return names.get(type(node), type(node).__name__)


def validate(
    tree: ast.AST,
    allowed: frozenset[type[ast.AST]],
    check: Callable[[ast.AST], None] | None = None,
    max_depth: int = MAX_DEPTH,
) -> None:
    """Refuse any node type outside ``allowed`` and any tree deeper than ``MAX_DEPTH``.

    Iterative, so a hostile tree cannot exhaust the stack while being checked.
    """
    stack: list[tuple[ast.AST, int, tuple[int, int]]] = [(tree, 1, span_of(tree))]
    seen: list[ast.AST] = []
    while stack:
        node, depth, parent_span = stack.pop()
        span = span_of(node, parent_span)
        if type(node) not in allowed:
            raise ExpressionError(f"{describe_node(node)} is not allowed", *span)
        if depth > max_depth:
            raise ExpressionError(
                f"Expression is nested too deeply (more than {max_depth} levels)", *span
            )
        seen.append(node)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1, span))
    # Finer rules only once every node is of an allowed kind, so the message names the
    # construct that is not allowed rather than a detail of its use.
    if check is not None:
        for node in seen:
            check(node)


def _constant_key(value: Any) -> Any:
    """What CPython merges constants of one code object by (``_PyCode_ConstantKey``): the type
    and the value, the sign of a float zero, tuples element by element."""
    if type(value) is tuple:
        return (tuple, tuple(_constant_key(v) for v in value))
    if type(value) is float:
        return (float, value, math.copysign(1.0, value))
    return (type(value), value)


def _folded(node: ast.AST) -> ast.AST:
    """A tuple of constants becomes one constant, as CPython's optimizer folds it."""
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
        values: Any = tuple(e.value for e in node.elts if isinstance(e, ast.Constant))
        folded = ast.Constant(value=values)
        return ast.copy_location(set_span(folded, *span_of(node)), node)
    return node


def merge_constants(tree: ast.AST) -> ast.AST:
    """Equal literal constants of one expression as one object, as CPython compiles them:
    ``1000 is 1000``, ``'a b' is 'a b'`` and ``(1,) is (1,)`` are True where the engine runs
    Python's eval on the text (a value read from the context is its own object)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            node.left = _folded(node.left)  # type: ignore[assignment]
            node.comparators = [_folded(c) for c in node.comparators]  # type: ignore[misc]
    seen: dict[Any, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            try:
                key = _constant_key(node.value)
                node.value = seen.setdefault(key, node.value)
            except TypeError:  # unhashable: never merged
                pass
    return tree


# --- resource-limited operators (python and ag2 dialects) ------------------------------------


#: items past which Python itself cannot build a sequence (8 bytes a slot: 64 GiB)
_PYTHON_FAILS: Final = 2**33


def _too_big(what: str, items: int | None = None) -> SandboxError:
    """``items``: the length of the sequence refused; without it, an integer was refused."""
    note = ""
    if items is None:
        limit = f"over {MAX_INT_BITS:,} bits"
    else:
        limit = f"over {MAX_STRING_LENGTH:,} items"
        if items > _PYTHON_FAILS:
            note = f"; Python itself fails with MemoryError at {items:,} items"
    return SandboxError(
        f"{what} is too large (refused to protect the evaluator: {limit}, {budget.BUDGET}{note})"
    )


def safe_pow(a: Any, b: Any) -> Any:
    if (
        type(a) in (int, bool)
        and type(b) in (int, bool)
        and b > 0
        and abs(a) > 1
        and b * abs(a).bit_length() > MAX_INT_BITS
    ):
        raise _too_big("The power")
    return a**b  # float powers overflow quickly (OverflowError) instead of growing


def safe_mult(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if a.bit_length() + b.bit_length() > MAX_INT_BITS:
            raise _too_big("The product")
        return a * b
    for seq, count in ((a, b), (b, a)):
        if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
            if len(seq) * count > MAX_STRING_LENGTH:
                raise _too_big("The repeated string or list", len(seq) * count)
            if count > 0 and not isinstance(seq, str):
                # lengths multiply through nesting: [[1]*100000]*100000 is 10^10 items deep
                size = deep_size(seq) * count
                check_items(
                    size,
                    "the repeated list",
                    "converting, comparing or sorting it visits every one of them",
                )
                charge(len(seq) * count)
                return budget.remember(seq * count, size)
    return a * b


def safe_add(a: Any, b: Any) -> Any:
    if isinstance(a, (str, list, tuple)) and isinstance(b, (str, list, tuple)):
        if len(a) + len(b) > MAX_STRING_LENGTH:
            raise _too_big("The concatenation", len(a) + len(b))
        if not isinstance(a, str) and type(a) is type(b):
            size = deep_size(a) + deep_size(b)
            check_items(size, "the concatenated list")
            charge(len(a) + len(b))
            joined: Any = a + b  # type: ignore[operator]  # same type, checked above
            return budget.remember(joined, size)
    return a + b


def safe_or(a: Any, b: Any) -> Any:
    if isinstance(a, (dict, set, frozenset)):  # a merge copies both sides
        charge(len(a) + (len(b) if isinstance(b, (dict, set, frozenset)) else 0))
    return a | b


def safe_mod(a: Any, b: Any) -> Any:
    if isinstance(a, str):
        # printf-style formatting can pad to any width and reach object internals.
        raise SandboxError("String formatting with % is not allowed")
    return a % b


def safe_lshift(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and a.bit_length() + b > MAX_INT_BITS:
        raise _too_big("The shift")
    return simpleeval.safe_lshift(a, b)


_FLAT: Final = frozenset({int, float, bool, type(None)})
#: strings shorter than this compare in well under a microsecond: not worth a charge
_SHORT: Final = 4096


def comparison_cost(a: Any, b: Any) -> None:
    """Charge what comparing ``a`` with ``b`` may traverse: the smaller deep size (Python
    stops at the smaller side), or the length of long strings (a C scan: 8 characters a step)."""
    ta, tb = type(a), type(b)
    if ta is str or tb is str:
        n = min(len(a) if ta is str else 0, len(b) if tb is str else 0)
        if n > _SHORT:
            charge(n >> 3)
        return
    if ta in _FLAT or tb in _FLAT:
        return
    if a is b:  # Python compares the items, and an item with itself is equal at once
        charge(len(a) if isinstance(a, (list, tuple, dict)) else 1)
        return
    # measuring is charged as it walks (an interpreted loop); the comparison itself is C, a
    # quarter of a step an item, and stops at the smaller side
    size = deep_size(a)
    charge(min(size, deep_size(b, size)) >> 2)


def membership_cost(x: Any, seq: Any) -> None:
    """Charge ``x in seq``: a string scan, a hash of ``x``, or a comparison with each item."""
    t = type(seq)
    if t is str:
        if len(seq) > _SHORT:
            charge(len(seq) >> 3)
    elif t is list or t is tuple:
        charge(deep_size(seq))
    elif type(x) is tuple:
        charge(deep_size(x))


def _compared(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def compare(a: Any, b: Any) -> Any:
        if type(a) not in _FLAT or type(b) not in _FLAT:
            comparison_cost(a, b)
        return fn(a, b)

    compare.__name__ = getattr(fn, "__name__", "compare")
    return compare


def _contains(x: Any, y: Any) -> bool:
    membership_cost(x, y)
    return x in y


def _not_contains(x: Any, y: Any) -> bool:
    membership_cost(x, y)
    return x not in y


PY_OPERATORS: Final[dict[type, Callable[..., Any]]] = {
    ast.Add: safe_add,
    ast.Sub: op.sub,
    ast.Mult: safe_mult,
    ast.Div: op.truediv,
    ast.FloorDiv: op.floordiv,
    ast.Mod: safe_mod,
    ast.Pow: safe_pow,
    ast.LShift: safe_lshift,
    ast.RShift: simpleeval.safe_rshift,
    ast.BitAnd: op.and_,
    ast.BitOr: safe_or,
    ast.BitXor: op.xor,
    # comparisons of containers are charged for what they traverse
    ast.Eq: _compared(op.eq),
    ast.NotEq: _compared(op.ne),
    ast.Lt: _compared(op.lt),
    ast.LtE: _compared(op.le),
    ast.Gt: _compared(op.gt),
    ast.GtE: _compared(op.ge),
    ast.In: _contains,
    ast.NotIn: _not_contains,
    ast.Is: lambda x, y: x is y,
    ast.IsNot: lambda x, y: x is not y,
    ast.Not: op.not_,
    ast.USub: op.neg,
    ast.UAdd: op.pos,
    ast.Invert: op.invert,
}


# --- the evaluator ---------------------------------------------------------------------------


class SandboxEval(simpleeval.SimpleEval):
    """simpleeval restricted to the handlers a dialect lists; subclasses add the semantics."""

    OPERATORS: ClassVar[Mapping[type, Callable[..., Any]]] = PY_OPERATORS
    FUNCTIONS: ClassVar[Mapping[str, Callable[..., Any]]] = {}

    def __init__(self) -> None:
        super().__init__(operators=dict(self.OPERATORS), functions=dict(self.FUNCTIONS), names={})
        # Only the handlers this dialect allows: a node type missing here cannot run even if
        # validation were bypassed.
        self.nodes = self.handlers()
        self._record: Records | None = None
        self._err_node: ast.AST | None = None
        self._err_exc: BaseException | None = None

    def handlers(self) -> dict[type, Callable[[Any], Any]]:
        """The node handlers of a dialect; each dialect's evaluator class defines its own."""
        raise TypeError(f"{type(self).__name__} defines no node handlers (a dialect must)")

    def _eval(self, node: Any) -> Any:
        # simpleeval re-checks every intermediate value for modules/forbidden functions; our
        # values are JSON data or our own function wrappers by construction (handlers never
        # getattr on a value), so the walk over whole payloads at every node is skipped.
        return self.nodes[type(node)](node)

    def _traced_eval(self, node: Any) -> Any:
        record = self._record
        assert record is not None
        flow = record.flow
        flow.enter()
        try:
            value = self.nodes[type(node)](node)
        except ShortCircuit:
            flow.fail(node)
            raise
        except Exception as exc:
            record[id(node)] = (False, exc)
            flow.fail(node)
            if exc is not self._err_exc:  # the first node to see an exception is innermost
                self._err_exc, self._err_node = exc, node
            raise
        record[id(node)] = (True, value)
        flow.leave(node, value)
        return value

    def prepare(self, compiled: Compiled, scope: Mapping[str, Any]) -> None:
        self.names = scope
        self.expr = compiled.text

    def run(self, compiled: Compiled, scope: Mapping[str, Any]) -> Any:
        self.prepare(compiled, scope)
        return self._eval(compiled.tree)

    def run_traced(self, compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
        """Evaluate again recording every node's value (for explain and error spans)."""
        self.prepare(compiled, scope)
        self._record, self._err_node, self._err_exc = Records(), None, None
        self._eval = self._traced_eval  # type: ignore[method-assign]
        trace = Trace(records=self._record)
        try:
            trace.value = self._eval(compiled.tree)
        except Exception as exc:
            trace.error = exc
            trace.error_node = self._err_node if exc is self._err_exc else None
        finally:
            del self._eval  # back to the class's untraced method
            self._record, self._err_node, self._err_exc = None, None, None
        return trace

    # handlers shared by the dialects

    @staticmethod
    def _eval_constant(node: ast.Constant) -> Any:
        return node.value

    def _eval_list(self, node: ast.List) -> list[Any]:
        return [self._eval(item) for item in node.elts]

    def _eval_tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self._eval(item) for item in node.elts)


class Records(dict[int, tuple[bool, Any]]):
    """A traced evaluation's node values (node id -> (ok, value or exception)), with ``flow``:
    where each value came from (``flowctx_core.expressions.provenance``), which decides its masking.

    ``clear`` forgets both: an evaluation that restarts on a copy of the scope starts over."""

    __slots__ = ("flow",)

    def __init__(self) -> None:
        super().__init__()
        self.flow = Flow(self)

    def clear(self) -> None:
        super().clear()
        self.flow.reset()


class Trace:
    """What a traced run recorded: each node's outcome, the value or the error and its node."""

    def __init__(
        self,
        records: dict[int, tuple[bool, Any]],
        value: Any = None,
        error: BaseException | None = None,
        error_node: ast.AST | None = None,
    ) -> None:
        self.records = records
        self.value = value
        self.error = error
        self.error_node = error_node

    def __repr__(self) -> str:
        return (
            f"Trace(records={self.records!r}, value={self.value!r}, error={self.error!r}, "
            f"error_node={self.error_node!r})"
        )

    @property
    def flow(self) -> Flow | None:
        """The values' provenance; None for a trace that recorded only its verdict."""
        return getattr(self.records, "flow", None)


_local = threading.local()


def evaluator_for(cls: type[SandboxEval]) -> SandboxEval:
    """This thread's instance of ``cls`` (simpleeval instances are not thread-safe)."""
    try:
        return _local.evaluators[cls]  # type: ignore[no-any-return]
    except AttributeError:
        _local.evaluators = {}
    except KeyError:
        pass
    ev = _local.evaluators[cls] = cls()
    return ev


class Compiled(Record):
    """A parsed, validated expression: evaluate it many times with different scopes (equal
    only to itself)."""

    __slots__ = (
        *("text", "dialect", "tree", "names", "required", "evaluator", "truthy", "builtins"),
        *("missing", "warnings", "warn"),
    )
    text: str
    dialect: str
    tree: ast.expr
    names: frozenset[str]  # top-level names read
    required: tuple[tuple[str, int, int], ...]  # names that must resolve, with a span each
    evaluator: type[SandboxEval]
    truthy: Callable[[Any], bool]
    builtins: frozenset[str]  # names that resolve without the scope
    missing: Callable[[str], str]  # the message for a name that does not resolve
    warnings: tuple[str, ...]  # surprises the text alone shows
    #: surprises that depend on the values (``None``: the dialect has none)
    warn: Callable[[Mapping[str, Any]], tuple[str, ...]] | None

    __eq__ = object.__eq__  # type: ignore[assignment]
    __hash__ = object.__hash__  # type: ignore[assignment]

    def __init__(
        self,
        text: str,
        dialect: str,
        tree: ast.expr,
        names: frozenset[str],
        required: tuple[tuple[str, int, int], ...],
        evaluator: type[SandboxEval],
        truthy: Callable[[Any], bool],
        builtins: frozenset[str],
        missing: Callable[[str], str],
        warnings: tuple[str, ...] = (),
        warn: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "text", text)
        init(self, "dialect", dialect)
        init(self, "tree", tree)
        init(self, "names", names)
        init(self, "required", required)
        init(self, "evaluator", evaluator)
        init(self, "truthy", truthy)
        init(self, "builtins", builtins)
        init(self, "missing", missing)
        init(self, "warnings", warnings)
        init(self, "warn", warn)

    def check_scope(self, scope: Mapping[str, Any]) -> ExprError | None:
        for name, start, end in self.required:
            if name not in scope and name not in self.builtins:
                return ExprError(self.missing(name), start, end)
        return None

    def run(self, scope: Mapping[str, Any]) -> Any:
        return evaluator_for(self.evaluator).run(self, scope)

    def run_traced(self, scope: Mapping[str, Any]) -> Trace:
        return evaluator_for(self.evaluator).run_traced(self, scope)


#: ValueErrors whose text Python fixes (no value is ever part of it): said as Python says them,
#: as the engines that evaluate with Python report them (``${n} in b'ab'`` with 300 is "byte
#: must be in range(0, 256)" under the Mozaiks evaluator)
_FIXED_VALUE_ERRORS: Final = frozenset(
    {
        "byte must be in range(0, 256)",
        "substring not found",
        "empty separator",
        "math domain error",
        "max() arg is an empty sequence",
        "min() arg is an empty sequence",
    }
)


def error_message(exc: BaseException) -> str:
    """A message for a failed evaluation that never echoes a scope value (it may be secret)."""
    if isinstance(exc, (SandboxError, budget.BudgetExceeded, simpleeval.InvalidExpression)):
        return str(exc)
    if isinstance(exc, RecursionError):
        return (
            "Expression is nested too deeply for flowctx's stack (flowctx's bound; "
            "the engine itself would go on)"
        )
    if isinstance(exc, MemoryError):
        return "Expression needs too much memory (flowctx's bound)"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        return "key not found"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, OverflowError):
        return "numeric result out of range"
    if isinstance(exc, ValueError):
        if str(exc) in _FIXED_VALUE_ERRORS:
            return str(exc)  # Python's own words, which never hold a value
        # e.g. "invalid literal for int() with base 10: 'sk-live-...'" or "'sk-...' is not in
        # list": keep only the text before the first quoted value.
        head = str(exc).split("'", 1)[0].split('"', 1)[0].rstrip(": ")
        return f"invalid value: {head}" if head else "invalid value (not shown)"
    if isinstance(exc, TypeError):
        return str(exc)  # CPython's TypeErrors name types, not values
    return type(exc).__name__
