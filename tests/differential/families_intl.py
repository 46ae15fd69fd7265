"""Generator families for ``Intl`` and the locale-sensitive built-ins that share it (issue 36,
item 7): NumberFormat and ``toLocaleString(locales, options)``, Collator and
``localeCompare(that, locales, options)``, PluralRules, ListFormat, DateTimeFormat and
``toLocale*String(locales)``, locale lists (getCanonicalLocales, supportedLocalesOf) and Greek
uppercasing. Every family is named ``locale.*``; like every family's, its error texts are
compared too (``draw.kind``). MemberJunction refuses braces: options objects come from the scope,
drawn here with valid and invalid values alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]

LOCALES = ["en", "en-US", "de", "de-DE", "de-CH", "fr", "fr-CA", "es", "es-MX", "it", "nl", "pt",
           "pt-BR", "pt-PT", "ja", "zh", "zh-TW", "ko", "ru", "pl", "sv", "da", "nb", "fi", "tr",
           "ar", "ar-EG", "he", "hi", "bn", "fa", "th", "en-IN", "en-GB", "de-AT", "ca", "id",
           "el", "cs", "uk", "xx", "en-XX", "EN-us", "und", "sr-Latn", "zh-Hant", "iw"]  # fmt: skip
LOCALE_ARGS = ["undefined", "[]", "['de', 'en']", "payload.locs", "5", "null", "'en_US'", "'x'",
               "'en-u-nu-thai'", "['en', 5]", "'de-'", "'en-x-priv'"]  # fmt: skip


def _locale(r: random.Random) -> str:
    return f"'{r.choice(LOCALES)}'" if r.random() < 0.85 else r.choice(LOCALE_ARGS)


def _options(r: random.Random, table: dict[str, list[Any]], most: int = 3) -> dict[str, Any]:
    keys = r.sample(sorted(table), r.randint(0, min(most, len(table))))
    return {k: r.choice(table[k]) for k in keys}


NUMBER_OPTIONS: dict[str, list[Any]] = {
    "style": ["decimal", "percent", "currency", "currency", "unit", "bogus"],
    "currency": ["USD", "EUR", "JPY", "GBP", "CHF", "INR", "BRL", "usd", "XYZ", "US", "KWD",
                 "SEK", "SAR"],
    "currencyDisplay": ["symbol", "narrowSymbol", "code", "name", "x"],
    "currencySign": ["standard", "accounting", "x"],
    "minimumFractionDigits": [0, 1, 2, 3, 5, 21, -1, "2", 101],
    "maximumFractionDigits": [0, 1, 2, 4, 20, 100, 101, "x"],
    "minimumSignificantDigits": [1, 2, 3, 5, 0, 22],
    "maximumSignificantDigits": [1, 2, 3, 6, 21, 22],
    "minimumIntegerDigits": [1, 2, 3, 5, 0, 22],
    "useGrouping": [True, False, "always", "auto", "min2", "true", "x", 0, 1],
    "notation": ["standard", "scientific", "engineering", "compact", "x"],
    "signDisplay": ["auto", "always", "never", "exceptZero", "negative", "x"],
    "trailingZeroDisplay": ["auto", "stripIfInteger", "x"],
    "compactDisplay": ["short", "long", "x"],
    "numberingSystem": ["latn", "arab", "x", "thai", "hanidec", "deva", "arabext", "beng",
                        "fullwide", "roman", "native", "mathbold", "tamldec"],
}  # fmt: skip
# numbering systems asked by the locale itself (its -u-nu-), valid, algorithmic or unknown
NUMBER_LOCALES = ["'en-u-nu-thai'", "'ar-EG-u-nu-latn'", "'hi-u-nu-deva'", "'fa-u-nu-latn'",
                  "'zh-u-nu-hanidec'", "'bn-u-nu-latn'", "'de-u-nu-arab'", "'fr-u-nu-arabext'",
                  "'en-u-nu-roman'", "'ja-u-nu-foo'", "'ar-u-nu-arab'", "'en-US-u-va-posix'",
                  "'de-CH-u-nu-fullwide'", "'en-CH'", "'en-SE'", "'en-150'", "'kea'",
                  "'en-DK'"]  # fmt: skip
NUMBERS = ["1234.5", "-1234567.891", "0", "-0", "0.5", "-0.0001", "1e21", "123456789012",
           "0.0005", "1.0005", "NaN", "Infinity", "-Infinity", "12", "99999.9995", "5e-7",
           "2**53", "-42.125", "1000000", "payload.n", "0.125", "'1234.5678'", "12n",
           "0.995", "-1.5"]  # fmt: skip
NUMBER_FORMS = [
    "({x}).toLocaleString({l}, payload.o)", "new Intl.NumberFormat({l}, payload.o).format({x})",
    "Intl.NumberFormat({l}, payload.o).format({x})",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).resolvedOptions())",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).formatToParts({x}))",
    "new Intl.NumberFormat({l}).format({x})", "[1, 22, 333].map(Intl.NumberFormat({l}).format)",
    "({x}).toLocaleString({l}, payload.o).length",
]  # fmt: skip


def _scope(options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"payload": {"o": options, "n": 98765.4321, "locs": ["fr-CA", "de"], **extra}}


def number_format(r: random.Random) -> Case:
    options = _options(r, NUMBER_OPTIONS)
    if r.random() < 0.2:
        options = {"notation": "compact", "compactDisplay": r.choice(["short", "long"])}
    if r.random() < 0.4:
        options = {"style": "currency", "currency": r.choice(NUMBER_OPTIONS["currency"][:7]),
                   **options}  # fmt: skip
    form = r.choice(NUMBER_FORMS)
    locale = r.choice(NUMBER_LOCALES) if r.random() < 0.15 else _locale(r)
    expr = form.replace("{l}", locale).replace("{x}", r.choice(NUMBERS))
    return expr, _scope(options)


#: rounding (ECMA-402 2023): every mode, increments at each allowed size and beyond, the
#: priority between significant and fraction digits, with the errors their mixes give
ROUNDING_MODES = ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand",
                  "halfTrunc", "halfEven", "x"]  # fmt: skip
PLURAL_FORMS = [
    "new Intl.PluralRules({l}, payload.o).select({x})",
    "JSON.stringify(new Intl.PluralRules({l}, payload.o).resolvedOptions())",
]
ROUNDING_NUMBERS = ["0", "-0", "1.5", "-1.5", "2.5", "-2.5", "0.125", "-0.125", "1.005",
                    "-123.456", "0.0049", "99.95", "999.5", "-0.5", "1234567.891", "0.35",
                    "1.45", "-25", "'1.00000000000000000001'", "12n"]  # fmt: skip


def rounding(r: random.Random) -> Case:
    options: dict[str, Any] = {}
    if r.random() < 0.8:
        options["roundingMode"] = r.choice(ROUNDING_MODES)
    k = r.random()
    if k < 0.35:
        digits = r.randint(0, 4)
        options.update(minimumFractionDigits=digits, maximumFractionDigits=digits)
        if r.random() < 0.7:
            options["roundingIncrement"] = r.choice([1, 2, 5, 10, 20, 25, 50, 100, 250, 5000])
    elif k < 0.55:
        options["maximumSignificantDigits"] = r.randint(1, 5)
        if r.random() < 0.5:
            options["minimumSignificantDigits"] = r.randint(1, options["maximumSignificantDigits"])
    elif k < 0.85:
        options["roundingPriority"] = r.choice(["morePrecision", "lessPrecision", "auto", "x"])
        for name, low, high, chance in (("maximumSignificantDigits", 1, 5, 0.8),
                                         ("minimumSignificantDigits", 1, 3, 0.4),
                                         ("maximumFractionDigits", 0, 4, 0.8),
                                         ("minimumFractionDigits", 0, 2, 0.4)):  # fmt: skip
            if r.random() < chance:
                options[name] = r.randint(low, high)
    else:  # the mixes V8 refuses, in its order
        options["roundingIncrement"] = r.choice([1, 2, 3, 5, 0, "5", None])
        for name in ("maximumFractionDigits", "maximumSignificantDigits", "trailingZeroDisplay"):
            if r.random() < 0.4:
                options[name] = "x" if name == "trailingZeroDisplay" else r.randint(0, 3)
    if r.random() < 0.2:
        options["trailingZeroDisplay"] = "stripIfInteger"
    if r.random() < 0.15:
        options["style"] = r.choice(["percent", "currency"])
        options["currency"] = r.choice(["EUR", "JPY", "KWD"])
    if r.random() < 0.1:
        options["signDisplay"] = r.choice(["exceptZero", "negative", "always", "never"])
    form = r.choice([*NUMBER_FORMS, *PLURAL_FORMS])
    expr = form.replace("{l}", _locale(r)).replace("{x}", r.choice(ROUNDING_NUMBERS))
    return expr, _scope(options)


COLLATOR_OPTIONS: dict[str, list[Any]] = {
    "sensitivity": ["base", "accent", "case", "variant", "x"],
    "numeric": [True, False, "true", 0],
    "caseFirst": ["upper", "lower", "false", "x"],
    "ignorePunctuation": [True, False],
    "usage": ["sort", "search", "x"],
    "collation": ["default", "phonebk", "x", "standard", "emoji", "eor", "trad", "PINYIN",
                  "zhuyin", "stroke", "unihan", "compat", "dict", "phonetic", "searchjl"],
}  # fmt: skip
# collations and options asked by the locale itself (its -u-co-, -u-kn-, -u-kf-)
COLLATOR_LOCALES = ["'en-u-kn'", "'en-u-kn-false'", "'de-u-co-phonebk'", "'en-u-co-phonebk'",
                    "'en-u-kf-upper'", "'en-u-kf-lower-kn'", "'zh-u-co-zhuyin'", "'es-u-co-trad'",
                    "'en-u-co-emoji'", "'en-u-kn-foo'", "'da-u-kf-false'", "'sv-u-co-search'",
                    "'en-US-u-va-posix'", "'fi-u-co-trad'", "'ko-u-co-searchjl'",
                    "'ar-u-co-compat'", "'si-u-co-dict'", "'ln-u-co-phonetic'", "'hr'",
                    "'cy'", "'zh-u-co-unihan'", "'de-AT-u-co-phonebk'", "'ja-u-co-unihan'",
                    "'en-US-u-va-posix-kf-upper'"]  # fmt: skip
WORDS = ["a", "A", "b", "á", "Á", "ä", "z", "ß", "ss", "a1", "a10", "a2", "a02", "ab", "a-b",
         "a b", "a.b", "ä1", "Ab", "aB", "résumé", "resume", "Resume", "é", "e", "E", "ö", "o",
         "ø", "æ", "ae", "ch", "c", "d", "ñ", "n", "x9", "x 9", "9", "10", "", "Z", "ǆ",
         "1.5", "1.10", "a$b", "a_b", "å", "aa", "ı", "i", "İ", "ç", "ō", "ǒ", "đ", "ď",
         "ł", "ĺ", "ħ", "ĥ", "ǿ"]  # fmt: skip
COLLATOR_FORMS = [
    "{a}.localeCompare({b}, {l}, payload.o)", "new Intl.Collator({l}, payload.o).compare({a}, {b})",
    "Intl.Collator({l}, payload.o).compare({a}, {b})", "{a}.localeCompare({b}, {l})",
    "payload.w.slice().sort(new Intl.Collator({l}, payload.o).compare).join()",
    "JSON.stringify(new Intl.Collator({l}, payload.o).resolvedOptions())",
]  # fmt: skip


def _lit(s: str) -> str:
    return "'" + "".join(c if c.isascii() and c != "'" else f"\\u{ord(c):04x}" for c in s) + "'"


def collator(r: random.Random) -> Case:
    a, b = r.choice(WORDS), r.choice(WORDS)
    form = r.choice(COLLATOR_FORMS)
    locale = r.choice(COLLATOR_LOCALES) if r.random() < 0.15 else _locale(r)
    expr = form.replace("{l}", locale).replace("{a}", _lit(a)).replace("{b}", _lit(b))
    return expr, {"payload": {"o": _options(r, COLLATOR_OPTIONS), "w": r.sample(WORDS, 6),
                              "locs": ["fr-CA", "de"]}}  # fmt: skip


PLURAL_OPTIONS: dict[str, list[Any]] = {
    "type": ["cardinal", "ordinal", "x"],
    "minimumFractionDigits": [0, 1, 2, 3, 4],
    "maximumFractionDigits": [0, 1, 2, 3, 5, 8],
    "maximumSignificantDigits": [1, 2, 3, 7],
}
# languages whose rules read the fraction digits (f, t, v) or name millions apart
PLURAL_LOCALES = ["lv", "hr", "sr", "bs", "sl", "fil", "mk", "is", "br", "cy", "ga", "lt", "mt",
                  "gv", "dsb", "si", "ceb", "kw", "ar", "he", "fr", "pt-PT"]  # fmt: skip
PLURAL_NUMBERS = ["0", "1", "2", "3", "5", "11", "21", "22", "101", "111", "1000000", "1.5", "0.5",
                  "1.0", "2.25", "-1", "NaN", "'1'", "1e6", "3.1", "12345", "2000000", "100",
                  "0.01", "1.005", "1234.5", "0.121", "1.00021", "3.011", "1.001", "1000001",
                  "21.0101", "0.30001", "11.111", "2.0004", "7.12345678"]  # fmt: skip
PLURAL_FORMS = ["new Intl.PluralRules({l}, payload.o).select({x})",
                "new Intl.PluralRules({l}).select({x})",
                "JSON.stringify(new Intl.PluralRules({l}, payload.o).resolvedOptions())",
                "Intl.PluralRules({l})"]  # fmt: skip


def plural(r: random.Random) -> Case:
    form = r.choice(PLURAL_FORMS)
    locale = f"'{r.choice(PLURAL_LOCALES)}'" if r.random() < 0.5 else _locale(r)
    expr = form.replace("{l}", locale).replace("{x}", r.choice(PLURAL_NUMBERS))
    return expr, _scope(_options(r, PLURAL_OPTIONS, 2))


LIST_OPTIONS: dict[str, list[Any]] = {
    "type": ["conjunction", "disjunction", "unit", "x"],
    "style": ["long", "short", "narrow", "x"],
}
LIST_ITEMS = ["[]", "['a']", "['a', 'b']", "['a', 'b', 'c']", "['x', 'y', 'z', 'w']",
              "['Ana', 'Ignacio']", "['a', 'hielo']", "['a', 'hierro']", "['a', 'ocho']",
              "['a', '8']", "['a', '11']", "['a', 'hola']", "payload.items", "'abc'", "[1, 2]",
              "['\\u05d0', '\\u05d1']", "['a', '\\u05d1']", "undefined"]  # fmt: skip
LIST_FORMS = ["new Intl.ListFormat({l}, payload.o).format({x})",
              "JSON.stringify(new Intl.ListFormat({l}, payload.o).formatToParts({x}))",
              "JSON.stringify(new Intl.ListFormat({l}, payload.o).resolvedOptions())",
              "Intl.ListFormat({l})"]  # fmt: skip


def list_format(r: random.Random) -> Case:
    form = r.choice(LIST_FORMS)
    expr = form.replace("{l}", _locale(r)).replace("{x}", r.choice(LIST_ITEMS))
    return expr, _scope(_options(r, LIST_OPTIONS, 2), items=["uno", "ocho", "y"])


DATE_OPTIONS: dict[str, list[Any]] = {
    "timeZone": ["UTC", "utc", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Foo/Bar",
                 "Etc/GMT+5", "Asia/Kolkata", "asia/calcutta", "Australia/Lord_Howe",
                 "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu", "America/Sao_Paulo",
                 "US/Pacific", "EST", "Europe/Kyiv", "Etc/GMT-14", "Etc/GMT+13", "+05:30",
                 "Africa/Casablanca", "America/Santiago", "Europe/London", "GMT0", "IST",
                 "Antarctica/Troll", "Asia/Tehran", "America/Argentina/Buenos_Aires"],
    "timeZoneName": ["short", "long", "shortOffset", "longOffset", "shortGeneric",
                     "longGeneric", "x"],
    "fractionalSecondDigits": [1, 2, 3, 0, 4, "2"],
    "dayPeriod": ["narrow", "short", "long", "x"],
    "hour": ["numeric", "2-digit", "x"],
    "minute": ["2-digit", "numeric"],
    "second": ["2-digit"],
    "year": ["numeric", "2-digit"],
    "month": ["long", "short", "numeric", "2-digit", "narrow", "x"],
    "day": ["numeric", "2-digit"],
    "weekday": ["long", "short", "narrow"],
    "hour12": [True, False],
    "dateStyle": ["full", "long", "medium", "short", "x"],
    "timeStyle": ["medium", "short", "long", "full"],
    "era": ["short", "long", "narrow"],
    "hourCycle": ["h11", "h12", "h23", "h24", "x"],
    "numberingSystem": ["arab", "thai", "latn", "roman"],
    "calendar": ["gregory", "japanese", "x", "persian", "buddhist", "roc", "islamic-civil",
                 "islamic-tbla", "chinese", "dangi"],
}  # fmt: skip
#: every calendar ICU has (and a few it has not), for the draws of random component sets
CALENDARS = ["buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew",
             "indian", "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla",
             "islamic-umalqura", "iso8601", "japanese", "persian", "roc", "ethiopic-amete-alem",
             "islamicc", "x"]  # fmt: skip
DATE_WIDTHS: dict[str, list[str]] = {
    "weekday": ["narrow", "short", "long"], "era": ["narrow", "short", "long"],
    "year": ["numeric", "2-digit"], "month": ["numeric", "2-digit", "narrow", "short", "long"],
    "day": ["numeric", "2-digit"], "hour": ["numeric", "2-digit"],
    "minute": ["numeric", "2-digit"], "second": ["numeric", "2-digit"],
}  # fmt: skip
# hour cycles, numbering systems and calendars asked by the locale itself
DATE_LOCALES = ["'en-u-hc-h23'", "'ja-u-hc-h12'", "'en-u-nu-thai'", "'de-u-ca-gregory'",
                "'ja-JP-u-ca-japanese'", "'th-u-ca-gregory'", "'ar-EG-u-nu-latn'",
                "'fr-u-hc-h11-nu-arab'", "'fa-u-ca-gregory'", "'en-u-ca-persian'",
                "'zh-TW-u-ca-roc'", "'th-u-ca-buddhist'", "'de-u-hc-h12'", "'en-GB-u-ca-japanese'",
                "'ko-u-hc-h24'", "'ar-SA-u-ca-islamic-civil'", "'zh-u-ca-chinese'",
                "'ko-KR-u-ca-dangi'", "'zh-Hant-TW-u-ca-chinese'"]  # fmt: skip
# the option sets people write (most of them reproduced), beside random ones
DATE_SETS: list[dict[str, Any]] = [
    {"dateStyle": "long"}, {"dateStyle": "full"}, {"dateStyle": "medium", "timeStyle": "short"},
    {"dateStyle": "short"}, {"timeStyle": "short"},
    {"year": "numeric", "month": "long", "day": "numeric"},
    {"year": "numeric", "month": "short", "day": "numeric"},
    {"year": "numeric", "month": "2-digit", "day": "2-digit"}, {"month": "long", "day": "numeric"},
    {"weekday": "long", "year": "numeric", "month": "long", "day": "numeric"},
    {"weekday": "long"}, {"month": "long"}, {"month": "short", "year": "numeric"},
    {"hour": "2-digit", "minute": "2-digit"},
    {"hour": "numeric", "minute": "2-digit", "hour12": True},
    {"hour": "2-digit", "minute": "2-digit", "hour12": False},
    {"year": "numeric", "month": "2-digit", "day": "2-digit", "hour": "2-digit",
     "minute": "2-digit"},
    {"dateStyle": "long", "timeStyle": "long"}, {"timeStyle": "full"},
    {"timeStyle": "short", "hour12": True}, {"dateStyle": "medium", "timeStyle": "medium",
     "hourCycle": "h23"},
    {"weekday": "short", "hour": "numeric", "minute": "2-digit"},
    {"month": "short", "day": "numeric", "hour": "numeric", "minute": "2-digit"},
    {"timeZoneName": "short"}, {"hour": "numeric", "minute": "2-digit", "timeZoneName": "short"},
    {"year": "numeric", "month": "short", "day": "numeric", "hour": "2-digit",
     "minute": "2-digit", "timeZoneName": "shortOffset"},
    {"hour": "2-digit", "minute": "2-digit", "second": "2-digit", "timeZoneName": "longOffset"},
    {"hour": "numeric", "minute": "2-digit", "second": "2-digit", "fractionalSecondDigits": 3},
    {"minute": "2-digit", "second": "2-digit", "fractionalSecondDigits": 2},
    {"hour": "numeric", "minute": "2-digit", "dayPeriod": "short"}, {"dayPeriod": "long"},
    {"hour": "numeric", "dayPeriod": "narrow"}, {"weekday": "long", "timeZoneName": "long"},
    {"year": "numeric", "month": "long", "day": "numeric", "timeZoneName": "shortGeneric"},
]  # fmt: skip
#: the option sets that print a zone's name (and the zones they name: metazones with and without
#: daylight time, short names, single-zone countries, links, zones without a metazone)
ZONE_NAME_SETS: list[dict[str, Any]] = [
    {"timeZoneName": "short"}, {"timeZoneName": "long"}, {"timeZoneName": "shortGeneric"},
    {"timeZoneName": "longGeneric"}, {"timeStyle": "full"}, {"timeStyle": "long"},
    {"dateStyle": "medium", "timeStyle": "long"}, {"dateStyle": "full", "timeStyle": "full"},
    {"hour": "numeric", "minute": "2-digit", "timeZoneName": "short"},
    {"hour": "2-digit", "minute": "2-digit", "timeZoneName": "longGeneric"},
    {"year": "numeric", "month": "short", "day": "numeric", "timeZoneName": "long"},
    {"weekday": "long", "hour": "numeric", "timeZoneName": "shortGeneric"},
]  # fmt: skip
ZONE_NAME_ZONES = ["America/Los_Angeles", "America/New_York", "Europe/Berlin", "Europe/London",
                   "Europe/Dublin", "Asia/Tokyo", "Asia/Kolkata", "America/Phoenix",
                   "Australia/Sydney", "Australia/Lord_Howe", "America/Sao_Paulo", "Africa/Cairo",
                   "Asia/Shanghai", "Pacific/Honolulu", "America/Indiana/Knox", "Europe/Moscow",
                   "Africa/Casablanca", "America/St_Johns", "Asia/Kathmandu", "Etc/GMT+5",
                   "America/Mexico_City", "Europe/Kyiv", "Asia/Dubai", "Antarctica/Troll",
                   "Pacific/Chatham", "America/Argentina/Buenos_Aires", "US/Pacific", "EST",
                   "Asia/Jerusalem", "Europe/Lisbon", "America/Halifax", "Asia/Singapore",
                   "America/Anchorage", "Pacific/Apia", "Asia/Tehran",
                   "Europe/Istanbul"]  # fmt: skip
DATES = ["0", "1700000000000", "Date.UTC(2024, 1, 29, 23, 59, 59)", "Date.UTC(1999, 11, 31, 12)",
         "-1e12", "NaN", "Date.UTC(1582, 9, 14)", "8.64e15", "payload.t", "'2020-01-01'",
         "Date.UTC(2026, 5, 1, 0, 30)", "-1e14", "-62198755200000", "-8.64e15",
         "Date.UTC(812, 11, 25, 8)", "Date.UTC(1582, 9, 4, 23)",
         "Date.UTC(-44, 2, 15)", "Date.UTC(2026, 2, 8, 7, 30)", "Date.UTC(2026, 9, 25, 0, 59)",
         "Date.UTC(2100, 9, 31, 1, 30)", "Date.UTC(1850, 5, 1, 12)", "Date.UTC(2024, 5, 1, 12)",
         "Date.UTC(1999, 11, 31, 23, 59, 59, 987)", "Date.UTC(40000, 6, 1)"]  # fmt: skip
# the end of a range: the same instant, a little later, much later, invalid
DATE_RANGE_ENDS = ["{x}", "{x} + 1", "{x} + 999", "{x} + 60000", "{x} + 3600000", "{x} + 86400000",
              "{x} + 4e10", "NaN", "undefined", "new Date({x})", "'x'"]  # fmt: skip
DATE_FORMS = ["new Date({x}).toLocaleString({l})", "new Date({x}).toLocaleDateString({l})",
              "new Date({x}).toLocaleTimeString({l})",
              "new Date({x}).toLocaleDateString({l}, payload.o)",
              "new Date({x}).toLocaleTimeString({l}, payload.o)",
              "JSON.stringify(new Intl.DateTimeFormat({l}, payload.o).formatToParts({x}))",
              "new Date({x}).toLocaleString({l}, payload.o)",
              "new Intl.DateTimeFormat({l}, payload.o).format({x})",
              "Intl.DateTimeFormat({l}).format(new Date({x}))",
              "JSON.stringify(new Intl.DateTimeFormat({l}).formatToParts({x}))",
              "JSON.stringify(new Intl.DateTimeFormat({l}, payload.o).resolvedOptions())",
              "new Intl.DateTimeFormat({l}, payload.o).formatRange({x}, {y})",
              "JSON.stringify(new Intl.DateTimeFormat({l}, payload.o)"
              ".formatRangeToParts({x}, {y}))",
              "new Intl.DateTimeFormat({l}, payload.o).resolvedOptions().timeZone",
              "new Intl.DateTimeFormat({l}, payload.o).formatRange({x})",
              ]  # fmt: skip


def _calendar_set(r: random.Random) -> tuple[str, dict[str, Any]]:
    """A random set of components in any width (a zone's name, fractional seconds or a day
    period now and then), in a calendar asked by the option or by the locale's -u-ca-, with an
    hour cycle now and then."""
    options: dict[str, Any] = {k: r.choice(v) for k, v in DATE_WIDTHS.items() if r.random() < 0.35}
    if r.random() < 0.3:  # the time fields tables/zoneparts measures, composed with the date
        key = r.choice(["timeZoneName", "fractionalSecondDigits", "dayPeriod"])
        options[key] = r.choice(DATE_OPTIONS[key][: 3 if key == "fractionalSecondDigits" else -1])
    if r.random() < 0.2:
        key = r.choice(["hour12", "hourCycle"])
        options[key] = r.choice([True, False] if key == "hour12" else ["h11", "h12", "h23", "h24"])
    if r.random() < 0.15:
        options = {"dateStyle": r.choice(DATE_OPTIONS["dateStyle"][:4])}
    if r.random() < 0.3:
        options["timeZone"] = r.choice(DATE_OPTIONS["timeZone"][:5])
    calendar = r.choice(CALENDARS)
    if r.random() < 0.5:
        options["calendar"] = calendar
        return _locale(r), options
    base = r.choice(LOCALES[:-3])
    return f"'{base}-u-ca-{calendar}'", options


def date_time(r: random.Random) -> Case:
    form = r.choice(DATE_FORMS)
    if r.random() < 0.3:  # every calendar, random sets of components
        locale, options = _calendar_set(r)
        expr = form.replace("{l}", locale).replace("{x}", r.choice(DATES))
        return expr, {"payload": {"o": options, "t": 1234567890123, "locs": ["fr-CA", "de"]}}
    locale = r.choice(DATE_LOCALES) if r.random() < 0.1 else _locale(r)
    expr = form.replace("{l}", locale).replace("{y}", r.choice(DATE_RANGE_ENDS))
    expr = expr.replace("{x}", r.choice(DATES))
    roll = r.random()
    options = (
        dict(r.choice(DATE_SETS))
        if roll < 0.45
        else (_options(r, DATE_OPTIONS, 3) if roll < 0.75 else {})
    )
    if r.random() < 0.4:
        zones = DATE_OPTIONS["timeZone"]
        options["timeZone"] = r.choice(zones[:5] if r.random() < 0.5 else zones)
    if r.random() < 0.2:  # a zone's own name: its metazone's, its location's or its offset
        options = {**r.choice(ZONE_NAME_SETS), "timeZone": r.choice(ZONE_NAME_ZONES)}
    return expr, {"payload": {"o": options, "t": 1234567890123, "locs": ["fr-CA", "de"]}}


TAGS = ["en-us", "EN", "de-de-u-co-phonebk", "zh-hant-tw", "iw", "sh", "in", "en-x-Foo", "x",
        "en_US", "de-", "", "und", "en-u-kn-true", "en-u-ca-gregory-nu-latn", "tl", "mo",
        "en-GB-oed", "es-419", "de-CH-1996", "sr-latn-rs", "deu", "ja-JP-u-ca-japanese",
        "en-a-bbb-x-a-ccc", "en-u-nu-thai", "xx", "root", "en--US", "i-klingon", "art-lojban",
        "en-US-u-va-posix", "zh-cmn", "fr-FR-x-y", "en-latn", "EN-LATN-US"]  # fmt: skip
TAG_FORMS = ["Intl.getCanonicalLocales({t})", "Intl.getCanonicalLocales([{t}, {u}])",
             "Intl.NumberFormat.supportedLocalesOf([{t}, {u}])",
             "Intl.Collator.supportedLocalesOf({t})", "Intl.PluralRules.supportedLocalesOf({t})",
             "Intl.DateTimeFormat.supportedLocalesOf([{t}])",
             "Intl.ListFormat.supportedLocalesOf([{u}, {t}])",
             "new Intl.NumberFormat({t}).resolvedOptions().locale",
             "new Intl.Collator({t}).resolvedOptions().locale",
             "Intl.getCanonicalLocales(payload.locs)", "typeof Intl", "String(Intl)",
             "Object.keys(Intl)", "Intl.getCanonicalLocales()", "Intl.getCanonicalLocales(null)",
             "new Intl.PluralRules({t}).resolvedOptions().locale"]  # fmt: skip


def tags(r: random.Random) -> Case:
    form = r.choice(TAG_FORMS)
    expr = form.replace("{t}", f"'{r.choice(TAGS)}'").replace("{u}", f"'{r.choice(TAGS)}'")
    return expr, {"payload": {"locs": r.sample(TAGS, 3)}}


RELATIVE_OPTIONS: dict[str, list[Any]] = {
    "style": ["long", "short", "narrow", "x"],
    "numeric": ["always", "auto", "x"],
    "numberingSystem": ["arab", "thai", "latn", "roman"],
}
RELATIVE_VALUES = ["0", "-0", "1", "-1", "2", "-2", "3", "-3", "1.5", "-21", "1234.5", "1e21",
                   "NaN", "Infinity", "'3'", "0.0001", "-100", "1.0049", "-0.995", "2.01",
                   "0.4"]  # fmt: skip
RELATIVE_UNITS = ["second", "minutes", "hour", "day", "days", "week", "month", "quarter",
                  "years", "x", "undefined"]  # fmt: skip
RELATIVE_FORMS = ["new Intl.RelativeTimeFormat({l}, payload.o).format({x}, {u})",
                  "JSON.stringify(new Intl.RelativeTimeFormat({l}, payload.o)"
                  ".formatToParts({x}, {u}))",
                  "JSON.stringify(new Intl.RelativeTimeFormat({l}, payload.o).resolvedOptions())",
                  "Intl.RelativeTimeFormat({l})",
                  "Intl.RelativeTimeFormat.supportedLocalesOf({l}).join()"]  # fmt: skip


def relative_time(r: random.Random) -> Case:
    unit = r.choice(RELATIVE_UNITS)
    unit = unit if unit == "undefined" else f"'{unit}'"
    form = r.choice(RELATIVE_FORMS)
    expr = form.replace("{l}", _locale(r)).replace("{x}", r.choice(RELATIVE_VALUES))
    return expr.replace("{u}", unit), _scope(_options(r, RELATIVE_OPTIONS, 2))


LOCALE_OPTIONS: dict[str, list[Any]] = {
    "language": ["de", "zh", "x", "und", "haw"],
    "script": ["Latn", "hant", "Cyrl", "x1"],
    "region": ["GB", "us", "419", "x"],
    "calendar": ["gregory", "japanese", "x"],
    "collation": ["phonebk", "emoji"],
    "hourCycle": ["h11", "h23", "x"],
    "caseFirst": ["upper", "false", "x"],
    "numeric": [True, False, "x"],
    "numberingSystem": ["arab", "latn"],
}
LOCALE_TAGS = ["en", "en-US", "zh-TW", "zh-Hant", "sr-Cyrl", "und", "und-Cyrl-NA", "ar",
               "pt-BR", "en-latn-us-u-va-posix", "de-u-co-phonebk-kn", "ja-JP-u-ca-japanese",
               "iw", "sh", "az-Arab", "und-419", "yue", "ku-Arab", "haw-US", "xx"]  # fmt: skip
LOCALE_FORMS = ["String(new Intl.Locale({t}, payload.o))",
                "new Intl.Locale({t}).maximize().toString()",
                "new Intl.Locale({t}, payload.o).minimize().toString()",
                "JSON.stringify([new Intl.Locale({t}, payload.o)].map(l => [l.baseName, "
                "l.language, l.script, l.region, l.calendar, l.collation, l.hourCycle, "
                "l.caseFirst, l.numeric, l.numberingSystem]))", "Intl.Locale({t})",
                "new Intl.Locale()",
                "String(new Intl.Locale(new Intl.Locale({t}), payload.o))"]  # fmt: skip


def locale_object(r: random.Random) -> Case:
    tag = f"'{r.choice(LOCALE_TAGS)}'" if r.random() < 0.8 else f"'{r.choice(TAGS)}'"
    return r.choice(LOCALE_FORMS).replace("{t}", tag), _scope(_options(r, LOCALE_OPTIONS, 3))


SIMPLE_UNITS = ["acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit",
                "fluid-ounce", "foot", "gallon", "gigabit", "gigabyte", "gram", "hectare", "hour",
                "inch", "kilobit", "kilobyte", "kilogram", "kilometer", "liter", "megabit",
                "megabyte", "meter", "microsecond", "mile", "mile-scandinavian", "milliliter",
                "millimeter", "millisecond", "minute", "month", "nanosecond", "ounce", "percent",
                "petabyte", "pound", "second", "stone", "terabit", "terabyte", "week", "yard",
                "year"]  # fmt: skip
# units V8 refuses (not sanctioned, not well formed) and compounds ICU has patterns of its own for
ODD_UNITS = ["xyz", "Meter", "meter-per", "square-meter", "liter-per-100-kilometer", "", "5",
             "meter-and-centimeter", "kilometer-per-hour", "meter-per-second", "mile-per-hour",
             "mile-per-gallon", "liter-per-kilometer", "percent-per-percent",
             "meter-per-meter"]  # fmt: skip
# languages with many plural categories, right-to-left ones, other numbering systems
UNIT_LOCALES = ["en", "de", "fr", "ar", "ru", "pl", "cs", "lt", "lv", "sl", "ga", "cy", "he", "ja",
                "zh", "ko", "hi", "bn", "fa", "ur", "es", "pt", "it", "uk", "ro", "tr", "fi", "hu",
                "sv", "nb", "da", "nl", "el", "th", "vi", "id", "mr", "ta", "te", "kn", "ml", "km",
                "my", "ne", "si", "sk", "hr", "sr", "bs", "mk", "bg", "is", "et", "ka", "hy", "kk",
                "ky", "uz", "az", "mn", "am", "sw", "zu", "af", "ca", "gl", "eu", "br", "mt", "fil",
                "yue", "zh-Hant", "en-GB", "en-IN", "fr-CA", "de-CH", "es-MX", "pt-PT", "ar-EG",
                "sr-Latn", "ps", "ks", "sd", "pa", "gu", "or", "as", "dz", "ff-Adlm", "chr",
                "ce", "gd", "kw", "ast", "fy", "lb", "rm", "se", "ug"]  # fmt: skip
UNIT_NUMBERS = [*NUMBERS, "1", "2", "3", "5", "11", "21", "101", "1.5", "2.5", "0.1", "-1",
                "-2", "1000", "1500", "1000000", "2000000", "12345.678", "1e-7"]  # fmt: skip
UNIT_OPTIONS: dict[str, list[Any]] = {
    "unitDisplay": ["short", "narrow", "long", "long", "x"],
    "notation": ["standard", "compact", "scientific", "engineering"],
    "compactDisplay": ["short", "long"],
    "signDisplay": ["auto", "always", "never", "exceptZero", "negative"],
    "maximumFractionDigits": [0, 1, 2],
    "minimumFractionDigits": [0, 1, 2],
    "maximumSignificantDigits": [1, 2, 3],
    "useGrouping": [True, False, "always"],
    "numberingSystem": ["arab", "deva", "thai", "latn"],
}
UNIT_FORMS = [
    "new Intl.NumberFormat({l}, payload.o).format({x})", "({x}).toLocaleString({l}, payload.o)",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).formatToParts({x}))",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).resolvedOptions())",
    "[1, 2, 5, 22, 0.5].map(new Intl.NumberFormat({l}, payload.o).format).join('|')",
]  # fmt: skip


def _unit(r: random.Random) -> str:
    roll = r.random()
    if roll < 0.55:
        return r.choice(SIMPLE_UNITS)
    if roll < 0.9:
        return f"{r.choice(SIMPLE_UNITS)}-per-{r.choice(SIMPLE_UNITS)}"
    return r.choice(ODD_UNITS)


def number_unit(r: random.Random) -> Case:
    """Style unit: every sanctioned unit and compound, each display, plural categories of many
    languages, compact and scientific numbers, formatToParts's unit parts, V8's unit errors."""
    options: dict[str, Any] = {"style": "unit", "unit": _unit(r), **_options(r, UNIT_OPTIONS)}
    if r.random() < 0.05:
        options.pop("unit" if r.random() < 0.5 else "style")
    locale = f"'{r.choice(UNIT_LOCALES)}'" if r.random() < 0.9 else _locale(r)
    expr = r.choice(UNIT_FORMS).replace("{l}", locale).replace("{x}", r.choice(UNIT_NUMBERS))
    return expr, _scope(options)


RANGE_ENDS = ["3", "5", "-5", "-3", "0", "-0", "1", "2", "1.5", "1000", "3000", "3100", "1e6",
              "2.9", "3.1", "0.5", "1234.5", "99999", "Infinity", "-Infinity", "'5'", "2n",
              "null", "NaN", "undefined", "'abc'", "payload.n", "21", "22", "1e21",
              "0.001"]  # fmt: skip
RANGE_FORMS = [
    "new Intl.NumberFormat({l}, payload.o).formatRange({x}, {y})",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).formatRangeToParts({x}, {y}))",
    "new Intl.NumberFormat({l}, payload.o).formatRange({x}, {x})",
    "JSON.stringify(new Intl.NumberFormat({l}, payload.o).formatRangeToParts({x}, {x}))",
    "new Intl.NumberFormat({l}, payload.o).formatRange({x})",
    "new Intl.PluralRules({l}, payload.o).selectRange({x}, {y})",
    "new Intl.PluralRules({l}, payload.p).selectRange({x}, {y})",
]  # fmt: skip
RANGE_OPTIONS: dict[str, list[Any]] = {
    "style": ["decimal", "percent", "currency", "unit"],
    "currency": ["USD", "EUR", "JPY", "CHF", "INR", "GBP"],
    "currencyDisplay": ["symbol", "narrowSymbol", "code", "name", "name"],
    "currencySign": ["standard", "accounting"],
    "unit": ["meter", "kilometer-per-hour", "percent", "liter", "day", "byte-per-second"],
    "unitDisplay": ["short", "narrow", "long"],
    "notation": ["standard", "scientific", "engineering", "compact"],
    "signDisplay": ["auto", "always", "never", "exceptZero", "negative"],
    "maximumFractionDigits": [0, 1, 2],
    "maximumSignificantDigits": [1, 2],
}


def number_range(r: random.Random) -> Case:
    """formatRange, formatRangeToParts and selectRange: both ends alike or not, collapsing
    units and affixes, the approximately sign, V8's errors."""
    options = _options(r, RANGE_OPTIONS, 4)
    if options.get("style") == "currency":
        options.setdefault("currency", "EUR")
    if options.get("style") == "unit":
        options.setdefault("unit", "meter")
    locale = f"'{r.choice(UNIT_LOCALES)}'" if r.random() < 0.8 else _locale(r)
    expr = r.choice(RANGE_FORMS).replace("{l}", locale)
    expr = expr.replace("{x}", r.choice(RANGE_ENDS)).replace("{y}", r.choice(RANGE_ENDS))
    plural = {"type": r.choice(["cardinal", "ordinal"]),
              **_options(r, PLURAL_OPTIONS, 1)}  # fmt: skip
    return expr, _scope(options, p=plural)


