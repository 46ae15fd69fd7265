"""``Intl.Locale`` as node 20 answers it: the tag canonicalised as getCanonicalLocales does, the
options laid over it (language, script, region, then the -u- keywords ca, co, hc, kf, kn, nu)
with V8's errors, its parts as properties, and maximize/minimize by UTS #35's likely subtags
over CLDR 48's table, with the tags node's ICU answers otherwise taken from node
(scripts/intl_likely.mjs), and the lists it offers (calendars, timeZones, weekInfo...) from
ICU's data as node shows it (localeinfo.py)."""

from __future__ import annotations

import re
from typing import Any, Final

from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.intl.locales import (
    LOCALE_TYPES,
    canonical_tag,
    keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import IntlObject, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, truthy

_EMPTY: Final = "First argument to Intl.Locale constructor can't be empty or missing"
_INCORRECT: Final = "Incorrect locale information provided"
_TYPE: Final = re.compile(r"[a-z0-9]{3,8}(?:-[a-z0-9]{3,8})*\Z", re.IGNORECASE)
_LANGUAGE: Final = re.compile(r"(?:[a-z]{2,3}|[a-z]{5,8})\Z", re.IGNORECASE)
_SCRIPT: Final = re.compile(r"[a-z]{4}\Z", re.IGNORECASE)
_REGION: Final = re.compile(r"(?:[a-z]{2}|[0-9]{3})\Z", re.IGNORECASE)
_LISTS: Final = ("calendars", "collations", "hourCycles", "numberingSystems", "textInfo",
                 "timeZones", "weekInfo")  # fmt: skip
_SERVICE: Final = "locale"


class Locale(IntlObject):
    tag = "Locale"
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text  # canonical

    def js_primitive(self, hint: str = "default") -> Any:
        return self.text  # its toString

    def member(self, key: str) -> Any:
        if key == "toString":
            return JsFunction(key, lambda *_: self.text, arity=0)
        if key in ("maximize", "minimize"):
            return JsFunction(key, lambda *_: self._likely(key), arity=0)
        base, kws = _split(self.text)
        language, script, region = _parts(base)
        if key == "baseName":
            # V8 shows ICU's POSIX variant among the base name's parts
            return with_keywords(base, {k: v for k, v in kws.items() if k == "va"})
        if key == "language":
            return UNDEFINED if language == "und" else language
        if key == "script":
            return script or UNDEFINED
        if key == "region":
            return region or UNDEFINED
        names = {"calendar": "ca", "collation": "co", "hourCycle": "hc", "caseFirst": "kf",
                 "numberingSystem": "nu"}  # fmt: skip
        if key in names:
            value = kws.get(names[key])
            return UNDEFINED if value is None else value
        if key == "numeric":
            return kws.get("kn") in ("", "true")
        if key in _LISTS:
            from flowctx_core.expressions.js.intl.localeinfo import lists

            head = "-".join(p for p in (language, script, region) if p)
            full = _parts(self._likely("maximize").text.split("-u-")[0])
            own = _parts(Locale(language)._likely("maximize").text.split("-u-")[0])[1]
            return lists(key, head, kws, (language, script, region), (own, full[2], full[0]))
        return None

    def _likely(self, how: str) -> Locale:
        base, kws = _split(self.text)
        head = "-".join(p for p in _parts(base) if p)
        rest = base[len(head) :]  # variants stay
        language = head.split("-")[0]
        unknown = language != "und" and language not in table("likely")
        if unknown:
            # measured (3,080 tags of 7 languages ICU does not know, with every kind of script
            # and region, Zzzz and ZZ among them): both leave the tag as it is
            return Locale(self.text)
        exception = table("likelyExceptions").get(head)
        if exception is not None:
            found = exception[0 if how == "maximize" else 1]
        else:
            # the unknown script Zzzz and region ZZ count as absent, as UTS #35 says (und-Deva-ZZ
            # is hi-Deva-IN, sr-ZZ sr-Cyrl-RS), but a tag with a language, a script and a region
            # is already whole to ICU's maximize (en-Latn-ZZ stays)
            lang, scr, reg = _parts(head)
            if how == "maximize" and lang != "und" and scr and reg:
                full = (lang, scr, reg)
            else:
                full = _maximize(lang, "" if scr == "Zzzz" else scr, "" if reg == "ZZ" else reg)
            found = "-".join(p for p in (full if how == "maximize" else _minimize(full)) if p)
        _, script, region = _parts(head)
        variant = bool(rest) or kws.get("va") == "posix"  # ICU's variant POSIX
        alone = not _parts(found)[2]  # the minimal form is the language alone
        if how == "minimize" and language == "und" and not script and region and variant and alone:
            # measured: there (und-US-fonipa, und-FR-u-va-posix) ICU leaves und with its region
            # and variant as it is; where the region stays (und-GB-fonipa is en-GB-fonipa) it
            # minimizes
            return Locale(self.text)
        return Locale(_canonical(with_keywords(found + rest, kws) + _others(self.text)))


LOCALE_TYPES.append(Locale)


def _split(text: str) -> tuple[str, dict[str, str]]:
    """A canonical tag's base (language, script, region, variants) and its -u- keywords."""
    parts = text.split("-")
    cut = next((i for i, p in enumerate(parts) if i and len(p) == 1), len(parts))
    return "-".join(parts[:cut]), keywords(text)


def _others(text: str) -> str:
    """The tag's extensions other than -u-, and its private use, as written."""
    parts = text.split("-")
    out: list[str] = []
    keep = False
    for i, p in enumerate(parts):
        if i and len(p) == 1:
            keep = p != "u"
            if p == "x":  # private use runs to the end, single letters included
                out.extend(parts[i:])
                break
        if keep:
            out.append(p)
    return "-" + "-".join(out) if out else ""


def _parts(base: str) -> tuple[str, str, str]:
    language, *rest = base.split("-")
    script = next((p for p in rest if len(p) == 4 and p.isalpha()), "")
    region = next((p for p in rest if len(p) == 2 or (len(p) == 3 and p.isdigit())), "")
    return language, script, region


def likely_region(language: str, script: str) -> str:
    """The region a language (and script) is most likely written in, by its likely subtags."""
    return _maximize(language, script, "")[2]


def _maximize(language: str, script: str, region: str) -> tuple[str, str, str]:
    """UTS #35's Add Likely Subtags: the first of language-script-region, language-region,
    language-script, language, then und with the script before the region, and und, in
    CLDR's table."""
    likely = table("likely")
    tries = []
    if language != "und":
        if script and region:
            tries.append(f"{language}-{script}-{region}")
        if region:
            tries.append(f"{language}-{region}")
        if script:
            tries.append(f"{language}-{script}")
        tries.append(language)
    if script and region:
        tries.append(f"und-{script}-{region}")
    if script:
        tries.append(f"und-{script}")
    if region:
        tries.append(f"und-{region}")
    if language == "und":  # an unknown language gains nothing from und's (xx stays xx)
        tries.append("und")
    for key in tries:
        found = likely.get(key)
        if found is not None:
            lang, scr, reg = _parts(found)
            return (lang if language == "und" else language), script or scr, region or reg
    return language, script, region


def _minimize(full: tuple[str, str, str]) -> tuple[str, str, str]:
    """Remove Likely Subtags: the shortest of language, language-region, language-script that
    maximizes back to the same."""
    language, script, region = full
    for trial in ((language, "", ""), (language, "", region), (language, script, "")):
        if _maximize(*trial) == full:
            return trial
    return full


def construct(tag: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> Locale:
    if isinstance(tag, Locale):
        text = tag.text
    elif isinstance(tag, str):
        if not tag:
            raise JsError(_EMPTY)
        text = tag
    else:
        raise JsError(_EMPTY)
    if options is None:
        raise JsError("Cannot convert undefined or null to object")
    canonical = _canonical(text)
    base, kws = _split(canonical)
    private = _others(canonical)
    language, script, region = _parts(base)
    variants = [p for p in base.split("-")[1:] if p not in (script, region)]

    def option(name: str, pattern: re.Pattern[str] | None) -> Any:
        value = get_option(options, name, "string", None, UNDEFINED, _SERVICE)
        if value is not UNDEFINED and pattern is not None and not pattern.match(value):
            raise JsError(_INCORRECT)
        return value

    asked = [option("language", _LANGUAGE), option("script", _SCRIPT), option("region", _REGION)]
    own = (language, script, region)
    language, script, region = (
        a if a is not UNDEFINED else b for a, b in zip(asked, own, strict=True)
    )
    # the keywords are all read before a calendar, collation or numbering system is checked
    typed = {"ca": option("calendar", None), "co": option("collation", None)}
    hc = get_option(options, "hourCycle", "string", ("h11", "h12", "h23", "h24"), UNDEFINED,
                    _SERVICE)  # fmt: skip
    if hc is not UNDEFINED:
        kws["hc"] = hc
    kf = get_option(options, "caseFirst", "string", ("upper", "lower", "false"), UNDEFINED,
                    _SERVICE)  # fmt: skip
    if kf is not UNDEFINED:
        kws["kf"] = kf
    numeric = get_option(options, "numeric", "boolean", None, UNDEFINED, _SERVICE)
    if numeric is not UNDEFINED:
        kws["kn"] = "true" if truthy(numeric) else "false"
    typed["nu"] = option("numberingSystem", None)
    for key, value in typed.items():
        if value is not UNDEFINED:
            if not _TYPE.match(value):
                raise JsError(_INCORRECT)
            kws[key] = value
    head = "-".join(p for p in (language, script, region, *variants) if p)
    rebuilt = with_keywords(head, kws) + private
    return Locale(_canonical(rebuilt))


def _canonical(tag: str) -> str:
    try:
        return canonical_tag(tag)
    except JsError:  # one message for every ill-formed tag (getCanonicalLocales has two)
        raise JsError(_INCORRECT) from None
