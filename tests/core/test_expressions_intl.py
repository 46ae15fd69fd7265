"""Intl and the locale-sensitive built-ins through ``flowctx eval``: node 20's answers (measured
with node 20.20.2, ICU 78.2), V8's errors, and what flowctx refuses by name. The differential
families (tests/differential/families_intl.py) compare thousands more against node itself."""

from __future__ import annotations

import json

import pytest

from flowctx_tui.cli import main

PAYLOAD = {
    "n": 1234.5,
    "inr_name": {"style": "currency", "currency": "INR", "currencyDisplay": "name"},
    "jpy_name1": {
        "style": "currency",
        "currency": "JPY",
        "currencyDisplay": "name",
        "maximumFractionDigits": 1,
    },
    "compact_strip": {"notation": "compact", "trailingZeroDisplay": "stripIfInteger"},
    "eur": {"style": "currency", "currency": "EUR"},
    "usd": {"style": "currency", "currency": "USD"},
    "lower": {"caseFirst": "lower"},
    "eur_name_compact": {
        "style": "currency",
        "currency": "EUR",
        "currencyDisplay": "name",
        "notation": "compact",
    },
    "chf": {"style": "currency", "currency": "CHF"},
    "usd_compact": {"style": "currency", "currency": "USD", "notation": "compact"},
    "pct_compact": {"style": "percent", "notation": "compact"},
    "always_grouped": {"useGrouping": "always"},
    "usd_acc": {"style": "currency", "currency": "USD", "currencySign": "accounting"},
    "usd_acc_compact": {
        "style": "currency",
        "currency": "USD",
        "currencySign": "accounting",
        "notation": "compact",
    },
    "chf_acc": {"style": "currency", "currency": "CHF", "currencySign": "accounting"},
    "jpy": {"style": "currency", "currency": "JPY"},
    "pct": {"style": "percent", "maximumFractionDigits": 1},
    "sig": {"maximumSignificantDigits": 2},
    "eng": {"notation": "engineering"},
    "always": {"signDisplay": "always"},
    "base": {"sensitivity": "base"},
    "num": {"numeric": True},
    "ord": {"type": "ordinal"},
    "or": {"type": "disjunction"},
    "tokyo": {"timeZone": "Asia/Tokyo"},
    "compact": {"notation": "compact"},
    "long": {"notation": "compact", "compactDisplay": "long"},
    "ymd": {"year": "numeric", "month": "long", "day": "numeric"},
    "full": {"dateStyle": "full"},
    "utc": {"timeZone": "UTC"},
    "ny": {"timeZone": "America/New_York"},
    "tokyo_": {"timeZone": "Asia/Tokyo"},
    "ymd_utc": {"timeZone": "UTC", "year": "numeric", "month": "long", "day": "numeric"},
    "hani": {
        "numberingSystem": "hanidec",
        "style": "currency",
        "currency": "EUR",
        "currencyDisplay": "code",
    },
    "arab": {"numberingSystem": "arab"},
    "kmh": {"style": "unit", "unit": "kilometer-per-hour"},
    "kmh_long": {"style": "unit", "unit": "kilometer-per-hour", "unitDisplay": "long"},
    "m_per_h_long": {"style": "unit", "unit": "meter-per-hour", "unitDisplay": "long"},
    "kg_long": {"style": "unit", "unit": "kilogram", "unitDisplay": "long"},
    "m_long_compact": {
        "style": "unit",
        "unit": "meter",
        "unitDisplay": "long",
        "notation": "compact",
    },
    "gal_long_sci": {
        "style": "unit",
        "unit": "gallon",
        "unitDisplay": "long",
        "notation": "scientific",
    },
    "acre": {"style": "unit", "unit": "acre"},
    "pct_unit": {"style": "unit", "unit": "percent"},
    "pct_per_h": {"style": "unit", "unit": "percent-per-hour"},
    "pct_per_h_compact": {"style": "unit", "unit": "percent-per-hour", "notation": "compact"},
    "mpg": {"style": "unit", "unit": "mile-per-gallon"},
    "eur_name_sci": {
        "style": "currency",
        "currency": "EUR",
        "currencyDisplay": "name",
        "notation": "scientific",
    },
    "eurc": {"notation": "compact", "style": "currency", "currency": "EUR"},
    "usdc": {"notation": "compact", "style": "currency", "currency": "USD"},
    "eurn": {"style": "currency", "currency": "EUR", "currencyDisplay": "name"},
    "chfn": {"style": "currency", "currency": "CHF", "currencyDisplay": "name"},
    "kwd": {"style": "currency", "currency": "KWD"},
    "acct": {"style": "currency", "currency": "USD", "currencySign": "accounting"},
    "keep": {"ignorePunctuation": False},
    "search": {"usage": "search"},
    "zhuyin": {"collation": "zhuyin"},
    "inc5": {"roundingIncrement": 5, "maximumFractionDigits": 2, "minimumFractionDigits": 2},
    "even0": {"roundingMode": "halfEven", "maximumFractionDigits": 0},
    "floor0": {"roundingMode": "floor", "maximumFractionDigits": 0},
    "ceil0": {"roundingMode": "ceil", "maximumFractionDigits": 0},
    "more": {
        "roundingPriority": "morePrecision",
        "maximumSignificantDigits": 3,
        "maximumFractionDigits": 1,
    },
    "less": {
        "roundingPriority": "lessPrecision",
        "maximumSignificantDigits": 3,
        "maximumFractionDigits": 1,
    },
    "inc5_fd2": {"roundingIncrement": 5, "maximumFractionDigits": 2},
    "inc5_sd2": {"roundingIncrement": 5, "maximumSignificantDigits": 2},
    "bad_priority": {"roundingPriority": "x"},
    "plural_floor": {"roundingMode": "floor", "maximumFractionDigits": 0},
    "nopunct": {"ignorePunctuation": True},
    "h11": {"hour": "numeric", "hourCycle": "h11", "timeZone": "UTC"},
    "hm": {"hour": "numeric", "minute": "2-digit", "timeZone": "UTC"},
    "h12": {"hour": "numeric", "hour12": True},
    "hm12": {"hour": "numeric", "minute": "2-digit", "hour12": True, "timeZone": "UTC"},
    "era": {"timeZone": "UTC", "era": "short", "year": "numeric"},
    "eralong": {
        "timeZone": "UTC",
        "era": "long",
        "year": "numeric",
        "month": "long",
        "day": "numeric",
    },
    "wd": {"timeZone": "UTC", "weekday": "short"},
    "hm2": {"timeZone": "UTC", "hour": "2-digit", "minute": "2-digit"},
    "auto": {"numeric": "auto"},
    "narrow": {"style": "narrow"},
    "gb": {"region": "GB"},
    "f3": {"minimumFractionDigits": 3},
    "f4": {"minimumFractionDigits": 4},
    "upto3": {"maximumFractionDigits": 3},
    "upto5": {"maximumFractionDigits": 5},
    # option sets composed as ICU's pattern generator composes them (no row of their own)
    "wd_zone": {"weekday": "long", "timeZoneName": "long", "timeZone": "UTC"},
    "md_zone": {"month": "long", "day": "numeric", "timeZoneName": "short", "timeZone": "UTC"},
    "era_min_jp": {"era": "long", "minute": "2-digit", "calendar": "japanese", "timeZone": "UTC"},
    "md_fraction": {
        "day": "numeric",
        "month": "numeric",
        "fractionalSecondDigits": 2,
        "minute": "2-digit",
        "timeZone": "UTC",
    },
    "wd_sec_islamic": {
        "weekday": "short",
        "second": "2-digit",
        "calendar": "islamic-civil",
        "timeZone": "UTC",
    },
    "month_period": {"month": "long", "dayPeriod": "short", "timeZone": "UTC"},
    "wd_hm_coptic": {
        "weekday": "long",
        "hour": "numeric",
        "minute": "2-digit",
        "calendar": "coptic",
        "timeZone": "UTC",
    },
}

