"""``Intl.Segmenter`` as node 20 has it (ICU 78, Unicode 17): extended grapheme clusters, words
and sentences by the rules of UAX #29 as ICU reads them, over each code point's break
properties measured for node (scripts/intl_segmenter.mjs, ``tables/segmenter.json.gz``).

ICU's word rules differ from UAX #29 in what flowctx keeps here: Han, Hiragana and Hangul
syllables are no letters to it, and Thai, Lao, Khmer and Myanmar letters are; Hangul
syllables, and Han and kana, join each other only when nothing stands between them; and a
word's ``isWordLike`` is the status of the last rule that matched it (a letter, a number or an
ideograph ends it; a connector only with nothing after it). ICU's dictionaries then divide
what the rules joined: flowctx refuses a word with two Han or kana, and four UTF-16 units of
Thai, Lao, Khmer or Myanmar side by side (shorter runs its engines leave whole).

Two locales have rules of their own: en_US_POSIX's words (a full stop joins numbers only, a
colon nothing) and Greek's sentences (a semicolon ends one). Node applies no sentence
suppressions (``-u-ss-standard`` is dropped), and no other locale changes an answer (measured
over every locale the Segmenter has)."""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve
from flowctx_core.expressions.js.intl.options import IntlObject, get_option
from flowctx_core.expressions.js.values import (
    ELEMENT,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    to_int,
    to_string,
    typeof,
    utf16_length,
)

SERVICE: Final = "Intl.Segmenter"
_POSIX: Final = re.compile(r"en-US-u-(?:.+-)?va-posix(?:-|$)")
_GRANULARITIES: Final = ("grapheme", "word", "sentence")

# Grapheme_Cluster_Break, as the table numbers it
(G_OTHER, G_CR, G_LF, G_CONTROL, G_EXTEND, G_ZWJ, G_RI, G_PREPEND, G_SPACING,
 G_L, G_V, G_T, G_LV, G_LVT) = range(14)  # fmt: skip
# Indic_Conjunct_Break
I_NONE, I_CONSONANT, I_EXTEND, I_LINKER = range(4)
# Word_Break
(W_OTHER, W_CR, W_LF, W_NEWLINE, W_EXTEND, W_ZWJ, W_RI, W_FORMAT, W_KATAKANA, W_HEBREW,
 W_ALETTER, W_SQ, W_DQ, W_MIDNUMLET, W_MIDLETTER, W_MIDNUM, W_NUMERIC, W_ENL,
 W_WSEGSPACE) = range(19)  # fmt: skip
# Sentence_Break
(S_OTHER, S_CR, S_LF, S_EXTEND, S_SEP, S_FORMAT, S_SP, S_LOWER, S_UPPER, S_OLETTER,
 S_NUMERIC, S_ATERM, S_SCONTINUE, S_STERM, S_CLOSE) = range(15)  # fmt: skip
# the flags' bits
F_EP, F_HAN, F_HIRA, F_IDEO, F_SA = (1, 2, 4, 8, 16)

#: the classes ICU's word rules add to Word_Break: a Hangul syllable, and a Han or Hiragana
#: character (what ICU's CJK dictionary reads, with Katakana)
W_HANGUL: Final = 19
W_KANJI: Final = 20
#: the word classes WB4 lets through (Extend, Format, ZWJ)
_EXFM: Final = frozenset({W_EXTEND, W_FORMAT, W_ZWJ})
_AHLETTER: Final = frozenset({W_ALETTER, W_HEBREW})
_MIDLETTERQ: Final = frozenset({W_MIDLETTER, W_MIDNUMLET, W_SQ})
_MIDNUMQ: Final = frozenset({W_MIDNUM, W_MIDNUMLET, W_SQ})
_WORDLIKE: Final = frozenset({W_ALETTER, W_HEBREW, W_NUMERIC, W_KATAKANA})
#: en_US_POSIX's own classes: a full stop separates numbers only, a colon nothing
_POSIX_CLASSES: Final = {0x2E: W_MIDNUM, 0x3A: W_OTHER}


@functools.cache
def _runs() -> tuple[list[int], list[int], list[list[int]]]:
    flat = table("segmenterRuns")
    return flat[0::2], flat[1::2], table("segmenterClasses")


