"""``structuredClone``: the HTML standard's structured serialization, as node 20 runs it on
the values an expression can hold. Plain objects and arrays are copied deep (own enumerable
keys, holes kept, named array keys kept, one copy per object so shared references stay
shared), Date, RegExp, Map, Set, primitive wrappers and errors by their internal state
(their own extra keys, prototypes and frozenness are dropped); functions and iterators throw
node's DataCloneError."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import arrayattrs
from flowctx_core.expressions.js.common import (
    LENT,
    Unsupported,
    array_prop_keys,
    attach_props,
)
from flowctx_core.expressions.js.constructors import JsCollection, JsErrorObject, JsWrapper
from flowctx_core.expressions.js.dates import JsDate
from flowctx_core.expressions.js.iterators import JsIterator
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.values import (
    ELEMENT,
    HOLE,
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    array_index,
    keep_all_keys,
    keeps_all_keys,
    own_keys,
    shown_value,
    to_string,
    typeof,
)

#: the error names V8's serializer keeps; any other name comes back as a plain Error
_ERROR_NAMES: Final = frozenset(
    {"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"}
)


def _not_cloned(shown: str) -> JsError:
    return JsError(f"{shown} could not be cloned.")


def _proxy_shown(proxy: JsProxy) -> str:
    """How V8's DataCloneError names a proxy: its innermost target as its messages name a
    value (nothing run), ``null`` once revoked."""
    target = proxy.target
    while type(target) is JsProxy:
        target = target.target
    return "null" if target is None else shown_value(target)


class _Cloner:
    def __init__(self) -> None:
        # one copy per object met: ``[a, a]`` clones to two references to one copy
        self.memo: dict[int, tuple[Any, Any]] = {}

    def clone(self, v: Any) -> Any:
        t = type(v)
        if t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED:
            return v
        if isinstance(v, JsObject) and v.js_typeof() == "bigint":
            return v  # a primitive
        if isinstance(v, JsObject) and v.js_typeof() == "symbol":
            raise _not_cloned(repr(v))
        if t is JsProxy:
            raise _not_cloned(_proxy_shown(v))  # no trap runs: the serializer refuses proxies
        seen = self.memo.get(id(v))
        if seen is not None and seen[0] is v:
            return seen[1]
        charge(ELEMENT)
        if t is JsFunction:
            # a callable proxy is named by its target's text, as V8 names it in messages
            raise _not_cloned(shown_value(v) if v.proxy is not None else to_string(v))
        if t is list or t is tuple:
            return self._array(v)
        if t is JsCreated or t is JsNamespace or isinstance(v, Mapping):
            return self._object(v)
        if t is JsDate:
            return self._keep(v, JsDate(v.tv))
        if t is JsWrapper:
            if typeof(v.value) == "symbol":
                raise _not_cloned("[object Symbol]")
            return self._keep(v, JsWrapper(v.value))
        if t is JsErrorObject:
            # the name read (one of the standard ones, else Error), the message if it is own
            name = v.js_get("name")
            name = name if type(name) is str and name in _ERROR_NAMES else "Error"
            owns = v.own_message or "message" in v.props
            out = JsErrorObject(name, v.js_get("message") if owns else UNDEFINED)
            return self._keep(v, out)
        if t is JsCollection:
            out = self._keep(v, JsCollection(v.is_set))
            for key, value in list(v.entries.values()):
                charge(ELEMENT)
                copy = self.clone(key)
                out.put(copy, copy if v.is_set else self.clone(value))
            return out
        if t is JsIterator:
            raise _not_cloned("#<Object>")
        if type(v).__name__ in ("JsWeakCollection", "JsPromise"):
            raise _not_cloned(shown_value(v))  # a WeakMap, a WeakRef, a Promise: not serializable
        if type(v).__name__ == "JsRegExp":
            # a fresh RegExp of the same source and flags: lastIndex starts again at 0
            return self._keep(v, type(v)(v.source, v.flags, v.literal))
        host = getattr(v, "js_clone", None)  # the host classes (typed arrays...) clone themselves
        if host is not None:
            return host(self)
        raise Unsupported(
            f"flowctx does not reproduce structuredClone of {to_string(v)}",
            anonymous=f"flowctx does not reproduce structuredClone of this {typeof(v)}",
        )

    def _keep(self, source: Any, copy: Any) -> Any:
        self.memo[id(source)] = (source, copy)
        return copy

    def _array(self, arr: Any) -> list[Any]:
        out: list[Any] = self._keep(arr, [])
        charge(ELEMENT * len(arr))
        get_member = LENT["get_member"]
        named = array_prop_keys(arr)
        if type(arr) is list and arrayattrs.has_attributes(arr):
            # V8 writes an array whose properties have attributes as a sparse one: its
            # length, then each own enumerable key still there when it is reached, read
            # with Get (a getter runs, and may take later keys away)
            n = len(arr)
            keys = [str(i) for i, x in enumerate(arr) if x is not HOLE] + named
            out.extend([HOLE] * n)
            props: dict[str, Any] = {}
            for k in arrayattrs.enumerable_keys(arr, keys):
                index = array_index(k)
                if index is None:
                    if k in array_prop_keys(arr):
                        props[k] = self.clone(get_member(arr, k))
                elif index < len(arr) and arr[index] is not HOLE:
                    out[index] = self.clone(get_member(arr, k))
            if props:
                attach_props(out, props)
            return out
        out.extend(HOLE if x is HOLE else self.clone(x) for x in arr)
        if named:
            attach_props(out, {k: self.clone(get_member(arr, k)) for k in named})
        return out

    def _object(self, obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = self._keep(obj, {})
        if type(obj) is JsNamespace:
            return out  # a namespace's members are not enumerable: an empty object
        if keeps_all_keys(obj):
            keep_all_keys(out)
        get_member = LENT["get_member"]
        for k in own_keys(obj):
            out[k] = self.clone(get_member(obj, k))
        return out


def structured_clone(*args: Any) -> Any:
    """``structuredClone(value, options)``."""
    if not args:
        raise JsError("The value argument must be specified")
    if len(args) > 1:
        options = args[1]
        if options is not None and options is not UNDEFINED:
            if typeof(options) not in ("object", "function"):
                raise JsError("The options argument must be either an object or undefined")
            if LENT["get_member"](options, "transfer") is not UNDEFINED:
                raise Unsupported("flowctx does not reproduce structuredClone's transfer list")
    return _Cloner().clone(args[0])


def register(globals_: dict[str, Any]) -> None:
    globals_["structuredClone"] = JsFunction("structuredClone", structured_clone, arity=0)