# (condition, node's value)
CASES = [
    # composed sets (2024-02-29T15:04:05.678Z): V8 reads the join's words as fields too (fi's
    # 'klo' an hour, cs's 'v' a generic zone name, which the zone's own z then precedes)
    (
        "new Intl.DateTimeFormat('en', payload.wd_zone).format(1709219045678)",
        "Thursday, Coordinated Universal Time",
    ),
    (
        "Object.entries(new Intl.DateTimeFormat('fi', payload.wd_zone).resolvedOptions()).join()",
        "locale,fi,calendar,gregory,numberingSystem,latn,timeZone,UTC,weekday,long,hour,numeric,"
        "timeZoneName,long",
    ),
    (
        "Object.entries(new Intl.DateTimeFormat('cs', payload.md_zone).resolvedOptions()).join()",
        "locale,cs,calendar,gregory,numberingSystem,latn,timeZone,UTC,month,long,day,numeric,"
        "timeZoneName,short",
    ),
    ("new Intl.DateTimeFormat('ja', payload.era_min_jp).format(1709219045678)", "令和 4"),
    ("new Intl.DateTimeFormat('en', payload.md_fraction).format(1709219045678)", "2/29, 04:05.67"),
    ("new Intl.DateTimeFormat('ar', payload.wd_sec_islamic).format(1709219045678)", "الخميس، 5"),
    (
        "new Intl.DateTimeFormat('en', payload.month_period).format(1709219045678)",
        "February at in the afternoon",
    ),
    ("new Intl.NumberFormat('de-DE').format(payload.n)", "1.234,5"),
    ("payload.n.toLocaleString('de-DE', payload.eur)", "1.234,50\u00a0€"),
    ("payload.n.toLocaleString('en-IN', payload.eur)", "€1,234.50"),
    ("payload.n.toLocaleString('ja', payload.jpy)", "￥1,235"),
    ("(0.12345).toLocaleString('fr', payload.pct)", "12,3\u00a0%"),
    ("(123456).toLocaleString('en', payload.sig)", "120,000"),
    ("payload.n.toLocaleString('en', payload.eng)", "1.235E3"),
    ("(0).toLocaleString('en', payload.always)", "+0"),
    ("(1234567.891).toLocaleString('en-IN')", "12,34,567.891"),
    ("(1234).toLocaleString('en', payload.compact)", "1.2K"),
    ("(999999).toLocaleString('en', payload.compact)", "1M"),
    ("(2000).toLocaleString('ru', payload.long)", "2 тысячи"),
    ("(1000).toLocaleString('fr', payload.long)", "mille"),
    ("new Date(0).toLocaleDateString('en-US', payload.ymd)", "January 1, 1970"),
    ("new Date(0).toLocaleDateString('de-DE', payload.full)", "Donnerstag, 1. Januar 1970"),
    ("Intl.getCanonicalLocales(['EN-us', 'iw'])[1]", "he"),
    ("Intl.NumberFormat.supportedLocalesOf(['de', 'xx']).join()", "de"),
    ("new Intl.NumberFormat('en-XX').resolvedOptions().locale", "en"),
    ("String(new Intl.Collator('de').compare('a', 'B'))", "-1"),
    ("String('a'.localeCompare('\u00e1', 'en', payload.base))", "0"),
    ("String('a10'.localeCompare('a9', 'en', payload.num))", "1"),
    ("String('\u00e4'.localeCompare('z', 'sv'))", "1"),
    ("String('\u00f1'.localeCompare('o', 'es'))", "-1"),
    ("new Intl.PluralRules('ru').select(22)", "few"),
    ("new Intl.PluralRules('en', payload.ord).select(23)", "few"),
    ("new Intl.PluralRules('fr').select(1.5)", "one"),
    # CLDR's rules over any number of fraction digits (f, t, v of the digits shown)
    ("new Intl.PluralRules('lv', payload.f3).select(0.121)", "one"),
    ("new Intl.PluralRules('hr', payload.upto5).select(1.00021)", "one"),
    ("new Intl.PluralRules('fil', payload.f4).select(2.1234)", "other"),
    ("new Intl.PluralRules('mk', payload.upto3).select(3.011)", "other"),
    ("new Intl.PluralRules('sl', payload.upto3).select(1.001)", "few"),
    ("new Intl.PluralRules('br').select(1000001)", "one"),
    ("new Intl.ListFormat('en').format(['a', 'b', 'c'])", "a, b, and c"),
    ("new Intl.ListFormat('es').format(['a', 'b', 'iglesia'])", "a, b e iglesia"),
    ("new Intl.ListFormat('de', payload.or).format(['a', 'b'])", "a oder b"),
    ("new Date(0).toLocaleString('de-DE')", "1.1.1970, 00:00:00"),
    ("new Date(1700000000000).toLocaleDateString('ko')", "2023. 11. 14."),
    ("new Intl.DateTimeFormat('en', payload.tokyo).format(1700000000000)", "11/15/2023"),
    # numbering systems, by option or -u-nu-: their digits, and their own symbols (arab's)
    (
        "(-1234.5).toLocaleString('en-u-nu-arab')",
        "\u061c-\u0661\u066c\u0662\u0663\u0664\u066b\u0665",
    ),
    ("new Intl.NumberFormat('en-u-nu-thai').format(-1234.5)", "-\u0e51,\u0e52\u0e53\u0e54.\u0e55"),
    ("new Intl.NumberFormat('en', payload.hani).format(12)", "EUR\u4e00\u4e8c.\u3007\u3007"),
    ("new Intl.NumberFormat('en-u-nu-thai', payload.arab).resolvedOptions().locale", "en"),
    ("new Intl.NumberFormat('en-u-nu-roman').resolvedOptions().numberingSystem", "latn"),
    # compact currencies (one display: ICU has no long currency patterns)
    ("(1234567).toLocaleString('de', payload.eurc)", "1,2\u00a0Mio.\u00a0\u20ac"),
    ("(-1234).toLocaleString('fr', payload.usdc)", "-1,2\u00a0k\u00a0$US"),
    # every currency ICU has, by symbol or by name (agreeing with the number's plural category)
    ("(2).toLocaleString('ru', payload.eurn)", "2,00 \u0435\u0432\u0440\u043e"),
    ("(1).toLocaleString('ja', payload.chfn)", "1.00\u30b9\u30a4\u30b9 \u30d5\u30e9\u30f3"),
    ("(2).toLocaleString('ar', payload.kwd)", "\u200f2.000\u00a0\u062f.\u0643.\u200f"),
    ("(-1234.5).toLocaleString('en', payload.acct)", "($1,234.50)"),
    # past the largest compact magnitude, its pattern; en-US-u-va-posix groups nothing
    ("(1e21).toLocaleString('it', payload.compact)", "1.000.000.000\u00a0Bln"),
    ("(-1234567.5).toLocaleString('en-US-u-va-posix')", "-1234567.5"),
    # collations and their options by -u-co-, -u-kn-, -u-kf-
    ("new Intl.Collator('de-de-u-co-phonebk').resolvedOptions().locale", "de-u-co-phonebk"),
    ("['a10', 'a9'].sort(new Intl.Collator('en-u-kn').compare).join()", "a9,a10"),
    ("['a', 'B', 'A'].sort(new Intl.Collator('en-u-kf-upper').compare).join()", "A,a,B"),
    ("String(new Intl.Collator('th', payload.keep).resolvedOptions().ignorePunctuation)", "true"),
    # the root's search collation; a tailored one ignoring punctuation
    ("['b', 'a', 'A'].sort(new Intl.Collator('en', payload.search).compare).join()", "a,A,b"),
    ("String(new Intl.Collator('sv', payload.nopunct).compare('a b', 'ab'))", "0"),
    # hour cycles by hour12, hourCycle or -u-hc- (h23 with hour12 is h11), digits by -u-nu-
    ("new Intl.DateTimeFormat('en', payload.h11).format(0)", "0 AM"),
    ("new Intl.DateTimeFormat('ja-u-hc-h12', payload.hm).format(0)", "\u5348\u524d12:00"),
    ("new Intl.DateTimeFormat('en-u-hc-h23', payload.h12).resolvedOptions().hourCycle", "h11"),
    ("new Intl.DateTimeFormat('de', payload.hm12).format(0)", "0:00 AM"),
    (
        "new Date(0).toLocaleDateString('en-u-nu-thai', payload.utc)",
        "\u0e51/\u0e51/\u0e51\u0e59\u0e57\u0e50",
    ),
    ("Intl.supportedValuesOf('calendar').slice(0, 3).join()", "buddhist,chinese,coptic"),
    ("String(Intl.supportedValuesOf(['unit']).length)", "45"),
    # Han of every plane by radical and strokes; unassigned code points before U+FFFD
    (
        "['\u4e8c', '\ud840\udc00', '\u4e00', '\ud840\udc0b'].sort((a, b) => a.localeCompare(b))"
        ".map(c => c.codePointAt(0).toString(16)).join()",
        "4e00,20000,2000b,4e8c",
    ),
    ("String('\ud83d\udfff'.localeCompare('\ufffd'))", "-1"),
    # ǽ is æ (ae, apart from ae at the second level) and an acute: after æ, ǿ after ø
    ("String('\ud55c\ufb00\u00e6'.localeCompare('\ud55c\ufb00\u01fd'))", "-1"),
    ("String('\u01ff'.localeCompare('\u00f8'))", "1"),
    ("String('\u00c6'.localeCompare('\u1d2d'))", "-1"),
    ("String('\ud83d\udfff'.localeCompare('\u0378'))", "1"),
    # eras; what the Date methods add to a set without their fields
    ("new Date(0).toLocaleDateString('en', payload.era)", "1970 AD"),
    (
        "new Date(-1e14).toLocaleDateString('en', payload.eralong)",
        "February 15, 1200 Before Christ",
    ),
    ("new Date(0).toLocaleTimeString('en', payload.wd)", "Thu 12:00:00 AM"),
    ("new Date(0).toLocaleDateString('de', payload.hm2)", "1.1.1970, 00:00"),
    # Thai's Buddhist calendar: years from 543 BC, ICU's Julian dates before 1582
    ("new Date(0).toLocaleString('th', payload.utc)", "1/1/2513 00:00:00"),
    ("new Date(Date.UTC(-600, 0, 1)).toLocaleDateString('th', payload.utc)", "8/1/-57"),
    # RelativeTimeFormat: the texts around the number, the phrases within 1% of -2 to 2
    ("new Intl.RelativeTimeFormat('en', payload.auto).format(-1.0049, 'day')", "yesterday"),
    ("new Intl.RelativeTimeFormat('en', payload.auto).format(0.4, 'days')", "in 0.4 days"),
    (
        "new Intl.RelativeTimeFormat('ru').format(-21, 'minute')",
        "21 \u043c\u0438\u043d\u0443\u0442\u0443 \u043d\u0430\u0437\u0430\u0434",
    ),
    ("new Intl.RelativeTimeFormat('fr', payload.narrow).format(-3, 'month')", "-3 m."),
    ("new Intl.RelativeTimeFormat('en-u-nu-thai').format(3, 'day')", "in \u0e53 days"),
    ("new Intl.PluralRules('fr').select(1e21)", "one"),
    # Intl.Locale: the tag canonical with its options laid over it; likely subtags
    (
        "String(new Intl.Locale('en-latn-us-u-va-posix-nu-thai', payload.gb))",
        "en-Latn-GB-u-nu-thai-va-posix",
    ),
    ("new Intl.Locale('en-latn-us-u-va-posix', payload.gb).baseName", "en-Latn-GB-u-va-posix"),
    ("new Intl.Locale('zh-TW').maximize().toString()", "zh-Hant-TW"),
    ("new Intl.Locale('und-Cyrl-NA').maximize().minimize().toString()", "ru-NA"),
    # a language ICU has no likely subtags for stays as it is, both ways
    ("new Intl.Locale('xx-cyrl-ru').minimize().toString()", "xx-Cyrl-RU"),
    ("new Intl.Locale('qaa-Zzzz-ZZ').maximize().toString()", "qaa-Zzzz-ZZ"),
    ("String(new Intl.Locale('und').language)", "undefined"),
    # proleptic Gregorian before 1582 (V8 sets ICU's calendar so), era years before 1, a
    # zone's local mean time before its first rule and its last rule after 9999
    ("new Date(Date.UTC(1582, 9, 4)).toLocaleDateString('en', payload.utc)", "10/4/1582"),
    ("new Date(-62198755200000).toLocaleDateString('de', payload.utc)", "1.1.2"),
    ("new Date(8.64e15).toLocaleString('en', payload.ny)", "9/12/275760, 8:00:00 PM"),
    ("new Date(-1e14).toLocaleString('en', payload.tokyo_)", "2/15/1200, 11:32:19 PM"),
    (
        "new Date(Date.UTC(812, 11, 25)).toLocaleDateString('en', payload.ymd_utc)",
        "December 25, 812",
    ),
    # a numbering system's marks around its signs come with the sign in a name's pattern
    (
        "new Intl.NumberFormat('de-u-nu-arab', payload.inr_name).format(-5)",
        "\u061c-\u0665\u066b\u0660\u0660 Indische Rupien",
    ),
    (
        "new Intl.NumberFormat('en-u-nu-arabext', payload.inr_name).format(-5)",
        "\u200e-\u200e\u06f5\u066b\u06f0\u06f0 Indian rupees",
    ),
    (
        "new Intl.NumberFormat('en', payload.compact_strip).resolvedOptions().roundingPriority",
        "auto",
    ),
    (
        "new Intl.NumberFormat('fr-u-nu-arabext', payload.eng).formatToParts(0.125)"
        ".map(p => p.type).join()",
        "integer,exponentSeparator,literal,exponentMinusSign,literal,exponentInteger",
    ),
    # en-IN's accounting pattern groups by three, its currency pattern the Indian way
    (
        "new Intl.NumberFormat('en-IN', payload.chf_acc).format(-1234567.5)",
        "(CHF\u00a01,234,567.50)",
    ),
    ("new Intl.NumberFormat('en-IN', payload.chf).format(-1234567.5)", "-CHF\u00a012,34,567.50"),
    # compact money in a numbering system with money patterns of its own: its own pattern
    # below a thousand, the locale's compact ones above
    ("new Intl.NumberFormat('en-US-u-va-posix', payload.usd_compact).format(12)", "$\u00a012"),
    ("new Intl.NumberFormat('nb-u-nu-thai', payload.usd_compact).format(5)", "USD\u00a0\u0e55"),
    (
        "new Intl.NumberFormat('fa-u-nu-latn', payload.usd_compact).format(1234567)",
        "\u200e$\u00a01.2\u00a0\u0645\u06cc\u0644\u06cc\u0648\u0646",
    ),
    # accounting in a numbering system (de in arab has no parentheses), in compact notation
    # (its pattern below a thousand), in en-US-u-va-posix (grouped, unlike its other money)
    (
        "new Intl.NumberFormat('de-u-nu-arab', payload.usd_acc).format(-5)",
        "\u061c-\u0665\u066b\u0660\u0660\u00a0$",
    ),
    ("new Intl.NumberFormat('en', payload.usd_acc_compact).format(-5)", "($5)"),
    ("new Intl.NumberFormat('en', payload.usd_acc_compact).format(-5e6)", "-$5M"),
    ("new Intl.NumberFormat('en-US-u-va-posix', payload.usd_acc).format(-1234)", "($1,234.00)"),
    # a name's pattern drops the marks of the locale's own digits around the sign
    (
        "new Intl.NumberFormat('ar-EG-u-nu-latn', payload.inr_name).format(-5)",
        "\u200e-5.00 \u0631\u0648\u0628\u064a\u0629 \u0647\u0646\u062f\u064a",
    ),
    # compact percents are ICU's unit percent: its pattern (de's plain space, tr's sign first)
    # around the signed compact number, the sign a part of type unit
    ("new Intl.NumberFormat('de', payload.pct_compact).format(12.345)", "1235 %"),
    ("new Intl.NumberFormat('tr', payload.pct_compact).format(-123.45)", "%-12\u00a0B"),
    (
        "new Intl.NumberFormat('en', payload.pct_compact).formatToParts(12.345)"
        ".map(p => p.type).join()",
        "integer,decimal,fraction,compact,unit",
    ),
    # ICU writes an exponent's astral digits each inside the previous one's surrogate pair
    (
        "JSON.stringify(new Intl.NumberFormat('en-u-nu-mathbold', payload.eng).format(1e21))",
        '"\U0001d7cfE\\ud835\U0001d7d0\\udfcf"',
    ),
    # a pattern without grouping grouped by three where useGrouping says always
    ("new Intl.NumberFormat('en-US-u-va-posix', payload.always_grouped).format(1234)", "1,234"),
    # en-US-u-va-posix in other digits: its own symbols and patterns in them
    (
        "new Intl.NumberFormat('en-US-u-va-posix-nu-thai').format(-1234567.5)",
        "-\u0e51\u0e52\u0e53\u0e54\u0e55\u0e56\u0e57.\u0e55",
    ),
    (
        "new Intl.NumberFormat('en-US-u-va-posix-nu-arab', payload.pct).format(12)",
        "\u0661\u066c\u0662\u0660\u0660\u066a\u061c",
    ),
    # a currency name in the category of the number as shown: ru's 1,5 is "other", its 2 "few"
    (
        "new Intl.NumberFormat('ru', payload.jpy_name1).format(1.5)",
        "1,5 \u044f\u043f\u043e\u043d\u0441\u043a\u043e\u0439 \u0438\u0435\u043d\u044b",
    ),
    # units (style unit): the locale's pattern around the signed number, by plural category;
    # a compound is its numerator inside the denominator's per pattern unless ICU has its own
    ("new Intl.NumberFormat('en', payload.kmh).format(-1234.5)", "-1,234.5 km/h"),
    ("new Intl.NumberFormat('en', payload.kmh_long).format(1)", "1 kilometer per hour"),
    (
        "new Intl.NumberFormat('de', payload.m_per_h_long).formatToParts(2)"
        ".map(p => p.type + ':' + p.value).join('|')",
        "integer:2|literal: |unit:Meter pro Stunde",
    ),
    (
        "[1, 2, 5, 21, 0.5].map(new Intl.NumberFormat('ru', payload.kg_long).format).join('|')",
        "1 \u043a\u0438\u043b\u043e\u0433\u0440\u0430\u043c\u043c|"
        "2 \u043a\u0438\u043b\u043e\u0433\u0440\u0430\u043c\u043c\u0430|"
        "5 \u043a\u0438\u043b\u043e\u0433\u0440\u0430\u043c\u043c|"
        "21 \u043a\u0438\u043b\u043e\u0433\u0440\u0430\u043c\u043c|"
        "0,5 \u043a\u0438\u043b\u043e\u0433\u0440\u0430\u043c\u043c\u0430",
    ),
    # a compact or scientific number's plural category counts its exponent (fr's 1 k is
    # other, 5E-1 many)
    (
        "new Intl.NumberFormat('fr', payload.m_long_compact).format(1000)",
        "1\u00a0k\u00a0m\u00e8tres",
    ),
    ("new Intl.NumberFormat('fr', payload.m_long_compact).format(1)", "1\u00a0m\u00e8tre"),
    ("new Intl.NumberFormat('fr', payload.gal_long_sci).format(0.5)", "5E-1 gallons"),
    ("new Intl.NumberFormat('pt', payload.eur_name_sci).format(0.5)", "5,00E-1 Euros"),
    # a pattern without the number: ar's one acre drops the number and its sign
    ("new Intl.NumberFormat('ar', payload.acre).format(-1)", "\u0641\u062f\u0627\u0646"),
    # percent short is the locale's percent pattern, unscaled (eu's sign before %)
    ("new Intl.NumberFormat('eu', payload.pct_unit).format(-2)", "\u2212%\u00a02"),
    ("new Intl.NumberFormat('en', payload.pct_per_h).format(5)", "5%"),
    ("new Intl.NumberFormat('en', payload.pct_per_h_compact).format(5)", "5%/h"),
    ("new Intl.NumberFormat('fr-CA', payload.mpg).format(5)", "5\u00a0mi/gal"),
    # CLDR's own pattern and separators for a currency in a locale: en-CH's euro
    ("new Intl.NumberFormat('en-CH', payload.eur).format(-1234.5)", "-\u20ac1,234.50"),
    ("new Intl.NumberFormat('en-CH', payload.usd).format(1234.5)", "US$\u00a01'234.50"),
    # compact money by name: the name (in the category the exponent counts) around the number
    ("new Intl.NumberFormat('pt', payload.eur_name_compact).format(1234567)", "1,2\u00a0mi Euros"),
    ("new Intl.NumberFormat('en', payload.eur_name_compact).format(-Infinity)", "-\u221e euros"),
    (
        "new Intl.NumberFormat('fr', payload.eur_name_compact).format(-1234.5)",
        "-1,2\u00a0k euros",
    ),
    ("'\u03ac\u03b9'.toLocaleUpperCase('el')", "\u0391\u03aa"),
    ("'\u03ae'.toLocaleUpperCase('el')", "\u0389"),
    # the root collation puts the letters apart at the second level among the accents: ø
    # between ǒ's caron and ō's macron, đ after ď (measured with node)
    (
        "['\u00f8'.localeCompare('\u014d'), '\u00f8'.localeCompare('\u01d2'), "
        "'\u0111'.localeCompare('\u010f')].join()",
        "-1,1,1",
    ),
    # a letter's forms at the third level in node's order (a < ａ < A < ª = ᵃ < ᴬ); lower
    # first weighs their case first (ₘ, lower, before Ⓜ)
    (
        "['\u00aa'.localeCompare('A'), '\uff41'.localeCompare('A'), '\u00aa'.localeCompare("
        "'\u1d43'), '\u1d2c'.localeCompare('\u00aa'), '\u2098'.localeCompare('\u24c2', 'en', "
        "payload.lower)].join()",
        "1,-1,0,1,-1",
    ),
    # rounding (ECMA-402 2023 as V8 11.3 has it): modes by the number's sign, increments,
    # the more or less precise of significant and fraction digits
    ("new Intl.NumberFormat('en', payload.inc5).format(1.2345)", "1.25"),
    ("new Intl.NumberFormat('en', payload.even0).format(-2.5)", "-2"),
    ("new Intl.NumberFormat('en', payload.floor0).format(-0.5)", "-1"),
    ("new Intl.NumberFormat('en', payload.ceil0).format(-0.5)", "-0"),
    ("new Intl.NumberFormat('en', payload.more).format(1.2345)", "1.23"),
    ("new Intl.NumberFormat('en', payload.less).format(1.2345)", "1.2"),
    # with a script the region is never looked up alone (ICU's fallback drops the last tag)
    ("(1234567.5).toLocaleString('pt-Latn-PT')", "1.234.567,5"),
    ("(1234567.5).toLocaleString('ku-Latn-IQ')", "1.234.567,5"),
    # a list's first tag node does not have gives way to the next
    ("(1234.5).toLocaleString(['xx', 'de'])", "1.234,5"),
    ("(1234.5).toLocaleString(['zz-ZZ', 'fr'])", "1\u202f234,5"),
    # PluralRules reads no roundingMode in node 20: 1.9 stays "other"
    ("new Intl.PluralRules('en', payload.plural_floor).select(1.9)", "other"),
]