def _props(cp: int) -> list[int]:
    """A code point's [Grapheme_Cluster_Break, Indic_Conjunct_Break, Word_Break,
    Sentence_Break, flags]."""
    starts, classes, rows = _runs()
    return rows[classes[bisect.bisect_right(starts, cp) - 1]]


def _graphemes(cps: list[int]) -> list[int]:
    """The code point offsets where an extended grapheme cluster starts (GB3-GB999)."""
    props = [_props(c) for c in cps]
    starts = [0]
    ri = 0  # regional indicators in a row before the current one
    emoji = 0  # 1: ExtPict Extend* seen; 2: ... then ZWJ
    incb = 0  # 1: Consonant [Extend Linker]*; 2: ... with a Linker among them
    for i, (g, inc, _, _, flags) in enumerate(props):
        if i and not _cluster_goes_on(props[i - 1][0], g, inc, flags, (ri, emoji, incb)):
            starts.append(i)
        ri = ri + 1 if g == G_RI else 0
        if flags & F_EP or (emoji == 1 and g == G_EXTEND):
            emoji = 1
        else:
            emoji = 2 if emoji == 1 and g == G_ZWJ else 0
        if inc == I_CONSONANT:
            incb = 1
        elif incb and inc in (I_EXTEND, I_LINKER):
            incb = 2 if inc == I_LINKER or incb == 2 else 1
        else:
            incb = 0
    return starts


def _cluster_goes_on(pg: int, g: int, inc: int, flags: int, state: tuple[int, int, int]) -> bool:
    """No break between a code point of class ``pg`` and the next (``g``, ``inc``, ``flags``),
    given the regional indicators, emoji and Indic conjunct seen before."""
    ri, emoji, incb = state
    if pg == G_CR and g == G_LF:
        return True  # GB3
    if pg in (G_CR, G_LF, G_CONTROL) or g in (G_CR, G_LF, G_CONTROL):
        return False  # GB4, GB5
    if pg == G_L and g in (G_L, G_V, G_LV, G_LVT):
        return True  # GB6
    if (pg in (G_LV, G_V) and g in (G_V, G_T)) or (pg in (G_LVT, G_T) and g == G_T):
        return True  # GB7, GB8
    if g in (G_EXTEND, G_ZWJ, G_SPACING) or pg == G_PREPEND:
        return True  # GB9, GB9a, GB9b
    if incb == 2 and inc == I_CONSONANT:
        return True  # GB9c
    if emoji == 2 and flags & F_EP:
        return True  # GB11
    return pg == G_RI and g == G_RI and ri % 2 == 1  # GB12, GB13


def _word_class(p: list[int], cp: int) -> int:
    """The class ICU's word rules give a code point: Word_Break's, save that Hangul syllables,
    Han and Hiragana are no letters, and Line_Break=Complex_Context letters (Thai...) are."""
    wb, flags = p[2], p[4]
    if 0xAC00 <= cp <= 0xD7A3:
        return W_HANGUL
    if wb == W_KATAKANA:
        return wb
    if flags & (F_HAN | F_HIRA):
        return W_KANJI
    if flags & F_SA and wb not in (W_EXTEND, W_ZWJ, W_FORMAT) and p[0] != G_CONTROL:
        return W_ALETTER
    return wb


#: a dictionary run this long (UTF-16 units) may be divided: ICU's Thai, Lao, Khmer and
#: Myanmar engines leave a shorter one whole
_SA_SPAN: Final = 4


def _dictionary_refused(w: list[int], flags: list[int], cps: list[int], starts: list[int]) -> None:
    """Refuse where ICU's dictionaries could divide a word the rules found: two Han or kana
    (Katakana too) in one word, or a run of Complex_Context characters long enough."""
    n = len(w)
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else n
        if sum(1 for c in w[s:e] if c in (W_KANJI, W_KATAKANA)) > 1:
            raise Unsupported(
                "flowctx does not reproduce ICU's dictionary word breaks (Han and kana text)"
            )
    run = 0
    for f, cp in zip(flags, cps, strict=True):
        run = run + (2 if cp > 0xFFFF else 1) if f & F_SA else 0
        if run >= _SA_SPAN:
            raise Unsupported(
                "flowctx does not reproduce ICU's dictionary word breaks "
                "(Thai, Lao, Khmer and Myanmar text)"
            )