INFO_LANGUAGES = ["en", "de", "fr", "ar", "he", "fa", "ur", "ps", "sd", "dv", "az", "pa", "ku",
                  "zh", "ja", "ko", "th", "hi", "bn", "es", "pt", "ru", "sr", "uz", "ms", "mn",
                  "eo", "ia", "yue", "ff", "ks", "sv", "fi", "vi", "si", "ln", "und", "xx", "qaa",
                  "ckb", "ug", "yi", "syr", "nqo", "rhg"]  # fmt: skip
INFO_SCRIPTS = ["", "", "", "Latn", "Arab", "Cyrl", "Hant", "Hans", "Adlm", "Hebr", "Deva"]
INFO_REGIONS = ["", "", "US", "GB", "DE", "CA", "EG", "SA", "IR", "AF", "IN", "JP", "TW", "HK",
                "MO", "CN", "BR", "PT", "419", "001", "150", "ZZ", "AQ", "MV", "IL", "TH", "SY",
                "IQ", "MA", "KR", "ES", "MX", "RS", "BA", "UZ", "MN", "PK", "FR", "CH",
                "AE"]  # fmt: skip
INFO_KEYWORDS = ["", "", "", "-u-ca-buddhist", "-u-ca-islamicc", "-u-co-phonebk", "-u-co-foo",
                 "-u-hc-h11", "-u-hc-h23", "-u-nu-arab", "-u-nu-foo", "-u-nu-roman", "-u-fw-mon",
                 "-u-fw-sat", "-u-ca-japanese-nu-jpan", "-u-kn"]  # fmt: skip
