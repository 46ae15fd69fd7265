"""Properties keyed by a symbol (``payload.o[Symbol('k')] = 1``, ``Object.getOwnPropertySymbols``)
on the objects a condition writes: plain and created objects keep a symbol as a key of their
dict (a symbol's identity is the Python object's), a function the condition made keeps it
among its own properties. The built-in prototypes' symbol-keyed members an expression can
read as values (an array's ``Symbol.iterator``, Map.prototype's ``Symbol.toStringTag``) are
given; the ones that are functions of the host (Date.prototype's ``Symbol.toPrimitive``...)
are refused by name.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.common import LENT, Unsupported, _mutating, _state
from flowctx_core.expressions.js.iterators import ITERATOR_ITSELF, SEGMENTS_ITERATOR, JsIterator
from flowctx_core.expressions.js.prototypes import JsPrototype, prototype, prototype_of
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.symbols import WELL_KNOWN, JsSymbol
from flowctx_core.expressions.js.values import (
    CHANGED,
    ELEMENT,
    GENERIC,
    KEPT,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    changed_prototype,
    default_call_site,
    host_refusal,
    js_value,
    shown_value,
    to_int,
    to_string,
    truthy,
    typeof,
)

ITERATOR: Final = WELL_KNOWN["iterator"]
TO_PRIMITIVE: Final = WELL_KNOWN["toPrimitive"]
TO_STRING_TAG: Final = WELL_KNOWN["toStringTag"]
HAS_INSTANCE: Final = WELL_KNOWN["hasInstance"]
CONCAT_SPREADABLE: Final = WELL_KNOWN["isConcatSpreadable"]

#: the tag each built-in prototype (or namespace) holds under Symbol.toStringTag
_TAGS: Final = {"Map": "Map", "Set": "Set", "WeakMap": "WeakMap", "WeakSet": "WeakSet",
                "Symbol": "Symbol", "BigInt": "BigInt"}  # fmt: skip
_NAMESPACE_TAGS: Final = frozenset({"Math", "JSON", "Reflect", "Atomics", "Intl"})
#: the symbol-keyed methods of the built-in prototypes, by prototype
_METHODS: Final = {
    "Array": ("iterator", "unscopables"), "String": ("iterator",), "Map": ("iterator",),
    "Set": ("iterator",), "Date": ("toPrimitive",), "Symbol": ("toPrimitive",),
    "RegExp": ("match", "matchAll", "replace", "search", "split"),
    "Function": ("hasInstance",),
}  # fmt: skip
_ITERATES_AS: Final = {"Array": "values", "Map": "entries", "Set": "values"}


def is_symbol_key(key: Any) -> bool:
    return type(key) is JsSymbol


def keeps(obj: Any) -> bool:
    """Whether ``obj`` holds symbol-keyed properties of its own here."""
    return type(obj) is dict or type(obj) is JsCreated or type(obj) is list or (
        type(obj) is JsFunction and obj.owned
    ) or _props_object(obj)  # fmt: skip


def _props_object(obj: Any) -> bool:
    """A Date, a Map, a Set, a Number or Boolean object: its own keys, symbols too, are all
    the condition's, in its ``props``."""
    return isinstance(obj, JsObject) and bool(LENT["takes_descriptors"](obj))


def _own_store(obj: Any) -> dict[Any, Any] | None:
    if type(obj) is dict or type(obj) is JsCreated:
        return obj  # type: ignore[no-any-return]
    if type(obj) is JsFunction:
        return obj.props
    if _props_object(obj):
        return obj.props  # type: ignore[attr-defined,no-any-return]
    if type(obj) is list:  # beside the array's named keys
        entry = getattr(_state, "array_props", {}).get(id(obj))
        return entry[1] if entry is not None and entry[0] is obj else None  # type: ignore[no-any-return]
    return None


def own_symbols(obj: Any) -> list[JsSymbol]:
    """Object.getOwnPropertySymbols: the symbol keys in the order they were added."""
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function
    if type(obj) is JsProxy:
        return [k for k in obj.own_keys() if type(k) is JsSymbol]
    internal = _NODE_INTERNALS.get(type(obj).__name__)
    if internal is not None:
        raise Unsupported(
            host_refusal(
                f"the symbol keys of a {internal}",
                "node keeps its internal state, a native handle among it, under them",
            )
        )
    store = _own_store(obj)
    written = [k for k in store if type(k) is JsSymbol] if store else []
    if _is_arguments(obj) and ITERATOR not in written:
        return [ITERATOR, *written]  # made with the object
    return written


