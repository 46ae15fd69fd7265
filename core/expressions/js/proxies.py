"""Proxy objects (``new Proxy(target, handler)``, ``Proxy.revocable``): ECMAScript's proxy
internal methods over a target that is an object, each looking up its trap on the handler at
the time of the operation, and V8's TypeErrors for the invariants a trap's answer breaks.

Traps are functions the condition made (an arrow reads no ``this``, so a trap needs no
receiver). A proxy around a function is a ``JsFunction`` to every caller (typeof, callbacks,
``call``/``apply``/``bind``) whose ``proxy`` holds this object: its calls run the ``apply``
trap, ``new`` the ``construct`` trap, and every other operation the same traps as here.
"""

from __future__ import annotations

from typing import Any

from flowctx_core.expressions.js.common import LENT, Unsupported
from flowctx_core.expressions.js.descriptors import to_descriptor
from flowctx_core.expressions.js.prototypes import ARRAY_PROTOTYPE, prototype_of
from flowctx_core.expressions.js.symbols import WELL_KNOWN
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    CalledNonCallable,
    JsError,
    JsFunction,
    JsObject,
    default_call_site,
    js_in,
    same_value,
    shown_value,
    to_int,
    truthy,
    typeof,
)


def _name_of(key: Any) -> str:
    """How V8's proxy errors name a key (a symbol by its description)."""
    return key.shown() if typeof(key) == "symbol" else str(key)


def _is_object(v: Any) -> bool:
    return typeof(v) in ("object", "function") and v is not None


def _compatible(extensible: bool, desc: dict[str, Any], current: Any) -> bool:
    """ECMAScript's IsCompatiblePropertyDescriptor: whether a complete descriptor a trap
    reports could stand for the target's own property ``current`` (UNDEFINED: none)."""
    if current is UNDEFINED:
        return extensible
    if current["configurable"]:
        return True
    if desc["configurable"] or desc["enumerable"] != current["enumerable"]:
        return False
    if ("get" in desc) != ("get" in current or "set" in current):
        return False
    if "get" in current or "set" in current:
        return same_value(desc["get"], current.get("get", UNDEFINED)) and same_value(
            desc["set"], current.get("set", UNDEFINED)
        )
    if not current["writable"]:
        return not desc["writable"] and same_value(desc["value"], current["value"])
    return True