INFO_KEYS = ["calendars", "collations", "hourCycles", "numberingSystems", "textInfo",
             "timeZones", "weekInfo"]  # fmt: skip


def locale_info(r: random.Random) -> Case:
    """The lists Intl.Locale offers, for tags of many languages, scripts, regions and keywords."""
    parts = [r.choice(INFO_LANGUAGES), r.choice(INFO_SCRIPTS), r.choice(INFO_REGIONS)]
    tag = "-".join(p for p in parts if p) + r.choice(INFO_KEYWORDS)
    key = r.choice(INFO_KEYS)
    form = r.choice(["JSON.stringify(new Intl.Locale('{t}').{k})",
                     "String(new Intl.Locale('{t}').{k})",
                     "new Intl.Locale('{t}').{k} === undefined"])  # fmt: skip
    return form.replace("{t}", tag).replace("{k}", key), _scope({})


# a letter's forms apart from it at the third level only (width, circled, superscript,
# subscript, modifier letters), in both cases
LETTER_FORMS = ["aAªᵃₐᴬａＡⓐⒶ", "oOºᵒₒᴼｏＯⓞⓄ", "sSˢｓＳⓢⓈ", "mMᵐₘᴹｍＭⓜⓂ", "iIⁱᵢᴵｉＩⓘⒾ",
                "eEᵉₑᴱｅＥⓔⒺ", "nNⁿₙᴺｎＮⓝⓃ"]  # fmt: skip
