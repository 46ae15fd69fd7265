"""The ``Reflect`` namespace as ECMAScript defines it (section 28.1): each function checks that
its target is an object (V8's "Reflect.<name> called on non-object") and then does what the
matching internal method does, through the same reads and writes the rest of the evaluator
uses (``Object.*`` for the ones that share an algorithm). Where ``Object.*`` throws on a
refused write, ``Reflect.set``/``deleteProperty`` answer false."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from flowctx_core.expressions.js import arrayattrs, proxies, symkeys
from flowctx_core.expressions.js.common import (
    LENT,
    Unsupported,
    _mutating,
    array_prop_keys,
    not_callable,
)
from flowctx_core.expressions.js.constructors import JsErrorObject
from flowctx_core.expressions.js.descriptors import define, to_descriptor
from flowctx_core.expressions.js.extras import args_of, function_member
from flowctx_core.expressions.js.objects import (
    builtin_attributes,
    check_delete,
    forget_own,
    set_member,
)
from flowctx_core.expressions.js.prototypes import (
    FUNCTION_PROTOTYPE,
    JsPrototype,
    change_prototype,
    prototype_of,
    refusal_to_change,
)
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.symbols import JsSymbol
from flowctx_core.expressions.js.values import (
    HOLE,
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    array_index,
    js_in,
    own_has,
    property_key,
    shown_value,
    to_string,
    typeof,
)

#: what V8 says after "which is" when Reflect.apply is handed no function
_ARTICLE: Final = {"object": "an object", "undefined": "a undefined"}
#: the TypeErrors of a refused write, which Reflect.set answers with false
_REFUSED_WRITES: Final = (
    "Cannot assign to read only property", "Cannot add property", "Cannot delete property",
    "Cannot create property", "Cannot set property",
)  # fmt: skip


def shown_of(v: Any) -> str:
    return not_callable(v)


def is_object(v: Any) -> bool:
    return v is not None and typeof(v) in ("object", "function")


def _target(name: str, v: Any) -> Any:
    if not is_object(v):
        raise JsError(f"Reflect.{name} called on non-object")
    return v


def _arg_list(v: Any) -> list[Any]:
    """CreateListFromArrayLike: only an object gives a list of arguments."""
    if not is_object(v):
        raise JsError("CreateListFromArrayLike called on non-object")
    return [v]


def _apply(fn: Any = UNDEFINED, this: Any = UNDEFINED, args: Any = UNDEFINED, *_: Any) -> Any:
    if type(fn) is not JsFunction:
        kind = "null" if fn is None else typeof(fn)
        which = "null" if fn is None else _ARTICLE.get(kind, f"a {kind}")
        raise JsError(
            f"Function.prototype.apply was called on {not_callable(fn)}, which is {which} and "
            "not a function",
            anonymous=f"Function.prototype.apply was called on a value which is {which} and "
            "not a function",
        )
    _arg_list(args)
    applied = function_member(fn, "apply")
    assert applied is not None
    return applied.fn(this, args)


def _constructor_of(
    constructors: Mapping[int, Callable[..., Any]], globals_: Mapping[str, Any]
) -> Callable[[Any], Callable[..., Any]]:
    def make_of(fn: Any) -> Callable[..., Any]:
        if type(fn) is JsFunction and fn.proxy is not None:  # a Proxy around a function
            if not proxies.is_constructor(fn):
                raise JsError(f"{shown_value(fn)} is not a constructor")
            return lambda *args: proxies.construct(fn, list(args), fn)
        make = constructors.get(id(fn)) if type(fn) is JsFunction else None
        if proxies.refusing_new(fn):  # a constructor whose first step refuses new.target
            raise JsError(f"{fn.name} is not a constructor")
        if make is None or globals_.get(fn.name) is not fn:
            shown = to_string(fn) if type(fn) is JsFunction else not_callable(fn)
            raise JsError(f"{shown} is not a constructor", anonymous="value is not a constructor")
        return make

    return make_of


def own_symbols_of(o: Any) -> list[Any]:
    """Object.getOwnPropertySymbols: a condition's object's symbol keys, a built-in
    prototype's or namespace's well-known ones."""
    if type(o) is JsFunction and o.proxy is not None:
        o = o.proxy  # a Proxy around a function
    if type(o) is JsProxy:
        return [k for k in o.own_keys() if type(k) is not str]
    if type(o) is JsPrototype or type(o) is JsNamespace or o is FUNCTION_PROTOTYPE:
        return symkeys.built_in_symbols(o)
    return symkeys.own_symbols(o)


def _ownkeys(own_names: JsFunction) -> Callable[..., Any]:
    def own_keys(target: Any = UNDEFINED, *_: Any) -> list[str]:
        _target("ownKeys", target)
        if type(target) is JsFunction and target.proxy is not None:
            target = target.proxy  # a Proxy around a function
        if type(target) is JsProxy:
            return target.own_keys()  # its ownKeys trap's order
        return [*own_names.fn(target), *own_symbols_of(target)]

    return own_keys


def _has(target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    return js_in(key, _target("has", target))


#: the objects whose own properties OrdinarySet with another receiver reads and defines here
_ORDINARY: Final = (dict, JsCreated, list)


def _set_on_receiver(target: Any, k: Any, value: Any, receiver: Any) -> bool:
    """OrdinarySet of ``k`` on ``target`` with another ``receiver``: the property found along
    the target's chain decides (a setter runs; a writable data property, or none, is defined
    on the receiver as CreateDataProperty or a value-only redefinition would)."""
    own_descriptor = LENT["own_descriptor"]
    node = target
    while True:
        if not (type(node) in _ORDINARY or (type(node) is JsFunction and node.owned)):
            raise Unsupported("flowctx does not reproduce Reflect.set with this receiver")
        found = own_descriptor(node, k)
        if found is not UNDEFINED:
            break
        node = prototype_of(node)
        if node is None:
            found = {"value": UNDEFINED, "writable": True}
            break
        if type(node) is JsPrototype:  # a built-in prototype: its methods are writable data
            found = own_descriptor(node, k)
            if found is UNDEFINED:
                found = {"value": UNDEFINED, "writable": True}
            break
    if "get" in found or "set" in found:
        setter = found.get("set", UNDEFINED)
        if type(setter) is not JsFunction:
            return False
        if not setter.owned:
            raise Unsupported("flowctx does not reproduce built-in functions as setters")
        setter.fn(value)  # a function the condition made reads no receiver
        return True
    if not found["writable"] or not is_object(receiver):
        return False
    if not (type(receiver) in _ORDINARY or type(receiver) is JsProxy or (
            type(receiver) is JsFunction and receiver.owned)):  # fmt: skip
        raise Unsupported("flowctx does not reproduce Reflect.set with this receiver")
    existing = own_descriptor(receiver, k)
    if existing is not UNDEFINED:
        if "get" in existing or "set" in existing or not existing["writable"]:
            return False
        return bool(define(receiver, k, {"value": value}, throw=False))
    return bool(define(receiver, k, {"value": value, "writable": True, "enumerable": True,
                                     "configurable": True}, throw=False))  # fmt: skip


def _get(target: Any = UNDEFINED, key: Any = UNDEFINED, *rest: Any) -> Any:
    _target("get", target)
    # the receiver is the ``this`` of a getter: the evaluator's objects have none
    return LENT["get_member"](target, key)


def _set(target: Any = UNDEFINED, key: Any = UNDEFINED, value: Any = UNDEFINED, *rest: Any) -> Any:
    _target("set", target)
    if type(target) is JsFunction and target.proxy is not None and (not rest or rest[0] is target):
        return bool(target.proxy.put(_key(key), value, strict=False))  # around a function
    if type(target) is JsProxy and (not rest or rest[0] is target):
        return target.put(_key(key), value, strict=False)
    if rest and rest[0] is not target:
        return _set_on_receiver(target, _key(key), value, rest[0])
    if type(target) is JsFunction and _key(key) in ("length", "name"):
        return False  # neither is writable
    if isinstance(target, JsObject) and type(target).js_set is JsObject.js_set:
        raise Unsupported(f"flowctx does not reproduce writing properties of {shown_of(target)}")
    try:
        set_member(target, key, value)
    except Unsupported:
        raise
    except JsError as e:
        if str(e).startswith(_REFUSED_WRITES):
            return False
        raise
    return True


def _delete_property(target: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    _target("deleteProperty", target)
    if type(target) is JsFunction and target.proxy is not None:
        target = target.proxy  # a Proxy around a function
    if type(target) is JsProxy:
        return target.delete(_key(key), strict=False)
    if type(key) is JsSymbol and symkeys.keeps(target):
        try:
            symkeys.delete(target, key)  # its own symbol-keyed property, if configurable
        except JsError:
            return False
        return True
    k = property_key(key)
    t = type(target)
    try:
        check_delete(target, k)
    except JsError:
        return False  # sealed or frozen: the property stays
    if t is dict or t is JsCreated:
        if own_has(target, k):
            _mutating()
            target.pop(k, None)
        return True
    if t is list or t is tuple:
        index = array_index(k)
        if index is not None:
            if index < len(target) and target[index] is not HOLE:
                if t is list and not arrayattrs.effective(target, k)[2]:
                    return False
                _mutating()
                target[index] = HOLE
                arrayattrs.forget_index(target, k)
            return True
        if k == "length":
            return False
        if k in array_prop_keys(target):
            if t is list and not arrayattrs.effective(target, k)[2]:
                return False
            arrayattrs.delete_named(target, k)
        return True
    if t is JsNamespace:
        member = target.members.get(k, UNDEFINED)
        if member is UNDEFINED:
            return True
        if not isinstance(member, JsFunction | JsNamespace):
            return False  # Math.PI and the other constants are not configurable
    if type(target) is JsFunction and target.props is not None and k in target.props:
        del target.props[k]
        return True
    held = builtin_attributes(target, k) if type(target) is JsFunction else None
    if held is not None and "c" not in held:
        return False  # a constructor's prototype, Number.EPSILON: not configurable
    if type(target) is JsFunction and k in ("length", "name"):
        if target.owns_own(k):
            forget_own(target, k)
        return True
    if type(target) is JsFunction and not (target.members and k in target.members):
        return True  # not an own property
    if type(target) is JsErrorObject and k != "stack":
        if k == "message":
            target.message, target.own_message = "", False  # the inherited '' shows through
        target.props.pop(k, None)
        return True
    own_delete = getattr(target, "js_delete", None)  # an arguments object
    if own_delete is not None:
        try:
            own_delete(k)
        except JsError:
            return False  # its callee: not configurable
        return True
    if isinstance(target, JsObject) and type(target) is not JsErrorObject:
        owns = getattr(target, "js_owns", None)
        props = getattr(target, "props", None) or {}
        if k in props:
            del props[k]
            return True
        if k == "lastIndex" and type(target).__name__ == "JsRegExp":
            return False  # not configurable
        # a wrapper's own indices and length stay; a Map, a Set, a Date own nothing else
        return not (owns is not None and owns(k))
    shown = not_callable(target)
    raise Unsupported(f"flowctx does not reproduce Reflect.deleteProperty on {shown}")


def _define_property(
    target: Any = UNDEFINED, key: Any = UNDEFINED, desc: Any = UNDEFINED, *_: Any
) -> Any:
    _target("defineProperty", target)
    return define(target, _key(key), _descriptor(desc), throw=False)


def _set_prototype(target: Any, proto: Any, throw: bool) -> bool:
    """[[SetPrototypeOf]] of a proxy's target without a setPrototypeOf trap."""
    if type(target) is JsFunction and target.proxy is not None:
        target = target.proxy  # a Proxy around a function
    if type(target) is JsProxy:
        return target.set_prototype(proto, throw)
    refused = refusal_to_change(target, proto)
    if refused is not None:
        if throw:
            extensible = refused.endswith(" is not extensible")
            raise JsError(refused, anonymous="object is not extensible" if extensible else None)
        return False
    change_prototype(target, proto)
    return True


