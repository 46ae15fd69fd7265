"""Host globals that are only called or constructed (``globalThis(1)``, ``new console``):
node throws before anything of the host is reached, so the engine's TypeError is predicted
from the arguments, which run first as in any call. Anything else done with these names stays
refused by the parser."""

from __future__ import annotations

from typing import Any, Final, NoReturn

from flowctx_core.expressions.js import values as js


def called(name: str, shown: str, args: list[Any]) -> NoReturn:
    """``name(...)`` after its arguments were evaluated; ``shown`` is V8's print of the callee."""
    raise js.JsError(f"{shown} is not a function")


def constructed(name: str, shown: str, args: list[Any]) -> NoReturn:
    raise js.JsError(f"{shown} is not a constructor")


#: how V8 names each host object (NoSideEffectsToString: its constructor's name)
_SHOWN: Final = {"process": "#<process>", "performance": "#<Performance>", "crypto": "#<Crypto>"}


def _article(kind: str) -> str:
    return "an" if kind == "object" else "a"  # V8's words: "a undefined", "an object"


def not_applicable(fn: Any, shown: str | None = None) -> js.JsError:
    """A call whose arguments V8 built as an array (a spread before another argument) applies
    its callee, and names it by value and type when it is no function."""
    kind = js.typeof(fn)
    which = "null" if fn is None else f"{_article(kind)} {kind}"
    tail = f"which is {which} and not a function"
    if shown is not None:  # a host object: its name, no value of the scope
        return js.JsError(f"Function.prototype.apply was called on {shown}, {tail}")
    return js.JsError(
        f"Function.prototype.apply was called on {js.shown_value(fn)}, {tail}",
        anonymous=f"Function.prototype.apply was called on a value {tail}",
    )


def applied_call(name: str, shown: str, args: list[Any]) -> NoReturn:
    raise not_applicable({}, _SHOWN.get(name, "#<Object>"))


def applied_new(name: str, shown: str, args: list[Any]) -> NoReturn:
    raise js.JsError(f"{_SHOWN.get(name, '#<Object>')} is not a constructor")