@pytest.mark.parametrize(("condition", "answer"), CASES)
def test_node_answers(condition: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the condition's value is compared in the condition itself: eval prints its boolean
    expr = f"{condition} === {json.dumps(answer)}"
    code = main(["eval", expr, "--payload", json.dumps(PAYLOAD)])
    out = capsys.readouterr().out
    assert (code, out) == (0, "true\n"), (condition, out)


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ("payload.n.toLocaleString('en', payload.bad)",
         "Value bogus out of range for Number.prototype.toLocaleString options property style"),
        ("new Intl.NumberFormat('en', payload.nocur)",
         "Currency code is required with currency style."),
        ("Intl.getCanonicalLocales('en_US')", "Incorrect locale information provided"),
        ("Intl.PluralRules('en')", "Constructor Intl.PluralRules requires 'new'"),
        ("Intl.supportedValuesOf('units')", "Invalid key : units"),
        ("'i'.toLocaleUpperCase('tr-u-co-x')", "Invalid language tag: tr-u-co-x"),
        # Adlam digits are two UTF-16 units each: the rows measured in them are not trusted
        ("new Date(0).toLocaleString('ff-Adlm-CM')",
         "flowctx does not reproduce DateTimeFormat in 'ff-Adlm-CM'"),
        # what node's process made before decides these: the host's state (measured: a
        # de-AT-u-co-phonebk search collator made first keeps de-u-co-phonebk's -u-co-)
        ("new Intl.Collator('zh', payload.zhuyin).resolvedOptions()",
         "flowctx does not reproduce what this collator reports (zh's, a search collator's "
         "with -u-co-): through it the engine reaches its host"),
        ("new Intl.Collator('de-u-co-phonebk', payload.search).resolvedOptions()",
         "through it the engine reaches its host (node's answer depends on the collators its "
         "process made before)"),
        # Segmenter: called it throws as node's does; constructed, refused
        ("Intl.Segmenter('en')", "Constructor Intl.Segmenter requires 'new'"),
        ("new Intl.Segmenter('en').segment('ab')", "flowctx does not reproduce Intl.Segmenter"),
        ("(1).toLocaleString('en-US-u')", "Invalid language tag: en-us-u"),
        ("new Intl.NumberFormat('en', payload.inc5_fd2)",
         "maximumFractionDigits not equal to minimumFractionDigits"),
        ("new Intl.NumberFormat('en', payload.inc5_sd2)", "RoundingType is not fractionDigits"),
        ("new Intl.NumberFormat('en', payload.bad_priority)",
         "Value x out of range for SetNumberFormatDigitOptions options property "
         "roundingPriority"),
        ("new Intl.Locale('de-')", "Incorrect locale information provided"),
        ("new Intl.Locale()",
         "First argument to Intl.Locale constructor can't be empty or missing"),
        ("new Intl.RelativeTimeFormat('en').format(1, 'x')",
         "Invalid unit argument for Intl.RelativeTimeFormat.prototype.format() 'x'"),
        ("new Intl.ListFormat('en').format([1])", "Iterable yielded 1 which is not a string"),
        ("new Intl.NumberFormat('en', payload.big).format(1)",
         "maximumFractionDigits value is out of range."),
        ("new Intl.NumberFormat('en', payload.xyz)",
         "Invalid unit argument for Intl.NumberFormat() 'xyz'"),
        ("new Intl.NumberFormat('en', payload.nounit)",
         "Invalid unit argument for Intl.NumberFormat() ''"),
        ("(5).toLocaleString('en', payload.per)",
         "Invalid unit argument for Number.prototype.toLocaleString() 'meter-per'"),
        # refused by name, never guessed
        ("'a'.localeCompare('b', 'hu')", "flowctx does not reproduce the collation of 'hu'"),
        ("new Date(-1e15).toLocaleString('en-u-ca-chinese')",
         "flowctx does not reproduce the chinese calendar's dates outside the years related to"),
        ("new Date(-8.64e15).toLocaleString('en-u-ca-islamic')",
         "flowctx does not reproduce the islamic calendar's dates outside the Islamic years"),
        # a weekday with hours: ICU has a pattern of its own ('Thursday 3:04 PM', no join)
        ("new Intl.DateTimeFormat('en', payload.wd_hm_coptic).format(0)",
         "flowctx does not reproduce DateTimeFormat with these options "
         "(hour=numeric,minute=2-digit,weekday=long) in 'en'"),
        # ICU refuses what follows a well-formed language identifier, V8 the rest
        ("new Intl.DateTimeFormat('cs-u-ca-x')", "Invalid language tag: cs-u-ca-x"),
        ("Intl.getCanonicalLocales('en-US-u')", "Invalid language tag: en-us-u"),
        ("Intl.getCanonicalLocales('en-US-1a')", "Incorrect locale information provided"),
        ("'\u0430'.localeCompare('b', 'de-u-co-phonebk')",
         "flowctx reproduces the collation 'phonebk' of 'de' for Latin letters"),
        ("new Intl.Collator('ha').compare('t\u015b', 'b')",
         "flowctx does not reproduce the collation of 'ha' where a letter with an accent ends"),
    ],
)  # fmt: skip
def test_errors(condition: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    scope = {"bad": {"style": "bogus"}, "nocur": {"style": "currency"}, "n": 1,
             "big": {"maximumFractionDigits": 21}, "search": {"usage": "search"},
             "zhuyin": {"collation": "zhuyin"}, "xyz": {"unit": "xyz"},
             "nounit": {"style": "unit"},
             "per": {"style": "unit", "unit": "meter-per"},
             "inc5_fd2": PAYLOAD["inc5_fd2"], "inc5_sd2": PAYLOAD["inc5_sd2"],
             "bad_priority": PAYLOAD["bad_priority"],
             "wd_hm_coptic": PAYLOAD["wd_hm_coptic"]}  # fmt: skip
    code = main(["eval", condition, "--payload", json.dumps(scope)])
    err = capsys.readouterr().err
    assert code != 0
    assert message in err.splitlines()[0], err


@pytest.mark.parametrize(
    ("condition", "answer"),
    [
        # Danish aa is one letter, after z and æ and ø; Czech ch comes after h
        ("['aa', 'z', 'ab'].sort(new Intl.Collator('da').compare).join()", "ab,z,aa"),
        ("['ch', 'h', 'i', 'c'].sort(new Intl.Collator('cs').compare).join()", "c,h,ch,i"),
        ("['\u00f1', 'n', 'o'].sort(new Intl.Collator('es').compare).join()", "n,\u00f1,o"),
        # Danish sorts capitals first by default, and says so
        ("new Intl.Collator('da').resolvedOptions().caseFirst", "upper"),
        ("String('A'.localeCompare('a', 'da'))", "-1"),
        # the other collations, the search collations, en-US-u-va-posix, caseFirst
        ("['cuna', 'chico', 'dama', 'lz', 'llave'].sort(new Intl.Collator('es-u-co-trad')"
         ".compare).join()", "cuna,chico,dama,lz,llave"),
        ("['Uhr', '\u00dcbel', 'Ufer'].sort(new Intl.Collator('de-u-co-phonebk').compare).join()",
         "\u00dcbel,Ufer,Uhr"),
        ("['b', 'B', 'a', 'A', '_'].sort(new Intl.Collator('en-US-u-va-posix').compare).join()",
         "A,B,_,a,b"),
        # en-US-u-va-posix ignoring punctuation keeps its hyphen; eor takes its case apart
        ("String(new Intl.Collator('en-US-u-va-posix', payload.nopunct).compare('a-b', 'ab'))",
         "-1"),
        ("String(new Intl.Collator('en-US-u-va-posix', payload.eor).compare('a', 'B'))", "-1"),
        # numeric en-US-u-va-posix puts numbers before spaces and punctuation
        ("['a10', 'a2', 'a.b', 'a b'].sort(new Intl.Collator('en-US-u-va-posix', payload.num)"
         ".compare).join()", "a2,a10,a b,a.b"),
        ("String(new Intl.Collator('de', payload.search_base).compare('\u00fc', 'ue'))", "0"),
        ("String('\u00df'.localeCompare('ss', 'sv', payload.upper))", "1"),
        # a search collator with -u-co- is the locale's search collator
        ("String(new Intl.Collator('es-u-co-trad', payload.search_base).compare('ch', 'cz'))",
         "-1"),
        # phonebook German: ä is ae (and after it); Hausa's ts one letter after t
        ("['af', '\u00e4', 'ad', 'ae'].sort(new Intl.Collator('de-u-co-phonebk').compare).join()",
         "ad,ae,\u00e4,af"),
        ("['tz', 'ts', 'u', 'ta'].sort(new Intl.Collator('ha').compare).join()", "ta,tz,ts,u"),
        # fr-CA weighs accents from the end of the word
        ("['c\u00f4t\u00e9', 'cot\u00e9', 'cote', 'c\u00f4te'].sort(new Intl.Collator('fr-CA')"
         ".compare).join()", "cote,c\u00f4te,cot\u00e9,c\u00f4t\u00e9"),
        ("['a', 'B', 'A', 'b'].sort(new Intl.Collator('en', payload.upper).compare).join()",
         "A,a,B,b"),
    ],
)  # fmt: skip
def test_tailored_collations(
    condition: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = {"search_base": {"usage": "search", "sensitivity": "base"},
             "upper": {"caseFirst": "upper"}, "num": {"numeric": True},
             "nopunct": {"ignorePunctuation": True}, "eor": {"collation": "eor"}}  # fmt: skip
    code = main(["eval", f"{condition} === {json.dumps(answer)}", "--payload", json.dumps(scope)])
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


# the calendars ICU counts apart from the Gregorian: the Japanese eras (counted from 645 before
# the first, in Julian dates before 1582), the Persian (its corrected years: 1503 starts a day
# early), the Republic of China's, the Buddhist, and a locale's Gregorian patterns where its own
# calendar is another
CALENDAR_SCOPE = {
    "utc": {"timeZone": "UTC"}, "jl": {"timeZone": "UTC", "dateStyle": "long"},
    "ymd": {"timeZone": "UTC", "year": "numeric", "month": "long", "day": "numeric"},
    "era": {"timeZone": "UTC", "era": "long", "year": "numeric"},
    "jap": {"timeZone": "UTC", "calendar": "japanese", "dateStyle": "full"},
    "civ": {"timeZone": "UTC", "calendar": "islamic-civil", "dateStyle": "long"},
    "tbla": {"timeZone": "UTC", "calendar": "islamic-tbla", "year": "numeric", "month": "long",
             "day": "numeric"},
}  # fmt: skip


@pytest.mark.parametrize(
    ("condition", "answer"),
    [
        ("new Date(Date.UTC(-44, 2, 15)).toLocaleDateString('ja-JP-u-ca-japanese', payload.utc)",
         "\u5927\u5316-688/3/17"),
        ("new Date(Date.UTC(2024, 1, 29)).toLocaleDateString('ja-JP-u-ca-japanese', payload.utc)",
         "R6/2/29"),
        ("new Date(Date.UTC(1582, 9, 4, 23)).toLocaleDateString('ja-JP-u-ca-japanese', payload.jl)",
         "\u5929\u6b6310\u5e749\u670824\u65e5"),
        ("new Date(Date.UTC(2024, 1, 29)).toLocaleDateString('fa', payload.utc)",
         "\u06f1\u06f4\u06f0\u06f2/\u06f1\u06f2/\u06f1\u06f0"),
        ("new Date(-8.64e15).toLocaleDateString('fa', payload.utc)",
         "\u200e\u2212\u06f2\u06f7\u06f2\u06f4\u06f4\u06f2/\u06f1/\u06f1\u06f0"),
        ("new Date(Date.UTC(2124, 2, 20)).toLocaleDateString('en-u-ca-persian', payload.ymd)",
         "Farvardin 1, 1503 AP"),
        ("new Date(0).toLocaleDateString('en', payload.jap)", "Thursday, January 1, 45 Sh\u014dwa"),
        ("new Date(0).toLocaleDateString('zh-TW-u-ca-roc', payload.era)", "\u6c11\u570b59\u5e74"),
        ("new Date(0).toLocaleDateString('th', payload.ymd)",
         "1 \u0e21\u0e01\u0e23\u0e32\u0e04\u0e21 2513"),
        ("new Intl.DateTimeFormat('ja-JP-u-ca-japanese').resolvedOptions().era", "narrow"),
        ("new Date(0).toLocaleDateString('en', payload.civ)", "Shawwal 22, 1389 AH"),
        ("new Date(0).toLocaleDateString('ar', payload.tbla)",
         "23 \u0634\u0648\u0627\u0644 1389 \u0647\u0640"),
        ("new Date(-8.64e15).toLocaleDateString('en', payload.civ)", "Rabi\u02bb I 22, -280804 AH"),
        ("new Date(0).toLocaleDateString('th-u-ca-gregory', payload.jl)",
         "1 \u0e21\u0e01\u0e23\u0e32\u0e04\u0e21 \u0e04.\u0e28. 1970"),
    ],
)  # fmt: skip
def test_calendars(condition: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}", "--payload",
                 json.dumps(CALENDAR_SCOPE)])  # fmt: skip
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