def _deleted(target: Any, key: Any, strict: bool) -> bool:
    """[[Delete]] of a proxy's target without a deleteProperty trap."""
    done = _delete_property(target, key)
    if not done and strict:
        raise JsError(f"Cannot delete property '{_key(key)}' of {shown_value(target)}")
    return bool(done)


def _key(key: Any) -> Any:
    """ToPropertyKey: a symbol stays a symbol."""
    return key if symkeys.is_symbol_key(key) else property_key(key)


def _descriptor(desc: Any) -> dict[str, Any]:
    if not is_object(desc):
        raise JsError(
            f"Property description must be an object: {not_callable(desc)}",
            anonymous="Property description must be an object",
        )
    return to_descriptor(desc)


def _set_prototype_of(obj: Mapping[str, Any]) -> Callable[..., Any]:
    def set_prototype_of(target: Any = UNDEFINED, proto: Any = UNDEFINED, *_: Any) -> Any:
        _target("setPrototypeOf", target)
        if proto is not None and not is_object(proto):
            raise JsError(
                f"Object prototype may only be an Object or null: {to_string(proto)}",
                anonymous="Object prototype may only be an Object or null",
            )
        if type(target) is JsFunction and target.proxy is not None:
            target = target.proxy  # a Proxy around a function
        if type(target) is JsProxy:
            return target.set_prototype(proto, throw=False)
        if refusal_to_change(target, proto) is not None:
            return False
        change_prototype(target, proto)
        return True

    return set_prototype_of


