"""``Intl.ListFormat`` as node 20 answers it: each locale's separators for two items, the
start, the middle and the end, measured from node (scripts/intl_data.mjs), and the Spanish
and Hebrew conjunctions that change with the word after them (ICU's rules)."""

from __future__ import annotations

import re
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import inherited, table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction

SERVICE: Final = "Intl.ListFormat"
# ICU's tests of the next word, in ASCII only (İz and ız keep "y"): i, or hi but not hia nor
# hie; o, ho, 8, or 11 alone or before a space (11 000, not 11.000 nor 11,5)
_TO_E: Final = re.compile(r"[iI]|[hH][iI](?![aAeE])")
_TO_U: Final = re.compile(r"[oO]|[hH][oO]|8|11(?= |\Z)")
_HEBREW: Final = re.compile(r"[\u05d0-\u05ea]")


class ListFormat(IntlObject):
    tag = "ListFormat"
    __slots__ = ("o", "seps")

    def __init__(self, options: dict[str, Any], seps: list[str]) -> None:
        self.o = options
        self.seps = seps

    def member(self, key: str) -> Any:
        if key == "format":
            return JsFunction(key, lambda v=UNDEFINED, *_: self.format(v), arity=1)
        if key == "formatToParts":
            return JsFunction(key, lambda v=UNDEFINED, *_: self.parts_objects(v), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def format(self, value: Any) -> str:
        return "".join(v for _, v in self.parts(value))

    def parts_objects(self, value: Any) -> list[dict[str, Any]]:
        return [{"type": t, "value": v} for t, v in self.parts(value)]

    def parts(self, value: Any) -> list[tuple[str, str]]:
        items = _strings(value)
        if not items:
            return []
        if len(items) == 1:
            return [("element", items[0])]
        pre, pair, start, middle, end, post = self.seps[:6]
        seps = [pair] if len(items) == 2 else [start, *[middle] * (len(items) - 3), end]
        seps[-1] = self._changed(seps[-1], items[-1])
        out = [("literal", pre)] if pre else []
        for i, item in enumerate(items):
            if i and seps[i - 1]:
                out.append(("literal", seps[i - 1]))
            out.append(("element", item))
        if post:
            out.append(("literal", post))
        return out

    def _changed(self, sep: str, word: str) -> str:
        if len(self.seps) < 7:
            return sep
        language = self.o["locale"].split("-")[0]
        if language == "es":
            if " y " in sep and _TO_E.match(word):
                return sep.replace(" y ", " e ")
            if " o " in sep and _TO_U.match(word):
                return sep.replace(" o ", " u ")
            return sep
        if language == "he":
            return sep.replace("\u05d5-", "\u05d5") if _HEBREW.match(word) else sep
        raise Unsupported(f"flowctx does not reproduce the list patterns of {language!r}")


def _strings(value: Any) -> list[str]:
    """StringListFromIterable: undefined is the empty list; each item must be a string."""
    if value is UNDEFINED:
        return []
    from flowctx_core.expressions.js.values import to_string

    if isinstance(value, str):
        items: list[Any] = list(value)
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise Unsupported("flowctx reproduces ListFormat over arrays and strings only")
    out = []
    for item in items:
        if not isinstance(item, str):
            from flowctx_core.expressions.js.values import HOLE

            shown = "undefined" if item is HOLE or item is UNDEFINED else to_string(item)
            if isinstance(item, (list, dict)):
                raise Unsupported("flowctx does not reproduce this error's wording")
            raise JsError(f"Iterable yielded {shown} which is not a string")
        out.append(item)
    return out


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> ListFormat:
    requested = canonical_list(locales)
    if options is None:
        raise JsError("Cannot convert undefined or null to object")
    opts = coerce_options(options)
    get_option(opts, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    locale = resolve("list", requested)
    kind = get_option(
        opts, "type", "string", ("conjunction", "disjunction", "unit"), "conjunction", SERVICE
    )
    style = get_option(opts, "style", "string", ("long", "short", "narrow"), "long", SERVICE)
    row = inherited(table("lists"), locale) or table("lists")["en"]
    seps = row.get(f"{kind}-{style}")
    if seps is None:
        raise Unsupported(f"flowctx does not reproduce the {kind} lists of {locale!r}")
    return ListFormat({"locale": locale, "type": kind, "style": style}, seps)
