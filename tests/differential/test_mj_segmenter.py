"""Intl.Segmenter against MemberJunction 5.51.3 under node 20 (ICU 78, Unicode 17), in one
batch: each segment's text, index, input and isWordLike in node's order, for texts built to
exercise every grapheme rule (GB3-GB13 with GB9c's Indic conjuncts and GB11's emoji
sequences), every word rule (WB3-WB16 with ICU's own: Hangul syllables, ideographs, the status
of a word ending in a connector; en_US_POSIX's full stop and colon) and every sentence rule
(SB3-SB11, and Greek's semicolon),
containing() at every kind of index, the constructor's options and errors, resolvedOptions
across locales, and a few hundred strings drawn over the property classes."""

from __future__ import annotations

import random

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 29
SEGS = "JSON.stringify([...new Intl.Segmenter(payload.l, payload.o).segment(payload.s)])"
WORDS = (
    "Array.from(new Intl.Segmenter(payload.l, payload.o).segment(payload.s))"
    ".filter(x => x.isWordLike).map(x => x.segment).join('|')"
)
CONTAINING = (
    "JSON.stringify(new Intl.Segmenter(payload.l, payload.o).segment(payload.s)"
    ".containing(payload.i))"
)
RESOLVED = "JSON.stringify(new Intl.Segmenter(payload.l, payload.o).resolvedOptions())"

GRAPHEMES = [
    "\r\n", "\n\r", "a\r\nb", "\x00\u0301", "a\u0301\u0302b", "\u1100\u1161\u11a8",
    "\u1100\uac00", "\uac00\u11a8\u11a8", "\uac01\u1161", "\u1161\u11a8\u1100", "\u0600a",
    "\u0600\n", "a\u0903", "\u0915\u094d\u0937", "\u0915\u094d\u200d\u0937",
    "\u0915\u093c\u094d\u0937\u094d\u0924", "\u0915\u094d \u0937", "\u0d15\u0d4d\u0d15",
    "\u0995\u09cd\u09b7", "\u0915\u093f\u094d\u0937", "\U0001f469\u200d\U0001f4bb",
    "\U0001f44d\U0001f3fd", "a\u200d\U0001f600", "\U0001f600\u0301\u200d\U0001f600",
    "\U0001f3f3\ufe0f\u200d\U0001f308", "\U0001f600\u200d\u200d\U0001f600",
    "\U0001f600\u200d\U000e0061\u200d\U0001f469",
    "\U0001f1eb\U0001f1f7\U0001f1e9", "a\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea",
    "\U0001f1eb\u0301\U0001f1f7", "e\u0301\u0327", "\u00a9\u200d\u00ae", "\u2764\ufe0f",
    "\ud800a", "a\udc00\u0301", "\u0e01\u0e33", "\u1780\u17d2\u1780", "\U00011013\U00011046",
]  # fmt: skip
WORD_TEXTS = [
    "Hello, world!", "can't won't've", "3.14 1,000.50 1:2 1;2", "a.b.c e.g. U.S.A.",
    "foo_bar __init__ _ __ a_ 1_ _1", "x1y2 1a a1", "\u05d0'\u05d1 \u05d0\"\u05d1 \u05d0' \u05d0\"",
    "  two  spaces\t\ttabs", "line\r\nbreak\nx\u2028y\x85z", "caf\u00e9 cafe\u0301 na\u00efve",
    "\U0001f600 emoji \U0001f469\u200d\U0001f4bb \U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea",
    "\uc548\ub155 \ud558\uc138\uc694 abc\uc548\ub155 \uac00\u0301\ub098 \uac001",
    "\u03a9\u03bc\u03ad\u03b3\u03b1 \u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440",
    "\u0645\u0631\u062d\u0628\u0627 \u0967\u0968\u0969 \u0928\u092e\u0938\u094d\u0924\u0947",
    "a:b a\u00b7b 1.5. don\u2019t x\u2018y", "1\u202f000 3\u00a0000 a\u202fb a\u203fb",
    "a_\u0301 1_\u0301 \u05d0'\u0301 a\u0301 1\u0301",
    "\u3006\u3006 \U00017000\U00017001 !\U00016fe4",
    "\u00ad\u0301a \u200d\U0001f600 a\u200d\u200db", "ab\u00adcd 1\u2060 2",
    "\U0001f1eb\U0001f1f7\U0001f1e9 a\U0001f1eb", "\u2139\ufe0f info", "#1 $5 50% @me",
    "http://example.com/a-b?c=d", "x.\u0301y a..b 1..2 a'.b",
    # one Han or kana alone, a short Thai, Lao, Khmer or Myanmar run: no dictionary divides them
    "\u4fa1 5\u5186 a\u6f22b \u6f22\u0301\u5b57 \u2e80 \u3072\u3099 \u30ab_a \u30fc 1\u5186",
    "\u0e44\u0e17\u0e22 \u0e04\u0e19 a\u0e01b \u0e81\u0eb2 \u1780\u17d2\u1780 \u1000\u102c",
]  # fmt: skip
SENTENCES = [
    "Mr. Smith went. He did! Ok", "Hi. How are you? Fine.", "e.g. this is it. Yes",
    'He said "Hi." Then left.', "3.14 is pi. Yes", "Wow!!! Really?! ok", "a.\u2029b",
    "(Stop.) Go", "End.\nNext", "etc. and so", "U.S.A. is big. Yes", "Is it? yes", "First.Second",
    "... okay. Then", "A.B. C.", "x.) (y", "Go.\r\nNow", "Go.\u0301 Now", "a, b; c: d. E",
    "Done.\u00a0 Next", "End. 5 apples", "Hm.\u3002Yes\uff0e Ok", "\u05e9\u05dc\u05d5\u05dd. "
    "\u05e2\u05d5\u05d3", "\u0938\u0939\u0940\u0964 \u0905\u092c", "Ok.\u201d He",
]  # fmt: skip
# drawn strings: letters, digits and every kind of mark and connector, no dictionary script
POOL = [*"aA1.,:;'\"_ !?)(-\t\r\n",
    "\u0301", "\u200d", "\u200c", "\u00ad", "\U0001f1e6", "\U0001f1e7", "\u0600", "\u0903",
    "\u1100", "\u1161", "\u11a8", "\uac00", "\uac01", "\U0001f600", "\u2764", "\ufe0f",
    "\U0001f3fb", "\u0915", "\u094d", "\u0924", "\u093f", "\u05d0", "\u05d1", "\u3000",
    "\u2029", "\u0085", "\u2019", "\u00e9", "\u0660", "\uff0e", "\u00b7", "\u0387", "\u2024",
    "\ufe52", "\u3002", "\u2026", "\u00a0", "\u202f", "\u2060", "\u3006", "\U00017000",
    "\u037e", "\u03b1", "\u0391", "\u2018", "\u201d", "\u0964", "\u0d15", "\u0d4d",
]  # fmt: skip