# every calendar ICU counts arithmetically or from node's measured months (the Coptic, the
# Ethiopic and Amete Alem, the Indian, the Hebrew with Adar I and II and their numbers, the
# astronomical Islamic, the Umm al-Qura's and the civil one outside its table, the ISO one's
# nameless months) in random sets of components, joined with times in any hour cycle, and the
# calendars' aliases
CALENDAR_SETS_SCOPE = {
    "ymd": {"timeZone": "UTC", "year": "numeric", "month": "long", "day": "numeric"},
    "era": {
        "timeZone": "UTC", "era": "short", "year": "numeric", "month": "short", "day": "numeric",
    },
    "wymd": {
        "timeZone": "UTC", "weekday": "long", "year": "numeric", "month": "long",
        "day": "numeric",
    },
    "md": {"timeZone": "UTC", "month": "numeric", "day": "numeric"},
    "mdn": {"timeZone": "UTC", "month": "long", "day": "numeric", "year": "2-digit"},
    "full": {"timeZone": "UTC", "dateStyle": "full"},
    "mix": {
        "timeZone": "UTC", "weekday": "narrow", "era": "long", "month": "2-digit",
        "day": "2-digit", "hour": "numeric", "minute": "2-digit", "hour12": True,
    },
    "h11": {
        "timeZone": "UTC", "year": "2-digit", "month": "short", "day": "numeric",
        "hour": "2-digit", "minute": "2-digit", "hourCycle": "h11",
    },
    "aa": {"timeZone": "UTC", "calendar": "ethiopic-amete-alem", "year": "numeric", "era": "long"},
    "utc": {"timeZone": "UTC"},
    "ym": {"timeZone": "UTC", "year": "numeric", "month": "long"},
}  # fmt: skip