#: node's classes whose instances hold their state under symbol keys of node's own modules
_NODE_INTERNALS: Final = {"JsTextEncoder": "TextEncoder", "JsTextDecoder": "TextDecoder"}


def _is_arguments(obj: Any) -> bool:
    """An arguments object (``arguments.py``, which reads members through modules that read
    symbol keys through this one: named, not imported)."""
    return type(obj).__name__ == "JsArguments"


def has_own(obj: Any, sym: JsSymbol) -> bool:
    if sym is ITERATOR and _is_arguments(obj):
        return True
    store = _own_store(obj)
    return bool(store) and sym in store  # type: ignore[operator]


def get(obj: Any, sym: JsSymbol) -> Any:
    """``obj[sym]``."""
    if obj is None or obj is UNDEFINED:
        kind = "null" if obj is None else "undefined"
        raise JsError(f"Cannot read properties of {kind} (reading '{sym.shown()}')")
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function
    if type(obj) is JsProxy:
        return obj.js_get(sym)
    node: Any = obj
    while True:
        store = _own_store(node)
        if store and sym in store:
            return js_value(store[sym])
        if sym is ITERATOR and _is_arguments(node):
            # an own property of every arguments object: Array.prototype.values itself
            return LENT["get_member"](prototype("Array"), "values")
        if sym is ITERATOR and type(node).__name__ == "Segments":
            return _segments_iterator(node)  # %SegmentsPrototype%[@@iterator]
        if type(node) is JsIterator and changed_prototype(node) is KEPT:
            if sym is ITERATOR:  # %IteratorPrototype%[@@iterator]: the iterator itself
                return _returns_itself(node)
            if sym is TO_STRING_TAG:
                return node.kind  # "Array Iterator", "Segmenter String Iterator"...
        if type(node) is JsCreated:
            node = node.proto
            if node is None:
                return UNDEFINED
            continue
        return _built_in(node, sym, obj)


def _built_in(node: Any, sym: JsSymbol, receiver: Any) -> Any:
    """``sym`` read from the built-in part of a chain (``node`` onwards)."""
    if type(node) is JsNamespace:
        return node.name if sym is TO_STRING_TAG and node.name in _NAMESPACE_TAGS else UNDEFINED
    p = node if type(node) is JsPrototype else prototype_of(node)
    while p is not None:
        if type(p) is not JsPrototype and not (type(p) is JsFunction and p.ident):
            store = _own_store(p)  # a changed chain through an object of the condition's
            if store and sym in store:
                return js_value(store[sym])
            p = prototype_of(p)
            continue
        kind = p.kind if type(p) is JsPrototype else "Function"
        if sym is TO_STRING_TAG and kind in _TAGS:
            return _TAGS[kind]
        names = _METHODS.get(kind, ())
        for name in names:
            if sym is WELL_KNOWN[name]:
                if name == "iterator" and kind in _ITERATES_AS:
                    return LENT["get_member"](p, _ITERATES_AS[kind])
                method = _SYMBOL_METHODS.get((kind, name))
                if method is not None:
                    fn = JsFunction(
                        f"[Symbol.{name}]", partial(method, receiver), arity=_ARITY[name],
                        ident=f"{kind}.prototype[Symbol.{name}]",
                    )  # fmt: skip
                    fn.method, fn.receiver = _bound_only, receiver
                    return fn
                raise Unsupported(
                    f"flowctx does not reproduce {kind}.prototype[Symbol.{name}] as a value"
                )
        p = prototype_of(p)
    return UNDEFINED


def built_in_symbols(p: Any) -> list[JsSymbol]:
    """The symbol keys a built-in prototype or namespace owns, in node's order."""
    if type(p) is JsNamespace:
        return [TO_STRING_TAG] if p.name in _NAMESPACE_TAGS else []
    kind = p.kind if type(p) is JsPrototype else "Function"
    found = [WELL_KNOWN[name] for name in _METHODS.get(kind, ())]
    if kind in _TAGS:  # node lists the tag first, except Symbol.prototype's
        found = [*found, TO_STRING_TAG] if kind == "Symbol" else [TO_STRING_TAG, *found]
    return found


