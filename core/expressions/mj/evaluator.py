"""Evaluation of a parsed MemberJunction condition: each tree is compiled once into closures.

Semantics are JavaScript's over MemberJunction's view of the context: the keys it drops
(``__proto__``, ``constructor``, ``prototype``, ``eval``, ``Function``) are absent at every
level, integers beyond 2**53 are doubles, free names resolve to the scope's keys (the
parameters of the function it builds), then to node's globals, else throw a ReferenceError
when evaluated (so ``data.t || unknownVar`` is true). Conditions that assign or mutate run on
a cleaned deep copy, as MemberJunction's do; the author's data is never changed.

The same compiler builds a traced variant (every node's value recorded for the explain tree
and error spans), so the explained answer can never differ from the fast one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Literal

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import arrayattrs, bigint, descriptors, proxies, symkeys
from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.js.arguments import JsArguments
from flowctx_core.expressions.js.builtinnames import PROTO_NAMES
from flowctx_core.expressions.js.common import (
    ARGUMENTS_ALWAYS_HELD,
    LENT,
    HostString,
    NeedsCopy,
    Unsupported,
    array_prop_keys,
    check_arguments,
    security,
    set_on_copy,
)
from flowctx_core.expressions.js.constructors import instance_of
from flowctx_core.expressions.js.globals import (
    CONSTRUCTORS,
    GLOBALS,
    HOST_TYPES,
    NOT_REPRODUCED_WHY,
    OTHER_GLOBALS,
)
from flowctx_core.expressions.js.intl import CONSTRUCTOR_IDS as INTL_CONSTRUCTORS
from flowctx_core.expressions.js.intl.options import IntlObject
from flowctx_core.expressions.js.objects import (
    call_with_this,
    check_delete,
    forget_own,
    get_member,
    set_member,
)
from flowctx_core.expressions.js.prototypes import JsPrototype, is_prototype_of, prototype
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.regexp import JsRegExp
from flowctx_core.expressions.js.symbols import WELL_KNOWN
from flowctx_core.expressions.mj import hostcalls
from flowctx_core.expressions.mj.callprinter import printed
from flowctx_core.expressions.mj.lexer import is_id_part, is_id_start, tokenize
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
from flowctx_core.expressions.mj.parser import RESERVED, STRICT_RESERVED
from flowctx_core.expressions.sandbox import (
    Compiled,
    ExpressionError,
    Records,
    SandboxError,
    SandboxEval,
    ShortCircuit,
    TooMuchWork,
    Trace,
    deep_recursion,
    span_of,
)

Fn = Callable[["Env"], Any]
_MISSING: Final = object()
_EXACT: Final = 2**53
UNDEFINED: Final = js.UNDEFINED


class Env:
    """One evaluation: the scope (the author's data, or MemberJunction's copy of it), arrow
    parameters in scope, the callback budget and, when traced, the record of node values."""

    __slots__ = ("arguments", "budget", "err", "local", "receiver", "scope", "trace")

    def __init__(self, scope: Mapping[str, Any], trace: dict[int, Any] | None = None) -> None:
        self.scope = scope
        self.local: dict[str, Any] | None = None
        self.budget = [0]
        self.trace = trace
        self.err: list[Any] = [None, None]
        self.receiver: Any = None  # the object of the member read last (a call's ``this``)
        self.arguments: list[Any] = [None]  # the function's arguments object, once made


def _child(env: Env, local: dict[str, Any]) -> Env:
    sub = Env.__new__(Env)
    sub.scope, sub.local, sub.budget, sub.trace, sub.err, sub.receiver = (
        env.scope,
        local,
        env.budget,
        env.trace,
        env.err,
        None,
    )
    sub.arguments = env.arguments
    return sub


# --- the context copy MemberJunction evaluates on ------------------------------------------


#: data nested deeper than this is past flowctx's stack: node's own ends between 1,000 and
#: 2,000 levels for ``String``, ``JSON.stringify`` and ``flat`` (a RangeError there)
MAX_DATA_ROOM: Final = 1_500


def data_depth(value: Any, bound: int = MAX_DATA_ROOM + 1) -> int:
    """How deep ``value``'s objects and arrays nest, counted without recursion and no further
    than ``bound`` (a scope can be larger than the interpreter's stack is deep)."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, Mapping):
            items: Iterable[Any] = node.values()
        elif isinstance(node, (list, tuple)):
            items = node
        else:
            continue
        level += 1
        if level > deepest:
            deepest = level
            if deepest >= bound:
                return deepest
        stack.extend((item, level) for item in items)
    return deepest


def clone(value: Any, depth: int = 0) -> Any:
    """``createSafeContext``/``cloneValue``: dropped keys removed at every level."""
    if depth > MAX_DATA_ROOM:
        # node's own copy runs out of stack between 2,000 and 3,000 levels, at a depth its
        # stack's size decides: flowctx stops before, as its bound
        raise RecursionError
    t = type(value)
    if t is dict and "constructor" in value and depth > 0:
        # cloneValue's String() of such an object; the context itself is copied key by key
        return js.js_value(value)
    if t is dict or (isinstance(value, Mapping) and t is not js.JsNamespace):
        charge(js.ELEMENT * (len(value) + 1))  # the copy is made item by item
        return {
            js.property_key(k): clone(v, depth + 1)
            for k, v in value.items()
            if js.property_key(k) not in js.DROPPED_KEYS
        }
    if t is list or t is tuple:
        charge(js.ELEMENT * (len(value) + 1))
        return [clone(v, depth + 1) for v in value]
    return js.js_value(value)


# --- the scope as function parameters -------------------------------------------------------

_scope_verdicts: dict[tuple[Any, ...], str | _Parameters | None] = {}


#: V8's errors of a parameter that only strict mode forbids: the body's "use strict" makes them
#: errors once the whole list is read, so any other error of the list comes first
_STRICT_ONLY: Final = (
    "Unexpected eval or arguments in strict mode",
    "Unexpected strict mode reserved word",
)


def _bad_parameter(key: Any) -> str | None:
    """Why one scope key is no plain parameter name (V8's message when it is a syntax
    error of the parameter list), or None."""
    if type(key) is not str:
        key = js.property_key(key)
    if key in js.DROPPED_KEYS:
        return None  # dropped before the function is built
    if not key:
        return "Unexpected token ','"  # an empty parameter between two commas
    if not is_id_start(key[0]) or not all(is_id_part(c) for c in key[1:]):
        return "a scope key is not a JavaScript identifier"  # the token walk names V8's error
    return _reserved_parameter(key)


def _reserved_parameter(name: str) -> str | None:
    if name in ("eval", "arguments"):
        return _STRICT_ONLY[0]
    if name in STRICT_RESERVED:
        return _STRICT_ONLY[1]
    if name == "enum":
        return "Unexpected reserved word"  # reserved everywhere, and named so by V8
    if name in RESERVED:
        return f"Unexpected token '{name}'"
    return None


def _unexpected_parameter(tok: Any) -> str:
    """V8's error where the parameter list wants a name and finds ``tok``."""
    if tok.kind == "illegal":
        return str(tok.value.error.message)
    if tok.kind == "num":
        return "Unexpected number"
    if tok.kind == "str":
        return "Unexpected string"
    if tok.kind == "op" and tok.value in ("[", "..."):
        # a pattern or a rest parameter: not simple, beside the body's "use strict"
        return "Illegal 'use strict' directive in function with non-simple parameter list"
    return f"Unexpected token '{tok.value}'"


def _blank(key: str) -> bool:
    """Whether a key is no parameter at all: nothing, or only whitespace and block comments
    (node then reads two commas in a row, or a trailing comma when it is the last key)."""
    if not key:
        return True
    if "//" in key or "<!--" in key or "-->" in key:
        return False
    try:
        return len(tokenize(key)) == 1  # only the end
    except ExpressionError:
        return False


def _parameters(key: str) -> list[tuple[str, str | None]] | str:
    """The parameter names node reads in one scope key, each with the error strict mode
    makes of it (or None); or the syntax error that stops node reading the list.

    MemberJunction passes the keys to ``new Function(...keys, body)``, which joins them with
    commas into one parameter list: a key is parameter *text*, so ``"x,y"`` declares two
    parameters, ``"\\u0061"`` declares ``a`` and ``"a/*c*/"`` declares ``a``. Only plain names
    (escaped or not), commas, comments and whitespace are accepted here; anything else is
    V8's SyntaxError: the token where a name should be, or "Arg string terminates parameters
    early" for one after a complete name."""
    problem = _bad_parameter(key)
    if problem is None:
        return [(key, None)]
    if problem in _STRICT_ONLY:
        return [(key, problem)]
    if problem[:1].isupper():
        return problem
    if "//" in key or "<!--" in key or "-->" in key:
        return problem  # a line comment would swallow the keys after it
    try:
        tokens = tokenize(key)
    except ExpressionError:  # the lexer's other refusals
        return problem
    names: list[tuple[str, str | None]] = []
    want_name = True
    for tok in tokens[:-1]:
        if want_name:
            if tok.kind != "name":
                return _unexpected_parameter(tok)
            if tok.escaped and (tok.value in RESERVED or tok.value in STRICT_RESERVED):
                return "Keyword must not contain escaped characters"
            inner = _reserved_parameter(tok.value)
            if inner is not None and inner not in _STRICT_ONLY:
                return inner
            names.append((tok.value, inner))
            want_name = False
        elif tok.kind == "op" and tok.value == ",":
            want_name = True
        elif tok.kind == "op" and tok.value == "=":
            return "Illegal 'use strict' directive in function with non-simple parameter list"
        else:
            return "Arg string terminates parameters early"
    return names if names and not want_name else problem


def _cannot_build(problem: str) -> str:
    """The error of a scope MemberJunction cannot build its function for: V8's own
    SyntaxError where there is one, else what flowctx found."""
    if problem[:1].isupper():
        return problem
    return f"MemberJunction 5.51.3 cannot build its function: {problem}"


class _Parameters(tuple[str, ...]):
    """A scope whose keys are parameter text: the names node declares, in order."""


def scope_problem(scope: Mapping[str, Any]) -> str | _Parameters | None:
    """Why MemberJunction could not build its function for this scope, if it could not; or,
    when some key is parameter text rather than one name, the parameter names it declares.

    V8 stops at the list's first syntax error; only a list it reads whole meets strict mode,
    which keeps the last strict-mode error of a name and the first repeated name and reports
    whichever comes first in the list."""
    keys = tuple(scope)
    try:
        return _scope_verdicts[keys]
    except KeyError:
        pass
    except TypeError:
        keys = tuple(js.property_key(k) for k in keys)
    verdict: str | _Parameters | None = None
    ordered = [k for k in js.own_keys(dict.fromkeys(keys)) if k not in js.DROPPED_KEYS]
    names: list[str] = []
    plain = True
    strict: tuple[int, str] | None = None
    for i, key in enumerate(ordered):
        if _blank(key):
            if i == len(ordered) - 1:
                continue  # "x," : a trailing comma in the parameter list is allowed
            verdict = "Unexpected token ','"
            break
        found = _parameters(key)
        if isinstance(found, str):
            verdict = found
            break
        plain = plain and len(found) == 1 and found[0][0] == key
        for name, error in found:
            if error is not None:
                strict = (len(names), error)
            names.append(name)
    if verdict is None:
        first = {n: i for i, n in reversed(list(enumerate(names)))}
        repeated = next((i for i, n in enumerate(names) if first[n] != i), None)
        if repeated is not None and (strict is None or repeated < strict[0]):
            verdict = "Duplicate parameter name not allowed in this context"
        elif strict is not None:
            verdict = strict[1]
        elif not plain:
            verdict = _Parameters(names)
    if len(_scope_verdicts) > 4096:
        _scope_verdicts.clear()
    _scope_verdicts[keys] = verdict
    return verdict


def _bind_parameters(scope: Mapping[str, Any], names: _Parameters) -> dict[str, Any]:
    """The function's parameters as node binds them: the values in key order, one to each
    declared name in turn (``{"x,y": 1, "z": 2}`` gives x = 1, y = 2, z = undefined)."""
    by_key = {js.property_key(k): v for k, v in scope.items()}
    # a trailing blank key declares no parameter, but its value is still passed: one more
    # argument, given to a name of the text before it when that declared several
    values = [by_key[k] for k in js.own_keys(by_key) if k not in js.DROPPED_KEYS]
    return {n: values[i] if i < len(values) else UNDEFINED for i, n in enumerate(names)}


# --- compiling -------------------------------------------------------------------------------


#: a BigInt literal, the BigInt global or a name that makes BigInts (BigInt64Array,
#: BigUint64Array, DataView's getBigUint64): only such a condition can meet a BigInt value
_BIGINT_TEXT: Final = re.compile(r"[0-9a-fA-F_]n(?![\w$])|BigU?[Ii]nt")


class _Compiler:
    def __init__(self, text: str, traced: bool) -> None:
        self.text = text
        self.traced = traced
        self.locals: list[frozenset[str]] = []
        self.bigint = _BIGINT_TEXT.search(text) is not None

    def source(self, node: ast.AST) -> str:
        start, end = span_of(node)
        return self.text[start:end]

    def compile(self, node: ast.AST) -> Fn:
        build = _BUILDERS.get(type(node))
        if build is None:  # the allowlist: no builder, no evaluation
            raise TypeError(f"{type(node).__name__} is not allowed")
        fn = build(self, node)
        if not self.traced:
            return fn
        return _traced(node, fn)

    def is_local(self, name: str) -> bool:
        return any(name in frame for frame in self.locals)


def _traced(node: ast.AST, fn: Fn) -> Fn:
    key = id(node)

    def run(env: Env) -> Any:
        record = env.trace
        assert record is not None
        flow = record.flow  # type: ignore[attr-defined]  # sandbox.Records: provenance
        flow.enter()
        try:
            value = fn(env)
        except ShortCircuit:
            flow.fail(node)
            raise
        except NeedsCopy:
            raise
        except Exception as exc:
            record[key] = (False, exc)
            flow.fail(node)
            if exc is not env.err[0]:  # the first node to see an exception is innermost
                env.err[0], env.err[1] = exc, node
            raise
        record[key] = (True, value)
        flow.leave(node, value, env.local)
        return value

    return run


_CONSTANT_TYPES: Final = (str, int, float, bool, type(None), bigint.JsBigInt)


def _constant(c: _Compiler, node: ast.Constant) -> Fn:
    value = node.value
    if not isinstance(value, _CONSTANT_TYPES):  # the parser never makes one: a bug
        raise TypeError("unsupported literal")
    return lambda env: value


def _not_defined(name: str) -> Exception:
    if name in OTHER_GLOBALS:
        why = NOT_REPRODUCED_WHY.get(name, f"flowctx does not reproduce the global '{name}'")
        return Unsupported(why)
    return js.JsError(f"{name} is not defined")


def _name(c: _Compiler, node: ast.Name) -> Fn:
    name = node.id
    if c.is_local(name):

        def local(env: Env) -> Any:
            assert env.local is not None
            try:
                return env.local[name]
            except KeyError:
                # a parameter read by an earlier one's default: its temporal dead zone
                raise js.JsError(f"Cannot access '{name}' before initialization") from None

        return local
    if name == "arguments":
        return _arguments
    fallback = GLOBALS.get(name, _MISSING)
    if name in js.DROPPED_KEYS:
        # MemberJunction removed this key from its copy: the global of that name (if any).
        def dropped(env: Env) -> Any:
            if fallback is _MISSING:
                raise _not_defined(name)
            return fallback

        return dropped

    def lookup(env: Env) -> Any:
        try:
            v = env.scope[name]
        except KeyError:
            if fallback is _MISSING:
                raise _not_defined(name) from None
            return fallback
        t = type(v)
        if (t is int and (v > _EXACT or v < -_EXACT)) or (t is dict and "constructor" in v):
            return js.js_value(v)
        return v

    return lookup


def _arguments(env: Env) -> Any:
    """The arguments object: the values of MemberJunction's copy of the context, one per key
    it keeps (the parameters), made once per evaluation (``arguments === arguments``)."""
    made = env.arguments[0]
    if made is None or made.scope is not env.scope:
        values = [
            js.js_value(v)
            for k, v in env.scope.items()
            if js.property_key(k) not in js.DROPPED_KEYS
        ]
        made = env.arguments[0] = _Made(env.scope, JsArguments(values))
    return made.value


class _Made:
    __slots__ = ("scope", "value")

    def __init__(self, scope: Mapping[str, Any], value: Any) -> None:
        self.scope, self.value = scope, value


def _reading(node: ast.AST | None, key: Any, obj: Any, verb: str = "read") -> js.JsError:
    """V8's TypeError for reading (or, ``verb`` "set", writing) a property of null or
    undefined. ``node`` is the key's node: a key written in the expression is named as written."""
    kind = "null" if obj is None else "undefined"
    if verb == "read" and key is WELL_KNOWN["iterator"]:
        return _not_iterable(obj)  # V8 reads it as an iterator's lookup
    head = f"Cannot {verb} properties of {kind}"
    doing = "reading" if verb == "read" else "setting"
    if node is None or isinstance(node, ast.Constant):
        return js.JsError(f"{head} ({doing} '{js.property_key(key)}')")
    # V8 names a computed key as it names values in errors, without converting it (an array,
    # a date, a RegExp or an object without a prototype not at all); a key that may derive from
    # a secret is left out when the condition read one (``anonymous``).
    anonymous = f"{head} ({doing} a computed key)"
    if js.typeof(key) in ("object", "function") and key is not None:
        shown = js.shown_value(key)
        if shown.startswith("[object "):
            return js.JsError(head, anonymous=anonymous)
    else:
        shown = js.shown_value(key) if js.typeof(key) == "symbol" else js.property_key(key)
    return js.JsError(f"{head} ({doing} '{shown}')", anonymous=anonymous)


def _attribute(c: _Compiler, node: ast.Attribute) -> Fn:
    value = c.compile(node.value)
    attr = node.attr
    if attr in js.DROPPED_KEYS or attr.isdigit():

        def slow(env: Env) -> Any:
            obj = env.receiver = value(env)
            return get_member(obj, attr)

        return slow

    def read(env: Env) -> Any:
        obj = value(env)
        env.receiver = obj
        if type(obj) is dict:
            v = obj.get(attr, _MISSING)
            if v is not _MISSING:
                t = type(v)
                if (
                    (t is int and (v > _EXACT or v < -_EXACT))
                    or (t is dict and "constructor" in v)
                    or t is js.Accessor
                ):
                    return js.js_value(v)
                return v
        return get_member(obj, attr)

    return read


def _subscript(c: _Compiler, node: ast.Subscript) -> Fn:
    value = c.compile(node.value)
    key_fn = c.compile(node.slice)
    key_node = node.slice

    def read(env: Env) -> Any:
        obj = value(env)
        key = key_fn(env)
        env.receiver = obj
        if type(key) is int and type(obj) is list:
            if 0 <= key < len(obj):
                return js.js_value(obj[key])
            if key >= 0:
                return UNDEFINED
        if obj is None or obj is UNDEFINED:
            raise _reading(key_node, key, obj)
        return get_member(obj, key)

    return read


def _optional(c: _Compiler, node: JsOptional) -> Fn:
    value = c.compile(node.value)

    def stop(env: Env) -> Any:
        v = value(env)
        if v is None or v is UNDEFINED:
            raise ShortCircuit
        return v

    return stop


def _chain(c: _Compiler, node: JsChain) -> Fn:
    value = c.compile(node.value)

    def chain(env: Env) -> Any:
        try:
            return value(env)
        except ShortCircuit:
            return UNDEFINED

    return chain


class _NotIterable(js.JsError):
    """A value spread that has no iterator (an iterator's own error, such as a typed array's
    over a shrunk buffer, is not this one and passes as it is)."""


class _Stepped:
    """An array destructured once an accessor stands on one of its elements
    (``CHANGED.elements``): the array iterator's steps, each index read when the pattern
    reaches it, against the length the array has at that step (a getter may shorten it), and
    an elision of the pattern steps over its element by reading it too."""

    __slots__ = ("arr", "done")

    def __init__(self, arr: list[Any]) -> None:
        self.arr = arr
        self.done = False

    def __len__(self) -> int:
        return 0 if self.done else len(self.arr)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):  # a rest element: every step left
            out, k = [], i.start or 0
            while not self.done and k < len(self.arr):
                out.append(js.js_value(self.arr[k]))
                k += 1
            self.done = True
            return out
        if self.done or i >= len(self.arr):
            self.done = True  # the iterator is done for good
            return UNDEFINED
        return js.js_value(self.arr[i])