@pytest.mark.parametrize(
    ("condition", "answer"),
    [
        ("new Date(0).toLocaleDateString('en-u-ca-coptic', payload.ymd)",
         "Kiahk 23, 1686 AM"),
        ("new Date(Date.UTC(100, 0, 1)).toLocaleDateString('en-u-ca-coptic', payload.era)",
         "Toba 7, 185 "),
        ("new Date(Date.UTC(-44, 2, 15)).toLocaleDateString('am-u-ca-ethiopic', payload.era)",
         "\u1218\u130b\u1262\u1275 21\u1363 5448 AA"),
        ("new Date(0).toLocaleDateString('fr', payload.aa)",
         "7462 AA"),
        ("new Intl.DateTimeFormat('fr', payload.aa).resolvedOptions().calendar",
         "ethioaa"),
        ("new Date(Date.UTC(2024, 2, 21)).toLocaleDateString('hi-u-ca-indian', payload.wymd)",
         "\u0936\u0915 \u0917\u0941\u0930\u0941\u0935\u093e\u0930, 1 \u091a\u0948\u0924"
         "\u094d\u0930 1946"),
        ("new Date(Date.UTC(2024, 2, 20)).toLocaleDateString('he-u-ca-hebrew', payload.mdn)",
         "10 \u05d1\u05d0\u05d3\u05e8 \u05d1\u05f3 84"),
        ("new Date(Date.UTC(2024, 2, 20)).toLocaleDateString('de-u-ca-hebrew', payload.md)",
         "10.7."),
        ("new Date(Date.UTC(2025, 2, 20)).toLocaleDateString('de-u-ca-hebrew', payload.md)",
         "20.6."),
        ("new Date(Date.UTC(2024, 1, 20)).toLocaleDateString('en-u-ca-hebrew', payload.mdn)",
         "11 Adar I 84"),
        ("new Date(0).toLocaleDateString('ar-SA', payload.full)",
         "\u0627\u0644\u062e\u0645\u064a\u0633\u060c \u0661 \u064a\u0646\u0627\u064a"
         "\u0631 \u0661\u0669\u0667\u0660"),
        ("new Date(0).toLocaleDateString('en-u-ca-islamic', payload.ymd)",
         "Shawwal 23, 1389 AH"),
        ("new Date(0).toLocaleDateString('en-u-ca-islamic-rgsa', payload.ymd)",
         "Shawwal 23, 1389 AH"),
        ("new Date(Date.UTC(1900, 0, 1)).toLocaleDateString('en-u-ca-islamic-umalqura',"
         " payload.ymd)",
         "Sha\u02bbban 29, 1317 AH"),
        ("new Date(Date.UTC(1800, 0, 1)).toLocaleDateString('en-u-ca-islamic-umalqura',"
         " payload.ymd)",
         "Sha\u02bbban 4, 1214 AH"),
        ("new Intl.DateTimeFormat('en-u-ca-iso8601', payload.ymd).formatToParts(0)"
         ".map(p => p.type + '=' + p.value).join('|')",
         "year=1970|literal=  |day=1"),
        ("new Date(Date.UTC(1582, 9, 4)).toLocaleDateString('en-u-ca-iso8601', payload.utc)",
         "1582-09-24"),
        ("new Date(1700000000000).toLocaleString('ja-JP-u-ca-japanese', payload.mix)",
         "\u4ee4\u548c 11/14(\u706b) \u5348\u5f8c10:13"),
        ("new Date(1700000000000).toLocaleString('fa', payload.h11)",
         "\u06f2\u06f3 \u0622\u0628\u0627\u0646 \u06f0\u06f2\u060c \u06f1\u06f0:\u06f1"
         "\u06f3 \u0628.\u0638."),
        ("new Intl.DateTimeFormat('en-u-ca-coptic', payload.era).formatToParts(0)"
         ".map(p => p.type + '=' + p.value).join('|')",
         "month=Kiahk|literal= |day=23|literal=, |year=1686|literal= |era=AM"),
        ("new Date(0).toLocaleDateString('th', payload.mix)",
         "\u0e1e\u0e38\u0e17\u0e18\u0e28\u0e31\u0e01\u0e23\u0e32\u0e0a \u0e1e\u0e24 01/01 0:00 AM"),
        ("new Date(0).toLocaleDateString('zh-TW-u-ca-roc', payload.ym)",
         "\u6c11\u570b59\u5e741\u6708"),
        ("new Intl.DateTimeFormat('ko-u-ca-islamicc').resolvedOptions().locale",
         "ko-u-ca-islamic-civil"),
        ("Intl.getCanonicalLocales('de-u-ca-ethiopic-amete-alem').join()",
         "de-u-ca-ethioaa"),
        ("new Date(0).toLocaleString('am-u-ca-ethioaa', payload.full)",
         "\u1210\u1219\u1235\u1363 23 \u1273\u1285\u1223\u1225 7462 AA"),
    ],
)  # fmt: skip
def test_every_set_in_every_calendar(
    condition: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}", "--payload",
                 json.dumps(CALENDAR_SETS_SCOPE)])  # fmt: skip
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