def segments_iterator(this: Any) -> JsIterator:
    """%SegmentsPrototype%[Symbol.iterator] called on ``this``: a Segment Iterator over its
    segments (each the data object the spread of it gives), or V8's TypeError, which names
    the prototype %SegmentIsPrototype%."""
    if type(this).__name__ != "Segments":
        shown = shown_value(this)
        raise JsError(
            f"Method %SegmentIsPrototype%[@@iterator] called on incompatible receiver {shown}",
            anonymous="Method %SegmentIsPrototype%[@@iterator] called on incompatible receiver",
        )
    return JsIterator("Segmenter String Iterator", this.js_iter())


def _segments_iterator(segments: Any) -> JsFunction:
    """A Segments object's Symbol.iterator (called on another value: call_with_this)."""
    fn = JsFunction(
        "[Symbol.iterator]", lambda *_: segments_iterator(segments), arity=0,
        ident=SEGMENTS_ITERATOR,
    )  # fmt: skip
    fn.method, fn.receiver = _bound_only, segments
    return fn


def _returns_itself(it: JsIterator) -> JsFunction:
    """A built-in iterator's Symbol.iterator (%IteratorPrototype%'s): it returns its this."""
    fn = JsFunction("[Symbol.iterator]", lambda *_: it, arity=0, ident=ITERATOR_ITSELF)
    fn.method, fn.receiver = _bound_only, it
    return fn


def _bound_only(*_: Any) -> Any:
    """The marker of a symbol-keyed built-in method read from a value: called on another
    receiver (``.call``), it is refused as not reproduced (call_with_this)."""
    raise AssertionError("called through call_with_this")


def _string_iterator(this: Any, *_: Any) -> Any:
    if this is None or this is UNDEFINED:
        raise JsError("String.prototype[Symbol.iterator] called on null or undefined")
    text = to_string(this)
    charge(ELEMENT * len(text))
    return JsIterator("String Iterator", list(text))  # by code points


def _has_instance(this: Any, v: Any = UNDEFINED, *_: Any) -> Any:
    """Function.prototype[Symbol.hasInstance]: OrdinaryHasInstance(this, v)."""
    if type(this) is not JsFunction:
        return False
    return LENT["instanceof"](v, this)


def _date_to_primitive(this: Any, hint: Any = UNDEFINED, *_: Any) -> Any:
    if typeof(this) not in ("object", "function") or this is None:
        shown = shown_value(this)
        raise JsError(
            f"Method Date.prototype [ @@toPrimitive ] called on incompatible receiver {shown}",
            anonymous="Method Date.prototype [ @@toPrimitive ] called on incompatible receiver",
        )
    if hint not in ("string", "default", "number"):
        shown = "undefined" if hint is UNDEFINED else shown_value(hint)
        raise JsError(f"Invalid hint: {shown}", anonymous="Invalid hint")
    if type(this).__name__ == "JsDate" and changed_prototype(this) is KEPT:
        if not getattr(this, "props", None):
            return this.js_primitive("number" if hint == "number" else "string")
        # OrdinaryToPrimitive through [[Get]]: an own valueOf or toString stands first
        get_member, call_with_this = LENT["get_member"], LENT["call_with_this"]
        order = ("valueOf", "toString") if hint == "number" else ("toString", "valueOf")
        for name in order:
            method = get_member(this, name)
            if type(method) is JsFunction:
                result = (
                    call_with_this(method, this, []) if method.method is not None else method.fn()
                )
                if typeof(result) not in ("object", "function") or result is None:
                    return result
        raise JsError("Cannot convert object to primitive value")
    raise Unsupported("flowctx does not reproduce Date.prototype[Symbol.toPrimitive] on this value")


def _symbol_to_primitive(this: Any, *_: Any) -> Any:
    if type(this) is JsSymbol:
        return this
    if type(this).__name__ == "JsWrapper" and type(this.value) is JsSymbol:
        return this.value  # thisSymbolValue of a Symbol object
    raise JsError("Symbol.prototype [ @@toPrimitive ] requires that 'this' be a Symbol")


def _regexp_symbol(name: str) -> Any:
    """RegExp.prototype[Symbol.match / replace / search / split] of a RegExp whose chain is
    the built-in one: ToString of the text, then what the string method of that name does
    with the RegExp (which calls this very method); matchAll of a non-global RegExp (where
    String.prototype.matchAll throws) gives its one match. Other receivers are refused."""

    def method(this: Any, text: Any = UNDEFINED, *rest: Any) -> Any:
        plain = type(this).__name__ == "JsRegExp" and changed_prototype(this) is KEPT
        if not plain:
            raise Unsupported(
                f"flowctx does not reproduce RegExp.prototype[Symbol.{name}] on this value"
            )
        s = to_string(text)
        if name == "matchAll" and "g" not in this.flags:
            # a copy of the RegExp (its lastIndex too) matched once: one result, then done
            matcher = type(this)(this.source, this.flags, this.literal)
            matcher.last_index = this.last_index
            found = LENT["call_with_this"](LENT["get_member"](matcher, "exec"), matcher, [s])
            return JsIterator("RegExp String Iterator", [] if found is None else [found])
        found = LENT["get_member"](s, name)
        return LENT["call_with_this"](found, s, [this, *rest[: 1 if name in _TWO else 0]])

    return method