def _pattern_values(v: Any) -> Any:
    """What an array pattern takes its elements from."""
    if type(v) is list and js.CHANGED.elements:
        own = symkeys.iterate(v) if js.CHANGED.table or js.CHANGED.symbols else None
        return _Stepped(v) if own is None else own
    return _spread_values(v)


def _spread_values(v: Any) -> list[Any]:
    if (js.CHANGED.table or type(v) is js.JsCreated) and type(v) is not list and symkeys.chained(v):
        return symkeys.iterate(v) or []  # along the chain the condition gave it
    if type(v) is list and (js.CHANGED.table or js.CHANGED.symbols):
        own = symkeys.iterate(v)  # its own Symbol.iterator, or its changed chain's
        if own is not None:
            return own
    if type(v) is list or type(v) is tuple:
        charge(js.ELEMENT * len(v))
        return [js.js_value(x) for x in v]
    if type(v) is str:
        charge(len(v))
        return list(v)
    if isinstance(v, js.JsObject):
        items = v.js_iter()
        if items is not None:
            charge(js.ELEMENT * len(items))
            return items
    by_symbol = symkeys.iterate(v)  # an object with its own Symbol.iterator
    if by_symbol is not None:
        return by_symbol
    raise _NotIterable(f"{js.typeof(v)} is not iterable")