class JsProxy(JsObject):
    """A proxy: ``handler`` None once revoked."""

    __slots__ = ("handler", "target", "wrapper")

    def __init__(self, target: Any, handler: Any) -> None:
        self.target = target
        self.handler: Any = handler
        self.wrapper: Any = None  # around a function: the JsFunction that stands for it

    def __repr__(self) -> str:
        return "[object Object]"

    # --- the trap and the target's own answers ------------------------------------------

    def _trap(self, name: str) -> Any:
        """The handler's trap ``name`` (None: there is none), or V8's TypeError."""
        if self.handler is None:
            raise JsError(f"Cannot perform '{name}' on a proxy that has been revoked")
        trap = LENT["get_member"](self.handler, name)
        if trap is None or trap is UNDEFINED:
            return None
        if type(trap) is not JsFunction:
            raise JsError(
                f"'{shown_value(trap)}' returned for property '{name}' of object "
                f"'{shown_value(self.handler)}' is not a function",
                anonymous=f"the proxy's '{name}' trap is not a function",
            )
        return trap

    def _call(self, trap: JsFunction, *args: Any) -> Any:
        if trap.method is not None:
            return LENT["call_with_this"](trap, self.handler, list(args))
        return trap.fn(*args)

    def _refuse_builtin_invariants(self) -> None:
        """A trap's answer about a built-in function's own keys is checked against their
        attributes (a constructor's ``prototype`` is not configurable): measured for the
        global functions and every function without a ``prototype`` or statics of its own,
        not for the others (``Intl.DateTimeFormat``)."""
        target = self.target
        if (
            type(target) is JsFunction
            and not target.owned
            and target.proxy is None
            and (target.members or LENT["constructor_of"](target) is not None)
            and not _measured_global(target)
        ):
            raise Unsupported(
                "flowctx does not reproduce the invariants of a Proxy's traps around a "
                "built-in function (its own prototype property)"
            )

    def _target_own(self, key: Any) -> Any:
        """The target's own property descriptor of ``key`` (a dict), or UNDEFINED, as the
        invariants read it: a global constructor's ``prototype`` is held here (reading it as a
        value is refused: it leads to Function)."""
        target = self.target
        if key == "prototype" and type(target) is JsFunction and _measured_global(target):
            from flowctx_core.expressions.js.prototypes import prototype

            return {"value": prototype(target.name), "writable": False, "enumerable": False,
                    "configurable": False}  # fmt: skip
        return LENT["own_descriptor"](target, key)

    def _extensible(self) -> bool:
        return bool(LENT["globals"]["Object"].members["isExtensible"].fn(self.target))

    # --- the internal methods ------------------------------------------------------------

    def js_get(self, key: Any) -> Any:
        trap = self._trap("get")
        if trap is None:
            return LENT["get_member"](self.target, key)
        value = self._call(trap, self.target, key, self)
        own = self._target_own(key)
        if isinstance(own, dict) and not own["configurable"]:
            name = _name_of(key)
            if "value" in own and not own["writable"] and not same_value(value, own["value"]):
                raise JsError(
                    f"'get' on proxy: property '{name}' is a read-only and non-configurable "
                    "data property on the proxy target but the proxy did not return its actual "
                    f"value (expected '{_text(own['value'])}' but got '{_text(value)}')",
                    anonymous="'get' on proxy: the trap did not return the target's value",
                )
            if "get" in own and own["get"] is UNDEFINED and value is not UNDEFINED:
                raise JsError(
                    f"'get' on proxy: property '{name}' is a non-configurable accessor property "
                    "on the proxy target and does not have a getter function, but the trap did "
                    f"not return 'undefined' (got '{_text(value)}')",
                    anonymous="'get' on proxy: the trap did not return undefined",
                )
        return value

    def put(self, key: Any, value: Any, strict: bool) -> bool:
        trap = self._trap("set")
        if trap is None:
            return self._ordinary_set(key, value, strict)
        name = _name_of(key)
        if not truthy(self._call(trap, self.target, key, value, self)):
            if strict:
                raise JsError(f"'set' on proxy: trap returned falsish for property '{name}'")
            return False
        own = self._target_own(key)
        if isinstance(own, dict) and not own["configurable"]:
            if "value" in own and not own["writable"] and not same_value(value, own["value"]):
                raise JsError(
                    f"'set' on proxy: trap returned truish for property '{name}' which exists "
                    "in the proxy target as a non-configurable and non-writable data property "
                    "with a different value"
                )
            if "set" in own and own["set"] is UNDEFINED:
                raise JsError(
                    f"'set' on proxy: trap returned truish for property '{name}' which exists "
                    "in the proxy target as a non-configurable and non-writable accessor "
                    "property without a setter"
                )
        return True

    def js_set(self, key: str, value: Any) -> None:
        self.put(key, value, strict=True)

    def _ordinary_set(self, key: Any, value: Any, strict: bool) -> bool:
        """The target's [[Set]] with this proxy as the receiver (OrdinarySet): the target's
        own or inherited property decides, then the proxy itself is asked for the property
        (its getOwnPropertyDescriptor and defineProperty traps)."""
        found = self._target_own(key)
        node = self.target
        while found is UNDEFINED:
            node = prototype_of(node)
            if node is None:
                break
            if type(node) is JsProxy or type(node).__name__ == "JsPrototype":
                break  # the rest of the chain holds no setter or read-only key here
            found = LENT["own_descriptor"](node, key)
        name = _name_of(key)
        if isinstance(found, dict) and ("get" in found or "set" in found):
            setter = found.get("set", UNDEFINED)
            if type(setter) is JsFunction:
                setter.fn(value)
                return True
            if strict:
                raise JsError(
                    f"Cannot set property {name} of {shown_value(self)} which has only a getter"
                )
            return False
        if isinstance(found, dict) and not found["writable"]:
            if strict:
                raise JsError(
                    f"Cannot assign to read only property '{name}' of object '{shown_value(self)}'"
                )
            return False
        existing = self.own_property(key)
        if isinstance(existing, dict):
            if "get" in existing or "set" in existing or not existing["writable"]:
                # the proxy reports the property as one no value can be written to
                if strict:
                    raise JsError(f"Cannot redefine property: {name}")
                return False
            return self.define(key, {"value": value}, strict)
        return self.define(
            key, {"value": value, "writable": True, "enumerable": True, "configurable": True},
            strict,
        )  # fmt: skip

    def js_has(self, key: Any) -> bool:
        trap = self._trap("has")
        if trap is None:
            return bool(js_in(key, self.target))
        if truthy(self._call(trap, self.target, key)):
            return True
        own = self._target_own(key)
        if isinstance(own, dict):
            name = _name_of(key)
            if not own["configurable"]:
                raise JsError(
                    f"'has' on proxy: trap returned falsish for property '{name}' which exists "
                    "in the proxy target as non-configurable"
                )
            if not self._extensible():
                raise JsError(
                    f"'has' on proxy: trap returned falsish for property '{name}' but the proxy "
                    "target is not extensible"
                )
        return False

    def delete(self, key: Any, strict: bool) -> bool:
        trap = self._trap("deleteProperty")
        if trap is None:
            return bool(LENT["delete_property"](self.target, key, strict))
        name = _name_of(key)
        if not truthy(self._call(trap, self.target, key)):
            if strict:
                raise JsError(
                    f"'deleteProperty' on proxy: trap returned falsish for property '{name}'"
                )
            return False
        own = self._target_own(key)
        if isinstance(own, dict):
            if not own["configurable"]:
                raise JsError(
                    f"'deleteProperty' on proxy: trap returned truish for property '{name}' "
                    "which is non-configurable in the proxy target"
                )
            if not self._extensible():
                raise JsError(
                    f"'deleteProperty' on proxy: trap returned truish for property '{name}' "
                    "but the proxy target is non-extensible"
                )
        return True

    def own_keys(self) -> list[Any]:
        """[[OwnPropertyKeys]]: every key, strings and symbols in the trap's order."""
        trap = self._trap("ownKeys")
        target_keys = LENT["reflect_own_keys"](self.target)
        if trap is None:
            return list(target_keys)
        self._refuse_builtin_invariants()
        result = self._call(trap, self.target)
        if not _is_object(result):
            raise JsError("CreateListFromArrayLike called on non-object")
        get_member = LENT["get_member"]
        length = int(max(to_int(get_member(result, "length")), 0))
        keys: list[Any] = []
        for i in range(length):
            k = get_member(result, str(i))
            if type(k) is not str and typeof(k) != "symbol":
                raise JsError(
                    f"{shown_value(k)} is not a valid property name",
                    anonymous="a value is not a valid property name",
                )
            if any(same_value(k, seen) for seen in keys):
                raise JsError("'ownKeys' on proxy: trap returned duplicate entries")
            keys.append(k)
        extensible = self._extensible()
        fixed: list[Any] = []
        configurable: list[Any] = []
        for k in target_keys:
            own = self._target_own(k)
            (fixed if isinstance(own, dict) and not own["configurable"] else configurable).append(k)
        # the non-configurable keys first, then (a non-extensible target) the others
        for k in fixed + ([] if extensible else configurable):
            if not any(k is seen or k == seen for seen in keys):
                raise JsError(f"'ownKeys' on proxy: trap result did not include '{_name_of(k)}'")
        if not extensible and len(keys) != len(target_keys):
            raise JsError(
                "'ownKeys' on proxy: trap returned extra keys but proxy target is non-extensible"
            )
        return keys

    def own_property(self, key: Any) -> Any:
        """[[GetOwnProperty]]: a descriptor (a dict) or UNDEFINED."""
        trap = self._trap("getOwnPropertyDescriptor")
        if trap is None:
            return LENT["own_descriptor"](self.target, key)  # its prototype refused, as code
        self._refuse_builtin_invariants()
        result = self._call(trap, self.target, key)
        name = _name_of(key)
        own = self._target_own(key)
        if result is UNDEFINED:
            if isinstance(own, dict):
                if not own["configurable"]:
                    raise JsError(
                        f"'getOwnPropertyDescriptor' on proxy: trap returned undefined for "
                        f"property '{name}' which is non-configurable in the proxy target"
                    )
                if not self._extensible():
                    raise JsError(
                        f"'getOwnPropertyDescriptor' on proxy: trap returned undefined for "
                        f"property '{name}' which exists in the non-extensible proxy target"
                    )
            return UNDEFINED
        if not _is_object(result):
            raise JsError(
                "'getOwnPropertyDescriptor' on proxy: trap returned neither object nor "
                f"undefined for property '{name}'"
            )
        d = to_descriptor(result)
        accessor = "get" in d or "set" in d
        if accessor:  # CompletePropertyDescriptor
            done = {"get": d.get("get", UNDEFINED), "set": d.get("set", UNDEFINED),
                    "enumerable": d.get("enumerable", False),
                    "configurable": d.get("configurable", False)}  # fmt: skip
        else:
            done = {"value": d.get("value", UNDEFINED), "writable": d.get("writable", False),
                    "enumerable": d.get("enumerable", False),
                    "configurable": d.get("configurable", False)}  # fmt: skip
        if not _compatible(self._extensible() if own is UNDEFINED else True, done, own):
            raise JsError(
                f"'getOwnPropertyDescriptor' on proxy: trap returned descriptor for property "
                f"'{name}' that is incompatible with the existing property in the proxy target"
            )
        if not done["configurable"]:
            if own is UNDEFINED or own["configurable"]:
                raise JsError(
                    f"'getOwnPropertyDescriptor' on proxy: trap reported non-configurability "
                    f"for property '{name}' which is either non-existent or configurable in the "
                    "proxy target"
                )
            if not accessor and not done["writable"] and own.get("writable") is True:
                raise JsError(
                    f"'getOwnPropertyDescriptor' on proxy: trap reported non-configurable and "
                    f"writable for property '{name}' which is non-configurable, non-writable "
                    "in the proxy target"
                )
        return done

    def define(self, key: Any, d: dict[str, Any], throw: bool) -> bool:
        trap = self._trap("defineProperty")
        if trap is None:
            return bool(LENT["define"](self.target, key, d, throw))
        name = _name_of(key)
        desc = dict(d)
        if not truthy(self._call(trap, self.target, key, desc)):
            if throw:
                raise JsError(
                    f"'defineProperty' on proxy: trap returned falsish for property '{name}'"
                )
            return False
        own = self._target_own(key)
        if own is UNDEFINED and not self._extensible():
            raise JsError(
                f"'defineProperty' on proxy: trap returned truish for adding property '{name}' "
                " to the non-extensible proxy target"
            )
        if d.get("configurable") is False and (own is UNDEFINED or own["configurable"]):
            raise JsError(
                f"'defineProperty' on proxy: trap returned truish for defining non-configurable "
                f"property '{name}' which is either non-existent or configurable in the proxy "
                "target"
            )
        return True

    def prototype(self) -> Any:
        trap = self._trap("getPrototypeOf")
        if trap is None:
            return prototype_of(self.target)
        proto = self._call(trap, self.target)
        if proto is not None and not _is_object(proto):
            raise JsError("'getPrototypeOf' on proxy: trap returned neither object nor null")
        if not self._extensible() and proto is not prototype_of(self.target):
            raise JsError(
                "'getPrototypeOf' on proxy: proxy target is non-extensible but the trap did not "
                "return its actual prototype"
            )
        return proto

    def set_prototype(self, proto: Any, throw: bool) -> bool:
        trap = self._trap("setPrototypeOf")
        if trap is None:
            return bool(LENT["set_prototype"](self.target, proto, throw))
        if not truthy(self._call(trap, self.target, proto)):
            if throw:
                raise JsError(
                    "'setPrototypeOf' on proxy: trap returned falsish for property 'undefined'"
                )
            return False
        if not self._extensible() and proto is not prototype_of(self.target):
            raise JsError(
                "'setPrototypeOf' on proxy: trap returned truish for setting a new prototype "
                "on the non-extensible proxy target"
            )
        return True

    def is_extensible(self) -> bool:
        trap = self._trap("isExtensible")
        if trap is None:
            return self._extensible()
        answer = truthy(self._call(trap, self.target))
        actual = self._extensible()
        if answer != actual:
            raise JsError(
                "'isExtensible' on proxy: trap result does not reflect extensibility of proxy "
                f"target (which is '{'true' if actual else 'false'}')"
            )
        return answer

    def prevent_extensions(self, throw: bool) -> bool:
        trap = self._trap("preventExtensions")
        if trap is None:
            LENT["globals"]["Object"].members["preventExtensions"].fn(self.target)
            return True
        if not truthy(self._call(trap, self.target)):
            if throw:
                raise JsError("'preventExtensions' on proxy: trap returned falsish")
            return False
        if self._extensible():
            raise JsError(
                "'preventExtensions' on proxy: trap returned truish but the proxy target is "
                "extensible"
            )
        return True

    def set_integrity(self, frozen: bool) -> None:
        """SetIntegrityLevel: Object.seal / Object.freeze through the traps."""
        self.prevent_extensions(throw=True)
        for k in self.own_keys():
            if frozen:
                found = self.own_property(k)
                if found is UNDEFINED:
                    continue
                accessor = "get" in found or "set" in found
                d = {"configurable": False} if accessor else {"configurable": False,
                                                                "writable": False}  # fmt: skip
            else:
                d = {"configurable": False}
            self.define(k, d, throw=True)

    def test_integrity(self, frozen: bool) -> bool:
        """TestIntegrityLevel: Object.isSealed / Object.isFrozen through the traps."""
        if self.is_extensible():
            return False
        for k in self.own_keys():
            found = self.own_property(k)
            if found is UNDEFINED:
                continue
            if found["configurable"]:
                return False
            if frozen and "value" in found and found["writable"]:
                return False
        return True

    # --- what the conversions and built-ins ask of an object -----------------------------

    def is_array(self) -> bool:
        if self.handler is None:
            raise JsError("Cannot perform 'IsArray' on a proxy that has been revoked")
        target = self.target
        if type(target) is JsProxy:
            return target.is_array()
        return type(target) is list or type(target) is tuple or target is ARRAY_PROTOTYPE

    def js_keys(self) -> list[str]:
        """Object.keys: the string keys whose descriptor (the trap's) is enumerable."""
        out = []
        for k in self.own_keys():
            if type(k) is str:
                d = self.own_property(k)
                if isinstance(d, dict) and d["enumerable"]:
                    out.append(k)
        return out

    def js_owns(self, key: str) -> bool:
        return self.own_property(key) is not UNDEFINED

    def js_primitive(self, hint: str = "default") -> Any:
        to_primitive = WELL_KNOWN["toPrimitive"]
        exotic = self.js_get(to_primitive)
        if exotic is not UNDEFINED and exotic is not None:
            if type(exotic) is not JsFunction:
                raise JsError(
                    f"{default_call_site(exotic)} is not a function",
                    anonymous="Symbol.toPrimitive is not a function",
                )
            result = exotic.fn(hint)
            if _is_object(result):
                raise JsError("Cannot convert object to primitive value")
            return result
        order = ("toString", "valueOf") if hint == "string" else ("valueOf", "toString")
        for name in order:
            method = self.js_get(name)
            if type(method) is JsFunction:
                if method.method is not None:
                    result = LENT["call_with_this"](method, self.wrapper or self, [])
                else:
                    result = method.fn()
                if not _is_object(result):
                    return result
        raise JsError("Cannot convert object to primitive value")

    def js_json(self) -> Any:
        """What JSON.stringify serialises: an array's elements or an object's keys, each read
        through the proxy (its toJSON first)."""
        to_json = self.js_get("toJSON")
        if type(to_json) is JsFunction:
            if to_json.method is not None:
                return LENT["call_with_this"](to_json, self, [""])
            return to_json.fn("")
        if self.is_array():
            length = int(max(to_int(self.js_get("length")), 0))
            return [self.js_get(str(i)) for i in range(length)]
        return {k: self.js_get(k) for k in self.js_keys()}

    def js_iter(self, array_from: bool = False) -> list[Any] | None:
        """The items its Symbol.iterator (read once through the proxy) gives; None when it
        is not iterable (Array.from's own TypeError when it is there but not callable)."""
        method = self.js_get(WELL_KNOWN["iterator"])
        if method is UNDEFINED or method is None:
            return None
        if type(method) is JsFunction and method.ident == "Array.prototype.values":
            length = int(max(to_int(self.js_get("length")), 0))
            return [self.js_get(str(i)) for i in range(length)]
        if type(method) is not JsFunction:
            if array_from:
                raise JsError(
                    "%Array%.from requires that the property of the first argument, "
                    "items[Symbol.iterator], when exists, be a function"
                )
            return None  # V8: "... is not iterable"
        if method.owned:  # an arrow the condition made reads no receiver
            return LENT["iterate_by"](method)  # type: ignore[no-any-return]
        raise Unsupported("flowctx does not reproduce iterating a proxy by this Symbol.iterator")

    def tag(self) -> str:
        """Object.prototype.toString of it: Array's tag for an array target, else its
        Symbol.toStringTag read through the proxy, else Object's."""
        builtin = "Array" if self.is_array() else "Object"
        tag = self.js_get(WELL_KNOWN["toStringTag"])
        return f"[object {tag if type(tag) is str else builtin}]"