_TWO: Final = frozenset({"replace", "split"})
_SYMBOL_METHODS: Final = {
    ("String", "iterator"): _string_iterator, ("Function", "hasInstance"): _has_instance,
    ("Date", "toPrimitive"): _date_to_primitive, ("Symbol", "toPrimitive"): _symbol_to_primitive,
    **{("RegExp", name): _regexp_symbol(name)
       for name in ("match", "matchAll", "replace", "search", "split")},
}  # fmt: skip
_ARITY: Final = {"iterator": 0, "hasInstance": 1, "toPrimitive": 1, "match": 1, "matchAll": 1,
                 "replace": 2, "search": 1, "split": 2}  # fmt: skip


def has(obj: Any, sym: JsSymbol) -> bool:
    """``sym in obj``."""
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function
    if type(obj) is JsProxy:
        return obj.js_has(sym)
    if _holds_undefined(obj, sym):
        return True  # its own or its chain's: no getter runs to find it
    try:
        return get(obj, sym) is not UNDEFINED
    except Unsupported:
        return True  # a built-in's own symbol-keyed method: there, whatever it is


def _holds_undefined(obj: Any, sym: JsSymbol) -> bool:
    node: Any = obj
    while node is not None:
        store = _own_store(node)
        if store and sym in store:
            return True
        node = node.proto if type(node) is JsCreated else None
    return False


def put(obj: Any, sym: JsSymbol, value: Any) -> None:
    """``obj[sym] = value``."""
    if obj is None or obj is UNDEFINED:
        kind = "null" if obj is None else "undefined"
        raise JsError(f"Cannot set properties of {kind} (setting '{sym.shown()}')")
    t = type(obj)
    if t is JsFunction and obj.proxy is not None:
        obj, t = obj.proxy, JsProxy  # a Proxy around a function
    if t is JsProxy:
        obj.put(sym, value, strict=True)
        return
    if t in (str, int, float, bool):
        shown = to_string(obj)
        raise JsError(
            f"Cannot create property '{sym.shown()}' on {typeof(obj)} '{shown}'",
            anonymous=f"Cannot create property '{sym.shown()}' on a {typeof(obj)}",
        )
    if not keeps(obj):
        what = "arrays" if t in (list, tuple) else f"{typeof(obj)} values of this kind"
        raise Unsupported(f"flowctx does not reproduce properties keyed by a symbol on {what}")
    if _props_object(obj) and not has_own(obj, sym) and _read_only_built_in(obj, sym):
        # the class's prototype holds it read-only (Map's Symbol.toStringTag, Date's
        # Symbol.toPrimitive): an assignment may not shadow it
        raise JsError(
            f"Cannot assign to read only property '{sym.shown()}' of object '{shown_value(obj)}'"
        )
    LENT["check_integrity"](obj, sym)
    if t is list:
        if has_own(obj, sym) and LENT["array_set"](obj, sym, value):
            return  # its setter ran
        _mutating()
        _state.array_props.setdefault(id(obj), (obj, {}))[1][sym] = value
        return
    if t is JsFunction and sym is HAS_INSTANCE and not has_own(obj, sym):
        # Function.prototype's is read-only: an assignment may not shadow it
        raise JsError(
            "Cannot assign to read only property 'Symbol(Symbol.hasInstance)' of function "
            f"'{shown_value(obj)}'"
        )
    if LENT["has_accessors"]():
        LENT["assign"](obj, sym, value)
        return
    if t is JsFunction or _props_object(obj):
        if obj.props is None:
            obj.props = {}
        obj.props[sym] = value
        return
    if LENT["has_accessors"]():
        LENT["assign"](obj, sym, value)
        return
    _mutating()
    obj[sym] = value