#: where a spread is: a call's arguments (its last one), an array literal, or a call's arguments
#: with a spread before another argument, which V8 builds as an array and applies
SpreadIn = Literal["call", "array", "apply"]


def _spread_error(v: Any, shown: str, where: SpreadIn) -> js.JsError:
    """V8's TypeError for spreading a value without an iterator (in a call, the nullish
    ones name the missing property; the others fail on the iterator's type; applied, the value
    is named by its type)."""
    if where == "array":
        return js.JsError(f"{shown} is not iterable")
    if where == "apply":
        return _not_iterable(v)
    if js.is_nullish(v):
        missing = "null" if v is None else "undefined"
        return js.JsError(f"{shown} is not iterable (cannot read property {missing})")
    return js.JsError("Spread syntax requires ...iterable[Symbol.iterator] to be a function")


def _spreader(c: _Compiler, node: ast.expr, where: SpreadIn) -> Callable[[Any], list[Any]]:
    shown = printed(node, where == "array")
    if isinstance(node, ast.Call | JsNew) and where != "call":
        # V8 names the callee of a call whose result it cannot spread
        array = where == "array"
        callee = printed(node.func if isinstance(node, ast.Call) else node.callee, array)
        tail = (
            "is not a function or its return value is not iterable"
            if array
            else "is not iterable (cannot read property Symbol(Symbol.iterator))"
        )

        def spread_result(v: Any) -> list[Any]:
            try:
                # an object the condition made (Object.create(null)) has no Symbol.iterator
                # along its chain: the callee's message, as for any value without one
                by_symbol = symkeys.iterate(v)
            except symkeys.NoNext:
                raise js.JsError(f"{callee} {tail}") from None
            if by_symbol is not None:
                return by_symbol
            try:
                return _spread_values(v)
            except (_NotIterable, symkeys.NoNext):
                raise js.JsError(f"{callee} {tail}") from None

        return spread_result

    def spread(v: Any) -> list[Any]:
        try:
            by_symbol = symkeys.iterate(v)  # its own Symbol.iterator (its errors are its own)
        except symkeys.NoNext:
            raise _spread_error(v, shown, where) from None
        if by_symbol is not None:
            return by_symbol
        try:
            return _spread_values(v)
        except _NotIterable:
            raise _spread_error(v, shown, where) from None

    return spread