# the Chinese and Korean calendars (their months measured from node): a leap month's names and
# numbers (2bis, 闰二月, 윤2월, 02bis in a numbering system asked), the related year and the
# cycle's year names as parts of their own, zh's and ja's day names, the cycle's number as an era
# (negative before 2697 BC), a month dangi counts otherwise than the Chinese calendar (1917)
CHINESE_SCOPE = {
    "ymd": {"timeZone": "UTC", "year": "numeric", "month": "long", "day": "numeric"},
    "full": {"timeZone": "UTC", "dateStyle": "full"},
    "num": {"timeZone": "UTC", "year": "numeric", "month": "numeric", "day": "numeric"},
    "y2": {"timeZone": "UTC", "year": "2-digit", "month": "2-digit", "day": "numeric"},
    "era": {"timeZone": "UTC", "era": "short", "month": "numeric", "day": "numeric"},
    "arab": {"timeZone": "UTC", "month": "numeric", "day": "numeric", "numberingSystem": "arab"},
    "dangi": {"timeZone": "UTC", "calendar": "dangi", "month": "long", "day": "numeric"},
    "dt": {"timeZone": "Asia/Seoul", "dateStyle": "medium", "timeStyle": "short"},
}


@pytest.mark.parametrize(
    ("condition", "answer"),
    [
        ("new Date(Date.UTC(2023, 2, 25)).toLocaleDateString('en-u-ca-chinese', payload.ymd)",
         "Second Monthbis 4, 2023(gui-mao)"),
        ("new Date(Date.UTC(2023, 2, 25)).toLocaleDateString('zh-u-ca-chinese', payload.ymd)",
         "2023\u7678\u536f\u5e74\u95f0\u4e8c\u67084"),
        ("new Intl.DateTimeFormat('zh-u-ca-chinese', payload.full)"
         ".formatToParts(Date.UTC(2023, 3, 25)).map(p => p.type + '=' + p.value).join('|')",
         "relatedYear=2023|yearName=\u7678\u536f|literal=\u5e74|month=\u4e09\u6708|day=\u521d\u516d|weekday=\u661f\u671f\u4e8c"),
        ("new Intl.DateTimeFormat('ja-u-ca-chinese', payload.full).format(Date.UTC(2023, 4, 5))",
         "\u7678\u536f\u5e74\u4e09\u6708\u4e00\u516d\u65e5\u91d1\u66dc\u65e5"),
        ("new Date(Date.UTC(2023, 2, 25)).toLocaleDateString('de-u-ca-chinese', payload.y2)",
         "4.02bis.40"),
        ("new Date(Date.UTC(-2500, 2, 25)).toLocaleDateString('en-u-ca-chinese', payload.num)",
         "2/13/-2500"),
        ("new Intl.DateTimeFormat('en-u-ca-chinese', payload.era)"
         ".formatToParts(Date.UTC(-2900, 6, 1)).map(p => p.type + '=' + p.value).join('|')",
         "era=-4|literal= |month=5|literal=/|day=12"),
        ("new Date(Date.UTC(2023, 2, 25)).toLocaleDateString('ar-u-ca-chinese', payload.arab)",
         "\u0660\u0662bis-\u0660\u0664"),
        ("new Date(Date.UTC(1917, 3, 1)).toLocaleDateString('ko', payload.dangi)",
         "\uc7242\uc6d4 10\uc77c"),
        ("new Date(Date.UTC(1917, 3, 1)).toLocaleDateString('ko-u-ca-chinese', payload.dangi)",
         "\uc7242\uc6d4 10\uc77c"),
        ("new Date(Date.UTC(1917, 3, 1)).toLocaleDateString('ko-u-ca-chinese', payload.ymd)",
         "1917\ub144(\uc815\uc0ac\ub144) 3\uc6d4 10\uc77c"),
        ("new Date(Date.UTC(2033, 11, 25)).toLocaleString('vi-u-ca-chinese', payload.dt)",
         "09:00 04-11 Nhu\u1eadn Qu\u00fd S\u1eedu"),
        ("new Intl.DateTimeFormat('zh-Hant-u-ca-dangi', payload.full).resolvedOptions().locale",
         "zh-Hant-u-ca-dangi"),
        ("new Intl.DateTimeFormat('fr-u-ca-dangi', payload.full).formatRange(Date.UTC(2025, 7, 1), "
         "Date.UTC(2025, 7, 1, 5))",
         "vendredi 8 li\u00f9yu\u00e8bis yi-si"),
    ],
)  # fmt: skip
def test_chinese_calendars(condition: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}", "--payload",
                 json.dumps(CHINESE_SCOPE)])  # fmt: skip
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