def _words(cps: list[int], posix: bool = False) -> tuple[list[int], list[bool]]:
    """The offsets where a word starts (WB3-WB999 with ICU's tailoring) and whether each word
    is word-like (the status of the rule that ended it); en_US_POSIX's rules read a full stop
    as a number's separator only and a colon as no separator."""
    props = [_props(c) for c in cps]
    w = [_word_class(p, c) for p, c in zip(props, cps, strict=True)]
    if posix:
        w = [_POSIX_CLASSES.get(c, k) for c, k in zip(cps, w, strict=True)]
    n = len(w)
    # each code point's stand-in under WB4: Extend, Format and ZWJ take the class of what
    # they follow, except after the start, CR, LF and Newline
    core = list(range(n))
    for i in range(1, n):
        if w[i] in _EXFM and w[i - 1] not in (W_CR, W_LF, W_NEWLINE):
            core[i] = core[i - 1]

    def before(i: int) -> int:
        """The stand-in class of the core character before the one at ``i`` (or -1)."""
        j = core[i] - 1
        return w[core[j]] if j >= 0 else -1

    def after(i: int) -> int:
        """The class of the first code point after ``i`` that WB4 does not skip (or -1)."""
        j = i + 1
        while j < n and w[j] in _EXFM:
            j += 1
        return w[j] if j < n else -1

    # WB15-16: each core regional indicator's place in its run
    run = [0] * n
    for i in range(n):
        if core[i] == i and w[i] == W_RI:
            run[i] = run[core[i - 1]] + 1 if i and w[core[i - 1]] == W_RI else 1
    starts = [0]
    for i in range(1, n):
        a, b = w[i - 1], w[i]
        if a == W_CR and b == W_LF:
            continue
        if a in (W_CR, W_LF, W_NEWLINE) or b in (W_CR, W_LF, W_NEWLINE):
            starts.append(i)
            continue
        if a == W_ZWJ and props[i][4] & F_EP:
            continue  # WB3c
        if a == W_WSEGSPACE and b == W_WSEGSPACE:
            continue  # WB3d
        if a in (W_KANJI, W_KATAKANA) and b in (W_KANJI, W_KATAKANA):
            continue  # ICU: kana and Han side by side, for its dictionary to divide
        if b in _EXFM:
            continue  # WB4
        left = w[core[i - 1]]  # WB4: what the run before stands for
        if left == W_HANGUL or b == W_HANGUL:
            # ICU: a Hangul syllable joins the next only directly, and no letter
            if not (a == W_HANGUL and b == W_HANGUL):
                starts.append(i)
            continue
        if left == W_RI and b == W_RI:
            if run[core[i - 1]] % 2 == 0:
                starts.append(i)
            continue
        if not _joins_word(left, b, before(i - 1), after(i)):
            starts.append(i)
    _dictionary_refused(w, [p[4] for p in props], cps, starts)
    ideo = [bool(p[4] & (F_IDEO | F_HIRA)) for p in props]
    return starts, _word_like(w, core, starts, ideo)


def _joins_word(left: int, b: int, before: int, after: int) -> bool:
    if left in _AHLETTER and b in _AHLETTER:
        return True  # WB5
    if left in _AHLETTER and b in _MIDLETTERQ and after in _AHLETTER:
        return True  # WB6
    if left in _MIDLETTERQ and before in _AHLETTER and b in _AHLETTER:
        return True  # WB7
    if left == W_HEBREW and b == W_SQ:
        return True  # WB7a
    if left == W_HEBREW and b == W_DQ and after == W_HEBREW:
        return True  # WB7b
    if left == W_DQ and before == W_HEBREW and b == W_HEBREW:
        return True  # WB7c
    if left == W_NUMERIC and b == W_NUMERIC:
        return True  # WB8
    if left in _AHLETTER and b == W_NUMERIC:
        return True  # WB9
    if left == W_NUMERIC and b in _AHLETTER:
        return True  # WB10
    if left in _MIDNUMQ and before == W_NUMERIC and b == W_NUMERIC:
        return True  # WB11
    if left == W_NUMERIC and b in _MIDNUMQ and after == W_NUMERIC:
        return True  # WB12
    if left == W_KATAKANA and b == W_KATAKANA:
        return True  # WB13
    if left in (W_ALETTER, W_HEBREW, W_NUMERIC, W_KATAKANA, W_ENL) and b == W_ENL:
        return True  # WB13a
    return left == W_ENL and b in (W_ALETTER, W_HEBREW, W_NUMERIC, W_KATAKANA)  # WB13b