def _spread_source(c: _Compiler, node: ast.expr, where: SpreadIn) -> Fn:
    """What a spread in an array literal spreads: a call there whose callee is no function
    fails with V8's iterator wording (``f is not a function or its return value is not
    iterable``); in a call's arguments the plain one."""
    fn = c.compile(node)
    if where != "array" or not isinstance(node, ast.Call):
        return fn
    plain = f"{printed(node.func)} is not a function"
    # an iterator's error prints the callee as V8's call printer does there (calls and ``new``
    # inside it by their callees)
    iterated = f"{printed(node.func, True)} is not a function or its return value is not iterable"

    def source(env: Env) -> Any:
        try:
            return fn(env)
        except js.JsError as exc:
            if str(exc) == plain:
                raise js.JsError(iterated) from None
            raise

    return source


def _applied(nodes: list[ast.expr]) -> bool:
    """A spread before another argument: V8 builds the arguments as an array and applies."""
    return any(isinstance(a, JsSpread) for a in nodes[:-1])


def _args(
    c: _Compiler, nodes: list[ast.expr], where: SpreadIn = "call"
) -> Callable[[Env], list[Any]]:
    fns = [
        _spread_source(c, a.value, where) if isinstance(a, JsSpread) else c.compile(a)
        for a in nodes
    ]
    spread = [isinstance(a, JsSpread) for a in nodes]
    spreaders = [_spreader(c, a.value, where) if isinstance(a, JsSpread) else None for a in nodes]
    if not any(spread):
        if len(fns) == 1:
            f0 = fns[0]
            return lambda env: [f0(env)]
        return lambda env: [f(env) for f in fns]
    pairs = list(zip(fns, spreaders, strict=True))
    call = where != "array"  # a call's arguments, which node holds on its stack

    def values(env: Env) -> list[Any]:
        out: list[Any] = []
        for f, s in pairs:
            if s is not None:
                out.extend(s(f(env)))
            else:
                out.append(f(env))
        if call and len(out) > ARGUMENTS_ALWAYS_HELD:
            check_arguments(len(out))
        return out

    return values


def _host_callee(
    c: _Compiler, callee: ast.expr, args: Fn, shown: str, host: Callable[..., Any], normal: Fn
) -> Fn:
    """A host global only called or constructed (the parser lifted its refusal): the engine's
    TypeError once the arguments have run, unless the scope binds the name."""
    assert isinstance(callee, ast.Name)
    name = callee.id

    def host_call(env: Env) -> Any:
        if name in env.scope:
            return normal(env)
        return host(name, shown, args(env))

    return host_call


def _call(c: _Compiler, node: ast.Call) -> Fn:
    func = c.compile(node.func)
    applied = _applied(node.args)
    args = _args(c, node.args, "apply" if applied else "call")
    shown = printed(node.func) or "Boolean"

    target = node.func
    member = isinstance(target, ast.Attribute | ast.Subscript)
    # a callee that is no member expression at all calls with ``this`` undefined
    detached = not member and not isinstance(target, JsChain | JsOptional)

    def call(env: Env) -> Any:
        try:
            fn = func(env)
        except HostString:
            if applied:
                raise  # V8 prints the value
            fn = ""  # the host's string, whatever it holds: not a function
        if type(fn) is not js.JsFunction:
            args(env)  # the arguments run before the callee is found no function
            if applied:
                raise hostcalls.not_applicable(fn)
            raise js.JsError(f"{shown} is not a function")
        try:
            if fn.method is None and fn.proxy is None:
                return fn.fn(*args(env))
            if member:
                this = env.receiver
            elif detached:
                this = UNDEFINED
            elif fn.proxy is not None:
                this = env.receiver  # an optional call of a member: its object
            else:
                return fn.fn(*args(env))
            return call_with_this(fn, this, args(env))
        except js.CalledNonCallable:
            raise js.JsError(f"{shown} is not a function") from None

    if getattr(target, "fx_host_call", False):
        host = hostcalls.applied_call if applied else hostcalls.called
        return _host_callee(c, target, args, shown, host, call)
    return call


def _new(c: _Compiler, node: JsNew) -> Fn:
    func = c.compile(node.callee)
    applied = node.args is not None and _applied(node.args)
    args = _args(c, node.args, "apply" if applied else "call")
    shown = printed(node.callee)

    def construct(env: Env) -> Any:
        fn = func(env)
        if type(fn) is js.JsFunction and fn.proxy is not None:  # a Proxy around a function
            if not proxies.is_constructor(fn):
                args(env)
                raise js.JsError(f"{shown} is not a constructor")
            return proxies.construct(fn, args(env), fn)
        make = CONSTRUCTORS.get(id(fn)) if type(fn) is js.JsFunction else None
        if make is None or (
            GLOBALS.get(getattr(fn, "name", "")) is not fn and id(fn) not in INTL_CONSTRUCTORS
        ):
            args(env)  # the arguments run before the callee is found no constructor
            if proxies.refusing_new(fn):
                # Symbol and BigInt are constructors whose first step throws their own words
                raise js.JsError(f"{fn.name} is not a constructor")
            if applied:
                raise js.JsError(
                    f"{js.shown_value(fn)} is not a constructor",
                    anonymous="value is not a constructor",
                )
            raise js.JsError(f"{shown} is not a constructor")
        return make(*args(env))

    if getattr(node.callee, "fx_host_call", False):
        host = hostcalls.applied_new if applied else hostcalls.constructed
        return _host_callee(c, node.callee, args, shown, host, construct)
    return construct


def _unwrapped(text: str) -> str:
    """An arrow's text without the parentheses around the whole of it (its node's span takes
    them in): ``((x) => x)`` is ``(x) => x`` to String(), ``(x) => (x)`` stays itself."""
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for i, ch in enumerate(text):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and i < len(text) - 1:
                return text
        text = text[1:-1].strip()
    return text


def _not_iterable(v: Any) -> js.JsError:
    """V8's TypeError for destructuring a value that has no iterator."""
    if v is None:
        shown = "object null"
    elif type(v) is bool:
        shown = f"boolean {'true' if v else 'false'}"
    elif js.typeof(v) == "number":
        shown = f"number {js.to_string(v)}"
    else:
        shown = js.typeof(v)
    tail = "is not iterable (cannot read property Symbol(Symbol.iterator))"
    return js.JsError(f"{shown} {tail}", anonymous=f"{js.typeof(v)} {tail}")


Binder = Callable[[Env, dict[str, Any], Any], None]


def _binder(c: _Compiler, target: ast.expr) -> Binder:
    """Binds a value to a parameter's target: a name, or an array pattern (ECMAScript's
    IteratorBindingInitialization: the value's iterator, element by element)."""
    if isinstance(target, ast.Name):
        name = target.id

        def bind_name(env: Env, local: dict[str, Any], value: Any) -> None:
            local[name] = value

        return bind_name
    assert isinstance(target, JsPattern)
    steps: list[tuple[str, Binder | None, Fn | None]] = []
    for e in target.elts:
        if isinstance(e, JsHole):
            steps.append(("hole", None, None))
        elif isinstance(e, JsSpread):
            steps.append(("rest", _binder(c, e.value), None))
        elif isinstance(e, JsBindDefault):
            if isinstance(e.target, ast.Name):
                _name_anonymous(e.default, e.target.id)
            steps.append(("one", _binder(c, e.target), c.compile(e.default)))
        else:
            steps.append(("one", _binder(c, e), None))

    def bind_pattern(env: Env, local: dict[str, Any], value: Any) -> None:
        if value is None or value is UNDEFINED or type(value) in (bool, int, float):
            raise _not_iterable(value)
        try:
            items = _pattern_values(value)
        except (_NotIterable, symkeys.NoNext):  # a method that runs keeps its own error
            raise _not_iterable(value) from None
        for i, (kind, bind, fallback) in enumerate(steps):
            if kind == "hole":
                if type(items) is _Stepped:
                    items[i]  # an elision steps the iterator too
                continue
            assert bind is not None
            if kind == "rest":
                bind(env, local, items[i:])
                continue
            v = items[i] if i < len(items) else UNDEFINED
            if v is UNDEFINED and fallback is not None:
                v = fallback(_child(env, local))
            bind(env, local, v)

    return bind_pattern