def _object_statics(obj: Mapping[str, Any]) -> dict[str, Callable[..., Any]]:
    """Object's statics over property descriptors and prototypes, each with V8's checks and
    errors; a change flowctx does not make (a descriptor, a new prototype) is refused."""
    own_names, own_descriptor = obj["getOwnPropertyNames"].fn, obj["getOwnPropertyDescriptor"].fn
    get_member = LENT["get_member"]

    def coercible(v: Any) -> Any:
        if v is None or v is UNDEFINED:
            raise JsError("Cannot convert undefined or null to object")
        return v

    def symbols(o: Any = UNDEFINED, *_: Any) -> list[Any]:
        return own_symbols_of(coercible(o))

    def descriptors(o: Any = UNDEFINED, *_: Any) -> dict[str, Any]:
        coercible(o)
        return {k: own_descriptor(o, k) for k in own_names(o)}

    def define_one(o: Any = UNDEFINED, key: Any = UNDEFINED, desc: Any = UNDEFINED, *_: Any) -> Any:
        if not is_object(o):
            raise JsError("Object.defineProperty called on non-object")
        define(o, _key(key), _descriptor(desc), throw=True)
        return o

    def define_all(o: Any = UNDEFINED, props: Any = UNDEFINED, *_: Any) -> Any:
        if not is_object(o):
            raise JsError("Object.defineProperties called on non-object")
        keys = obj["keys"].fn(coercible(props))
        # every descriptor is read before any property is defined
        found = [(k, _descriptor(get_member(props, k))) for k in keys]
        for k, d in found:
            define(o, k, d, throw=True)
        return o

    def set_prototype(o: Any = UNDEFINED, proto: Any = UNDEFINED, *_: Any) -> Any:
        if o is None or o is UNDEFINED:
            raise JsError("Object.setPrototypeOf called on null or undefined")
        if proto is not None and not is_object(proto):
            raise JsError(
                f"Object prototype may only be an Object or null: {not_callable(proto)}",
                anonymous="Object prototype may only be an Object or null",
            )
        if not is_object(o):
            return o
        proxy = o.proxy if type(o) is JsFunction else o
        if type(proxy) is JsProxy:
            proxy.set_prototype(proto, throw=True)
            return o
        refused = refusal_to_change(o, proto)
        if refused is not None:
            extensible = refused.endswith(" is not extensible")
            raise JsError(refused, anonymous="object is not extensible" if extensible else None)
        change_prototype(o, proto)
        return o

    return {
        "getOwnPropertySymbols": symbols, "getOwnPropertyDescriptors": descriptors,
        "defineProperty": define_one, "defineProperties": define_all,
        "setPrototypeOf": set_prototype,
    }  # fmt: skip