def _word_like(w: list[int], core: list[int], starts: list[int], ideo: list[bool]) -> list[bool]:
    """Each word's status, as ICU gives it: the word ends in a letter, a number or an
    ideograph (what follows it folded in by WB4), or in a connector (ExtendNumLet, or the
    apostrophe after a Hebrew letter) joined to one with nothing after it; a Hangul syllable
    counts only with nothing after it; an ideograph (or Hiragana) WB4 folds in counts too.
    Anything else (a space, a mark, punctuation, an emoji, a Han radical) is not word-like."""
    out = []
    n = len(w)
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else n
        last = e - 1
        c = core[last]
        if any(ideo[max(c, s) : e]):
            out.append(True)
        elif c < s:  # Extend, Format or ZWJ alone at the start of the text or after a break
            out.append(False)
        elif w[c] in (W_HANGUL, W_ENL, W_SQ):
            out.append(last == c and (w[c] == W_HANGUL or c > s))
        else:
            out.append(w[c] in _WORDLIKE)
    return out


def _sentences(cps: list[int], greek: bool = False) -> list[int]:
    """The offsets where a sentence starts (SB3-SB998), in one pass; Greek's rules (ICU's
    tailoring for el) end a sentence at a semicolon or a Greek question mark too."""
    s = [_props(c)[3] for c in cps]
    if greek:
        s = [S_STERM if c in (0x3B, 0x37E) else k for c, k in zip(cps, s, strict=True)]
    n = len(s)
    para = (S_SEP, S_CR, S_LF)
    skip = (S_EXTEND, S_FORMAT)
    # SB8's look ahead: the first letter, terminator or separator at or after each place
    ahead = [-1] * (n + 1)
    for i in range(n - 1, -1, -1):
        ahead[i] = s[i] if s[i] not in _SB8_THROUGH else ahead[i + 1]
    starts = [0]
    # what the core characters so far end in (SB5 folds Extend and Format into what they
    # follow; at the start and after a separator they stand for themselves): a terminator,
    # then Close*, then Sp* (``term`` 0: none); ``bare``: the terminator is the last of them
    term, spaced, bare, before_term, last = 0, False, False, -1, -1
    for i in range(n):
        a, b = s[i - 1] if i else -1, s[i]
        sb8 = term == S_ATERM and ahead[i] == S_LOWER
        if i and a in para and not (a == S_CR and b == S_LF):
            starts.append(i)  # SB4 (SB3 keeps CR LF)
        elif (
            term
            and b not in skip
            and not sb8
            and _sentence_ends(b, term, spaced, bare, before_term)
        ):
            starts.append(i)
        if b in skip and i and a not in para:
            continue  # SB5: folded into what it follows
        if b in (S_ATERM, S_STERM):
            term, spaced, bare, before_term = b, False, True, last
        elif term and b == S_CLOSE and not spaced:
            bare = False
        elif term and b == S_SP:
            spaced, bare = True, False
        else:
            term = 0
        last = b
    return starts


#: what SB8 looks through for a lower-case letter (all but letters, terminators, separators)
_SB8_THROUGH: Final = frozenset(range(15)) - {
    S_OLETTER, S_UPPER, S_LOWER, S_SEP, S_CR, S_LF, S_ATERM, S_STERM
}  # fmt: skip