def _arrow(c: _Compiler, node: JsArrow) -> Fn:
    params = node.params
    names = tuple(p for p, pat in zip(params, node.patterns, strict=True) if pat is None)
    visible = frozenset((*names, *node.bound))
    source = _unwrapped(c.source(node))
    for p, d, pat in zip(params, node.defaults, node.patterns, strict=True):
        if d is not None and pat is None:
            _name_anonymous(d, p)
    own_name = getattr(node, "fx_name", "")
    c.locals.append(visible)
    try:
        body = c.compile(node.body)
        defaults = [None if d is None else c.compile(d) for d in node.defaults]
        binders = [None if pat is None else _binder(c, pat) for pat in node.patterns]
    finally:
        c.locals.pop()
    rest = node.rest
    simple = not rest and all(d is None for d in defaults) and all(b is None for b in binders)
    # length: the parameters before the first default or the rest parameter
    arity = next(
        (i for i, d in enumerate(defaults) if d is not None or (rest and i == len(params) - 1)),
        len(params),
    )
    traced_names = tuple(visible)

    def make(env: Env) -> js.JsFunction:
        outer = env.local

        def call(*args: Any) -> Any:
            env.budget[0] += 1
            # no cap of its own: a callback is charged what an interpreted call costs, so the
            # work budget (time and memory) is what bounds map/filter over a real document
            charge(CALLBACK_STEPS)
            local = dict(outer) if outer else {}
            if simple:
                for i, p in enumerate(params):
                    local[p] = args[i] if i < len(args) else UNDEFINED
            else:
                for i, p in enumerate(params):
                    if rest and i == len(params) - 1:
                        v: Any = list(args[i:])
                    else:
                        v = args[i] if i < len(args) else UNDEFINED
                        fallback = defaults[i]
                        if v is UNDEFINED and fallback is not None:
                            v = fallback(_child(env, local))
                    bind = binders[i]
                    if bind is None:
                        local[p] = v
                    else:
                        bind(env, local, v)
            if env.trace is not None:  # traced: the parameters' provenance
                env.trace.flow.bind(local, traced_names, outer)  # type: ignore[attr-defined]
            return body(_child(env, local))

        return js.JsFunction(own_name, call, arity=arity, source=source)

    return make


def _name_anonymous(value: ast.expr, name: str) -> None:
    """ECMAScript's NamedEvaluation: an arrow function (parenthesised or not) given as a
    parameter's or a pattern element's default, or assigned to a plain name (=, &&=, ||=,
    ??=), takes that name as its own ``name``; any other expression around it does not."""
    if isinstance(value, JsArrow):
        value.fx_name = name  # type: ignore[attr-defined]


#: budget steps one arrow-function call costs (about 2 us of interpreted work)
CALLBACK_STEPS: Final = 30


_BINOPS: Final[dict[type, Callable[[Any, Any], Any]]] = {
    ast.Add: js.js_add,
    ast.Sub: js.js_sub,
    ast.Mult: js.js_mul,
    ast.Div: js.js_div,
    ast.Mod: js.js_mod,
    ast.Pow: js.js_pow,
    ast.LShift: js.js_lshift,
    ast.RShift: js.js_rshift,
    ast.BitAnd: js.js_bitand,
    ast.BitOr: js.js_bitor,
    ast.BitXor: js.js_bitxor,
}
_COMPARES: Final[dict[type, Callable[[Any, Any], bool]]] = {
    ast.Eq: js.loose_eq,
    ast.NotEq: js.loose_ne,
    ast.Is: js.strict_eq,
    ast.IsNot: js.strict_ne,
    ast.Lt: js.js_lt,
    ast.LtE: js.js_le,
    ast.Gt: js.js_gt,
    ast.GtE: js.js_ge,
    ast.In: js.js_in,
}


_SYMBOLS: Final[dict[type, str]] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%", ast.Pow: "**",
    ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.Eq: "==", ast.NotEq: "!=", ast.Is: "===", ast.IsNot: "!==", ast.Lt: "<", ast.LtE: "<=",
    ast.Gt: ">", ast.GtE: ">=",
}  # fmt: skip


def _binop(c: _Compiler, node: ast.BinOp) -> Fn:
    left, right = c.compile(node.left), c.compile(node.right)
    op = _BINOPS[type(node.op)]
    if c.bigint:
        op = bigint.aware(_SYMBOLS[type(node.op)], op)
    return lambda env: op(left(env), right(env))


def _compare(c: _Compiler, node: ast.Compare) -> Fn:
    left, right = c.compile(node.left), c.compile(node.comparators[0])
    kind = type(node.ops[0])
    other = node.comparators[0]
    if c.bigint and kind is not ast.In:
        cmp = bigint.compare(_SYMBOLS[kind], _COMPARES[kind])
        return lambda env: cmp(left(env), right(env))
    if kind in (ast.Is, ast.IsNot) and isinstance(other, ast.Constant) and not c.traced:
        # `x === 'literal'` / `=== true` / `=== null`: the hot shape of path conditions
        const = other.value
        negate = kind is ast.IsNot
        if const is True or const is False or const is None:
            if negate:
                return lambda env: left(env) is not const
            return lambda env: left(env) is const
        if type(const) is str:
            if negate:
                return lambda env: not ((v := left(env)).__class__ is str and v == const)
            return lambda env: (v := left(env)).__class__ is str and v == const
    if kind is ast.Is:

        def strict(env: Env) -> bool:
            a, b = left(env), right(env)
            ta = type(a)
            if ta is type(b) and (ta is str or ta is bool or a is None or a is UNDEFINED):
                return bool(a == b)
            return js.strict_eq(a, b)

        return strict
    op = _COMPARES[kind]
    return lambda env: op(left(env), right(env))


def _instanceof(left: Any, right: Any) -> bool:
    if js.CHANGED.symbols and symkeys.keeps(right):
        handler = symkeys.own_chain_get(right, symkeys.HAS_INSTANCE)
        if handler is not UNDEFINED and handler is not None:
            if type(handler) is not js.JsFunction:
                raise js.JsError(
                    f"{js.default_call_site(handler)} is not a function",
                    anonymous="Symbol.hasInstance is not a function",
                )
            return js.truthy(handler.fn(left))  # a function the condition made: no this
    if type(right) is not js.JsFunction:
        kind = js.typeof(right)
        if right is None or kind not in ("object", "function"):
            raise js.JsError("Right-hand side of 'instanceof' is not an object")
        raise js.JsError("Right-hand side of 'instanceof' is not callable")
    chained = (
        type(left) is js.JsCreated
        or type(left) is JsPrototype
        or type(left) is JsProxy
        or (type(left) is js.JsFunction and left.proxy is not None)
        or js.changed_prototype(left) is not js.KEPT
    )
    called: str = right.name
    if chained and called in PROTO_NAMES and GLOBALS.get(called) is right:
        return is_prototype_of(prototype(called), left)  # Object.create(null): none
    if right is GLOBALS["Array"]:
        return type(left) is list or type(left) is tuple
    if right is GLOBALS["Object"]:
        return js.typeof(left) in ("object", "function") and left is not None
    name: str = right.name
    if (id(right) in CONSTRUCTORS or name in ("BigInt", "Symbol")) and GLOBALS.get(name) is right:
        return instance_of(left, name)  # no constructors, but Object(1n) is a BigInt's
    if id(right) in INTL_CONSTRUCTORS:
        # an Intl service's instance, its class named by its tag (Intl.Segmenter's)
        return isinstance(left, IntlObject) and left.tag == name
    if right.members is not None:
        return False
    if js.typeof(left) not in ("object", "function") or left is None:
        return False  # OrdinaryHasInstance answers a primitive before reading prototype
    raise js.JsError("Function has non-object prototype 'undefined' in instanceof check")


LENT["instanceof"] = _instanceof  # Function.prototype[Symbol.hasInstance] runs it


def _jsbinary(c: _Compiler, node: JsBinary) -> Fn:
    left, right = c.compile(node.left), c.compile(node.right)
    op: Callable[[Any, Any], Any] = js.js_urshift if node.op == ">>>" else _instanceof
    if c.bigint and node.op == ">>>":
        op = bigint.aware(">>>", op)
    return lambda env: op(left(env), right(env))


def _boolop(c: _Compiler, node: ast.BoolOp) -> Fn:
    fns = [c.compile(v) for v in node.values]
    truthy = js.truthy
    if type(node.op) is ast.And:

        def all_of(env: Env) -> Any:
            value: Any = None
            for f in fns:
                value = f(env)
                if not truthy(value):
                    return value
            return value

        return all_of

    def any_of(env: Env) -> Any:
        value: Any = None
        for f in fns:
            value = f(env)
            if truthy(value):
                return value
        return value

    return any_of