def _text(v: Any) -> str:
    """A value as V8's proxy invariant errors print it."""
    if type(v).__name__ == "JsPrototype":
        from flowctx_core.expressions.js.builtinnames import PROTOTYPE_TEXTS

        if v.kind in PROTOTYPE_TEXTS:
            return PROTOTYPE_TEXTS[v.kind]
    try:
        return shown_value(v)
    except JsError:
        return "[object Object]"


def _proxy_create(
    target: Any = UNDEFINED, handler: Any = UNDEFINED, *_: Any
) -> JsProxy | JsFunction:
    if not _is_object(target) or not _is_object(handler):
        raise JsError("Cannot create proxy with a non-object as target or handler")
    proxy = JsProxy(target, handler)
    if typeof(target) == "function":
        return callable_proxy(proxy)
    return proxy


# --- a proxy around a function: [[Call]] and [[Construct]] ---------------------------------


def callable_proxy(proxy: JsProxy) -> JsFunction:
    """A Proxy whose target is a function: a function to every caller (typeof, callbacks,
    call and apply), whose calls run the ``apply`` trap and whose properties the other traps
    answer (``JsFunction.proxy``)."""
    fn = JsFunction("", lambda *args: call(proxy, UNDEFINED, list(args)), arity=0)
    fn.proxy, proxy.wrapper = proxy, fn
    return fn


