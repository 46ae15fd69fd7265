"""``Intl.RelativeTimeFormat`` as node 20 answers it: the number formatted as the locale's
NumberFormat shows it, between the texts its style, unit, direction and plural category take,
or the phrase numeric "auto" says instead (yesterday, now), measured from node
(scripts/intl_relative.mjs)."""

from __future__ import annotations

import math
import re
from typing import Any, Final

from flowctx_core.expressions.js.intl.data import inherited, table
from flowctx_core.expressions.js.intl.locales import (
    canonical_list,
    resolve_keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, to_number, to_string

SERVICE: Final = "Intl.RelativeTimeFormat"
_UNITS: Final = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
_WIDER: Final = {"narrow": "short", "short": "long"}
_WELL_FORMED: Final = re.compile(r"[a-zA-Z0-9]{3,8}(?:-[a-zA-Z0-9]{3,8})*\Z")


class RelativeTimeFormat(IntlObject):
    tag = "RelativeTimeFormat"
    __slots__ = ("base", "number", "o")

    def __init__(self, options: dict[str, Any], base: str, number: Any) -> None:
        self.o = options
        self.base = base  # the locale without its -u- keywords
        self.number = number  # the locale's NumberFormat, in its numbering system

    def member(self, key: str) -> Any:
        if key == "format":
            return JsFunction(
                key,
                lambda v=UNDEFINED, u=UNDEFINED, *_: "".join(
                    p[1] for p in self.parts(v, u, "format")
                ),
                arity=2,
            )
        if key == "formatToParts":
            return JsFunction(
                key, lambda v=UNDEFINED, u=UNDEFINED, *_: self.parts_objects(v, u), arity=2
            )
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def parts_objects(self, value: Any, unit: Any) -> list[dict[str, Any]]:
        out = []
        for kind, text, named in self.parts(value, unit, "formatToParts"):
            part = {"type": kind, "value": text}
            if named:
                part["unit"] = named
            out.append(part)
        return out

    def parts(self, value: Any, unit: Any, method: str) -> list[tuple[str, str, str]]:
        """The parts: (type, text, the unit a number part names or "")."""
        x = to_number(value)
        name = to_string(unit)
        where = f"{SERVICE}.prototype.{method}()"
        if x != x or x in (math.inf, -math.inf):
            raise JsError(f"Value need to be finite number for {where}")
        singular = name[:-1] if name.endswith("s") and name[:-1] in _UNITS else name
        if singular not in _UNITS:
            raise JsError(f"Invalid unit argument for {where} '{name}'")
        row = self._row(singular)
        past = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
        if self.o["numeric"] == "auto" and -2.1 < x < 2.1:
            # ICU's phrases (yesterday, today...) stand for offsets within 1% of -2 to 2
            hundredths = x * 100
            near = int(hundredths - 0.5) if hundredths < 0 else int(hundredths + 0.5)
            if near in (-200, -100, 0, 100, 200):
                phrase = row["a"].get(str(near // 100))
                if phrase is not None:
                    return [("literal", phrase, "")]
        body, _ = self.number._body(_exact(abs(x)), abs(x))
        category = self.number._category_of(body)
        texts = row["p" if past else "f"]
        found = texts.get(category) or texts["other"]
        if isinstance(found, str):  # a text without the number (ar's two: خلال ثانيتين)
            return [("literal", found, "")]
        before, after = found
        out = [("literal", before, "")] if before else []
        out.extend((kind, text, singular) for kind, text in body)
        if after:
            out.append(("literal", after, ""))
        return out

    def _row(self, unit: str) -> dict[str, Any]:
        rows = table("relative")
        found = inherited(rows, self.base) or rows["en"]
        style = self.o["style"]
        while style not in found:  # a style the same as the wider one is left out
            style = _WIDER[style]
        row: dict[str, Any] = found[style][unit]
        return row


def _exact(x: float) -> Any:
    from decimal import Decimal

    return Decimal(repr(float(x))) if isinstance(x, float) else Decimal(x)


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> RelativeTimeFormat:
    from flowctx_core.expressions.js import intl

    requested = canonical_list(locales)
    if options is None:
        raise JsError(f"{SERVICE} called on null or undefined")
    opts = coerce_options(options)
    get_option(opts, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    nu = get_option(opts, "numberingSystem", "string", None, UNDEFINED, SERVICE)
    if nu is not UNDEFINED and not _WELL_FORMED.match(nu):
        raise JsError(f"Invalid numberingSystem : {nu}")
    base, found = resolve_keywords("relative", requested)
    numberformat = intl.service("numberformat")
    numbering, kept = numberformat.numbering(
        base, {k: v for k, v in found.items() if k in ("nu", "va")}, nu
    )
    style = get_option(opts, "style", "string", ("long", "short", "narrow"), "long", SERVICE)
    numeric = get_option(opts, "numeric", "string", ("always", "auto"), "always", SERVICE)
    locale = with_keywords(base, kept)
    number = numberformat.construct(base, {"numberingSystem": numbering})
    return RelativeTimeFormat(
        {"locale": locale, "style": style, "numeric": numeric, "numberingSystem": numbering},
        base,
        number,
    )