def _ifexp(c: _Compiler, node: ast.IfExp) -> Fn:
    test, body, orelse = c.compile(node.test), c.compile(node.body), c.compile(node.orelse)
    truthy = js.truthy
    return lambda env: body(env) if truthy(test(env)) else orelse(env)


def _coalesce(c: _Compiler, node: JsCoalesce) -> Fn:
    left, right = c.compile(node.left), c.compile(node.right)

    def coalesce(env: Env) -> Any:
        v = left(env)
        return right(env) if v is None or v is UNDEFINED else v

    return coalesce


def _typeof(c: _Compiler, node: JsTypeof) -> Fn:
    operand = node.operand
    inner = c.compile(operand)
    if isinstance(operand, ast.Name) and not c.is_local(operand.id):
        name = operand.id

        host = HOST_TYPES.get(name) if name not in GLOBALS else None

        def typeof_name(env: Env) -> str:
            if name not in env.scope or name in js.DROPPED_KEYS:
                if host is not None:
                    return host
                if name in OTHER_GLOBALS:
                    raise _not_defined(name)
                if name not in GLOBALS:
                    return "undefined"
            return js.typeof(inner(env))

        return typeof_name

    def typeof(env: Env) -> str:
        try:
            return js.typeof(inner(env))
        except HostString:
            return "string"  # the host's string, whatever it holds

    return typeof


def _void(c: _Compiler, node: JsVoid) -> Fn:
    inner = c.compile(node.operand)

    def void(env: Env) -> Any:
        inner(env)
        return UNDEFINED

    return void


def _unary(c: _Compiler, node: ast.UnaryOp) -> Fn:
    inner = c.compile(node.operand)
    ops: dict[type, Callable[[Any], Any]] = {
        ast.Not: js.js_not, ast.USub: js.js_neg, ast.UAdd: js.js_pos, ast.Invert: js.js_bitnot,
    }  # fmt: skip
    op = ops[type(node.op)]
    if c.bigint:
        names = {ast.USub: "-", ast.Invert: "~", ast.UAdd: "+"}
        op = bigint.unary(names.get(type(node.op), ""), op)
    return lambda env: op(inner(env))


def _list(c: _Compiler, node: ast.List) -> Fn:
    holes = [isinstance(e, JsHole) for e in node.elts]
    present = [e for e in node.elts if not isinstance(e, JsHole)]
    values = _args(c, present, "array")
    if not any(holes):
        return values
    order = holes

    def with_holes(env: Env) -> list[Any]:
        got = iter(values(env))
        return [js.HOLE if h else next(got) for h in order]

    if any(isinstance(e, JsSpread) for e in node.elts):
        parts = [
            (
                None
                if isinstance(e, JsHole)
                else _spread_source(c, e.value, "array")
                if isinstance(e, JsSpread)
                else c.compile(e),
                _spreader(c, e.value, "array") if isinstance(e, JsSpread) else None,
            )
            for e in node.elts
        ]

        def mixed(env: Env) -> list[Any]:
            out: list[Any] = []
            for f, spread in parts:
                if f is None:
                    out.append(js.HOLE)
                elif spread is not None:
                    out.extend(spread(f(env)))
                else:
                    out.append(f(env))
            return out

        return mixed
    return with_holes


def _regex_literal(c: _Compiler, node: JsRegexLiteral) -> Fn:
    source, flags = node.source, node.flags
    return lambda env: JsRegExp(source, flags, literal=True)


def _hole(c: _Compiler, node: JsHole) -> Fn:
    return lambda env: UNDEFINED


def _sequence(c: _Compiler, node: JsSequence) -> Fn:
    fns = [c.compile(v) for v in node.values]

    def sequence(env: Env) -> Any:
        value: Any = UNDEFINED
        for f in fns:
            value = f(env)
        return value

    return sequence


def _spread(c: _Compiler, node: JsSpread) -> Fn:
    inner = c.compile(node.value)
    return lambda env: inner(env)


# --- writing (on MemberJunction's copy) ----------------------------------------------------


class _Ref:
    """Reads and writes one assignment target."""

    def __init__(
        self, c: _Compiler, target: ast.expr, invalid: str = "Invalid left-hand side in assignment"
    ) -> None:
        self.kind = "name"
        self.invalid = invalid  # V8's ReferenceError when the target is a call
        self.name = ""
        self.obj: Fn | None = None
        self.key: Fn | None = None
        self.key_node: ast.expr | None = None  # a computed key's node (None: a written name)
        self.call: Fn | None = None
        self.items: list[_Ref | None] = []
        self.inner: _Ref | None = None  # a default's or a rest's own target
        self.default: Fn | None = None
        if isinstance(target, ast.Name):
            self.name = target.id
            self.local = c.is_local(target.id)
            self.read_name = c.compile(target)
        elif isinstance(target, ast.Attribute):
            self.kind = "member"
            self.obj = c.compile(target.value)
            attr = target.attr
            self.key = lambda env: attr
        elif isinstance(target, ast.Subscript):
            self.kind = "member"
            self.obj = c.compile(target.value)
            self.key = c.compile(target.slice)
            self.key_node = target.slice
        elif isinstance(target, ast.List):
            self.kind = "pattern"
            self.items = [None if isinstance(e, JsHole) else _Ref(c, e) for e in target.elts]
        elif isinstance(target, JsAssign) and target.op == "=":
            self.kind = "default"  # `[a = 1] = ...`: the default where the value is undefined
            self.inner = _Ref(c, target.target)
            if isinstance(target.target, ast.Name) and not getattr(target.target, "fx_paren", 0):
                _name_anonymous(target.value, target.target.id)
            self.default = c.compile(target.value)
        elif isinstance(target, JsSpread):
            self.kind = "rest"  # `[a, ...b] = ...`: what is left, as an array
            self.inner = _Ref(c, target.value)
        else:
            self.kind = "call"
            self.call = c.compile(target)

    def locate(self, env: Env, deleting: bool = False) -> tuple[Any, Any]:
        if self.kind == "member":
            assert self.obj is not None and self.key is not None
            obj = self.obj(env)
            key = self.key(env)
            if deleting and (obj is None or obj is UNDEFINED):
                raise js.JsError("Cannot convert undefined or null to object")  # ToObject
            # a null or undefined object fails when it is read or written: an assignment's
            # value runs first, a compound one reads first
            return obj, key
        if self.kind == "call":
            assert self.call is not None
            self.call(env)
            raise js.JsError(self.invalid)
        if self.inner is not None:  # a default's or a rest's target
            return self.inner.locate(env)
        return None, None

    def get(self, env: Env, where: tuple[Any, Any]) -> Any:
        if self.kind == "member":
            if where[0] is None or where[0] is UNDEFINED:
                raise _reading(self.key_node, where[1], where[0])
            return get_member(*where)
        return self.read_name(env)

    def set(self, env: Env, where: tuple[Any, Any], value: Any) -> None:
        if self.kind == "pattern":
            try:
                values = _pattern_values(value) if not js.is_nullish(value) else None
            except (_NotIterable, symkeys.NoNext):
                values = None
            if values is None:
                raise _not_iterable(value)  # V8's words: "number 1 is not iterable (...)"
            for i, ref in enumerate(self.items):
                if ref is None and type(values) is _Stepped:
                    values[i]  # an elision steps the iterator too
                if ref is not None:
                    spot = ref.locate(env)
                    if ref.kind == "rest":
                        ref.set(env, spot, list(values[i:]))
                    else:
                        ref.set(env, spot, values[i] if i < len(values) else UNDEFINED)
            return
        if self.inner is not None:  # a default's or a rest's target
            if self.default is not None and value is UNDEFINED:
                value = self.default(env)
            self.inner.set(env, where, value)
            return
        if self.kind == "member":
            if where[0] is None or where[0] is UNDEFINED:
                raise _reading(self.key_node, where[1], where[0], "set")
            set_member(where[0], where[1], value)
            return
        name = self.name
        if self.local:
            assert env.local is not None
            env.local[name] = value
            return
        if name in env.scope and name not in js.DROPPED_KEYS:
            if not isinstance(env.scope, dict) or not _on_copy(env):
                raise NeedsCopy
            env.scope[name] = value
            return
        if name in ("undefined", "NaN", "Infinity"):
            raise js.JsError(f"Cannot assign to read only property '{name}' of object '#<Object>'")
        if name in GLOBALS:
            raise security(
                f"assigning to the global '{name}' replaces it in the host's process, for every "
                "later condition"
            )
        raise js.JsError(f"{name} is not defined")