# a set of date and time components ICU's generator joins from its date's pattern and its time's
# (the join chosen by the month's width), timeStyle full and long (UTC's name), and the hour
# cycles V8 gives a timeStyle: hour12 measured against the -u-hc- or the locale's own cycle, the
# -u-hc- kept in the locale only where the hours are in its cycle
PATTERN_SCOPE = {
    "h24": {"timeZone": "UTC", "hour": "numeric", "hourCycle": "h24"},
    "hm": {"timeZone": "UTC", "hour": "numeric", "minute": "2-digit"},
    "f24": {"timeZone": "UTC", "hour12": False},
    "wt": {"timeZone": "UTC", "weekday": "short", "hour": "numeric", "minute": "2-digit"},
    "mdt": {
        "timeZone": "UTC",
        "month": "long",
        "day": "numeric",
        "hour": "numeric",
        "minute": "2-digit",
    },
    "ymdhms": {
        "timeZone": "UTC",
        "year": "2-digit",
        "month": "narrow",
        "day": "2-digit",
        "hour": "2-digit",
        "second": "numeric",
    },
    "eh": {"timeZone": "UTC", "era": "short", "hour": "2-digit"},
    "full": {"timeZone": "UTC", "timeStyle": "full"},
    "dl": {"timeZone": "UTC", "dateStyle": "long", "timeStyle": "long"},
    "t12": {"timeZone": "UTC", "timeStyle": "short", "hour12": True},
    "t24": {"timeZone": "UTC", "timeStyle": "medium", "hour12": False},
    "h23": {"timeZone": "UTC", "timeStyle": "short", "hourCycle": "h23"},
    "ds12": {"timeZone": "UTC", "dateStyle": "short", "hour12": True},
    "hm12": {"timeZone": "UTC", "hour": "numeric", "minute": "2-digit", "hour12": True},
    "tokyo": {"timeZone": "Asia/Tokyo", "timeStyle": "full"},
}


@pytest.mark.parametrize(
    ("condition", "answer"),
    [
        ("new Date(Date.UTC(2024, 1, 29, 23, 59, 59)).toLocaleString('de', payload.wt)",
         "Do., 23:59"),
        ("new Date(Date.UTC(2024, 1, 29, 23, 59, 59)).toLocaleString('en', payload.mdt)",
         "February 29 at 11:59 PM"),
        ("new Date(Date.UTC(2024, 1, 29, 23, 59, 59)).toLocaleString('fr', payload.ymdhms)",
         "29 F 24 59 (heure: 23 h)"),
        ("new Date(Date.UTC(2024, 1, 29, 23, 59, 59)).toLocaleString('en', payload.eh)",
         "AD, 11 PM"),
        ("new Date(0).toLocaleTimeString('de', payload.full)",
         "00:00:00 Koordinierte Weltzeit"),
        ("new Date(0).toLocaleString('ja', payload.dl)",
         "1970\u5e741\u67081\u65e5 0:00:00 UTC"),
        ("new Date(0).toLocaleTimeString('de', payload.t12)",
         "00:00 AM"),
        ("new Date(0).toLocaleTimeString('en', payload.t24)",
         "24:00:00"),
        ("new Date(0).toLocaleTimeString('de-u-hc-h12', payload.t12)",
         "12:00 AM"),
        ("new Intl.DateTimeFormat('de-u-hc-h12', payload.t12).resolvedOptions().locale",
         "de-u-hc-h12"),
        ("new Intl.DateTimeFormat('de-u-hc-h12', payload.ds12).resolvedOptions().locale",
         "de"),
        ("new Intl.DateTimeFormat('ja-u-hc-h12', payload.hm12).resolvedOptions().locale",
         "ja-u-hc-h12"),
        # hours in the option's cycle keep their own width (fr's h24 is 24 h, not 24:00)
        ("new Date(0).toLocaleTimeString('fr', payload.h24)", "24 h"),
        ("new Intl.DateTimeFormat('fr', payload.h24).resolvedOptions().hour", "numeric"),
        ("new Date(0).toLocaleTimeString('ja-u-hc-h11', payload.hm)", "\u5348\u524d0:00"),
        ("new Date(0).toLocaleTimeString('en-u-hc-h23', payload.h23)",
         "00:00"),
        ("new Date(0).toLocaleTimeString('en-u-hc-h12', payload.f24)",
         "24:00:00"),
    ],
)  # fmt: skip
def test_date_patterns(condition: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}", "--payload",
                 json.dumps(PATTERN_SCOPE)])  # fmt: skip
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


def test_a_zone_other_than_utc_prints_its_own_name(capsys: pytest.CaptureFixture[str]) -> None:
    # node 20.20.2: timeStyle full prints the zone's metazone name (zonenames)
    condition = (
        "new Date(0).toLocaleTimeString('en', payload.tokyo) === '9:00:00 AM Japan Standard Time'"
    )
    code = main(["eval", condition, "--payload", json.dumps(PATTERN_SCOPE)])
    assert (code, capsys.readouterr().out) == (0, "true\n")


# measured with node 20: the variant POSIX alone is -u-va-posix (CLDR's alias, as V8 applies
# it), and ICU leaves und with a region and a variant as it is where the language alone would
# be the minimal form
POSIX_AND_MINIMIZE = [
    ("Intl.getCanonicalLocales('en-US-posix-u-nu-arab')[0]", "en-US-u-nu-arab-va-posix"),
    ("new Intl.Locale('en-US-fonipa-posix').toString()", "en-US-fonipa-posix"),
    ("new Intl.Locale('und-US-fonipa').minimize().toString()", "und-US-fonipa"),
    ("new Intl.Locale('und-FR-u-va-posix').minimize().toString()", "und-FR-u-va-posix"),
    ("new Intl.Locale('und-GB-fonipa').minimize().toString()", "en-GB-fonipa"),
    ("new Intl.Locale('und-Latn-US-u-va-posix').minimize().toString()", "en-u-va-posix"),
]


