"""``Intl`` as node 20 has it: NumberFormat, Collator, PluralRules, ListFormat, DateTimeFormat,
RelativeTimeFormat, Segmenter, DisplayNames, Locale, getCanonicalLocales, supportedLocalesOf
and supportedValuesOf, over tables measured from node (scripts/intl_*.mjs, ``tables/``). Each
service's module and the tables load on its first use; registering the namespace loads
nothing."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, JsNamespace

#: each constructor: its module, the service whose locales it resolves, whether a call
#: without ``new`` is refused, its ``length``
_SERVICES: Final = {
    "NumberFormat": ("numberformat", "number", False, 0),
    "Collator": ("collator", "collator", False, 0),
    "PluralRules": ("plural", "plural", True, 0),
    "ListFormat": ("listformat", "list", True, 0),
    "DateTimeFormat": ("datetimeformat", "date", False, 0),
    "RelativeTimeFormat": ("relativetime", "relative", True, 0),
    "DisplayNames": ("displaynames", "number", True, 2),
    "Locale": ("locale", "", True, 1),
    "Segmenter": ("segmenter", "segmenter", True, 0),
}
#: Intl's other constructors: valid, not reproduced
#: the ids of the constructors ``new`` accepts though no global has their name
CONSTRUCTOR_IDS: Final[set[int]] = set()
#: the services flowctx does not reproduce, and their constructors' lengths
_OTHERS: Final[dict[str, int]] = {}


def service(name: str) -> Any:
    """An Intl service's module (``numberformat``, ``collator``...), loaded on first use: the
    value modules' locale-sensitive methods reach Intl through it, Intl's services reach the
    value modules directly, so neither imports the other both ways."""
    return importlib.import_module(f"flowctx_core.expressions.js.intl.{name}")


def _maker(name: str) -> Callable[..., Any]:
    module = _SERVICES[name][0]

    def make(*args: Any) -> Any:
        construct: Callable[..., Any] = service(module).construct
        return construct(*args)

    return make


def _requires_new(name: str) -> Callable[..., Any]:
    def refuse(*_: Any) -> Any:
        raise JsError(f"Constructor Intl.{name} requires 'new'")

    return refuse


def _called(name: str) -> Callable[..., Any]:
    return _requires_new(name) if _SERVICES[name][2] else _maker(name)


def _supported(kind: str, name: str) -> Callable[..., Any]:
    def call(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> list[str]:
        where = f"Intl.{name}.supportedLocalesOf"
        result: list[str] = service("locales").supported(kind, locales, options, where)
        return result

    return call


def _not_reproduced(name: str) -> Callable[..., Any]:
    def call(*_: Any) -> Any:
        from flowctx_core.expressions.js.common import Unsupported

        raise Unsupported(f"flowctx does not reproduce Intl.{name}")

    return call


def _canonical(locales: Any = UNDEFINED, *_: Any) -> list[str]:
    result: list[str] = service("locales").canonical_list(locales)
    return result


def _supported_values(key: Any = UNDEFINED, *_: Any) -> list[str]:
    """``Intl.supportedValuesOf(key)``: ICU's calendars, collations, currencies, numbering
    systems, time zones or units, as node lists them (scripts/intl_extensions.mjs)."""
    from flowctx_core.expressions.js.values import to_string

    name = to_string(key)
    values = service("data").table("supportedValues").get(name)
    if values is None:
        raise JsError(f"Invalid key : {name}")
    return list(values)


def register(globals_: dict[str, Any], constructors: dict[int, Callable[..., Any]]) -> None:
    """Add ``Intl`` to the globals and its constructors to the ``new`` table."""
    members: dict[str, Any] = {}
    for name, (_module_name, kind, _needs_new, arity) in _SERVICES.items():
        supported = JsFunction("supportedLocalesOf", _supported(kind, name), arity=1)
        statics = {"supportedLocalesOf": supported} if kind else {}  # Locale has none
        fn = JsFunction(name, _called(name), members=statics, arity=arity)
        members[name] = fn
        constructors[id(fn)] = _maker(name)
        CONSTRUCTOR_IDS.add(id(fn))
    for name in _OTHERS:
        # called it throws as node's does (both need new); constructed it is refused
        fn = JsFunction(name, _requires_new(name), arity=_OTHERS[name])
        members[name] = fn
        constructors[id(fn)] = _not_reproduced(name)
        CONSTRUCTOR_IDS.add(id(fn))
    members["getCanonicalLocales"] = JsFunction("getCanonicalLocales", _canonical, arity=1)
    members["supportedValuesOf"] = JsFunction("supportedValuesOf", _supported_values, arity=1)
    globals_["Intl"] = JsNamespace("Intl", members)
