"""Atomics over the typed arrays a condition makes, as ECMAScript defines the operations: the
array checked, then the index, then the value converted; read-modify-write answers the old
element; ``wait`` needs shared memory (a SharedArrayBuffer's, which no other agent shares
here: a condition starts no worker), ``notify`` wakes no one."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js import bigint
from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.host.typedarrays import CONVERT, JsTypedArray, to_index
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    host_refusal,
    shown_value,
    to_int,
    to_number,
)

_INTEGER: Final = frozenset(
    {"Int8Array", "Uint8Array", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
     "BigInt64Array", "BigUint64Array"}
)  # fmt: skip
_WAITABLE: Final = frozenset({"Int32Array", "BigInt64Array"})
_COMBINE: Final[dict[str, Callable[[int, int], int]]] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "and": lambda a, b: a & b,
    "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "exchange": lambda a, b: b,
}  # fmt: skip


def _array(array: Any, kinds: frozenset[str], what: str) -> JsTypedArray:
    if not isinstance(array, JsTypedArray) or array.kind not in kinds:
        raise JsError(f"{shown_value(array)} is not {what} typed array.")
    return array


def _index(array: JsTypedArray, index: Any) -> int:
    i = to_index(index, "Invalid atomic access index")
    if i >= array.length():
        raise JsError("Invalid atomic access index")
    return i


def _integer(array: JsTypedArray, v: Any) -> Any:
    """The value as the operation takes it: ToBigInt or ToIntegerOrInfinity."""
    if array.kind.startswith("Big"):
        return bigint.JsBigInt(bigint._operand(v))
    n = to_int(v)
    return 0 if n == 0 else n


def _raw(v: Any) -> int:
    return int(v.big) if isinstance(v, bigint.JsBigInt) else int(v)


def _wait(name: str, ta: Any, i: int, value: Any = UNDEFINED, timeout: Any = UNDEFINED) -> Any:
    """DoWait on shared memory no other agent writes: "not-equal" when the element is not the
    value, else "timed-out" once the timeout has passed (node's thread blocked meanwhile); with
    no timeout nobody ever notifies it and the engine hangs."""
    expected = CONVERT[ta.kind](_integer(ta, value))
    limit = to_number(timeout)
    if _raw(ta.get(i)) != expected:
        outcome = "not-equal"
    elif limit == limit and limit != math.inf:  # NaN waits forever, as +Infinity
        outcome = "timed-out"
    else:
        raise Unsupported(
            host_refusal(
                f"Atomics.{name} without a timeout",
                "nothing can notify it, so node's thread would wait forever",
            )
        )
    if name == "wait":
        return outcome
    return {"async": False, "value": outcome}


def operation(name: str, array: Any, *args: Any) -> Any:
    """``Atomics[name](array, ...args)`` on a typed array (the caller checked it is one)."""
    if name in ("wait", "waitAsync", "notify"):
        ta = _array(array, _WAITABLE, "an int32 or BigInt64")
        i = _index(ta, args[0] if args else UNDEFINED)
        if name == "notify":
            count = args[1] if len(args) > 1 else UNDEFINED
            if count is not UNDEFINED:
                to_int(count)
            return 0  # no other agent: none waits on it
        if ta.buffer.TAG != "SharedArrayBuffer":
            raise JsError(f"{shown_value(ta)} is not a shared typed array.")
        return _wait(name, ta, i, *args[1:3])
    ta = _array(array, _INTEGER, "an integer")
    i = _index(ta, args[0] if args else UNDEFINED)
    convert = CONVERT[ta.kind]
    if name == "load":
        return ta.get(i)
    if name == "store":
        value = _integer(ta, args[1] if len(args) > 1 else UNDEFINED)
        ta.put(i, convert(value))
        return value
    if name == "compareExchange":
        expected = _integer(ta, args[1] if len(args) > 1 else UNDEFINED)
        replacement = _integer(ta, args[2] if len(args) > 2 else UNDEFINED)
        old = ta.get(i)
        if _raw(old) == convert(expected):
            ta.put(i, convert(replacement))
        return old
    value = _integer(ta, args[1] if len(args) > 1 else UNDEFINED)
    old = ta.get(i)
    ta.put(i, convert(_COMBINE[name](_raw(old), _raw(value)) if not ta.kind.startswith("Big")
                      else bigint.JsBigInt(_COMBINE[name](_raw(old), _raw(value)))))  # fmt: skip
    return old