def _read_only_built_in(obj: Any, sym: JsSymbol) -> bool:
    """Whether ``sym`` is a read-only property of the built-in part of ``obj``'s chain: every
    Symbol.toStringTag there, and Date.prototype's Symbol.toPrimitive."""
    if sym is not TO_STRING_TAG and sym is not TO_PRIMITIVE:
        return False
    try:
        return _built_in(obj, sym, obj) is not UNDEFINED
    except Unsupported:
        return True  # Date.prototype[Symbol.toPrimitive], not held as a value here


def symbol_keyed(v: Any) -> bool:
    """Whether Symbol.toPrimitive or Symbol.toStringTag stands on a condition's object's
    chain (its conversions and tag then walk it)."""
    node: Any = v
    while node is not None:
        store = _own_store(node)
        if store and (TO_PRIMITIVE in store or TO_STRING_TAG in store):
            return True
        node = node.proto if type(node) is JsCreated else None
    return False


def spreadable(v: Any) -> bool:
    """Symbol.isConcatSpreadable a condition set on its object (true: concat spreads it)."""
    if not keeps(v):
        return False
    flag = own_chain_get(v, CONCAT_SPREADABLE)
    return flag is not UNDEFINED and truthy(flag)


def concat_flag(v: Any) -> Any:
    """Symbol.isConcatSpreadable as a condition set it on its object (undefined if not)."""
    return own_chain_get(v, CONCAT_SPREADABLE) if keeps(v) else UNDEFINED


GENERIC.update(has_symbol=has, symbol_get=get, symbol_keyed=symbol_keyed, spreadable=spreadable,
               concat_flag=concat_flag)  # fmt: skip


class NoNext(JsError):
    """A Symbol.iterator or an iterator's ``next`` that is no function: a spread names the
    value it spreads instead."""


def own_chain_get(obj: Any, sym: JsSymbol) -> Any:
    """``obj[sym]`` from the condition's own objects of its chain only (the built-in part
    answers with its default: Function.prototype's Symbol.hasInstance is instanceof's own)."""
    node: Any = obj
    while node is not None:
        store = _own_store(node)
        if store and sym in store:
            return js_value(store[sym])
        node = node.proto if type(node) is JsCreated else None
    return UNDEFINED


def _reprototyped(v: Any) -> bool:
    """An array whose prototype the condition changed: its Symbol.iterator is looked up along
    its new chain (a null prototype, or a plain object's, has none)."""
    return type(v) is list and bool(CHANGED.table) and changed_prototype(v) is not KEPT


def _arrays_own(method: Any) -> bool:
    """Array.prototype's Symbol.iterator, found along a changed chain: the elements."""
    return type(method) is JsFunction and method.ident == "Array.prototype.values"


def iterate_method(v: Any) -> Any:
    """A condition's object's Symbol.iterator (UNDEFINED when it has none)."""
    if not (CHANGED.symbols or _reprototyped(v)) or not keeps(v):
        return UNDEFINED
    return get(v, ITERATOR)


def chained(v: Any) -> bool:
    """An object whose prototype the condition changed (any kind): its Symbol.iterator is
    its new chain's."""
    if type(v) is JsCreated:
        return True  # Object.create's: its chain is the one it was given
    return bool(CHANGED.table) and typeof(v) in ("object", "function") and v is not None and (
        changed_prototype(v) is not KEPT
    )  # fmt: skip


def run_iterator(method: Any, v: Any) -> list[Any]:
    """GetIterator(v) with ``method`` (its Symbol.iterator, found along its chain, not
    nullish) and every step of it: a built-in one runs on ``v`` as V8's does."""
    ident = getattr(method, "ident", None) or ""
    get_member = LENT["get_member"]
    if ident in ("Array.prototype.values", "Array.prototype.keys", "Array.prototype.entries"):
        if type(v) is list or type(v) is tuple:
            items = [js_value(x) for x in v]
        else:  # an array-like: its length, then each index, as the array iterator reads them
            length = to_int(get_member(v, "length"))
            n = int(min(max(length, 0), MAX_STRING_LENGTH + 1))
            if n > MAX_STRING_LENGTH:
                raise Unsupported("flowctx does not reproduce an iterator this long")
            charge(ELEMENT * n)
            items = [get_member(v, str(i)) for i in range(n)]
        if ident.endswith("keys"):
            return list(range(len(items)))
        if ident.endswith("entries"):
            return [[i, x] for i, x in enumerate(items)]
        return items
    kind, _, name = ident.partition(".prototype.")
    if kind in ("Map", "Set") and name in ("values", "keys", "entries"):
        if type(v).__name__ == "JsCollection" and v.is_set == (kind == "Set"):
            pairs = list(v.entries.values())
            if name == "entries":
                return [[k, k if v.is_set else x] for k, x in pairs]
            return [k if name == "keys" or v.is_set else x for k, x in pairs]
        raise JsError(
            f"Method {ident} called on incompatible receiver {GENERIC['shown'](v)}",
            anonymous=f"Method {ident} called on incompatible receiver",
        )
    return iterate_by(method)