def _array(items: list[Any]) -> list[Any]:
    return list(items)  # CreateArrayFromList: a fresh array the trap may keep or change


def call(proxy: JsProxy, this: Any, args: list[Any]) -> Any:
    """[[Call]] of a proxy around a function: its ``apply`` trap with the target, the
    receiver and the arguments as an array, else the target called."""
    if proxy.handler is None:
        proxy._trap("apply")  # revoked: V8's TypeError
    trap = LENT["get_member"](proxy.handler, "apply")
    if trap is None or trap is UNDEFINED:
        trap = None
    elif type(trap) is not JsFunction:  # V8 names the call expression, else the trap
        raise CalledNonCallable(f"{default_call_site(trap)} is not a function")
    target = proxy.target
    if trap is None:
        return call_target(target, this, args)
    return proxy._call(trap, target, this, _array(args))


def call_target(fn: JsFunction, this: Any, args: list[Any]) -> Any:
    """``fn`` called with ``this``: a proxy's own [[Call]], a method with its receiver."""
    if fn.proxy is not None:
        return call(fn.proxy, this, args)
    if fn.method is None:
        return fn.fn(*args)
    return LENT["call_with_this"](fn, this, args)


def is_constructor(fn: Any) -> bool:
    """IsConstructor: a proxy is one when its target is."""
    while type(fn) is JsFunction and fn.proxy is not None:
        if fn.proxy.target is None:
            return True  # revoked: the trap's lookup fails first
        fn = fn.proxy.target
    return type(fn) is JsFunction and (LENT["constructor_of"](fn) is not None or refusing_new(fn))


