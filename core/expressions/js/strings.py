"""JavaScript's string methods, over the values of ``flowctx_core.expressions.js.values``."""

from __future__ import annotations

import bisect
import functools
import math
import unicodedata
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import BUDGET, charge
from flowctx_core.expressions.js.common import Unsupported, _relative
from flowctx_core.expressions.js.localecase import js_lower, js_upper, locale_lower, locale_upper
from flowctx_core.expressions.js.unicategory import category as js_category
from flowctx_core.expressions.js.unicodenorm import canonical_order, js_normalize
from flowctx_core.expressions.js.values import (
    ELEMENT,
    JS_WHITESPACE,
    MAX_STRING_LENGTH,
    NODE_MAX_STRING,
    UNDEFINED,
    JsError,
    JsFunction,
    from_units,
    number_to_string,
    to_int,
    to_number,
    to_string,
    to_uint32,
    to_units,
    too_long,
)

# --- string methods ------------------------------------------------------------------------


def _str_at(s: str, i: Any = UNDEFINED, *_: Any) -> Any:
    u = to_units(s)
    n = to_int(i)
    n = n + len(u) if n < 0 else n
    return u[int(n)] if 0 <= n < len(u) else UNDEFINED


def _str_char_at(s: str, i: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    n = to_int(i)
    return u[int(n)] if 0 <= n < len(u) else ""


def _str_char_code_at(s: str, i: Any = UNDEFINED, *_: Any) -> int | float:
    u = to_units(s)
    n = to_int(i)
    return ord(u[int(n)]) if 0 <= n < len(u) else math.nan


def _str_code_point_at(s: str, i: Any = UNDEFINED, *_: Any) -> Any:
    u = to_units(s)
    n = to_int(i)
    if not 0 <= n < len(u):
        return UNDEFINED
    n = int(n)
    first = ord(u[n])
    if 0xD800 <= first <= 0xDBFF and n + 1 < len(u) and 0xDC00 <= ord(u[n + 1]) <= 0xDFFF:
        return 0x10000 + ((first - 0xD800) << 10) + ord(u[n + 1]) - 0xDC00
    return first


def _str_concat(s: str, *args: Any) -> str:
    out = s
    for a in args:
        text = to_string(a)
        if len(out) + len(text) > MAX_STRING_LENGTH:
            raise too_long(len(out) + len(text))
        out = from_units(out + text)
    return out


def _no_regexp(search: Any, method: str) -> str:
    return to_string(search)


def _str_includes(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> bool:
    u = to_units(s)
    return to_units(_no_regexp(search, "includes")) in u[_relative_pos(position, len(u)) :]


def _relative_pos(v: Any, length: int) -> int:
    if v is UNDEFINED:
        return 0
    return int(min(max(to_int(v), 0), length))


def _str_starts(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> bool:
    u = to_units(s)
    return u.startswith(to_units(to_string(search)), _relative_pos(position, len(u)))


def _str_ends(s: str, search: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> bool:
    u = to_units(s)
    stop = len(u) if end is UNDEFINED else _relative_pos(end, len(u))
    return u[:stop].endswith(to_units(to_string(search)))


def _str_index_of(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> int:
    u = to_units(s)
    return u.find(to_units(to_string(search)), _relative_pos(position, len(u)))


def _str_last_index_of(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED, *_: Any) -> int:
    u, needle = to_units(s), to_units(to_string(search))
    pos = to_number(position)
    start = len(u) if pos != pos else int(min(max(to_int(pos), 0), len(u)))
    return u.rfind(needle, 0, start + len(needle))


# localeCompare: node 20 compares with ICU's root collation (the CLDR order of en-US). flowctx
# carries no ICU; this is the part of the Unicode Collation Algorithm such conditions meet:
# three levels (base characters, then accents, then case with lowercase first), each
# character of its own weighed where node puts it (generated from node into ``collation.py``:
# punctuation, symbols, spaces and controls before digits, the letters of every script of the
# BMP, Han by radical and strokes, then lone surrogates, unassigned code points, U+FFFD and
# U+FFFF), the others by their decomposition (é as e and an accent), digits of any script by
# value, expansions (ß as ss, æ as ae, ligatures and digraphs by their compatibility
# decomposition) that differ from their spelled-out form at the third level, letters node weighs
# apart from their decomposition (й, أ: intl/rootorder.py), Han of every plane by radical and
# strokes (intl/tables/han.json.gz), supplementary code points node leaves unassigned by code
# point. Refused, not reproduced: supplementary code points Python's Unicode leaves unassigned
# and node's does not (their place in node's order).
_EXPANSIONS: Final = {"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                      "ø": "o\u0338", "Ø": "O\u0338", "ı": "i", "ς": "σ"}  # fmt: skip
#: the expansions node tells from their spelling at the second level (ß from ss; the capital ẞ
#: is ß's uppercase there, not SS: ß < ẞ < SS with an accent)
_SPELLED_APART: Final = frozenset("ßẞæÆœŒ")
_SECONDARY_BASE: Final = 0
_VARIANT: Final = 0x110000  # a letter's variant of its own (đ), after its accents
_PUNCT: Final = 1_000
_DIGIT: Final = 100_000
_LETTER: Final = 200_000
_HAN: Final = _LETTER + 0x200000
_TAIL: Final = _HAN + 0x300000
_AFTER_UNASSIGNED: Final = 0x110000  # U+FFFD and U+FFFF come after every code point


#: a character's weights: its primary, its place at the second level among the characters of
#: that primary, and at the third among those of that second
Weight = tuple[int, int, int]


def _load(weights: dict[str, Weight], zone: str, band: int) -> None:
    from flowctx_core.expressions.js import collation

    runs: tuple[int, ...] = getattr(collation, zone)
    second = frozenset(getattr(collation, f"{zone}_SECOND"))
    third = frozenset(getattr(collation, f"{zone}_THIRD"))
    same = frozenset(getattr(collation, f"{zone}_SAME"))
    index = p = s = t = 0
    for start, count in zip(runs[::2], runs[1::2], strict=True):
        for cp in range(start, start + count):
            if index in same:
                pass
            elif index in second:
                s, t = s + 1, 0
            elif index in third:
                t += 1
            else:
                p, s, t = p + 1, 0, 0
            weights[chr(cp)] = (band + p, s, t)
            index += 1


def _runs(runs: tuple[int, ...]) -> frozenset[str]:
    return frozenset(
        chr(cp)
        for start, count in zip(runs[::2], runs[1::2], strict=True)
        for cp in range(start, start + count)
    )


@functools.cache
def _accents() -> frozenset[str]:
    """The characters that weigh at the second level only, as node's Unicode has them."""
    from flowctx_core.expressions.js import collation

    return _runs(collation.ACCENTS)


@functools.cache
def _generated() -> tuple[dict[str, Weight], frozenset[str], dict[str, str]]:
    """The weights generated from node; the characters that weigh nothing; the letters that
    are two letters at the first level (spelled out)."""
    from flowctx_core.expressions.js import collation

    weights: dict[str, Weight] = {}
    _load(weights, "BEFORE_DIGITS", _PUNCT)
    _load(weights, "LETTERS", _LETTER)
    _load(weights, "AFTER_LETTERS", _TAIL)
    for last in ("\ufffd", "\uffff"):  # room before them for the unassigned supplementary
        p, sec, t = weights[last]
        weights[last] = (p + _AFTER_UNASSIGNED, sec, t)
    ignorable = _runs(collation.IGNORABLE)
    spelled = collation.LATIN_EXPANSIONS
    expansions = {}
    for cp, first, second in zip(spelled[::3], spelled[1::3], spelled[2::3], strict=True):
        text = chr(first) + chr(second)
        expansions[chr(cp)] = text.upper() if chr(cp).isupper() else text
    expansions.update(_EXPANSIONS)
    from flowctx_core.expressions.js.intl.rootorder import add_contractions

    add_contractions(weights)  # й, أ...: letters of their own, not a letter and a mark
    return weights, ignorable, expansions


@functools.cache
def _han_runs() -> tuple[list[int], list[int], list[int]]:
    """The measured Han order (scripts/intl_han.mjs: the BMP's and the supplementary planes'
    ideographs, which node interleaves by radical) as runs sorted by code point: each run's
    first code point, its length and the rank of its first character (looked up by
    bisection: 102,000 characters in 20,700 runs)."""
    from flowctx_core.expressions.js import intl

    order = intl.service("data").table("hanOrder")
    runs, rank = [], 0
    for start, count in zip(order[::2], order[1::2], strict=True):
        runs.append((start, count, rank))
        rank += count
    runs.sort()
    return [r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs]


@functools.cache
def _unassigned_runs() -> tuple[list[int], list[int]]:
    from flowctx_core.expressions.js import intl

    runs = intl.service("data").table("unassigned")
    return list(runs[::2]), list(runs[1::2])


def _unassigned(cp: int) -> bool:
    """Whether node's Unicode leaves this supplementary code point unassigned."""
    starts, counts = _unassigned_runs()
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp < starts[i] + counts[i]


def _han(cp: int) -> int | None:
    """A Han character's primary: its rank in node's order (radical and strokes), the BMP's
    (and the radicals among them) and the supplementary planes' ideographs together."""
    if not (0x2E80 <= cp <= 0xFAFF or 0x20000 <= cp <= 0x3FFFF):
        return None
    starts, counts, ranks = _han_runs()
    i = bisect.bisect_right(starts, cp) - 1
    if i >= 0 and cp < starts[i] + counts[i]:
        return _HAN + ranks[i] + cp - starts[i]
    return None


def _primary(c: str) -> Weight | None:
    """The weights of one base character (None: ignorable)."""
    weights, ignorable, _ = _generated()
    found = weights.get(c)
    if found is not None:
        return found
    if c in ignorable or c in _accents():
        return None
    han = _han(ord(c))
    if han is not None:
        return han, 0, 0
    if c.isascii():
        if c.isdigit():
            return _DIGIT + ord(c) - ord("0"), 0, 0
        return None
    category = unicodedata.category(c)
    if category in ("Cc", "Cf", "Mn", "Me"):
        return None
    if category == "Nd":
        return _DIGIT + unicodedata.digit(c), 0, 0
    if category == "Cn" and ord(c) > 0xFFFF:
        if _unassigned(ord(c)):
            # unassigned to node too: by code point, after the BMP's, before U+FFFD
            return weights["\ufffd"][0] - _AFTER_UNASSIGNED + ord(c), 0, 0
        # unassigned to Python's Unicode, not to node's (newer): its place is node's own
        raise Unsupported("flowctx does not reproduce the order of this supplementary code point")
    if category.startswith("L"):
        # beyond the generated BMP: by code point, after its letters, before Han
        return _LETTER + 100_000 + ord(c.lower()[0]), 0, 1 if c.isupper() else 0
    return _PUNCT + 100_000 + ord(c), 0, 0  # a symbol newer than the generated order


Key = tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...]]


_KEYS: dict[tuple[str, bool], Key] = {}
#: the characters ignorePunctuation leaves out (ICU's variable ones: spaces, punctuation and the
#: whitespace controls), wherever they stand, in a compatibility form's parts too (⒦ is (k))
_SHIFTED: Final = frozenset(("Zs", "Zl", "Zp", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"))
_SHIFTED_CONTROLS: Final = frozenset("\t\n\x0b\x0c\r\x85")


def variable(c: str) -> bool:
    """Whether ignorePunctuation (ICU's alternate shifted) leaves ``c`` out."""
    # node's categories: punctuation newer than Python's tables (U+1B4E...) is left out too
    return c in _SHIFTED_CONTROLS or js_category(c) in _SHIFTED


def _collation_key(s: str, shifted: bool = False) -> Key:
    """The key, charged what it costs: about 0.75 us a character to build; a short string's
    is remembered (a sort's comparator asks for each string's again and again); a comparison
    of two remembered keys, with the method's call around it, measured 6 us in a comparator
    (charged 30 steps for the call, so 20 for each key)."""
    found = _KEYS.get((s, shifted))
    if found is not None:
        charge(5 * ELEMENT)
        return found
    charge(ELEMENT * 3 * (len(s) + 1))
    key = _build_key(s, shifted)
    if len(s) <= 64:
        if len(_KEYS) >= 4096:
            _KEYS.clear()
        _KEYS[s, shifted] = key
    return key


@functools.cache
def _variant_accents() -> dict[str, float]:
    from flowctx_core.expressions.js.intl.data import table

    found: dict[str, float] = table("variantAccents")
    return found


@functools.cache
def _tertiary_ranks() -> dict[str, int]:
    from flowctx_core.expressions.js.intl.data import table

    found: dict[str, int] = table("tertiaryRanks")
    return found


def _build_key(s: str, shifted: bool = False) -> Key:
    primary: list[int] = []
    secondary: list[float] = []
    tertiary: list[int] = []
    weights, ignorable, expansions = _generated()
    from flowctx_core.expressions.js.intl.rootorder import (
        EXPANSION_ACCENT,
        accent_weight,
        composed,
    )

    # ICU weighs a string's marks in canonical order (U+0670 U+064B as U+064B U+0670)
    for ch in composed(canonical_order(s)):
        variant = 0
        own = weights.get(ch)  # a letter or symbol of its own in node's order
        text = None if own is not None else expansions.get(ch)
        # where an expansion node tells from its spelling (ß, æ, œ) starts in ``text``
        apart: tuple[int, ...] = ()
        if own is not None or ch in _accents():
            # a letter or symbol of its own, or what weighs at the second level only (an
            # accent, and ﹰ, which node weighs as its mark alone, not a space and the mark)
            text = ch
        elif text is not None:
            variant = 2
            apart = (0,) if ch in _SPELLED_APART else ()
        else:
            # node's decompositions: ꟱ (U+A7F1, newer than Python's tables) is a form of S
            text = js_normalize(ch, "NFKD")
            if text != js_normalize(ch, "NFD"):
                variant = 2  # a compatibility form (ligature, digraph): third-level difference
            if any(c in expansions and c not in weights for c in text):
                # ǽ: æ and an accent, æ as ae (but ǿ is ø, a letter of its own, and an accent)
                spelled, marks = "", []
                for c in text:
                    if c in _SPELLED_APART:  # ǽ is æ's ae, apart from ae, then its accent
                        marks.append(len(spelled))
                    spelled += c if c in weights else expansions.get(c, c)
                # a compatibility form of an expansion (ᴭ) comes after the expansion (Æ)
                variant = 4 if variant else 2
                text, apart = spelled, tuple(marks)
        for at, c in enumerate(text):
            if shifted and variable(c):
                continue
            weight = _primary(c)
            if weight is None:
                if c in _accents() or (
                    c not in ignorable and unicodedata.category(c) in ("Mn", "Me")
                ):
                    secondary.append(accent_weight(c))  # an accent: second level only
                continue
            primary.append(weight[0])
            secondary.append(_SECONDARY_BASE)
            if at in apart:
                secondary.append(EXPANSION_ACCENT)  # ß is ss apart at the second level
            if weight[1]:
                # đ: d, then its stroke at the second level, among the accents where node's
                # root order puts it (ø before ō), else after them
                placed = _variant_accents().get(c)
                secondary.append(_VARIANT + weight[1] if placed is None else placed)
            # a letter's forms apart at the third level only (a, ａ, A, ª, ᴬ) in node's order
            ranked = _tertiary_ranks().get(ch) if len(text) == 1 else None
            tertiary.append(variant + weight[2] if ranked is None else ranked)
    return tuple(primary), tuple(secondary), tuple(tertiary)


def _environment_locale() -> bool:
    """Whether node's default locale is the environment's, not en-US (LANG=sv_SE.UTF-8 makes
    localeCompare Swedish's): Intl.Collator's then."""
    from flowctx_core.expressions.js.intl.locales import DEFAULT, default_locale

    return default_locale() != DEFAULT


def _str_locale_compare(
    s: str, other: Any = UNDEFINED, locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> int:
    if locales == "":
        from flowctx_core.expressions.js.intl.locales import refuse_cached_empty

        to_string(other)  # the other string is converted first
        refuse_cached_empty(locales, options, "String.prototype.localeCompare")
    if locales is not UNDEFINED or options is not UNDEFINED or _environment_locale():
        from flowctx_core.expressions.js import intl

        order: int = intl.service("collator").locale_compare(s, other, locales, options)
        return order
    a, b = _collation_key(s), _collation_key(to_string(other))
    return -1 if a < b else (1 if a > b else 0)


def locale_compare(a: str, b: str) -> int:
    """``a.localeCompare(b)`` as node 20 answers it (-1, 0 or 1): sorting step names, as
    MemberJunction's flow agents sort their starting steps."""
    return _str_locale_compare(a, b)


def _str_normalize(s: str, form: Any = UNDEFINED, *_: Any) -> str:
    f = "NFC" if form is UNDEFINED else to_string(form)
    if f not in ("NFC", "NFD", "NFKC", "NFKD"):
        raise JsError("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
    if not s.isascii():
        _normalized_fits(s, f)
    return js_normalize(s, f)  # type: ignore[arg-type]  # checked just above


#: characters normalised at a time while measuring: one character decomposes to at most 18
#: (U+FDFA under NFKD), so a piece never builds more than ~74,000 characters
_NORMALIZE_PIECE = 4096


def _normalized_fits(s: str, form: str) -> None:
    """Refuse, before building it, a normalisation longer than the string limit.

    A 100,000-character string of U+FDFA became 1.8 million under NFKD. The decomposed length
    (NFD or NFKD) is the same piece by piece as whole (reordering marks keeps the length) and
    bounds the composed forms too, so it is measured one piece at a time and the real call is
    made only when the result fits.
    """
    decompose = "NFKD" if form.startswith("NFK") else "NFD"
    total = 0
    for i in range(0, len(s), _NORMALIZE_PIECE):
        piece = js_normalize(s[i : i + _NORMALIZE_PIECE], decompose)  # type: ignore[arg-type]
        total += len(piece.encode("utf-16-le", "surrogatepass")) // 2
        if total > MAX_STRING_LENGTH:
            raise too_long()


def _pad(s: str, length: Any, fill: Any, at_start: bool) -> str:
    u = to_units(s)
    target = to_int(length)
    filler = " " if fill is UNDEFINED else to_units(to_string(fill))
    if target <= len(u) or not filler:
        return s
    if target > MAX_STRING_LENGTH:
        raise too_long(int(min(target, NODE_MAX_STRING + 1)))  # Infinity: node's RangeError
    need = int(target) - len(u)
    pad = (filler * (need // len(filler) + 1))[:need]
    return from_units(pad + u if at_start else u + pad)


def _str_pad_start(s: str, length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    return _pad(s, length, fill, True)


def _str_pad_end(s: str, length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    return _pad(s, length, fill, False)


def _str_repeat(s: str, count: Any = UNDEFINED, *_: Any) -> str:
    n = to_int(count)
    if n < 0 or n == math.inf:
        raise JsError(f"Invalid count value: {number_to_string(to_number(count))}")
    if not s:
        return ""  # ''.repeat(1e300) is '' (no string of 1e300 copies is ever built)
    if len(s) * n > MAX_STRING_LENGTH:
        raise too_long(int(len(s) * n))
    charge(int(len(s) * n) >> 3)
    return s * int(n)


def _substitute(rep: str, matched: str, before: str, after: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(rep):
        dollar = rep.find("$", i)
        if dollar < 0 or dollar + 1 >= len(rep):
            out.append(rep[i:])  # a run without a '$' is copied at once, not char by char
            break
        out.append(rep[i:dollar])
        nxt = rep[dollar + 1]
        if nxt == "$":
            out.append("$")
        elif nxt == "&":
            out.append(matched)
        elif nxt == "`":
            out.append(before)
        elif nxt == "'":
            out.append(after)
        else:
            out.append("$")
            i = dollar + 1
            continue
        i = dollar + 2
    return "".join(out)


def replacement_cost(rep: str, piece: str) -> int:
    """What one replacement costs the budget: the match's bookkeeping, one step per ``$``
    pattern the substitution reads in Python, and the piece's characters it copies."""
    return ELEMENT + rep.count("$") + len(piece) // 8


def _replace(s: str, pattern: Any, replacement: Any, every: bool) -> str:
    pat = to_units(to_string(pattern))
    u = to_units(s)
    positions: list[int] = []
    at = u.find(pat)
    while at >= 0:
        charge(ELEMENT)  # each position found, as it is found (a million of them is work)
        positions.append(at)
        if not every:
            break
        at = u.find(pat, at + max(len(pat), 1))
        if not pat and at > len(u):
            break
    if not positions:
        return s
    out: list[str] = []
    last = 0
    total = 0  # the length so far, so the result is refused before it is built
    rep = "" if type(replacement) is JsFunction else to_units(to_string(replacement))
    plain = "$" not in rep
    for at in positions:
        out.append(u[last:at])
        if type(replacement) is JsFunction:
            piece = to_units(to_string(replacement.fn(from_units(pat), at, s)))
        elif plain:
            piece = rep
        else:
            piece = _substitute(rep, pat, u[:at], u[at + len(pat) :])
        charge(replacement_cost(rep, piece))
        out.append(piece)
        total += at - last + len(piece)
        last = at + len(pat)
        if total > MAX_STRING_LENGTH:
            raise too_long()
    if total + len(u) - last > MAX_STRING_LENGTH:
        raise too_long()
    out.append(u[last:])
    return from_units("".join(out))


def _str_replace(s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any) -> str:
    return _replace(s, pattern, replacement, False)


def _str_replace_all(
    s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any
) -> str:
    return _replace(s, pattern, replacement, True)


def _str_slice(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a, b = _relative(start, len(u), 0), _relative(end, len(u), len(u))
    return from_units(u[a:b]) if a < b else ""


def _str_substring(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a = _relative_pos(start, len(u))
    b = len(u) if end is UNDEFINED else _relative_pos(end, len(u))
    a, b = min(a, b), max(a, b)
    return from_units(u[a:b])


def _str_substr(s: str, start: Any = UNDEFINED, length: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a = _relative(start, len(u), 0)
    n = len(u) - a if length is UNDEFINED else int(min(max(to_int(length), 0), len(u) - a))
    return from_units(u[a : a + n]) if n > 0 else ""


def _str_split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED, *_: Any) -> list[str]:
    lim = 2**32 - 1 if limit is UNDEFINED else to_uint32(limit)  # ToUint32(Infinity) is 0
    # ToString(separator) comes before the zero limit's early return (its error too)
    sep_text = None if sep is UNDEFINED else to_string(sep)
    if lim == 0:
        return []
    if sep_text is None:
        return [s]
    u, sep_u = to_units(s), to_units(sep_text)
    count = len(u) if sep_u == "" else u.count(sep_u) + 1  # counted before the parts are built
    if count > MAX_STRING_LENGTH:
        raise JsError(f"split() result too long (over {MAX_STRING_LENGTH:,} parts; {BUDGET})")
    charge(ELEMENT * min(count, int(lim)))
    parts = list(u) if sep_u == "" else u.split(sep_u)
    return [from_units(p) for p in parts[: int(lim)]]


def _str_lower(s: str, *_: Any) -> str:
    return js_lower(s)


def _str_upper(s: str, *_: Any) -> str:
    return js_upper(s)


def _str_trim(s: str, *_: Any) -> str:
    return s.strip(JS_WHITESPACE)


def _str_trim_start(s: str, *_: Any) -> str:
    return s.lstrip(JS_WHITESPACE)


def _str_trim_end(s: str, *_: Any) -> str:
    return s.rstrip(JS_WHITESPACE)


def _str_self(s: str, *_: Any) -> str:
    return s


def _str_well_formed(s: str, *_: Any) -> bool:
    charge(ELEMENT * len(s))
    return not any("\ud800" <= c <= "\udfff" for c in s)


def _str_to_well_formed(s: str, *_: Any) -> str:
    charge(ELEMENT * len(s))
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)


def _needs_regexp(method: str) -> Callable[..., Any]:
    def refuse(s: str, *_: Any) -> Any:
        raise Unsupported(
            f"flowctx does not reproduce String.prototype.{method} (regular expressions)"
        )

    return refuse


STRING_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "at": _str_at,
    "charAt": _str_char_at,
    "charCodeAt": _str_char_code_at,
    "codePointAt": _str_code_point_at,
    "concat": _str_concat,
    "endsWith": _str_ends,
    "includes": _str_includes,
    "indexOf": _str_index_of,
    "isWellFormed": _str_well_formed,
    "lastIndexOf": _str_last_index_of,
    "localeCompare": _str_locale_compare,
    "match": _needs_regexp("match"),
    "matchAll": _needs_regexp("matchAll"),
    "normalize": _str_normalize,
    "padEnd": _str_pad_end,
    "padStart": _str_pad_start,
    "repeat": _str_repeat,
    "replace": _str_replace,
    "replaceAll": _str_replace_all,
    "search": _needs_regexp("search"),
    "slice": _str_slice,
    "split": _str_split,
    "startsWith": _str_starts,
    "substr": _str_substr,
    "substring": _str_substring,
    "toLocaleLowerCase": locale_lower,
    "toLocaleUpperCase": locale_upper,
    "toLowerCase": _str_lower,
    "toString": _str_self,
    "toUpperCase": _str_upper,
    "toWellFormed": _str_to_well_formed,
    "trim": _str_trim,
    "trimEnd": _str_trim_end,
    "trimLeft": _str_trim_start,
    "trimRight": _str_trim_end,
    "trimStart": _str_trim_start,
    "valueOf": _str_self,
}