def iterate(v: Any) -> list[Any] | None:
    """The items of a condition's object that has Symbol.iterator (an arrow giving an
    iterator: a built-in one, or an object whose ``next`` gives ``{value, done}`` objects);
    None when it has none."""
    if type(v) is not list and chained(v):  # along the chain the condition gave it
        method = get(v, ITERATOR)
        if method is UNDEFINED or method is None:
            raise NoNext("Symbol.iterator is not a function")
        return run_iterator(method, v)
    if not (CHANGED.symbols or _reprototyped(v)) or not keeps(v):
        return None
    if type(v) is list and not has_own(v, ITERATOR) and not _reprototyped(v):
        return None  # Array.prototype's: the array's elements
    if _props_object(v) and not has_own(v, ITERATOR) and changed_prototype(v) is KEPT:
        return None  # its class's iterator (a Map's entries, a Set's values)
    method = get(v, ITERATOR)
    if method is UNDEFINED or method is None:
        if type(v) is list or (_props_object(v) and has_own(v, ITERATOR)):
            # its own or its chain's, undefined: not iterable
            raise NoNext("Symbol.iterator is not a function")
        return None
    if type(v) is list and _arrays_own(method):
        return None
    return run_iterator(method, v)


def iterate_by(method: Any) -> list[Any]:
    """The items an object's Symbol.iterator ``method`` (not nullish) gives."""
    if type(method) is not JsFunction:
        raise NoNext(
            f"{default_call_site(method)} is not a function",
            anonymous="Symbol.iterator is not a function",
        )
    it = method.fn()  # a function the condition made: it reads no this
    if isinstance(it, JsObject) and type(it).__name__ == "JsIterator":
        got = it.js_iter()
        return list(got) if got is not None else []
    if typeof(it) not in ("object", "function") or it is None:
        raise JsError("Result of the Symbol.iterator method is not an object")
    get_member = LENT["get_member"]
    items: list[Any] = []
    step = get_member(it, "next")  # read once, as GetIterator keeps it
    if type(step) is not JsFunction:
        raise NoNext(
            f"{default_call_site(step)} is not a function",
            anonymous="the iterator's next is not a function",
        )
    while True:
        result = LENT["call_with_this"](step, it, []) if step.method is not None else step.fn()
        if typeof(result) not in ("object", "function") or result is None:
            raise JsError(
                f"Iterator result {shown_value(result)} is not an object",
                anonymous="Iterator result is not an object",
            )
        if truthy(get_member(result, "done")):
            return items
        charge(ELEMENT)
        if len(items) >= MAX_STRING_LENGTH:
            raise Unsupported("flowctx does not reproduce an iterator this long")
        items.append(get_member(result, "value"))


def delete(obj: Any, sym: JsSymbol) -> None:
    store = _own_store(obj)
    if store and sym in store:
        LENT["check_delete"](obj, sym)
        if type(obj) is not JsFunction:
            _mutating()
        del store[sym]


LENT["iterate_by"] = iterate_by


def iterate_for_collection(v: Any) -> Any:
    """``iterate`` for the Map and Set constructors: "uncallable" when Symbol.iterator or
    its ``next`` is not a function (their own "is not iterable" error then)."""
    if chained(v) and type(v) is not list:
        method = get(v, ITERATOR)
        if method is UNDEFINED or method is None or type(method) is not JsFunction:
            return "uncallable"
    elif keeps(v) and (type(v) is not list or has_own(v, ITERATOR) or _reprototyped(v)):
        method = get(v, ITERATOR)
        nullish = method is UNDEFINED or method is None
        if (type(v) is list and nullish) or (not nullish and type(method) is not JsFunction):
            return "uncallable"
    return iterate(v)  # a ``next`` that is no function: "... is not a function"


GENERIC["iterate"] = iterate_for_collection
GENERIC["holds_symbol"] = _holds_undefined


def _own_tag(v: Any) -> Any:
    """An object's own Symbol.toStringTag data property (how V8's errors name it), or None."""
    store = _own_store(v)
    tag = store.get(TO_STRING_TAG) if store else None
    return tag if type(tag) is str else None


GENERIC["own_tag"] = _own_tag