def refusing_new(fn: Any) -> bool:
    """Symbol and BigInt have [[Construct]], whose first step throws when new.target is set."""
    return (
        type(fn) is JsFunction
        and fn.name in ("Symbol", "BigInt")
        and LENT["globals"].get(fn.name) is fn
    )


def _measured_global(fn: JsFunction) -> bool:
    from flowctx_core.expressions.js.builtinnames import ATTRIBUTES

    return fn.name in ATTRIBUTES and LENT["globals"].get(fn.name) is fn


def construct(fn: JsFunction, args: list[Any], new_target: Any) -> Any:
    """[[Construct]] of a proxy around a constructor: its ``construct`` trap with the target,
    the arguments as an array and new.target (its answer must be an object), else the
    target constructed."""
    proxy = fn.proxy
    trap = proxy._trap("construct")
    target = proxy.target
    if trap is None:
        if target.proxy is None and refusing_new(target):
            raise JsError(f"{target.name} is not a constructor")
        if proxy._trap("get") is not None:
            proxy._refuse_builtin_invariants()  # new.target's prototype is read through it
            if new_target is fn and target.proxy is None:
                # OrdinaryCreateFromConstructor reads it through the trap: only the target's
                # own passes (read-only, not configurable), else V8's TypeError
                proxy.js_get("prototype")
            elif new_target is fn:
                raise Unsupported(
                    "flowctx does not reproduce new on a proxy with a get trap around another proxy"
                )
        if target.proxy is not None:
            return construct(target, args, new_target)
        return LENT["constructor_of"](target)(*args)
    made = proxy._call(trap, target, _array(args), new_target)
    if not _is_object(made):
        raise JsError(f"'construct' on proxy: trap returned non-object ('{_text(made)}')")
    return made


def _revocable(target: Any = UNDEFINED, handler: Any = UNDEFINED, *_: Any) -> dict[str, Any]:
    made = _proxy_create(target, handler)
    proxy: JsProxy = made.proxy if type(made) is JsFunction else made  # type: ignore[assignment]

    def revoke(*_: Any) -> Any:
        proxy.handler = None
        proxy.target = None
        return UNDEFINED

    return {"proxy": made, "revoke": JsFunction("", revoke, arity=0, source=None)}


def _call_without_new(*_: Any) -> Any:
    raise JsError("Constructor Proxy requires 'new'")


def register(globals_: dict[str, Any], constructors: dict[int, Any]) -> None:
    proxy = JsFunction(
        "Proxy", _call_without_new,
        {"revocable": JsFunction("revocable", _revocable, arity=2, ident="Proxy.revocable")},
        arity=2,
    )  # fmt: skip
    globals_["Proxy"] = proxy
    constructors[id(proxy)] = _proxy_create


LENT["is_constructor"] = is_constructor