def _on_copy(env: Env) -> bool:
    from flowctx_core.expressions.js.common import mutation_allowed

    return mutation_allowed()


_COMPOUND: Final[dict[str, Callable[[Any, Any], Any]]] = {
    "+=": js.js_add, "-=": js.js_sub, "*=": js.js_mul, "/=": js.js_div, "%=": js.js_mod,
    "**=": js.js_pow, "<<=": js.js_lshift, ">>=": js.js_rshift, ">>>=": js.js_urshift,
    "&=": js.js_bitand, "|=": js.js_bitor, "^=": js.js_bitxor,
}  # fmt: skip


def _assign(c: _Compiler, node: JsAssign) -> Fn:
    target = node.target
    if (
        isinstance(target, ast.Name)
        and not getattr(target, "fx_paren", 0)  # `(f) = x => x` names nothing
        and node.op in ("=", "&&=", "||=", "??=")
    ):
        _name_anonymous(node.value, target.id)
    ref = _Ref(c, node.target)
    value = c.compile(node.value)
    op = node.op

    def assign(env: Env) -> Any:
        where = ref.locate(env)
        if op == "=":
            v = value(env)
        elif op in ("&&=", "||=", "??="):
            old = ref.get(env, where)
            keep = (
                not js.truthy(old)
                if op == "&&="
                else (js.truthy(old) if op == "||=" else not js.is_nullish(old))
            )
            if keep:
                return old
            v = value(env)
        else:
            old = ref.get(env, where)
            compound = _COMPOUND[op]
            if c.bigint:
                compound = bigint.aware(op[:-1], compound)
            v = compound(old, value(env))
        ref.set(env, where, v)
        return v

    return assign


def _update(c: _Compiler, node: JsUpdate) -> Fn:
    prefix = node.prefix
    where = "prefix" if prefix else "postfix"
    ref = _Ref(c, node.target, f"Invalid left-hand side expression in {where} operation")
    step = 1 if node.op == "++" else -1

    def update(env: Env) -> Any:
        where = ref.locate(env)
        old = ref.get(env, where)
        if type(old) is bigint.JsBigInt:
            new: Any = bigint.JsBigInt(old.big + step)
            ref.set(env, where, new)
            return new if prefix else old
        old = js.to_number(old)
        new = js.js_add(old, step)
        ref.set(env, where, new)
        return new if prefix else old

    return update


def _delete(c: _Compiler, node: JsDelete) -> Fn:
    target = node.operand
    if isinstance(target, JsChain) and isinstance(target.value, ast.Attribute | ast.Subscript):
        # `delete a?.b`: true where the chain stops, else the member's own delete
        member = _delete(c, JsDelete(operand=target.value))

        def delete_optional(env: Env) -> bool:
            try:
                return bool(member(env))
            except ShortCircuit:
                return True

        return delete_optional
    if not isinstance(target, ast.Attribute | ast.Subscript):
        inner = c.compile(target)

        def delete_value(env: Env) -> bool:
            inner(env)
            return True

        return delete_value
    ref = _Ref(c, target)

    def delete(env: Env) -> bool:
        obj, key = ref.locate(env, deleting=True)
        if type(obj) is js.JsFunction and obj.proxy is not None:
            obj = obj.proxy  # a Proxy around a function: its deleteProperty trap
        if type(obj) is JsProxy:
            return bool(obj.delete(key if symkeys.is_symbol_key(key) else js.property_key(key),
                                   strict=True))  # fmt: skip
        if symkeys.is_symbol_key(key):
            if not _on_copy(env) and type(obj) is not js.JsFunction:
                raise NeedsCopy
            symkeys.delete(obj, key)
            return True
        k = js.property_key(key)
        if k in js.OBJECT_MODEL_KEYS:
            raise security(f"deleting '{k}' changes the object model")
        check_delete(obj, k)
        if type(obj) is dict:
            if not _on_copy(env):
                raise NeedsCopy
            obj.pop(k, None)
            return True
        if type(obj) is JsArguments:
            obj.js_delete(k)  # made by this evaluation: every own key of it is configurable
            return True
        if type(obj) is list:
            index = js.array_index(k)
            if index is not None and index < len(obj):
                if not _on_copy(env):
                    raise NeedsCopy
                obj[index] = js.HOLE  # delete leaves a hole, not an undefined element
                return True
            if k == "length":
                raise js.JsError("Cannot delete property 'length' of [object Array]")
            if index is None and k in array_prop_keys(obj):  # a named key of its own
                if not _on_copy(env):
                    raise NeedsCopy
                arrayattrs.delete_named(obj, k)
            return True
        index = js.array_index(k) if type(obj) is str else None
        if type(obj) is str and (
            k == "length" or (index is not None and index < js.utf16_length(obj))
        ):
            raise js.JsError(f"Cannot delete property '{k}' of [object String]")
        if type(obj) is js.JsFunction and obj.props is not None and k in obj.props:
            del obj.props[k]  # an own property written on an arrow (check_delete passed)
            return True
        if type(obj) is js.JsFunction and k in ("length", "name"):
            if obj.owns_own(k):
                forget_own(obj, k)  # configurable: Function.prototype's shows through
            return True
        if k == "lastIndex" and type(obj).__name__ == "JsRegExp":  # not configurable
            raise js.JsError("Cannot delete property 'lastIndex' of [object RegExp]")
        if (
            isinstance(obj, js.JsObject)
            and descriptors.takes_descriptors(obj)
            and LENT["has_own"](obj, k)
            and not descriptors.configurable(obj, k)
        ):  # a String object's index or length
            raise js.JsError(f"Cannot delete property '{k}' of {js.shown_value(obj)}")
        if (
            isinstance(obj, js.JsObject)
            and descriptors.takes_descriptors(obj)
            and k in (getattr(obj, "props", None) or {})
        ):  # an own key of a Date, a Map...
            if not _on_copy(env):
                raise NeedsCopy
            del obj.props[k]  # type: ignore[attr-defined]
            return True
        # Math.PI and the other constants are not configurable: a TypeError in the strict
        # mode MemberJunction's function runs in; Math's methods can be deleted (true)
        if (
            type(obj) is js.JsNamespace
            and k in obj.members
            and not isinstance(obj.members[k], js.JsFunction)
        ):
            raise js.JsError(f"Cannot delete property '{k}' of #<Object>")
        return True

    return delete


_BUILDERS: Final[dict[type, Callable[[_Compiler, Any], Fn]]] = {
    ast.Constant: _constant,
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.Call: _call,
    ast.UnaryOp: _unary,
    ast.BinOp: _binop,
    ast.BoolOp: _boolop,
    ast.Compare: _compare,
    ast.IfExp: _ifexp,
    ast.List: _list,
    JsChain: _chain,
    JsOptional: _optional,
    JsCoalesce: _coalesce,
    JsTypeof: _typeof,
    JsVoid: _void,
    JsDelete: _delete,
    JsArrow: _arrow,
    JsAssign: _assign,
    JsUpdate: _update,
    JsSequence: _sequence,
    JsSpread: _spread,
    JsHole: _hole,
    JsBinary: _jsbinary,
    JsRegexLiteral: _regex_literal,
    JsNew: _new,
}


def compile_tree(text: str, tree: ast.expr, traced: bool = False) -> Fn:
    return _Compiler(text, traced).compile(tree)


# --- running ---------------------------------------------------------------------------------