def _cases() -> list[tuple[str, tuple[str, dict[str, object]]]]:
    out: list[tuple[str, tuple[str, dict[str, object]]]] = []

    def add(family: str, expr: str, **payload: object) -> None:
        out.append((family, (expr, {"payload": payload})))

    for s in GRAPHEMES:
        add("grapheme", SEGS, l="en", o={}, s=s)
    for s in WORD_TEXTS:
        add("word", SEGS, l="en", o={"granularity": "word"}, s=s)
        add("word", WORDS, l="de", o={"granularity": "word"}, s=s)
    for s in SENTENCES:
        add("sentence", SEGS, l="en", o={"granularity": "sentence"}, s=s)
    for s in ["Ti; ka\u037e Ne. ok", "a;b\u037e c"]:
        add("locale", SEGS, l="el", o={"granularity": "sentence"}, s=s)
    # en_US_POSIX: a full stop joins numbers only, a colon nothing
    for s in ["a.b 1.5 a:b 1:5 a\u2024b x.1 1.a e.g.", "3.14.15 U.S.A a'b 1,5 a_b"]:
        add("locale", SEGS, l="en-US-u-va-posix", o={"granularity": "word"}, s=s)
    # locales that change nothing (ICU's tailorings there are line breaks or suppressions)
    for tag in ["fi", "sv", "ja", "zh", "th", "de-u-ss-standard", "en-u-va-posix", "ja-u-lb-loose"]:
        for g in ["grapheme", "word", "sentence"]:
            add("locale", SEGS, l=tag, o={"granularity": g}, s="Dr. a.b can't. \u3006 1,5 ok")
    # containing(): ToIntegerOrInfinity, undefined out of range, a surrogate's half
    text = "a\U0001f469\u200d\U0001f4bb b."
    for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -0.5, 2.9, "3", "x", None, True, [], [4], 1e21]:
        add("containing", CONTAINING, l="en", o={"granularity": "word"}, s=text, i=i)
    for arg in ["NaN", "Infinity", "-Infinity", "", "undefined", "payload.s.length"]:
        add("containing", CONTAINING.replace("payload.i", arg), l="en", o={}, s=text)
    add("containing", CONTAINING, l="en", o={}, s="", i=0)
    # the constructor, its options, resolvedOptions and the statics
    for locales in ["en", "de-CH", "xx", "en-US-u-va-posix", "de-u-co-phonebk-nu-arab",
                    ["fr-FR", "de"], [], "zh-Hant-TW", "sr-Latn", "und", "EN-gb"]:  # fmt: skip
        add("options", RESOLVED, l=locales, o={"granularity": "sentence"})
    for opts in [{}, {"granularity": "word", "localeMatcher": "lookup"}, {"granularity": "Word"},
                 {"granularity": "line"}, {"localeMatcher": "x"}, {"granularity": ["word"]},
                 {"granularity": 1}, 5, "word", True, None, []]:  # fmt: skip
        add("options", RESOLVED, l="en", o=opts)
    for expr in ["Intl.Segmenter()", "new Intl.Segmenter('en-')", "new Intl.Segmenter(null)",
                 "new Intl.Segmenter(5).resolvedOptions().locale", "Intl.Segmenter.length",
                 "Intl.Segmenter.supportedLocalesOf(['en', 'xx', 'de-CH', 'th-TH', 'yue'])",
                 "Intl.Segmenter.supportedLocalesOf('en', payload.o)",
                 "String(new Intl.Segmenter())", "String(new Intl.Segmenter().segment('ab'))",
                 "Object.keys(new Intl.Segmenter().segment('ab')).length",
                 "new Intl.Segmenter().segment().containing(0).segment",
                 "new Intl.Segmenter().segment(null).containing(3).segment",
                 "[...new Intl.Segmenter().segment(12345)].length",
                 "new Intl.Segmenter(undefined, payload.o).segment('a b').containing(1).isWordLike",
                 "[...new Intl.Segmenter().segment(payload.s)].length"]:  # fmt: skip
        add("options", expr, o={"granularity": "word"}, s="\U0001f469\u200d\U0001f4bbe\u0301")
    r = random.Random(SEED)
    for k in range(300):
        g = ["grapheme", "word", "sentence"][k % 3]
        s = "".join(r.choice(POOL) for _ in range(r.randint(1, 14)))
        add("drawn", SEGS, l="en", o={"granularity": g}, s=s)
    return out


