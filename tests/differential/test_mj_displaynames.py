"""Intl.DisplayNames against MemberJunction 5.51.3 under node, in one batch: every type and
style, fallback code and none, languageDisplay dialect and standard; language codes composed
of a script, a region and extensions (dropped), in any case, with their aliases replaced (iw,
sh, mo, cmn, bh, SU by the language's country, BU, Qaai, the grandfathered tags); codes named
as written (a lowercase region has no name: node answers it back), a currency's in any case;
V8's errors for each kind of code and option, the call without new; resolvedOptions and
supportedLocalesOf; across locales whose names, patterns and dialect names differ (en, en-GB,
de, fr, zh-Hant, ja, ar, hi, ru, sr-Latn, pt-PT, es-419), and a draw over every locale."""

from __future__ import annotations

import random
from typing import Any

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 29
OF = "new Intl.DisplayNames(payload.l, payload.o).of(payload.c)"
LOCALES = ["en", "en-GB", "de", "fr", "zh-Hant", "ja", "ar", "hi", "ru", "sr-Latn", "pt-PT",
           "es-419", "zh", "fr-CA", "de-CH", "en-IN", "nl-BE", "ko", "he", "fa", "yue"]  # fmt: skip
LANGUAGE = ["en-GB", "en-us", "EN-us", "en-Latn-US", "zh-Hans", "zh-Hant-TW", "zh-Hant-HK",
            "zh-HK", "sr-Latn", "sr-Cyrl-RS", "es-419", "es-MX", "pt-BR", "pt-PT", "fr-CA",
            "de-CH", "de-AT", "nl-BE", "ar-001", "ro-MD", "sw-CD", "en-Hans-GB", "iw", "iw-IL",
            "sh", "mo", "cmn", "cmn-Hant", "tl", "eng", "en-SU", "ru-SU", "my-BU", "en-Qaai",
            "xx", "xx-US", "xx-Latn-QM", "en-Qaaa", "en-ZZ", "und", "und-US", "", "en-u-ca-gregory",
            "en-US-x-foo", "de-a-bbb", "ja-Jpan-JP", "ko-KP", "hi-Latn", "yue-Hant",
            "ks-Deva", "ff-Adlm-GN", "uz-Cyrl", "az-Arab-IR", "ckb-IR", "kk-Arab", "bh", "tw-GH",
            "art-lojban", "i-klingon", "zh-min-nan", "x-foo", "und-Latn", "uz-SU", "hy-SU",
            "sr-YU", "nds-NL", "hi-Latn", "sr-ME", "fa-AF", "ckb-SA"]  # fmt: skip
REGION = ["US", "GB", "DE", "HK", "MO", "PS", "CD", "001", "419", "150", "ZZ", "QM", "XK", "EU",
          "us", "Gb", "840", "999", "SU", "AQ", ""]  # fmt: skip
SCRIPT = ["Latn", "Cyrl", "Arab", "Hans", "Hant", "Jpan", "Zsye", "Zmth", "Qaai", "Qaaa", "latn",
          "LATN", "Zyyy", ""]  # fmt: skip
CURRENCY = ["USD", "EUR", "usd", "Eur", "JPY", "CNY", "XAU", "XXX", "XYZ", "xyz", "BYR", "VEF"]
CALENDAR = ["gregory", "buddhist", "chinese", "islamic-civil", "islamic-umalqura", "ethioaa",
            "ethiopic-amete-alem", "gregorian", "iso8601", "roc", "islamicc", "GREGORY",
            "foobar"]  # fmt: skip
FIELD = ["era", "year", "quarter", "month", "weekOfYear", "weekday", "day", "dayPeriod", "hour",
         "minute", "second", "timeZoneName"]  # fmt: skip
