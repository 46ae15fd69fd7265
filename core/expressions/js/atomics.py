"""The ``Atomics`` namespace: every operation takes an integer typed array first; on one of
the host's typed arrays (``host.atomics``) it runs, on any other value it throws V8's
TypeError naming what it was given; ``isLockFree`` answers for the sizes V8's atomics are
lock-free at."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.common import not_callable
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    JsNamespace,
    to_number,
    to_string,
)

#: the operations and what V8 says their first argument must be
_OPERATIONS: Final = {
    "add": "an integer", "and": "an integer", "compareExchange": "an integer",
    "exchange": "an integer", "load": "an integer", "or": "an integer", "store": "an integer",
    "sub": "an integer", "xor": "an integer", "wait": "an int32 or BigInt64",
    "notify": "an int32 or BigInt64", "waitAsync": "an int32 or BigInt64",
}  # fmt: skip


def _operation(name: str, kind: str) -> Callable[..., Any]:
    def operation(array: Any = UNDEFINED, *args: Any) -> Any:
        if type(array).__name__ == "JsTypedArray":  # the host's typed arrays run them
            from flowctx_core.expressions.js.host import service

            return service("atomics").operation(name, array, *args)
        shown = to_string(array) if type(array) is JsFunction else not_callable(array)
        raise JsError(
            f"{shown} is not {kind} typed array.",
            anonymous=f"value is not {kind} typed array.",
        )

    return operation


def _is_lock_free(size: Any = UNDEFINED, *_: Any) -> bool:
    return to_number(size) in (1, 2, 4, 8)  # V8 compares the number, not its integer part


def register(globals_: dict[str, Any]) -> None:
    members = {name: JsFunction(name, _operation(name, kind)) for name, kind in _OPERATIONS.items()}
    members["isLockFree"] = JsFunction("isLockFree", _is_lock_free)
    globals_["Atomics"] = JsNamespace("Atomics", members)
