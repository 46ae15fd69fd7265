"""Promise as a condition can see it: the objects it makes and nothing of what they later do.

A condition is one synchronous job: a promise's reactions, the ``then`` of a thenable it was
given, a rejection nobody handles, all run after the condition has returned, in the host's
process (a rejection nobody handles ends node's process). So flowctx answers what is decided
before the condition returns (``Promise.resolve(1)`` is an object, ``instanceof Promise``,
``String(p)``, ``Promise.all([1, 2])``, V8's TypeErrors) and refuses, as code, whatever would
run later: a callback given to ``then``/``catch``/``finally`` or to ``new Promise``, a thenable,
a rejection (``Promise.reject``, ``Promise.any([])``, ``Promise.all(1)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.common import LENT, Unsupported, security
from flowctx_core.expressions.js.values import (
    ELEMENT,
    UNDEFINED,
    JsError,
    JsFunction,
    JsPropsObject,
    shown_value,
    typeof,
)


class JsPromise(JsPropsObject):
    """A promise the condition made: what it settles to is never observable before the
    condition returns, so only the object is held."""

    __slots__ = ()
    KINDS: Final = frozenset({"Promise"})
    TAG: Final = "Promise"

    def __init__(self) -> None:
        self.props: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return "[object Promise]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object Promise]"

    def js_shown(self) -> str:
        return "#<Promise>"

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        method = _METHODS.get(key)
        if method is not None:
            fn, arity = method
            bound = JsFunction(key, lambda *args: fn(self, *args), arity=arity,
                               ident=f"Promise.prototype.{key}")  # fmt: skip
            bound.method, bound.receiver = _method_marker, self
            return bound
        return LENT["object_proto"](self, key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if type(this) is JsPromise:
            return this.js_get(name).fn(*args)
        raise JsError(
            f"Method Promise.prototype.{name} called on incompatible receiver {shown_value(this)}",
            anonymous=f"Method Promise.prototype.{name} called on incompatible receiver",
        )


def _method_marker(*_: Any) -> Any:
    raise AssertionError("a promise's method is called through call_with_this")


def _later(what: str) -> Exception:
    return security(f"{what} after the condition has returned")


def _reaction(name: str, callbacks: int) -> Callable[..., JsPromise]:
    """then (two callbacks), catch and finally (one): a callback would run after the
    condition has returned; without one the new promise settles as the first does."""

    def react(p: JsPromise, *handlers: Any) -> JsPromise:
        if any(type(h) is JsFunction for h in handlers[:callbacks]):
            raise _later(f"'{name}' runs its callback")
        return JsPromise()

    return react


_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "then": (_reaction("then", 2), 2), "catch": (_reaction("catch", 1), 1),
    "finally": (_reaction("finally", 1), 1),
}  # fmt: skip


def _resolved(value: Any) -> JsPromise:
    """PromiseResolve(%Promise%, value): the promise itself, or a new one; a thenable's own
    ``then`` would be called by a job after the condition has returned."""
    if type(value) is JsPromise and not (value.props and "constructor" in value.props):
        return value
    if typeof(value) in ("object", "function") and value is not None:
        then = LENT["get_member"](value, "then")  # read now, as V8 reads it
        if type(then) is JsFunction:
            raise _later("a thenable's 'then' is called by a job that runs")
    return JsPromise()


def _resolve(value: Any = UNDEFINED, *_: Any) -> JsPromise:
    return _resolved(value)


def _reject(*_: Any) -> Any:
    raise _later("a rejection nobody handles reaches the host's process")


def _combinator(name: str) -> Callable[..., Any]:
    def combine(iterable: Any = UNDEFINED, *_: Any) -> JsPromise:
        try:
            items = LENT["iterable"](iterable, "Promise")
        except JsError as exc:
            # the TypeError rejects the promise the call returns: nobody handles it
            raise _later("a rejection nobody handles reaches the host's process") from exc
        charge(ELEMENT * len(items))
        for item in items:
            _resolved(item)
        if name == "any" and not items:
            raise _later(
                "a rejection nobody handles (an AggregateError) reaches the host's process"
            )
        return JsPromise()

    return combine


class _Statics:
    """The receiver Promise's statics check (``this`` is the constructor they build with):
    Promise itself runs them; V8's TypeErrors for what is no object or no constructor."""

    def __init__(self) -> None:
        self.promise: JsFunction | None = None
        self.statics: dict[str, JsFunction] = {}

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if this is self.promise:
            return self.statics[name].fn(*args)
        if this is None or typeof(this) not in ("object", "function"):
            caller = {"resolve": "PromiseResolve", "reject": "PromiseReject"}
            raise JsError(f"{caller.get(name, f'Promise.{name}')} called on non-object")
        if LENT["is_constructor"](this):
            raise Unsupported(
                f"flowctx does not reproduce Promise.{name} building with another constructor"
            )
        raise JsError(f"{shown_value(this)} is not a constructor",
                      anonymous="value is not a constructor")  # fmt: skip


_STATICS: Final = _Statics()


def _static(name: str, fn: Callable[..., Any], arity: int) -> JsFunction:
    static = JsFunction(name, fn, arity=arity, ident=f"Promise.{name}")
    static.method, static.receiver = _method_marker, _STATICS
    _STATICS.statics[name] = static
    return static


def register(globals_: dict[str, Any], constructors: dict[int, Callable[..., Any]]) -> None:
    members = {
        "all": _static("all", _combinator("all"), 1),
        "allSettled": _static("allSettled", _combinator("allSettled"), 1),
        "any": _static("any", _combinator("any"), 1),
        "race": _static("race", _combinator("race"), 1),
        "resolve": _static("resolve", _resolve, 1),
        "reject": _static("reject", _reject, 1),
    }
    fn = JsFunction("Promise", _without_new, members=members, arity=1)
    _STATICS.promise = fn
    globals_["Promise"] = fn
    constructors[id(fn)] = _construct


def _without_new(*_: Any) -> Any:
    raise JsError("Promise constructor cannot be invoked without 'new'")


def _construct(executor: Any = UNDEFINED, *_: Any) -> JsPromise:
    if type(executor) is JsFunction:
        raise security(
            "new Promise runs its executor and leaves its reactions to the host after the "
            "condition has returned; a rejection nobody handles reaches the host's process"
        )
    raise JsError(
        f"Promise resolver {shown_value(executor)} is not a function",
        anonymous=f"Promise resolver ({typeof(executor)}) is not a function",
    )