CODES: dict[str, list[str]] = {
    "language": LANGUAGE, "region": REGION, "script": SCRIPT, "currency": CURRENCY,
    "calendar": CALENDAR, "dateTimeField": FIELD,
}  # fmt: skip
#: each kind of code V8 refuses: a RangeError, "invalid_argument"
BAD = {"language": ["en-", "en_US", "en-US-u", "en-x", "abcdefghi", "en-US-1994-1994", "-en",
                    "x", "e1", "en-a-bb-a-cc", "en-US-US"],
       "region": ["USA", "1", "U1", "0001"], "script": ["Lat", "Latin", "La1n"],
       "currency": ["EU", "EURO", "EU1"], "calendar": ["ab", "gregory-", "a-b", "grégory"],
       "dateTimeField": ["months", "Month", "week", "", "zone"]}  # fmt: skip
ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("Intl.DisplayNames('en', payload.o)", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames('en')", {}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"type": "foo"}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"type": "region", "style": "x"}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"type": "region", "fallback": "x"}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"type": "region", "languageDisplay": "x"}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"style": "x"}}),
    ("new Intl.DisplayNames('en', null)", {}),
    ("new Intl.DisplayNames('en', 5)", {}),
    ("new Intl.DisplayNames('en', 'abc')", {}),
    ("new Intl.DisplayNames('x', payload.o)", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames(null, payload.o)", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames('en', payload.o)", {"o": {"type": "region", "localeMatcher": "x"}}),
    ("new Intl.DisplayNames('en', payload.o).of()", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames('en', payload.o).of(12)", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames('en', payload.o).of(123)", {"o": {"type": "region"}}),
    ("Intl.DisplayNames.length", {}),
    ("new Intl.DisplayNames('en', payload.o).of.length", {"o": {"type": "region"}}),
    ("String(new Intl.DisplayNames('en', payload.o))", {"o": {"type": "region"}}),
    ("Intl.DisplayNames.supportedLocalesOf(payload.l)", {"l": ["en", "xx", "de-CH", "zz-ZZ"]}),
    ("Intl.DisplayNames.supportedLocalesOf('sr-latn-rs')", {}),
    # a language alias beside a region or a script (tl-PH is fil-PH), the tags V8 refuses
    ("Intl.DisplayNames.supportedLocalesOf(payload.l)", {"l": ["tl-PH", "sh-Cyrl-RS", "cnr-RS"]}),
    ("Intl.getCanonicalLocales(payload.l)", {"l": ["sh-RS", "cnr-Latn", "tl-Latn", "art-lojban"]}),
    ("new Intl.DisplayNames('no-bok', payload.o)", {"o": {"type": "region"}}),
    ("new Intl.DisplayNames('zh-min-nan', payload.o)", {"o": {"type": "region"}}),
]
RESOLVED = [
    ("en", {"type": "region"}),
    ("en-US", {"type": "language"}),
    ("de-CH-u-ca-buddhist", {"type": "language", "style": "short", "fallback": "none",
                             "languageDisplay": "standard"}),
    ("zz", {"type": "calendar"}),
    ("tl-PH", {"type": "language"}),
    ("sh-RS", {"type": "region"}),
    (["xx", "fr-CA", "de"], {"type": "dateTimeField", "style": "narrow"}),
    ("sr-latn", {"type": "currency", "languageDisplay": "standard"}),
    ("pt-PT", {"type": "script", "style": "short", "localeMatcher": "lookup"}),
]  # fmt: skip


def _options(r: random.Random, kind: str) -> dict[str, str]:
    o = {"type": kind}
    if r.random() < 0.7:
        o["style"] = r.choice(["long", "short", "narrow"])
    if r.random() < 0.5:
        o["fallback"] = r.choice(["code", "none"])
    if kind == "language" and r.random() < 0.6:
        o["languageDisplay"] = r.choice(["dialect", "standard"])
    return o


def _built() -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = []
    r = random.Random(SEED)
    for kind, codes in CODES.items():
        for code in codes:
            for _ in range(2):
                payload = {"l": r.choice(LOCALES), "o": _options(r, kind), "c": code}
                cases.append((kind, (OF, {"payload": payload})))
        for code in BAD[kind]:
            payload = {"l": r.choice(LOCALES), "o": {"type": kind}, "c": code}
            cases.append(("errors", (OF, {"payload": payload})))
    # the dialect names and the composed ones in each locale, in both displays and each style
    for tag in LOCALES:
        for style in ("long", "short"):
            for display in ("dialect", "standard"):
                o = {"type": "language", "style": style, "languageDisplay": display}
                for code in ("en-GB", "zh-Hant-HK", "es-419", "xx-Latn-QM"):
                    cases.append(("composed", (OF, {"payload": {"l": tag, "o": o, "c": code}})))
    for expr, payload in ERRORS:
        cases.append(("errors", (expr, {"payload": payload})))
    for tag, o in RESOLVED:
        expr = "new Intl.DisplayNames(payload.l, payload.o).resolvedOptions()"
        cases.append(("resolved", (expr, {"payload": {"l": tag, "o": o}})))
    return cases


def _drawn(n: int) -> list[tuple[str, Any]]:
    r = random.Random(SEED + 1)
    every = sorted(table("locales")["number"])
    cases: list[tuple[str, Any]] = []
    for _ in range(n):
        kind = r.choice([*CODES, "language", "region"])
        payload = {"l": r.choice(every), "o": _options(r, kind), "c": r.choice(CODES[kind])}
        cases.append(("drawn", (OF, {"payload": payload})))
    return cases


def test_display_names_agree_with_node(mj_oracle: MjOracle) -> None:
    cases = _built() + _drawn(300)
    tally = judge(mj_oracle, cases)
    for family, counts in tally.counts.items():
        assert counts["disagree"] == 0, tally.table(examples=True)
        assert counts["agree"] >= (sum(counts.values()) - counts.get("refused", 0)) * 1, family
    refused = sum(c.get("refused", 0) for c in tally.counts.values())
    # refused: names of codes whose alias depends on the language (SU in ru-SU)
    assert refused <= len(cases) * 0.02, tally.table(examples=True)