FORM_OPTIONS = [{}, {"caseFirst": "upper"}, {"caseFirst": "lower"}, {"sensitivity": "case"},
                {"sensitivity": "accent"}]  # fmt: skip


def compare_forms(r: random.Random) -> Case:
    """Strings alike but for the forms of their letters: the root collation's third level and
    the case level (caseFirst) decide."""
    groups = [r.choice(LETTER_FORMS) for _ in range(r.randint(1, 3))]
    a = "".join(r.choice(g) for g in groups)
    b = "".join(r.choice(g) for g in groups)
    if r.random() < 0.5:
        return f"{_lit(a)}.localeCompare({_lit(b)})", _scope({})
    return f"{_lit(a)}.localeCompare({_lit(b)}, 'en', payload.o)", _scope(r.choice(FORM_OPTIONS))


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "locale.numberformat": number_format,
    "locale.rounding": rounding,
    "locale.collator": collator,
    "locale.plural": plural,
    "locale.list": list_format,
    "locale.datetime": date_time,
    "locale.tags": tags,
    "locale.relative": relative_time,
    "locale.locale": locale_object,
    "locale.unit": number_unit,
    "locale.range": number_range,
    "locale.info": locale_info,
    "locale.forms": compare_forms,
}


# Greek uppercasing: accents and breathings dropped, ypogegrammeni as a capital iota, the
# dialytika kept or gained after an accented vowel, the disjunctive ή
GREEK_ATOMS = ["α", "ά", "ὰ", "ᾶ", "ᾳ", "ᾴ", "ε", "έ", "η", "ή", "ῆ", "ῃ", "ι", "ί", "ϊ", "ΐ",
               "ο", "ό", "υ", "ύ", "ϋ", "ΰ", "ω", "ώ", "ῳ", "ς", "σ", "Ά", "Ή", "Ϊ", "ἀ", "ἁ",
               "ἄ", "ᾀ", "\u0301", "\u0308", "\u0345", "\u0313", " ", "a", "-", "ϒ", "ϓ", "Ω",
               "\u2126", "ᾼ", "ǰ", "ß", "'"]  # fmt: skip