class MjEval(SandboxEval):
    """Runs compiled closures; simpleeval's node dispatch is not used by this dialect."""

    def handlers(self) -> dict[type, Callable[[Any], Any]]:
        return {}

    def run(self, compiled: Compiled, scope: Mapping[str, Any]) -> Any:
        return run(compiled, scope)

    def run_traced(self, compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
        return run_traced(compiled, scope)


def _closures(compiled: Compiled, traced: bool) -> Fn:
    attr = "fx_traced" if traced else "fx_fast"
    fn: Fn | None = getattr(compiled.tree, attr, None)
    if fn is None:
        fn = compile_tree(compiled.text, compiled.tree, traced)
        setattr(compiled.tree, attr, fn)
    return fn


def _precheck_scope(compiled: Compiled, scope: Mapping[str, Any]) -> Mapping[str, Any]:
    """The scope as the function's parameters (rebound when a key is parameter text)."""
    problem = scope_problem(scope)
    if isinstance(problem, _Parameters):
        if "arguments" in compiled.text:
            # one value per key, bound to the names its text declares: not the names' values
            raise Unsupported("flowctx does not reproduce 'arguments' beside parameter-text keys")
        scope = _bind_parameters(scope, problem)
    elif problem is not None:
        raise js.JsError(_cannot_build(problem))
    return scope


def _shadowed(scope: Mapping[str, Any]) -> bool:
    return "Boolean" in scope or "Error" in scope


def _returned(compiled: Compiled, scope: Mapping[str, Any], run: Callable[[], Any]) -> Any:
    """The condition's value through MemberJunction's ``try { return Boolean(...) } catch (e)
    { throw new Error(...) }``, for a scope that names ``Boolean`` or ``Error``: the scope's
    value is called after the condition's own value is read (so the condition's error comes
    first), and any error thrown in the ``try`` meets the scope's ``Error``, no constructor."""
    try:
        value = run()
        if getattr(compiled.tree, "fx_wrapped", False) and "Boolean" in scope:
            raise js.JsError("Boolean is not a function")
        return value
    except js.JsError:
        if "Error" in scope:
            raise js.JsError("Error is not a constructor") from None
        raise


#: Python's own errors: raised inside the JavaScript evaluator, one is flowctx's fault and never
#: the engine's answer (a budget's, the stack's and memory's have messages of their own)
_INTERNAL: Final = (
    LookupError,
    TypeError,
    AttributeError,
    ValueError,
    ArithmeticError,
    AssertionError,
)
INTERNAL_ERROR: Final = "an error inside flowctx stopped it"


def _execute(compiled: Compiled, scope: Mapping[str, Any], env: Env, fn: Fn) -> Any:
    """The evaluation, where an error of flowctx's own is refused rather than shown as the
    engine's (a KeyError's "key not found" would read as an answer)."""
    try:
        return _evaluated(compiled, scope, env, fn)
    except SandboxError:
        raise
    except _INTERNAL as exc:
        raise Unsupported(
            f"flowctx does not reproduce this condition: {INTERNAL_ERROR}"
            f" ({type(exc).__name__}), so no answer is given"
        ) from exc


def _evaluated(compiled: Compiled, scope: Mapping[str, Any], env: Env, fn: Fn) -> Any:
    # JSON.parse's objects of the evaluation before (kept past its end: its value is shown)
    js.forget_kept_keys()
    js.CHANGED.table = None  # and the prototypes it changed
    js.ATTRIBUTES.table = None  # and the attributes it defined
    js.CHANGED.symbols = False  # and whether it keyed a property by a symbol
    js.CHANGED.elements = False  # and whether it put an accessor on an array's element
    js.LAST_MATCH.units = js.LAST_MATCH.spans = None  # and its last match (RegExp.$1)
    if getattr(compiled.tree, "fx_mutates", False):
        env.scope = clone(scope)
        set_on_copy(True)
        try:
            return fn(env)
        finally:
            set_on_copy(False)
    try:
        return fn(env)
    except NeedsCopy:
        env.scope = clone(scope)
        env.budget[0] = 0
        js.LAST_MATCH.units = js.LAST_MATCH.spans = None
        if env.trace is not None:
            env.trace.clear()
            env.err[0] = env.err[1] = None
        set_on_copy(True)
        try:
            return fn(env)
        finally:
            set_on_copy(False)


#: room on the stack for a function that calls itself (``payload.f = n => ... payload.f(n - 1)``,
#: ``(f => f(f, n))(...)``): as deep a text as this nests, about 3,000 calls of a small arrow
#: function (each takes about four interpreter frames); node's own stack holds about 10,000
CALL_ROOM: Final = 300


def _room(compiled: Compiled) -> int:
    depth: int = getattr(compiled.tree, "fx_depth", 0)
    return max(depth, CALL_ROOM) if "=>" in compiled.text else depth


def run(compiled: Compiled, scope: Mapping[str, Any]) -> Any:
    scope = _precheck_scope(compiled, scope)
    if _shadowed(scope):
        return _returned(compiled, scope, lambda: _run(compiled, scope))
    return _run(compiled, scope)


def _run(compiled: Compiled, scope: Mapping[str, Any]) -> Any:
    fn = getattr(compiled.tree, "fx_fast", None)
    depth = _room(compiled)
    try:
        if fn is not None and depth <= 30:
            return _execute(compiled, scope, Env(scope), fn)
        with deep_recursion(depth):
            return _execute(compiled, scope, Env(scope), fn or _closures(compiled, False))
    except RecursionError:
        # the text was shallow but its data is deep (``String(x)`` of an array 400 levels
        # deep): the rare path measures the data and runs again with room for it. Not for a
        # text with functions: one that calls itself through a built-in (a sort's comparator)
        # goes through the C stack on every call, and room for deep data would overflow it
        if "=>" in compiled.text:
            raise
        room = data_depth(scope)
        if room > MAX_DATA_ROOM:
            raise TooMuchWork(
                f"The data is nested more than {MAX_DATA_ROOM:,} levels deep: past flowctx's "
                "bound (node's own stack ends near 2,000 levels, at a depth its size decides)"
            ) from None
        if room <= depth:
            raise
        with deep_recursion(room):
            return _execute(compiled, scope, Env(scope), fn or _closures(compiled, False))


def run_traced(compiled: Compiled, scope: Mapping[str, Any]) -> Trace:
    trace = _run_traced(compiled, scope, _room(compiled))
    if isinstance(trace.error, RecursionError) and "=>" not in compiled.text:
        # deep data, measured only now (a large document is walked only when it is deep)
        room = data_depth(scope)
        if _room(compiled) < room <= MAX_DATA_ROOM:
            trace = _run_traced(compiled, scope, room)
    return trace


def _run_traced(compiled: Compiled, scope: Mapping[str, Any], room: int) -> Trace:
    records = Records()
    trace = Trace(records=records)
    env = Env(scope, records)
    try:
        scope = env.scope = _precheck_scope(compiled, scope)
        with deep_recursion(room):
            fn = _closures(compiled, True)
            if _shadowed(scope):
                bound = scope
                trace.value = _returned(compiled, bound, lambda: _execute(compiled, bound, env, fn))
            else:
                trace.value = _execute(compiled, scope, env, fn)
    except Exception as exc:
        trace.error = exc
        trace.error_node = env.err[1] if exc is env.err[0] else None
    return trace


_IDENT: Final = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)


def make_runner(compiled: Compiled) -> Callable[[Mapping[str, Any]], Any]:
    """The hot path of a shallow, non-mutating condition as one closure (re-checked on every
    keystroke and route decision); anything else goes through ``run``."""
    tree = compiled.tree
    fn: Fn = tree.fx_fast  # type: ignore[attr-defined]
    if getattr(tree, "fx_mutates", False) or getattr(tree, "fx_depth", 0) > 30:
        return lambda scope: run(compiled, scope)
    verdicts = _scope_verdicts
    last_match = js.LAST_MATCH

    def runner(scope: Mapping[str, Any]) -> Any:
        try:
            problem = verdicts[tuple(scope)]
        except (KeyError, TypeError):
            problem = scope_problem(scope)
        if problem is not None:
            if isinstance(problem, _Parameters):
                return run(compiled, scope)
            raise js.JsError(_cannot_build(problem))
        if "Boolean" in scope or "Error" in scope:
            return run(compiled, scope)
        env = Env(scope)
        last_match.units = None  # RegExp.$1 of an evaluation before is not this one's
        try:
            return fn(env)
        except NeedsCopy:
            return _execute(compiled, scope, Env(scope), fn)
        except RecursionError:
            return run(compiled, scope)  # deep data: ``run`` makes room for it

    return runner