@pytest.mark.parametrize(("condition", "answer"), POSIX_AND_MINIMIZE)
def test_posix_variant_and_minimizing_und_as_node(
    condition: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}"])
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


# formatRange and selectRange (measured with node 20): the range pattern, affixes longer than
# one code point said once (de's €, en's CHF), units always once in the range's plural
# category, spaces around the range sign where something repeats, ~ where both ends agree
RANGES = [
    (
        "en",
        {"style": "currency", "currency": "CHF", "currencyDisplay": "name"},
        -5,
        5,
        "-5.00 \u2013 5.00 Swiss francs",
        "minusSign:startRange:-|integer:startRange:5|decimal:startRange:.|fraction:startRange:00|"
        "literal:shared: \u2013 |integer:endRange:5|decimal:endRange:.|fraction:endRange:00|"
        "literal:shared: |currency:shared:Swiss francs",
    ),
    ("en", {}, 3, 5, "3\u20135", "integer:startRange:3|literal:shared:\u2013|integer:endRange:5"),
    ("en", {}, 5, 5, "~5", "approximatelySign:shared:~|integer:shared:5"),
    (
        "en",
        {"style": "currency", "currency": "USD"},
        3,
        5,
        "$3.00 \u2013 $5.00",
        "currency:startRange:$|integer:startRange:3|decimal:startRange:.|fraction:startRange:00|"
        "literal:shared: \u2013 |currency:endRange:$|integer:endRange:5|decimal:endRange:.|"
        "fraction:endRange:00",
    ),
    (
        "de",
        {"style": "currency", "currency": "EUR"},
        3,
        5,
        "3,00\u20135,00\xa0\u20ac",
        "integer:startRange:3|decimal:startRange:,|fraction:startRange:00|literal:shared:\u2013|"
        "integer:endRange:5|decimal:endRange:,|fraction:endRange:00|literal:shared:\xa0|"
        "currency:shared:\u20ac",
    ),
    (
        "en",
        {"style": "currency", "currency": "CHF"},
        3,
        5,
        "CHF\xa03.00\u20135.00",
        "currency:shared:CHF|literal:startRange:\xa0|integer:startRange:3|decimal:startRange:.|"
        "fraction:shared:00|literal:endRange:\u2013|integer:endRange:5|decimal:endRange:.|"
        "fraction:shared:00",
    ),
    (
        "en",
        {"style": "unit", "unit": "meter", "unitDisplay": "long"},
        1,
        2,
        "1\u20132 meters",
        "integer:startRange:1|literal:shared:\u2013|integer:endRange:2|literal:shared: |"
        "unit:shared:meters",
    ),
    (
        "ar",
        {"style": "currency", "currency": "EUR"},
        -5,
        -5,
        "\u200f~\u200e-5.00\xa0\u20ac",
        "literal:shared:\u200f|approximatelySign:shared:~|literal:shared:\u200e|"
        "minusSign:shared:-|integer:shared:5|decimal:shared:.|fraction:shared:00|"
        "literal:shared:\xa0|currency:shared:\u20ac",
    ),
    (
        "en",
        {"style": "currency", "currency": "USD", "currencySign": "accounting"},
        -5,
        5,
        "($5.00) \u2013 $5.00",
        "literal:startRange:(|currency:startRange:$|integer:startRange:5|decimal:startRange:.|"
        "fraction:startRange:00|literal:shared:) \u2013 |currency:endRange:$|integer:endRange:5|"
        "decimal:endRange:.|fraction:endRange:00",
    ),
    (
        "ja",
        {},
        -5,
        -3,
        "-5 \uff5e -3",
        "minusSign:startRange:-|integer:startRange:5|literal:shared: \uff5e |"
        "minusSign:endRange:-|integer:endRange:3",
    ),
    ("en", {"signDisplay": "never"}, "-0", 0, "~0", "approximatelySign:shared:~|integer:shared:0"),
]


@pytest.mark.parametrize(("locale", "options", "start", "end", "text", "parts"), RANGES)
def test_format_range_as_node(
    locale: str,
    options: dict[str, object],
    start: float | str,
    end: float,
    text: str,
    parts: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    nf = f"new Intl.NumberFormat('{locale}', payload.o)"
    # -0 is written out: JSON has none
    first = start if isinstance(start, str) else json.dumps(start)
    expr = (
        f"{nf}.formatRange({first}, {end}) === {json.dumps(text)} && {nf}.formatRangeToParts("
        f"{first}, {end}).map(p => p.type + ':' + p.source + ':' + p.value).join('|') === "
        f"{json.dumps(parts)}"
    )
    code = main(["eval", expr, "--payload", json.dumps({"o": options})])
    assert (code, capsys.readouterr().out) == (0, "true\n"), (locale, options, start, end)


def test_select_range_as_node(capsys: pytest.CaptureFixture[str]) -> None:
    expr = (
        "new Intl.PluralRules('ru').selectRange(1, 5) === 'many' && "
        "new Intl.PluralRules('fr').selectRange(0, 1) === 'one' && "
        "new Intl.PluralRules('en', payload.ord).selectRange(1, 2) === 'other'"
    )
    code = main(["eval", expr, "--payload", json.dumps({"ord": {"type": "ordinal"}})])
    assert (code, capsys.readouterr().out) == (0, "true\n")


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ("new Intl.NumberFormat('en').formatRange(5)", "Invalid end : undefined"),
        ("new Intl.NumberFormat('en').formatRange('abc')", "Invalid end : undefined"),
        ("new Intl.NumberFormat('en').formatRange('abc', 1)", "Invalid start : abc"),
        ("new Intl.NumberFormat('en').formatRange(1, NaN)", "Invalid end : NaN"),
        ("new Intl.PluralRules('en').selectRange(1)", "Invalid endRange : undefined"),
        ("new Intl.PluralRules('en').selectRange('x', 1)", "Invalid startRange : NaN"),
    ],
)  # fmt: skip
def test_range_errors(condition: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    payload = {"name": {"style": "currency", "currency": "USD", "currencyDisplay": "name"}}
    code = main(["eval", condition, "--payload", json.dumps(payload)])
    assert code != 0
    assert message in capsys.readouterr().err.splitlines()[0]


# Intl.Locale's lists (getters in node 20), measured with node: by the region (the tag's, else
# its likely one), the language's data (az-Arab's is the root's), a -u- keyword's one value
LOCALE_LISTS = [
    ("ar", "calendars", ["gregory", "coptic", "islamic", "islamic-civil", "islamic-tbla"]),
    ("ar", "collations", ["compat", "emoji", "eor"]),
    ("ar", "textInfo", {"direction": "rtl"}),
    ("ar", "weekInfo", {"firstDay": 6, "weekend": [5, 6], "minimalDays": 1}),
    ("de-US", "collations", ["emoji", "eor", "phonebk"]),
    ("de-US", "hourCycles", ["h12"]),
    ("fr-CA", "hourCycles", ["h23"]),
    ("az-Arab", "textInfo", {"direction": "ltr"}),
    ("az-Arab", "calendars", ["persian", "gregory", "islamic", "islamic-civil", "islamic-tbla"]),
    ("ja-JP-u-ca-japanese", "calendars", ["japanese"]),
    ("ja-JP-u-ca-japanese", "timeZones", ["Asia/Tokyo"]),
    ("en-u-fw-mon", "weekInfo", {"firstDay": 1, "weekend": [6, 7], "minimalDays": 1}),
    ("nqo", "numberingSystems", ["nkoo"]),
    ("nqo", "textInfo", {"direction": "rtl"}),
    ("bn-Hant", "calendars", ["gregory", "islamic", "islamic-civil", "islamic-tbla"]),
]


@pytest.mark.parametrize(("tag", "key", "answer"), LOCALE_LISTS)
def test_locale_lists_as_node(
    tag: str, key: str, answer: object, capsys: pytest.CaptureFixture[str]
) -> None:
    # MemberJunction refuses braces, in strings too: an object is compared by its values
    value = f"new Intl.Locale('{tag}').{key}"
    if isinstance(answer, dict):
        value, answer = f"Object.values({value})", list(answer.values())
    text = json.dumps(answer, separators=(",", ":"))
    expr = f"JSON.stringify({value}) === {json.dumps(text)}"
    code = main(["eval", expr])
    assert (code, capsys.readouterr().out) == (0, "true\n"), (tag, key)


def test_locale_lists_errors_and_absence(capsys: pytest.CaptureFixture[str]) -> None:
    # no region, no time zones; a numbering system ICU does not have breaks the hour cycles
    code = main(["eval", "new Intl.Locale('de').timeZones === undefined"])
    assert (code, capsys.readouterr().out) == (0, "true\n")
    code = main(["eval", "new Intl.Locale('en-u-nu-foo').hourCycles"])
    assert code != 0
    assert "Internal error. Icu error." in capsys.readouterr().err