GREEK_FORMS = ["{s}.toLocaleUpperCase('el')", "{s}.toLocaleUpperCase(['el-GR'])",
               "{s}.toLocaleUpperCase('ell')", "{s}.toUpperCase()",
               "{s}.toLocaleUpperCase('el').length", "{s}.toLocaleLowerCase('el')"]  # fmt: skip


def greek(r: random.Random) -> Case:
    text = "".join(r.choice(GREEK_ATOMS) for _ in range(r.randint(1, 6)))
    return r.choice(GREEK_FORMS).replace("{s}", _lit(text)), {}


# localeCompare beyond the common cases: lone surrogates, controls, noncharacters,
# supplementary-plane Han and letters, Arabic, punctuation against letters
EDGE_ATOMS = ["\ud800", "\udc00", "\udfff", "\ud83d", "\u0000", "\u0001", "\u001f", "\u007f",
              "\u0085", "\u00ad", "\u200b", "\ufeff", "\uffff", "\ufffe", "\ufffd", "a", "A",
              "z", "0", "9", "-", "_", ",", ";", "!", "?", ".", "'", "\"", "(", "@", "*", "/",
              "\\", "&", "#", "%", "`", "^", "+", "<", "=", "|", "~", "$", "\u00a0", " ", "\t",
              "\u4e00", "\u9fff", "\U00020000", "\U0002a6d6", "\U00030000", "\U0001f600",
              "\U00010400", "\U0001d400", "\u0627", "\u0644", "\u0644\u0627", "\u0623",
              "\u0622", "\u0649", "\u064a", "\u0629", "\u0647", "\u064b", "\u0670",
              "\u06cc", "\u0640"]  # fmt: skip
EDGE_FORMS = ["{a}.localeCompare({b})", "[{a}, {b}].sort((x, y) => x.localeCompare(y)).length",
              "{a}.localeCompare({b}) < 0"]  # fmt: skip


def _escaped(s: str) -> str:
    units = s.encode("utf-16-le", "surrogatepass")
    codes = [int.from_bytes(units[i : i + 2], "little") for i in range(0, len(units), 2)]
    return (
        "'"
        + "".join(chr(u) if chr(u).isalnum() and u < 128 else f"\\u{u:04x}" for u in codes)
        + "'"
    )


def compare_edges(r: random.Random) -> Case:
    a = "".join(r.choice(EDGE_ATOMS) for _ in range(r.randint(0, 3)))
    b = "".join(r.choice(EDGE_ATOMS) for _ in range(r.randint(0, 3)))
    if a and r.random() < 0.4:
        b = a[:-1] + r.choice(EDGE_ATOMS)
    return r.choice(EDGE_FORMS).replace("{a}", _escaped(a)).replace("{b}", _escaped(b)), {}


FAMILIES["locale.greek"] = greek
FAMILIES["locale.compare_edges"] = compare_edges