def test_segmenter_agrees_with_node(mj_oracle: MjOracle) -> None:
    tally = judge(mj_oracle, _cases())
    for counts in tally.counts.values():
        assert counts["disagree"] == 0, tally.table(examples=True)
        assert counts["refused-not-reproduced"] == 0, tally.table(examples=True)


def test_dictionary_words_are_refused(mj_oracle: MjOracle) -> None:
    """Words ICU's dictionaries may divide (two Han or kana side by side, four units of Thai,
    Lao, Khmer or Myanmar): refused, but their graphemes and sentences are reproduced."""
    texts = ["\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35", "\u65e5\u672c\u8a9e",
             "\u3072\u3089\u304c\u306a", "\u30ab\u30bf\u30ab\u30ca",
             "\u1019\u103c\u1014\u103a\u1019\u102c", "\u0e44\u0e17\u0e22\u0e44\u0e17\u0e22",
             "ok \u0eaa\u0eb0\u0e9a\u0eb2\u0e8d\u0e94\u0eb5"]  # fmt: skip
    cases = []
    for s in texts:
        for g in ["grapheme", "word", "sentence"]:
            cases.append((g, (SEGS, {"payload": {"l": "en", "o": {"granularity": g}, "s": s}})))
    tally = judge(mj_oracle, cases)
    assert tally.counts["word"]["refused-not-reproduced"] == len(texts), tally.table(True)
    for g in ["grapheme", "sentence"]:
        assert tally.counts[g]["agree"] == len(texts), tally.table(examples=True)


def test_intl_statics_and_instanceof_agree_with_node(mj_oracle: MjOracle) -> None:
    """Every service's supportedLocalesOf names itself in V8's errors (null options, an
    unknown localeMatcher), and an instance is an instance of its own constructor only."""
    names = ["NumberFormat", "Collator", "PluralRules", "ListFormat", "DateTimeFormat",
             "RelativeTimeFormat", "Segmenter"]  # fmt: skip
    cases = []
    for n in names:
        for o in ["null", "payload.o", "payload.l"]:
            expr = f"Intl.{n}.supportedLocalesOf(['en', 'de', 'xx'], {o})"
            cases.append(("supported", (expr, {"payload": {"o": {"localeMatcher": "x"}, "l": {}}})))
        for m in [*names, "Locale"]:
            cases.append(("instanceof", (f"new Intl.{n}() instanceof Intl.{m}", {})))
    for expr in ["new Intl.Locale('en') instanceof Intl.Locale",
                 "new Intl.Segmenter().segment('a') instanceof Intl.Segmenter",
                 "new Intl.Segmenter().segment('a') instanceof Object",
                 "5 instanceof Intl.Collator"]:  # fmt: skip
        cases.append(("instanceof", (expr, {})))
    tally = judge(mj_oracle, cases)
    for counts in tally.counts.values():
        assert counts["agree"] == sum(counts.values()), tally.table(examples=True)