def _sentence_ends(b: int, term: int, spaced: bool, bare: bool, before_term: int) -> bool:
    """SB6-SB11 before a code point of class ``b`` after a terminator ``term`` (then Close*,
    then Sp* when ``spaced``; ``bare``: nothing after it), once SB8's look ahead is known
    not to find a lower-case letter."""
    if term == S_ATERM and bare:
        if b == S_NUMERIC:
            return False  # SB6
        if b == S_UPPER and before_term in (S_UPPER, S_LOWER):
            return False  # SB7
    if b in (S_SCONTINUE, S_STERM, S_ATERM):
        return False  # SB8a
    if not spaced and b in (S_CLOSE, S_SP, S_SEP, S_CR, S_LF):
        return False  # SB9
    return b not in (S_SP, S_SEP, S_CR, S_LF)  # SB10, else SB11


def _code_points(text: str) -> list[int]:
    return [ord(c) for c in text]


class Segments(JsObject):
    """What ``segment(text)`` gives: iterable, with ``containing(index)``."""

    __slots__ = ("_found", "granularity", "tailoring", "text")

    def __init__(self, granularity: str, text: str, tailoring: str) -> None:
        self.granularity = granularity
        self.text = text
        self.tailoring = tailoring
        self._found: list[dict[str, Any]] | None = None

    def __repr__(self) -> str:
        return "[object Object]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object Object]"

    def js_iter(self) -> list[Any]:
        return [dict(x) for x in self.found()]

    def js_get(self, key: str) -> Any:
        if key == "containing":
            return JsFunction(key, self.containing, arity=1)
        from flowctx_core.expressions.js.common import LENT

        return LENT["object_proto"](self, key)

    def containing(self, index: Any = UNDEFINED, *_: Any) -> Any:
        n = to_int(index)
        text = self.text
        if n < 0 or n >= utf16_length(text):
            return UNDEFINED
        for item in self.found():
            if item["index"] + utf16_length(item["segment"]) > n:
                return dict(item)
        return UNDEFINED  # unreachable: the segments cover the text

    def found(self) -> list[dict[str, Any]]:
        if self._found is None:
            self._found = segment(self.granularity, self.text, self.tailoring)
        return self._found


def segment(granularity: str, text: str, tailoring: str = "") -> list[dict[str, Any]]:
    """The segments of ``text``, each ``{segment, index, input}`` (and ``isWordLike`` for
    words), as node lists them; ``index`` counts UTF-16 code units. ``tailoring``: ICU's own
    rules of a locale ("el": Greek's sentences, "posix": en_US_POSIX's words)."""
    if not text:
        return []
    charge(ELEMENT * len(text) * 4)
    cps = _code_points(text)
    like: list[bool] | None = None
    if granularity == "grapheme":
        starts = _graphemes(cps)
    elif granularity == "word":
        starts, like = _words(cps, tailoring == "posix")
    else:
        starts = _sentences(cps, tailoring == "el")
    out: list[dict[str, Any]] = []
    unit = 0
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(cps)
        piece = text[s:e]
        item: dict[str, Any] = {"segment": piece, "index": unit, "input": text}
        if like is not None:
            item["isWordLike"] = like[k]
        out.append(item)
        unit += utf16_length(piece)
    return out


class Segmenter(IntlObject):
    tag = "Segmenter"
    __slots__ = ("o",)

    def __init__(self, options: dict[str, Any]) -> None:
        self.o = options

    def member(self, key: str) -> Any:
        if key == "segment":
            return JsFunction(key, lambda v=UNDEFINED, *_: self.segment(v), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def segment(self, value: Any) -> Segments:
        text = to_string(value)
        granularity, locale = self.o["granularity"], self.o["locale"]
        tailoring = ""
        if granularity == "word" and _POSIX.match(locale):
            tailoring = "posix"  # en-US-u-va-posix is ICU's en_US_POSIX
        elif granularity == "sentence" and locale.split("-")[0] == "el":
            tailoring = "el"
        return Segments(granularity, text, tailoring)


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> Segmenter:
    requested = canonical_list(locales)
    if options is not UNDEFINED and typeof(options) not in ("object", "function"):
        raise JsError("invalid_argument")
    if options is None:
        raise JsError("invalid_argument")
    get_option(options, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    locale = resolve("segmenter", requested)
    granularity = get_option(options, "granularity", "string", _GRANULARITIES, "grapheme", SERVICE)
    return Segmenter({"locale": locale, "granularity": granularity})