def _after_check(name: str, fn: JsFunction) -> Callable[..., Any]:
    def checked(target: Any = UNDEFINED, *args: Any) -> Any:
        return fn.fn(_target(name, target), *args)

    return checked


def register(globals_: dict[str, Any], constructors: Mapping[int, Callable[..., Any]]) -> None:
    obj: Mapping[str, Any] = globals_["Object"].members
    make_of = _constructor_of(constructors, globals_)
    for name, fn in _object_statics(obj).items():
        globals_["Object"].members[name] = JsFunction(name, fn, ident=f"Object.{name}")

    def construct(fn: Any = UNDEFINED, args: Any = UNDEFINED, *rest: Any) -> Any:
        make = make_of(fn)
        if rest:
            make_of(rest[0])
            if rest[0] is not fn:
                raise Unsupported("flowctx does not reproduce Reflect.construct's newTarget")
        _arg_list(args)
        return make(*args_of(args))

    def prevent(target: Any = UNDEFINED, *_: Any) -> bool:
        if type(target) is JsFunction and target.proxy is not None:
            target = target.proxy  # a Proxy around a function
        if type(_target("preventExtensions", target)) is JsProxy:
            return bool(target.prevent_extensions(throw=False))
        obj["preventExtensions"].fn(target)
        return True

    members: dict[str, Callable[..., Any]] = {
        "defineProperty": _define_property,
        "deleteProperty": _delete_property,
        "apply": _apply,
        "construct": construct,
        "get": _get,
        "getOwnPropertyDescriptor": _after_check(
            "getOwnPropertyDescriptor", obj["getOwnPropertyDescriptor"]
        ),
        "getPrototypeOf": _after_check("getPrototypeOf", obj["getPrototypeOf"]),
        "has": _has,
        "isExtensible": _after_check("isExtensible", obj["isExtensible"]),
        "ownKeys": _ownkeys(obj["getOwnPropertyNames"]),
        "preventExtensions": prevent,
        "set": _set,
        "setPrototypeOf": _set_prototype_of(obj),
    }
    LENT["reflect_own_keys"] = members["ownKeys"]
    LENT["delete_property"] = _deleted
    LENT["set_prototype"] = _set_prototype
    LENT["define"] = define
    globals_["Reflect"] = JsNamespace(
        "Reflect", {name: JsFunction(name, fn) for name, fn in members.items()}
    )
