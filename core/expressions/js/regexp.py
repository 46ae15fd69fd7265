"""JavaScript regular expressions (literals, ``RegExp``, and the string methods that take one),
matched by ``regress``, a Rust implementation of ECMAScript's regular expressions: ``\\d``,
``\\w``, ``\\b``, ``$``, case folding, named groups, lookbehind and the ``v`` flag's sets are
ECMAScript's, never Python's ``re``.

``regress`` reads UTF-8 text, JavaScript UTF-16 code units. Without the ``u``/``v`` flag a
JavaScript pattern sees code units, so the text and the pattern are rewritten one unit per
character: each surrogate (of a pair or lone) becomes a character of plane 15 that no text can
hold after the rewrite (every astral character was split into surrogates first), so ``.``
matches half a pair and ``/^.$/.test('😀')`` is false, as in node. With ``u``/``v`` the text is
read by code points, as JavaScript does.

Matching is bounded by a pre-screen, not a step counter (``regress`` offers none): before a
match the worst case of the pattern's backtracking on the text is estimated (repeats nested in
repeats: exponential in the text's length; otherwise polynomial, one degree per repeat) and
charged to the evaluation budget, so a match that could run past it is refused before it
starts, with a message that says the bound is flowctx's and node would go on.
"""

from __future__ import annotations

import bisect
import functools
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from flowctx_core.base.lazyre import pattern
from flowctx_core.expressions.budget import (
    BUDGET,
    STEP_SECONDS,
    BudgetExceeded,
    charge,
    remaining_seconds,
    remaining_steps,
)
from flowctx_core.expressions.js import common
from flowctx_core.expressions.js.common import LENT, HostString, Unsupported
from flowctx_core.expressions.js.regexcost import min_width, worst_steps
from flowctx_core.expressions.js.regexsyntax import (
    named_groups,
    named_references,
    v8_syntax_error,
)
from flowctx_core.expressions.js.regexsyntax import structural as _structural
from flowctx_core.expressions.js.regexworker import WORKER, TooSlow
from flowctx_core.expressions.js.strings import STRING_METHODS, _replace, replacement_cost
from flowctx_core.expressions.js.values import (
    ELEMENT,
    KEPT,
    LAST_MATCH,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsObject,
    changed_prototype,
    enumerable_props,
    from_units,
    host_refusal,
    same_value,
    shown_value,
    to_int,
    to_string,
    to_units,
    too_long,
)

if TYPE_CHECKING:  # imported with the first pattern compiled, not by a condition without one
    import regress

FLAG_ORDER: Final = "dgimsuvy"  # the order of RegExp.prototype.flags
_FLAG_NAMES: Final = {
    "hasIndices": "d", "global": "g", "ignoreCase": "i", "multiline": "m", "dotAll": "s",
    "unicode": "u", "unicodeSets": "v", "sticky": "y",
}  # fmt: skip
#: regress steps one budget step stands for (measured: ~25 backtracking steps in 70 ns)
_STEPS_PER_CHARGE: Final = 25
_SURROGATE_BASE: Final = 0xF0000 - 0xD800


class RegExpSyntaxError(JsError):
    """V8's SyntaxError for an invalid pattern or flags."""


# --- the pattern ----------------------------------------------------------------------------

_PLAIN_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*"


def _check_flags(flags: str, literal: bool) -> None:
    if (
        any(f not in FLAG_ORDER for f in flags)
        or len(set(flags)) != len(flags)
        or ("u" in flags and "v" in flags)
    ):
        if literal:
            raise RegExpSyntaxError("Invalid regular expression flags")
        # the flags may come from the scope: quoted only where no secret is read
        raise RegExpSyntaxError(
            f"Invalid flags supplied to RegExp constructor '{flags}'",
            anonymous="Invalid flags supplied to RegExp constructor",
        )


# Without u/v, case-insensitive matching compares characters by toUpperCase, and one whose
# uppercase is ASCII or longer than one character matches only itself (ſ is not s, ᾀ not ᾈ,
# and the Kelvin sign K, the ohm Ω and the angstrom Å are not k, ω, å). regress joins these
# with others (in a class by case folding), so each stands for itself as a private-use
# character of plane 16, in the text and in the pattern alike, that no case maps.
_ISOLATED: Final = frozenset(
    [0xDF, 0x131, 0x17F, 0x390, 0x3B0, 0x3F4, 0x1E9E, 0x1FB3, 0x1FBC, 0x1FC3, 0x1FCC,
     0x1FD3, 0x1FE3, 0x1FF3, 0x1FFC, 0x2126, 0x212A, 0x212B, 0xFB05, 0xFB06,
     *range(0x1F80, 0x1FB0)]
)  # fmt: skip
_ISOLATED_BASE: Final = 0x100000
_ISOLATE: Final = {code: chr(_ISOLATED_BASE + code) for code in _ISOLATED}
_ISOLATED_TEXT: Final = "[" + "".join(map(chr, sorted(_ISOLATED))) + "]"
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_CONTROL_ESCAPES: Final = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "0": 0}


def _escape_code(source: str, i: int, in_class: bool) -> tuple[int | None, int]:
    """The character an escape at ``source[i]`` (a backslash) stands for without u/v, or
    None (a class escape, a backreference, an assertion), and the index after it."""
    nxt = source[i + 1]
    if nxt == "u" and set(source[i + 2 : i + 6]) <= _HEX and len(source[i + 2 : i + 6]) == 4:
        return int(source[i + 2 : i + 6], 16), i + 6
    if nxt == "x" and set(source[i + 2 : i + 4]) <= _HEX and len(source[i + 2 : i + 4]) == 2:
        return int(source[i + 2 : i + 4], 16), i + 4
    if nxt in _CONTROL_ESCAPES and not (nxt == "0" and source[i + 2 : i + 3].isdigit()):
        return _CONTROL_ESCAPES[nxt], i + 2
    letter = source[i + 2 : i + 3]
    if (
        nxt == "c"
        and letter.isascii()
        and (letter.isalpha() or (in_class and (letter.isdigit() or letter == "_")))
    ):
        return ord(letter) % 32, i + 3  # in a class a digit or _ too (Annex B)
    if in_class and nxt == "b":
        return 8, i + 2
    if in_class and nxt in "0123456789":
        # a class has no backreferences: without u/v a digit escape in it is Annex B's legacy
        # octal escape (up to three digits, below 0o400: [\01] is U+0001, [\400] a space and
        # a 0) or, for 8 and 9, the digit itself; regress read [\01] as NUL and a 1
        if nxt in "89":
            return ord(nxt), i + 2
        value, j = 0, i + 1
        while j < len(source) and source[j] in "01234567" and value * 8 + int(source[j]) < 256:
            value = value * 8 + int(source[j])
            j += 1
            if j - i > 3:  # three digits at most (\0001 is U+0000 and a 1)
                break
        return value, j
    if nxt.isalnum():
        return None, i + 2
    return ord(nxt), i + 2


def _unit_char(code: int) -> str:
    """One code unit as the one-unit-a-character text holds it."""
    if 0xD800 <= code <= 0xDFFF:
        return chr(code + _SURROGATE_BASE)
    if code in _ISOLATED:
        return _ISOLATE[code]
    return f"\\u{code:04x}" if code < 0x10000 else chr(code)


def _unit_range(low: int, high: int) -> str:
    """The code units low..high as class ranges over that text: the surrogates' stand-ins
    where the range crosses them, the isolated characters' stand-ins on their own."""
    pieces = []
    for a, b in ((low, min(high, 0xD7FF)), (max(low, 0xD800), min(high, 0xDFFF)),
                 (max(low, 0xE000), high)):  # fmt: skip
        if a > b:
            continue
        if a >= 0xD800 and b <= 0xDFFF:  # the surrogates' stand-ins are contiguous
            pieces.append(f"{_unit_char(a)}-{_unit_char(b)}")
            continue
        for x in sorted(_ISOLATED):
            if a <= x <= b:
                if a < x:
                    pieces.append(f"{_unit_char(a)}-{_unit_char(x - 1)}")
                pieces.append(_ISOLATE[x])
                a = x + 1
        if a <= b:
            pieces.append(f"{_unit_char(a)}-{_unit_char(b)}")
    return "".join(pieces)


# The units \W stands for without u/v, spelt out for a class: regress closes a class's \W
# under case folding with i, so ſ (U+017F) and the Kelvin sign in it brought in s, S, k and K
# ([^\W_] missed 'sky'), where JavaScript compares them by toUpperCase and ſ and K match only
# themselves (their stand-ins here, in the range; the characters never reach regress's text).
_NON_WORD_UNITS: Final = "".join(
    _unit_range(a, b)
    for a, b in ((0, 0x2F), (0x3A, 0x40), (0x5B, 0x5E), (0x60, 0x60), (0x7B, 0xFFFF))
)


def _unit_class(source: str, start: int) -> tuple[str, int]:
    """The class opening at ``source[start]`` over the one-unit-a-character text, and the
    index after its closing bracket (ranges split around the surrogates and the isolated
    characters, whose stand-ins are not in the range of their codes)."""
    i, n = start + 1, len(source)
    out = ["["]
    if source[i : i + 1] == "^":
        out.append("^")
        i += 1
    atoms: list[tuple[int | None, str]] = []  # (code unit or None, its text)
    while i < n and source[i] != "]":
        if source[i] == "\\" and i + 1 < n:
            code, after = _escape_code(source, i, True)
            if code is None and source[i + 1] == "c":  # no control letter: a backslash
                code, after = 0x5C, i + 1
            text = _NON_WORD_UNITS if source[i : i + 2] == "\\W" else source[i:after]
            atoms.append((code, text))
            i = after
        else:
            atoms.extend((ord(u), u) for u in to_units(source[i]))
            i += 1
    if i >= n:
        return source[start:], n  # unterminated: regress says so, as V8 does
    k = 0
    while k < len(atoms):
        code, text = atoms[k]
        if k + 2 < len(atoms) and atoms[k + 1][1] == "-" and code is not None:
            high = atoms[k + 2][0]
            if high is not None and code <= high:
                out.append(_unit_range(code, high))
                k += 3
                continue
        out.append(text if code is None or text == "-" else _unit_char(code))
        k += 1
    out.append("]")
    return "".join(out), i + 1


def _unit_pattern(source: str) -> str:
    """The source of a pattern without ``u``/``v`` over the one-unit-a-character text: astral
    characters written in it become their two surrogates, surrogates (written or as
    ``\\uXXXX`` escapes) the plane-15 characters that stand for them, and the characters
    that match only themselves whatever their case their plane-16 stand-ins."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "[":
            text, i = _unit_class(source, i)
            out.append(text)
            continue
        if c == "\\" and i + 1 < n:
            code, after = _escape_code(source, i, False)
            if code is not None and (0xD800 <= code <= 0xDFFF or code in _ISOLATED):
                out.append(_unit_char(code))
            elif code is None and source[i + 1] == "u":
                out.append("u")  # no four digits follow: the letter itself (\u{61} is u{61})
            elif code is None and source[i + 1] == "c":
                out.append("\\\\")  # no control letter follows: a backslash, then the c
                after = i + 1
            else:
                out.append(source[i:after])
            i = after
            continue
        out.append(_isolate(_units_to_chars(to_units(c))))
        i += 1
    return "".join(out)


def _units_to_chars(units: str) -> str:
    if units.isascii():
        return units
    return "".join(chr(ord(c) + _SURROGATE_BASE) if "\ud800" <= c <= "\udfff" else c for c in units)


def _isolate(chars: str) -> str:
    """The text without u/v: each character that matches only itself, as its stand-in."""
    if chars.isascii() or pattern(_ISOLATED_TEXT).search(chars) is None:
        return chars
    return chars.translate(_ISOLATE)


def _chars_to_units(chars: str) -> str:
    if chars.isascii() or max(chars) < "\U000f0000":
        return chars
    return "".join(
        chr(ord(c) - _SURROGATE_BASE) if "\U000f0000" <= c <= "\U000f07ff" else c for c in chars
    )


def _u_escape(source: str, i: int, in_class: bool) -> tuple[int | None, int]:
    """The code point an escape at ``source[i]`` stands for under u/v, or None (a class
    escape, a backreference, an assertion), and the index after it."""
    nxt = source[i + 1]
    if nxt == "u" and source[i + 2 : i + 3] == "{":
        end = source.find("}", i + 3)
        digits = source[i + 3 : end]
        if end > 0 and digits and set(digits) <= _HEX:
            return int(digits, 16), end + 1
        return None, i + 2
    code, after = _escape_code(source, i, in_class)
    if (
        code is not None
        and nxt == "u"
        and 0xD800 <= code <= 0xDBFF
        and source[after : after + 2] == "\\u"
    ):
        low, end = _escape_code(source, after, in_class)  # \uD83D\uDE00 is one code point
        if low is not None and 0xDC00 <= low <= 0xDFFF:
            return 0x10000 + ((code - 0xD800) << 10) + low - 0xDC00, end
    return code, after


def _lone_ranges(source: str, v: bool) -> str:
    """A u/v pattern for a text whose lone surrogates stand as plane-15 characters: a class
    range over surrogates takes their stand-ins too (alongside, or with v as a nested class)."""
    out: list[str] = []
    depth = 0
    low: tuple[int, int] | None = None  # (code, index in out) of the atom before a '-'
    dash = False
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if depth and c == "\\" and source[i + 1 : i + 2] == "q" and v:
            end = source.find("}", i)
            out.append(source[i : end + 1 if end > 0 else n])
            i, low, dash = (end + 1 if end > 0 else n), None, False
            continue
        if c == "\\" and i + 1 < n:
            code, after = _u_escape(source, i, depth > 0)
        elif depth and c in "-&" and v and source[i + 1 : i + 2] == c:
            out.append(source[i : i + 2])  # -- and && are operators with v
            i, low, dash = i + 2, None, False
            continue
        elif c == "[" and (v or not depth):
            depth += 1
            out.append(c)
            i, low, dash = i + 1, None, False
            if source[i : i + 1] == "^":
                out.append("^")
                i += 1
            continue
        elif c == "]" and depth:
            depth -= 1
            out.append(c)
            i, low, dash = i + 1, None, False
            continue
        elif depth and c == "-" and low is not None and not dash:
            out.append(c)
            i, dash = i + 1, True
            continue
        else:
            code, after = ord(c), i + 1
        out.append(source[i:after])
        i = after
        if code is not None and 0xD800 <= code <= 0xDFFF and not dash:
            # a lone surrogate of the pattern (\ud83d) matches the text's lone one, its
            # stand-in: outside a class it is the stand-in, in one the stand-in is added
            # beside it (unless it starts a range: the range takes the stand-ins below)
            stand_in = chr(code + _SURROGATE_BASE)
            if not depth:
                out[-1] = stand_in
            elif not (source[i : i + 1] == "-" and source[i + 1 : i + 2] not in ("]", "-", "")):
                out[-1] = f"[{out[-1]}{stand_in}]" if v else out[-1] + stand_in
        if not depth:
            continue
        if dash and low is not None and code is not None and low[0] <= code:
            a, b = max(low[0], 0xD800), min(code, 0xDFFF)
            if a <= b:
                # the stand-ins as characters: regress reads an escaped surrogate followed
                # by a \\u{...} escape as one pair
                stand = f"{chr(a + _SURROGATE_BASE)}-{chr(b + _SURROGATE_BASE)}"
                if v:
                    out[low[1] :] = ["[" + "".join(out[low[1] :]) + stand + "]"]
                else:
                    out.append(stand)
            low, dash = None, False
            continue
        low, dash = ((code, len(out) - 1) if code is not None else None), False
    return "".join(out)


# What \W stands for with u/v and i: every code point but the word characters and the two
# whose case folding is one (ſ and the Kelvin sign), spelt out because regress's \W in a class
# keeps those two and, closing the class under case folding, brings in s, S, k and K too.
_FOLDED_NON_WORD: Final = (
    "\\x00-\\x2f\\x3a-\\x40\\x5b-\\x5e\\x60\\x7b-\\u017e\\u0180-\\u2129\\u212b-\\u{10ffff}"
)


# \b and \B with v and i, as lookarounds: regress's take ſ and the Kelvin sign for non-word
# characters there (it does not with u), where they are word characters as with u and i.
_FOLDED_WORD: Final = "[\\w\\u017f\\u212a]"
_FOLDED_BOUNDARIES: Final = {
    "\\b": f"(?:(?<={_FOLDED_WORD})(?!{_FOLDED_WORD})|(?<!{_FOLDED_WORD})(?={_FOLDED_WORD}))",
    "\\B": f"(?:(?<={_FOLDED_WORD})(?={_FOLDED_WORD})|(?<!{_FOLDED_WORD})(?!{_FOLDED_WORD}))",
}


def _folded_non_word(source: str, v: bool) -> str:
    """A u/v pattern with i whose classes' ``\\W`` are spelt out (``_FOLDED_NON_WORD``; with
    v a nested class, an operand of ``--`` and ``&&`` as \\W is), and with v its ``\\b`` and
    ``\\B`` (``_FOLDED_BOUNDARIES``)."""
    if "\\W" not in source and not (v and ("\\b" in source or "\\B" in source)):
        return source
    out: list[str] = []
    depth, i, n = 0, 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\" and i + 1 < n:
            pair = source[i : i + 2]
            if depth and pair == "\\W":
                out.append(f"[{_FOLDED_NON_WORD}]" if v else _FOLDED_NON_WORD)
            elif v and not depth and pair in _FOLDED_BOUNDARIES:
                out.append(_FOLDED_BOUNDARIES[pair])
            else:
                out.append(pair)
            i += 2
            continue
        if c == "[" and (v or not depth):
            depth += 1
        elif c == "]" and depth:
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)


def _pattern_text(source: str, flags: str, prefix: str = "") -> tuple[str, str]:
    """The pattern and flags regress is given for a JavaScript source and flags (``L``: the
    text holds lone surrogates, under u/v as plane-15 stand-ins)."""
    unicode = "u" in flags or "v" in flags
    if unicode and "i" in flags:
        source = _folded_non_word(source, "v" in flags)
    if not unicode:
        body = _unit_pattern(source)
    elif "L" in flags:
        body = _lone_ranges(source, "v" in flags)
    else:
        body = _v_classes(source) if "v" in flags else source
    engine_flags = "".join(f for f in flags if f in "imsuv")
    body = _plain_names(body)
    return (f"{prefix}(?:{body})" if prefix else body), engine_flags


def _plain_names(source: str) -> str:
    """The pattern with every group name the library may not read (escapes, letters past
    ASCII: V8 reads any identifier) renamed ``g1``, ``g2``... with its references; matches
    are read by number (``_groups`` knows the names)."""
    groups = list(named_groups(source))
    if all(pattern(_PLAIN_NAME).fullmatch(source[a:b]) for a, b, _ in groups):
        return source
    renamed = {name: f"g{k}" for k, (_a, _b, name) in enumerate(groups, 1)}
    spans = sorted(
        [(a, b, renamed[name]) for a, b, name in groups]
        + [(a, b, renamed.get(name, name)) for a, b, name in named_references(source)]
    )
    out, at = [], 0
    for a, b, name in spans:
        out.append(source[at:a])
        out.append(name)
        at = b
    out.append(source[at:])
    return "".join(out)


def _q_strings(source: str, i: int) -> tuple[list[list[str]], int]:
    """The strings of a ``\\q{...}`` whose text starts at ``i`` (after its brace), each a
    list of its characters as written (an escape is one), and the index after the '}'."""
    strings: list[list[str]] = [[]]
    n = len(source)
    while i < n and source[i] != "}":
        c = source[i]
        if c == "|":
            strings.append([])
            i += 1
            continue
        end = i + 1
        if c == "\\" and i + 1 < n:
            kind = source[i + 1]
            end = i + 2
            if kind == "x":
                end = i + 4
            elif kind == "u":
                end = source.index("}", i) + 1 if source[i + 2 : i + 3] == "{" else i + 6
            elif kind == "c":
                end = i + 3
        strings[-1].append(source[i:end])
        i = end
    return strings, i + 1


def _v_classes(source: str) -> str:
    """A v-flag pattern as the library reads V8's: ``\\b`` in a class is a backspace (the
    library reads a word boundary there), ``+``, ``?``... in a class are escaped (the library
    refuses them bare); an empty string in ``\\q{...}`` (which the library never matches) is
    refused."""
    out: list[str] = []
    depth, i, n = 0, 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\" and i + 1 < n:
            pair = source[i : i + 2]
            if depth and pair == "\\b":
                out.append("\\x08")
            elif depth and pair == "\\q" and source[i + 2 : i + 3] == "{":
                strings, i = _q_strings(source, i + 3)
                if any(not s for s in strings):
                    raise Unsupported(
                        "flowctx does not reproduce an empty string in \\q{...} (v flag)"
                    )
                if all(len(s) == 1 for s in strings):  # characters: the library's own
                    out.append("".join(s[0] for s in strings))
                else:
                    out.append("\\q{" + "|".join("".join(s) for s in strings) + "}")
                continue
            else:
                out.append(pair)
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]" and depth:
            depth -= 1
        elif depth and c in ".*+?$^" and not (c == "^" and source[i - 1] == "["):
            c = "\\" + c  # a character of the class: the library would not read it bare
        out.append(c)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=512)
def _compile(source: str, flags: str, prefix: str = "") -> regress.Regex:
    import regress

    reason = v8_syntax_error(source, flags, _known_property)
    if reason is not None:  # V8's first error, in V8's words
        shown = f"/{source}/{flags.replace('L', '')}"
        raise RegExpSyntaxError(f"Invalid regular expression: {shown}: {reason}")
    pattern, engine_flags = _pattern_text(source, flags, prefix)
    try:
        return regress.Regex(pattern, engine_flags)
    except regress.RegressError as exc:
        # V8 reads it; the library that runs the patterns does not
        raise Unsupported(f"flowctx does not reproduce this regular expression ({exc})") from None
    except UnicodeEncodeError:
        raise Unsupported(
            "flowctx does not reproduce lone surrogates in a regular expression with the u or "
            "v flag"
        ) from None


def validate(source: str, flags: str, literal: bool = False) -> None:
    """V8's checks of a pattern; a pattern built at run time (``new RegExp(payload.x)``) may
    be a scope value: its message names the source only where no secret is read."""
    _check_flags(flags, literal)
    shown = f"/{source}/{flags}"
    try:
        _compile(source, flags)
    except RegExpSyntaxError as exc:
        if literal:
            raise
        # V8 shows the pattern, with the flags of one built at run time in its own order
        # (dgimsuvy) rather than as given; one built from a secret is shown without it
        message = str(exc)
        ordered = f"/{source}/" + "".join(f for f in "dgimsuvy" if f in flags)
        message = message.replace(shown, ordered, 1)
        raise RegExpSyntaxError(message, anonymous=message.replace(ordered, _RUNTIME, 1)) from None


_RUNTIME: Final = "a pattern built at run time"


#: regress's words for a syntax error, as V8 words the same error (measured on the families)
@functools.lru_cache(maxsize=256)
def _known_property(name: str, value: str | None) -> str | None:
    """None where ``\\p{name}`` (``\\p{name=value}``) names a property node knows, else
    why not (the library's words)."""
    import regress

    try:
        regress.Regex(f"\\p{{{name}={value}}}" if value is not None else f"\\p{{{name}}}", "u")
    except regress.RegressError as exc:
        return str(exc)
    return None


# --- the text -------------------------------------------------------------------------------


class _Text:
    """A JavaScript string as regress reads it, with the maps between its UTF-8 offsets and
    JavaScript's code-unit indices."""

    __slots__ = ("_bytes", "_unit_at", "chars", "js", "lone", "unicode", "units")

    def __init__(self, js_text: str, unicode: bool) -> None:
        self.js = js_text
        self.unicode = unicode
        self.units = to_units(js_text)
        self.lone = False  # under u/v: lone surrogates stand as plane-15 characters
        if unicode:
            # a lone surrogate is a code point of its own: it stands as a plane-15 character
            # (what ., [^...], \S match alike), unless the text holds plane-15 characters too
            if not js_text.isascii() and any("\ud800" <= c <= "\udfff" for c in js_text):
                if any("\U000f0000" <= c <= "\U000f07ff" for c in js_text):
                    raise Unsupported(
                        "flowctx does not reproduce matching a string with both lone "
                        "surrogates and plane-15 private-use characters under the u or v flag"
                    )
                js_text = _units_to_chars(js_text)
                self.lone = True
            self.chars = js_text
        else:
            self.chars = _isolate(_units_to_chars(self.units))
        self._bytes: list[int] | None = None  # UTF-8 offset of each character, then the end
        self._unit_at: list[int] | None = None  # code-unit index of each character, then length

    def _tables(self) -> tuple[list[int], list[int]]:
        if self._bytes is None:
            charge(ELEMENT * len(self.chars))
            offsets, units = [0], [0]
            b = u = 0
            for c in self.chars:
                o = ord(c)
                b += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
                u += 2 if (o > 0xFFFF and self.unicode and not 0xF0000 <= o <= 0xF07FF) else 1
                offsets.append(b)
                units.append(u)
            self._bytes, self._unit_at = offsets, units
        assert self._unit_at is not None
        return self._bytes, self._unit_at

    def unit_of_byte(self, b: int) -> int:
        if self.chars.isascii():
            return b
        offsets, units = self._tables()
        return units[bisect.bisect_left(offsets, b)]

    def char_of_unit(self, u: int) -> int:
        """The character at or after code unit ``u``."""
        if self.chars.isascii() or not self.unicode:
            return u
        _, units = self._tables()
        return bisect.bisect_left(units, u)

    def piece(self, a: int, b: int) -> str:
        return from_units(self.units[a:b])


# --- matching -------------------------------------------------------------------------------

_LOOKBEHIND: Final = r"\(\?<[=!]"


#: regress steps a match may risk in this process (about 4 ms); riskier ones run in a child
_IN_PROCESS: Final = 1_500_000
#: budget steps each match found costs besides the matching: its spans built in Python, the
#: match object and what the caller makes of it (measured: about 1.5 us a match)
_PER_MATCH: Final = 20


def _search(
    rx: JsRegExp, prefix: str, chars: str, every: bool, lone: bool = False
) -> list[list[Any]]:
    """The matches (UTF-8 spans of the whole match and each group) of ``rx`` behind
    ``prefix`` in ``chars``: the first, or all as a global search finds them (``lone``: the
    text's lone surrogates stand as plane-15 characters).

    A match runs in this process only when ``regexcost``'s bound on its backtracking is small;
    any other runs in the worker, which is killed when the budget's time is up. Each match
    found is charged as it is found, so a global search stops at the budget, not after
    building every match of a megabyte of text."""
    flags = rx.flags + "L" if lone else rx.flags
    if "v" in flags and "i" in flags and ("\\P" in rx.source or "[^" in rx.source):
        # V8 folds the case of a v-flag class before it negates it (\P{Lu} leaves out every
        # cased letter under i); the library negates first
        raise Unsupported(
            "flowctx does not reproduce a negated class or property under the v and i flags"
        )
    count = _groups(rx.source)[0]
    worst = worst_steps(rx.source, rx.flags, len(chars))
    if worst <= _IN_PROCESS:
        charge(worst // _STEPS_PER_CHARGE + 1)
        compiled = _compile(rx.source, flags, prefix)
        found = compiled.find_iter(chars) if every else [compiled.find(chars)]
        out = []
        for m in found or ():
            if m is None:
                continue
            charge(_PER_MATCH)
            spans: list[Any] = []
            for g in range(count + 1):
                r = m.range() if g == 0 else m.group(g)
                spans.append(None if r is None else (r.start, r.stop))
            out.append(spans)
        return out
    _compile(rx.source, flags, prefix)  # the syntax is checked here, not in the child
    pattern, engine_flags = _pattern_text(rx.source, flags, prefix)
    seconds = remaining_seconds()
    most = remaining_steps() // _PER_MATCH + 1
    started = time.monotonic()
    try:
        result = WORKER.search(pattern, engine_flags, chars, every, count, seconds, most)
    except TooSlow:
        raise BudgetExceeded(
            f"refused: flowctx's bound on regular expressions: "
            f"{f'/{rx.source[:60]}/' if rx.literal else _RUNTIME} on "
            f"{len(chars):,} characters backtracked past the {seconds:.2f} s left of "
            f"{BUDGET} and was stopped; node would go on matching"
        ) from None
    charge(int((time.monotonic() - started) / STEP_SECONDS))
    charge(len(result) * _PER_MATCH)  # past the budget when the child stopped at ``most``
    return result


class _Found:
    """One match: code-unit spans of the whole match and of each group (None: unmatched)."""

    __slots__ = ("names", "spans")

    def __init__(self, spans: list[tuple[int, int] | None], names: dict[str, int]) -> None:
        self.spans = spans
        self.names = names


_GROUP_COUNT_CACHE: dict[str, tuple[int, dict[str, int]]] = {}


def _groups(source: str) -> tuple[int, dict[str, int]]:
    """How many capture groups ``source`` has, and the number of each named one."""
    got = _GROUP_COUNT_CACHE.get(source)
    if got is not None:
        return got
    count = 0
    names: dict[str, int] = {}
    named = {start - 3: name for start, _end, name in named_groups(source)}
    for i, c in _structural(source):
        if c == "(":
            if not source.startswith("?", i + 1):
                count += 1
            elif i in named:
                count += 1
                names[named[i]] = count
    if len(_GROUP_COUNT_CACHE) > 1024:
        _GROUP_COUNT_CACHE.clear()
    _GROUP_COUNT_CACHE[source] = (count, names)
    return count, names


def _bare(items: dict[str, Any]) -> JsCreated:
    """A match's ``groups``: an object with no prototype (String() of it throws, as in node)."""
    out = JsCreated(None)
    out.update(items)
    return out


def _found(m: list[Any], text: _Text, source: str, shift: int) -> _Found:
    names = _groups(source)[1]
    spans: list[tuple[int, int] | None] = [
        None if r is None else (text.unit_of_byte(r[0] + shift), text.unit_of_byte(r[1] + shift))
        for r in m
    ]
    return _Found(spans, names)


def _first(rx: JsRegExp, prefix: str, chars: str, lone: bool = False) -> list[Any] | None:
    got = _search(rx, prefix, chars, False, lone)
    return got[0] if got else None


def _refuse_own_exec(rx: JsRegExp) -> None:
    """test, replace, match, search, split... call a RegExp's exec through Get: its own one
    would run instead of the pattern, with results flowctx does not take apart."""
    if rx.props and "exec" in rx.props:
        raise Unsupported("flowctx does not reproduce a RegExp given an exec of its own")


def find_at(
    rx: JsRegExp, text: _Text, start: int, sticky: bool, remember: bool = True
) -> _Found | None:
    """The first match at code unit ``start`` or after it (only at it when ``sticky``), with
    the whole string as context (lookbehind, ``^``, ``\\b`` see what precedes ``start``)."""
    _refuse_own_exec(rx)
    if text.unicode and len(text.units) != len(text.chars):
        found = _find_between_halves(rx, text, start, sticky)
    else:
        found = _find_at_points(rx, text, start, sticky)
    if found is not None and remember:
        _remember(text, found)
    return found


def _remember(text: _Text, found: _Found) -> None:
    """Every successful match is the realm's last one (RegExp.$1 and the others read it)."""
    LAST_MATCH.units = text.units
    LAST_MATCH.spans = found.spans


# V8 (node 20) tries a u/v pattern at every code unit, also between the two halves of a
# surrogate pair: nothing can be read there (the trail half belongs to the pair), but an
# empty match can succeed, \B seeing two non-word units (/\B/u finds 2 in 'a😀b'). A global
# or sticky pattern started inside a pair first steps back to its lead half and tries there.


def _inside(units: str, p: int) -> bool:
    return (
        0 < p < len(units)
        and "\ud800" <= units[p - 1] <= "\udbff"
        and "\udc00" <= units[p] <= "\udfff"
    )


def _find_between_halves(rx: JsRegExp, text: _Text, start: int, sticky: bool) -> _Found | None:
    units = text.units
    p = start
    if _inside(units, p):
        if "g" in rx.flags or "y" in rx.flags:
            found = _find_at_points(rx, text, p - 1, True)
            if found is not None:
                return found
        found = _empty_inside(rx, text, p)
        if found is not None or sticky:
            return found
        p += 1
    if sticky:
        return _find_at_points(rx, text, p, True)
    found = _find_at_points(rx, text, p, False)
    end = found.spans[0][0] if found is not None and found.spans[0] else len(units)
    for q in range(p + 1, end):
        if _inside(units, q):
            charge(ELEMENT)
            inside = _empty_inside(rx, text, q)
            if inside is not None:
                return inside
    return found


def _empty_inside(rx: JsRegExp, text: _Text, p: int) -> _Found | None:
    """The match at ``p``, between a pair's halves: what precedes is read as it is (the lead
    half alone ends it), nothing can be read after it, and ``$`` fails (more follows)."""
    before = _Text(from_units(text.units[:p]), True)
    return _find_at_points(_without_end(rx), before, p, True)


_WITHOUT_END: dict[tuple[str, str], JsRegExp] = {}


def _without_end(rx: JsRegExp) -> JsRegExp:
    key = (rx.source, rx.flags)
    got = _WITHOUT_END.get(key)
    if got is None:
        ends = {i for i, c in _structural(rx.source) if c == "$"}
        source = "".join("(?!)" if i in ends else c for i, c in enumerate(rx.source))
        got = JsRegExp(source, rx.flags.replace("g", "").replace("y", ""))
        if len(_WITHOUT_END) > 256:
            _WITHOUT_END.clear()
        _WITHOUT_END[key] = got
    return got


def _find_at_points(rx: JsRegExp, text: _Text, start: int, sticky: bool) -> _Found | None:
    """``find_at`` where every code-unit index is a character boundary regress knows."""
    chars = text.chars
    at = text.char_of_unit(start)
    if at > len(chars):
        return None
    if at == 0:
        prefix = "(?<![\\s\\S])" if sticky else ""
        m = _first(rx, prefix, chars, text.lone)
        return None if m is None else _found(m, text, rx.source, 0)
    if pattern(_LOOKBEHIND).search(rx.source):
        # the lookbehind may read anything before start: match the whole text from there on
        prefix = f"(?<=(?<![\\s\\S])[\\s\\S]{{{at}}})" if sticky else f"(?<=[\\s\\S]{{{at}}})"
        charge(at * (len(chars) - at) // _STEPS_PER_CHARGE)
        m = _first(rx, prefix, chars, text.lone)
        return None if m is None else _found(m, text, rx.source, 0)
    # one character of context is all that ^, $ and \b read before start
    head = chars[: at - 1]
    shift = len(head.encode("utf-8", "surrogatepass"))
    prefix = "(?<=(?<![\\s\\S])[\\s\\S])" if sticky else "(?<=[\\s\\S])"
    m = _first(rx, prefix, chars[at - 1 :], text.lone)
    return None if m is None else _found(m, text, rx.source, shift)


def find_all(rx: JsRegExp, text: _Text) -> Iterator[_Found]:
    """Every match as a global regular expression finds them from 0 (an empty match moves on
    by one code unit, or code point with u/v)."""
    _refuse_own_exec(rx)
    sticky = "y" in rx.flags
    if sticky or (
        text.unicode and len(text.units) != len(text.chars) and min_width(rx.source, rx.flags) == 0
    ):
        # sticky: each match must start where the last ended; surrogate pairs: V8 searches
        # again from each lastIndex, which may stop between the halves of a pair, where only
        # an empty match can succeed (a pattern that spans a character at least, /\w+/gu,
        # finds in one search what V8 finds: searched again from each match, a text with
        # emoji was charged its rest's worst case per match and refused past the budget)
        at = 0
        while at <= len(text.units):
            charge(ELEMENT)
            f = find_at(rx, text, at, sticky)
            if f is None:
                return
            yield f
            s, e = f.spans[0]  # type: ignore[misc]
            at = e if e > s else _advance(text, e)
        return
    for m in _search(rx, "", text.chars, True, text.lone):
        charge(ELEMENT)
        found = _found(m, text, rx.source, 0)
        _remember(text, found)
        yield found


def _advance(text: _Text, index: int) -> int:
    """AdvanceStringIndex: one code unit, or a whole pair under u/v."""
    u = text.units
    if (
        text.unicode
        and index + 1 < len(u)
        and "\ud800" <= u[index] <= "\udbff"
        and "\udc00" <= u[index + 1] <= "\udfff"
    ):
        return index + 2
    return index + 1


# --- the RegExp object ----------------------------------------------------------------------


class JsRegExp(JsObject):
    __slots__ = ("fixed", "flags", "last_index", "literal", "props", "source")

    def __init__(self, source: str, flags: str, literal: bool = False) -> None:
        validate(source, flags, literal)
        self.literal = literal  # written in the condition: its source may be shown
        self.source = source
        self.flags = "".join(f for f in FLAG_ORDER if f in flags)
        self.last_index: Any = 0
        self.fixed = False  # lastIndex defined read-only (a freeze makes it so too)
        self.props: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"/{self.source}/{self.flags}"

    def shown_source(self) -> str:
        if not self.source:
            return "(?:)"
        out = []
        in_class = False
        i = 0
        s = self.source
        while i < len(s):
            c = s[i]
            if c == "\\":
                out.append(s[i : i + 2])
                i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            if c == "/" and not in_class:
                out.append("\\/")
            elif c == "\n":
                out.append("\\n")
            elif c == "\r":
                out.append("\\r")
            elif c == "\u2028":
                out.append("\\u2028")
            elif c == "\u2029":
                out.append("\\u2029")
            else:
                out.append(c)
            i += 1
        return "".join(out)

    def js_primitive(self, hint: str = "default") -> Any:
        return f"/{self.shown_source()}/{self.flags}"

    def js_get(self, key: str) -> Any:
        if key == "lastIndex":
            return self.last_index
        if key == "source":
            return self.shown_source()
        if key == "flags":
            return self.flags
        if key in _FLAG_NAMES:
            return _FLAG_NAMES[key] in self.flags
        if self.props and key in self.props:
            return self.props[key]
        method = REGEXP_METHODS.get(key)
        if method is not None:
            # one function object for every RegExp (``/a/.test === /b/.test``)
            return JsFunction(
                key,
                functools.partial(method, self),
                arity=_ARITY.get(key, 0),
                ident=f"RegExp.prototype.{key}",
            )
        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key == "lastIndex":
            put_last_index(self, value)
            return
        if key in ("source", "flags", *_FLAG_NAMES):
            raise JsError(f"Cannot set property {key} of [object Object] which has only a getter")
        if self.props is None:
            self.props = {}
        self.props[key] = value

    def js_json(self) -> Any:  # lastIndex is not enumerable
        return {k: self.props[k] for k in enumerable_props(self.props)} if self.props else {}

    def js_keys(self) -> list[str]:
        return enumerable_props(self.props)

    def js_owns(self, key: str) -> bool:
        """lastIndex, made with it, and the keys written on it."""
        return key == "lastIndex" or bool(self.props and key in self.props)

    def js_has(self, key: str) -> bool:
        return self.js_owns(key) or self.js_get(key) is not UNDEFINED


def _object_proto(obj: Any, key: str) -> Any:
    from flowctx_core.expressions.js.objects import OBJECT_METHODS, _bind

    method = OBJECT_METHODS.get(key)
    if method is not None:
        return _bind(key, method, obj)  # one function object whatever it is read from
    return UNDEFINED


def legacy_static(key: str) -> str:
    """``RegExp.$1``, ``RegExp.lastMatch``...: the condition's last successful match. Before
    the condition's first they hold the engine process's last match (its host's history)."""
    units, spans = LAST_MATCH.units, LAST_MATCH.spans
    if units is None or spans is None:
        raise HostString(
            host_refusal(
                f"RegExp.{key} before a match in the condition",
                "it holds the last match the engine's process made",
            )
        )
    start, end = spans[0]  # type: ignore[misc]
    if key in ("input", "$_"):
        return from_units(units)
    if key in ("lastMatch", "$&"):
        return from_units(units[start:end])
    if key in ("leftContext", "$`"):
        return from_units(units[:start])
    if key in ("rightContext", "$'"):
        return from_units(units[end:])
    index = len(spans) - 1 if key in ("lastParen", "$+") else int(key[1])
    span = spans[index] if 0 < index < len(spans) else None
    return "" if span is None else from_units(units[span[0] : span[1]])


_ARITY: Final = {"exec": 1, "test": 1, "toString": 0, "compile": 2}


def _this_regexp(rx: Any, method: str) -> JsRegExp:
    if not isinstance(rx, JsRegExp):
        raise JsError(f"Method RegExp.prototype.{method} called on incompatible receiver")
    return rx


def _to_length(v: Any) -> int:
    n = to_int(v)
    if n <= 0:
        return 0
    return int(min(n, 2**53 - 1))


def put_last_index(rx: JsRegExp, value: Any) -> None:
    """Set(R, "lastIndex", value, true): a frozen RegExp's lastIndex, or one defined
    read-only, refuses every write, of its own value too (strict mode's TypeError)."""
    if rx.fixed:
        raise JsError(_READ_ONLY)
    LENT["check_integrity"](rx, "lastIndex")
    rx.last_index = value


_READ_ONLY: Final = "Cannot assign to read only property 'lastIndex' of object '[object RegExp]'"


def builtin_exec(rx: JsRegExp, s: str) -> _Found | None:
    """RegExpBuiltinExec: honours and updates ``lastIndex`` for ``g``/``y``."""
    glob, sticky = "g" in rx.flags, "y" in rx.flags
    last = _to_length(rx.last_index)
    text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    if not glob and not sticky:
        last = 0
    if last > len(text.units):
        if glob or sticky:
            put_last_index(rx, 0)
        return None
    if glob and not sticky and text.unicode and _splits_pair(text.units, last) and _atom(rx):
        # V8 runs a pattern of plain characters as a string search from lastIndex itself: in
        # u/v mode it does not step back to the start of a pair lastIndex splits
        at = text.units.find(to_units(rx.source), last)
        found = find_at(rx, text, at, True) if at >= 0 else None
    else:
        found = find_at(rx, text, last, sticky)
    if found is None:
        if glob or sticky:
            put_last_index(rx, 0)
        return None
    if glob or sticky:
        put_last_index(rx, found.spans[0][1])  # type: ignore[index]
    return found


#: what makes a pattern more than plain characters to V8's parser
_NOT_ATOM: Final = frozenset("\\^$.|?*+()[]{}")


def _atom(rx: JsRegExp) -> bool:
    """A pattern V8 compiles to a string search: plain characters, no case folding, and in
    u/v mode one atom (a run of BMP characters, or a single astral one: an astral character
    beside others is an atom of its own in a text V8 matches by its engine)."""
    src = rx.source
    if not src or "i" in rx.flags or _NOT_ATOM.intersection(src):
        return False
    return len(src) == 1 or all(ord(c) <= 0xFFFF for c in src)


def _splits_pair(s: str, i: int) -> bool:
    return 0 < i < len(s) and "\ud800" <= s[i - 1] <= "\udbff" and "\udc00" <= s[i] <= "\udfff"


def _result(rx: JsRegExp, found: _Found, s: str, text: _Text | None = None) -> list[Any]:
    """The array ``exec`` returns, with its ``index``, ``input``, ``groups`` (and ``indices``
    with the d flag) attached."""
    if text is None:
        text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    out: list[Any] = [UNDEFINED if sp is None else text.piece(*sp) for sp in found.spans]
    groups: Any = UNDEFINED
    if found.names:
        groups = _bare({name: out[i] for name, i in found.names.items()})
    props: dict[str, Any] = {
        "index": found.spans[0][0],  # type: ignore[index]
        "input": s,
        "groups": groups,
    }
    if "d" in rx.flags:
        indices: list[Any] = [UNDEFINED if sp is None else [sp[0], sp[1]] for sp in found.spans]
        igroups: Any = UNDEFINED
        if found.names:
            igroups = _bare({name: indices[i] for name, i in found.names.items()})
        common.attach_props(indices, {"groups": igroups})
        props["indices"] = indices
    common.attach_props(out, props)
    return out


def _exec(rx: Any, s: Any = UNDEFINED, *_: Any) -> Any:
    rx = _this_regexp(rx, "exec")
    text = to_string(s)
    found = builtin_exec(rx, text)
    return None if found is None else _result(rx, found, text)


def _test(rx: Any, s: Any = UNDEFINED, *_: Any) -> bool:
    rx = _this_regexp(rx, "test")
    return builtin_exec(rx, to_string(s)) is not None


def _to_string(rx: Any, *_: Any) -> str:
    if type(rx) is JsRegExp and changed_prototype(rx) is not KEPT:
        # its source and flags read along the chain a condition gave it
        get_member = LENT["get_member"]
        return f"/{to_string(get_member(rx, 'source'))}/{to_string(get_member(rx, 'flags'))}"
    if type(rx) is JsRegExp:
        return str(rx.js_primitive())  # its own keys (a Symbol.toStringTag) change nothing
    return to_string(rx)


def _compile_method(rx: Any, pattern: Any = UNDEFINED, flags: Any = UNDEFINED, *_: Any) -> Any:
    """RegExp.prototype.compile: the same object made again from another pattern and flags
    (a RegExp's own, or a text's), lastIndex set to 0 afterwards: a frozen one is remade, then
    refuses that write."""
    if type(rx) is not JsRegExp:
        raise JsError(
            f"Method RegExp.prototype.compile called on incompatible receiver {shown_value(rx)}"
        )
    if isinstance(pattern, JsRegExp):
        if flags is not UNDEFINED:
            raise JsError("Cannot supply flags when constructing one RegExp from another")
        made, literal = JsRegExp(pattern.source, pattern.flags), pattern.literal
    else:
        made, literal = construct(pattern, flags), False  # a text may come from data
    rx.source, rx.flags, rx.literal = made.source, made.flags, literal
    put_last_index(rx, 0)
    return rx


REGEXP_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "exec": _exec,
    "test": _test,
    "toString": _to_string,
    "compile": _compile_method,
}


# --- the string methods ---------------------------------------------------------------------


def _as_regexp(v: Any, flags: str = "") -> JsRegExp:
    if isinstance(v, JsRegExp):
        return v
    source = "(?:)" if v is UNDEFINED else to_string(v)
    return JsRegExp(source, flags)


def _match(s: str, regexp: Any = UNDEFINED, *_: Any) -> Any:
    rx = _as_regexp(regexp)
    if "g" not in rx.flags:
        found = builtin_exec(rx, s)
        return None if found is None else _result(rx, found, s)
    put_last_index(rx, 0)
    text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    out = [text.piece(*f.spans[0]) for f in find_all(rx, text)]  # type: ignore[misc]
    rx.last_index = 0
    if len(out) > MAX_STRING_LENGTH:
        raise JsError(f"match() result too long (over {MAX_STRING_LENGTH:,} matches; {BUDGET})")
    return out or None


def _match_all(s: str, regexp: Any = UNDEFINED, *_: Any) -> Any:
    from flowctx_core.expressions.js.iterators import JsIterator

    if isinstance(regexp, JsRegExp):
        if "g" not in regexp.flags:
            raise JsError("String.prototype.matchAll called with a non-global RegExp argument")
        # a copy, from the original's lastIndex
        rx = JsRegExp(regexp.source, regexp.flags)
        rx.last_index = _to_length(regexp.last_index)
    else:
        rx = _as_regexp(regexp if regexp is not None else "null", "g")
    items: list[Any] = []
    if _to_length(rx.last_index) == 0 and "y" not in rx.flags:
        # from 0 the copy's execs find what one global search finds (find_all): each exec
        # searching again was charged the worst case of the rest of the text, so 3,000
        # matches in a long text were refused past the budget
        text = _Text(s, "u" in rx.flags or "v" in rx.flags)
        for each in find_all(rx, text):
            items.append(_result(rx, each, s, text))
            if len(items) > MAX_STRING_LENGTH:
                raise too_long()
        return JsIterator("RegExp String Iterator", items)
    while True:
        found = builtin_exec(rx, s)
        if found is None:
            break
        items.append(_result(rx, found, s))
        s0, e0 = found.spans[0]  # type: ignore[misc]
        if e0 == s0:
            rx.last_index = _advance(_Text(s, "u" in rx.flags or "v" in rx.flags), e0)
        if len(items) > MAX_STRING_LENGTH:
            raise too_long()
    return JsIterator("RegExp String Iterator", items)


def _str_search(s: str, regexp: Any = UNDEFINED, *_: Any) -> int:
    rx = _as_regexp(regexp if regexp is not None else "null")
    previous = rx.last_index
    if not same_value(previous, 0) or "g" in rx.flags or "y" in rx.flags:
        # RegExp.prototype[Symbol.search] writes 0 first unless it is 0 already, and a g or y
        # RegExp's exec writes it again: a read-only lastIndex refuses the first write
        put_last_index(rx, 0)
    rx.last_index = 0
    text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    found = find_at(rx, text, 0, "y" in rx.flags)
    rx.last_index = previous
    return -1 if found is None else found.spans[0][0]  # type: ignore[index]


def _substitution(
    rep: str, matched: str, position: int, units: str, captures: list[Any], groups: Any
) -> str:
    """GetSubstitution: ``$$ $& $` $' $n $nn $<name>``."""
    out: list[str] = []
    i, n = 0, len(rep)
    m = len(captures)
    tail = position + len(to_units(matched))
    while i < n:
        dollar = rep.find("$", i)
        if dollar < 0 or dollar + 1 >= n:
            out.append(rep[i:])  # a run without a '$' is copied at once, not char by char
            break
        out.append(rep[i:dollar])
        i = dollar
        nxt = rep[i + 1]
        if nxt == "$":
            out.append("$")
            i += 2
        elif nxt == "&":
            out.append(matched)
            i += 2
        elif nxt == "`":
            out.append(from_units(units[:position]))
            i += 2
        elif nxt == "'":
            out.append(from_units(units[tail:]))
            i += 2
        elif nxt in "0123456789":
            two = rep[i + 1 : i + 3]
            if len(two) == 2 and two.isdigit() and 1 <= int(two) <= m:
                cap = captures[int(two) - 1]
                out.append("" if cap is UNDEFINED else to_string(cap))
                i += 3
            elif 1 <= int(nxt) <= m:
                cap = captures[int(nxt) - 1]
                out.append("" if cap is UNDEFINED else to_string(cap))
                i += 2
            else:
                out.append("$")
                i += 1
        elif nxt == "<":
            if groups is UNDEFINED:
                out.append("$<")
                i += 2
                continue
            close = rep.find(">", i + 2)
            if close < 0:
                out.append("$<")
                i += 2
                continue
            name = rep[i + 2 : close]
            value = groups.get(name, UNDEFINED) if isinstance(groups, dict) else UNDEFINED
            out.append("" if value is UNDEFINED else to_string(value))
            i = close + 1
        else:
            out.append("$")
            i += 1
    return "".join(out)


def _replace_regexp(s: str, rx: JsRegExp, replacement: Any) -> str:
    text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    if "g" in rx.flags:
        put_last_index(rx, 0)
        results = list(find_all(rx, text))
        rx.last_index = 0
    else:
        found = builtin_exec(rx, s)
        results = [] if found is None else [found]
    functional = type(replacement) is JsFunction
    rep = "" if functional else to_string(replacement)
    units = text.units
    out: list[str] = []
    last = 0
    total = 0
    for f in results:
        start, end = f.spans[0]  # type: ignore[misc]
        matched = text.piece(start, end)
        captures = [UNDEFINED if sp is None else text.piece(*sp) for sp in f.spans[1:]]
        groups: Any = UNDEFINED
        if f.names:
            groups = _bare({name: captures[i - 1] for name, i in f.names.items()})
        if functional:
            args = [matched, *captures, start, s]
            if groups is not UNDEFINED:
                args.append(groups)
            piece = to_string(replacement.fn(*args))
        else:
            piece = _substitution(rep, matched, start, units, captures, groups)
        charge(replacement_cost(rep, piece))
        piece_units = to_units(piece)
        if start >= last:
            out.append(units[last:start])
            out.append(piece_units)
            total += start - last + len(piece_units)
            last = end
        if total > MAX_STRING_LENGTH:
            raise too_long()
    if total + len(units) - last > MAX_STRING_LENGTH:
        raise too_long()
    out.append(units[last:])
    return from_units("".join(out))


def _str_replace(s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any) -> str:
    if isinstance(pattern, JsRegExp):
        return _replace_regexp(s, pattern, replacement)
    return _replace(s, pattern, replacement, False)


def _str_replace_all(
    s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any
) -> str:
    if isinstance(pattern, JsRegExp):
        if "g" not in pattern.flags:
            raise JsError("String.prototype.replaceAll called with a non-global RegExp argument")
        return _replace_regexp(s, pattern, replacement)
    return _replace(s, pattern, replacement, True)


def _split_regexp(s: str, rx: JsRegExp, limit: Any) -> list[Any]:
    """RegExp.prototype[@@split]: a sticky copy of ``rx`` tried at each position (its own
    ``lastIndex`` is neither read nor written); finding the next match from ``q`` is the same
    as trying the sticky copy at q, q+1, ... in turn."""
    lim = 2**32 - 1 if limit is UNDEFINED else to_int(limit) % 2**32
    splitter = JsRegExp(rx.source, rx.flags.replace("y", "") + "y")
    text = _Text(s, "u" in rx.flags or "v" in rx.flags)
    units = text.units
    size = len(units)
    out: list[Any] = []
    if lim == 0:
        return out
    if size == 0:
        return [] if find_at(splitter, text, 0, True) is not None else [s]
    if (
        not (text.unicode and size != len(text.chars))
        or min_width(rx.source, rx.flags) > 0
        or "y" in rx.flags
    ):
        # a search between a pair's halves finds only empty matches (see find_all), and V8
        # splits by a sticky pattern as the specification does, trying each code point in
        # turn and never between halves ('a😀b'.split(/\B/yu) is one part, /\B/u two)
        return _split_by_one_search(rx, text, lim)
    p = q = 0
    while q < size:
        found = find_at(splitter, text, q, False, remember=False)
        if found is None:
            break
        start, end = found.spans[0]  # type: ignore[misc]
        if start >= size:
            break  # a match at the end is never tried: the last match stays as it was
        _remember(text, found)
        q = start
        e = min(end, size)
        if e == p:
            q = _advance(text, q)
            continue
        if _add_parts(out, text, units[p:q], found, lim):
            return out
        p = q = e
    out.append(from_units(units[p:]))
    return out


def _add_parts(out: list[Any], text: _Text, part: Any, found: Any, lim: float) -> bool:
    """The part before a match and the match's captures, after the parts so far; whether the
    split's limit is reached."""
    out.append(from_units(part))
    if len(out) == lim:
        return True
    for sp in found.spans[1:]:
        out.append(UNDEFINED if sp is None else text.piece(*sp))
        if len(out) == lim:
            return True
    if len(out) > MAX_STRING_LENGTH:
        raise JsError(f"split() result too long (over {MAX_STRING_LENGTH:,} parts; {BUDGET})")
    return False


def _split_by_one_search(rx: JsRegExp, text: _Text, lim: float) -> list[Any]:
    """``_split_regexp`` over the matches of one global search, where each index is a point
    of the text regress knows: the sticky copy tried at q, q+1, ... finds the first match at q
    or after it, as the global search does, and after an empty match both go on one further,
    so the split is those matches less the empty ones where the last part ended (with u/v
    and a pair in the text, for a pattern that spans a character at least). Searched
    again from each part's end, a text of many parts was charged its rest's worst case each
    time: 'payload.lines.split(/\\r?\\n/)' of 2,000 lines was refused past the budget."""
    units = text.units
    size = len(units)
    out: list[Any] = []
    p = 0
    for m in _search(
        JsRegExp(rx.source, rx.flags.replace("y", "")), "", text.chars, True, text.lone
    ):
        charge(ELEMENT)
        found = _found(m, text, rx.source, 0)
        start, end = found.spans[0]  # type: ignore[misc]
        if start >= size:
            break  # a match at the end is never tried: the last match stays as it was
        _remember(text, found)
        e = min(end, size)
        if e == p:
            continue
        if _add_parts(out, text, units[p:start], found, lim):
            return out
        p = e
    out.append(from_units(units[p:]))
    return out


_PLAIN: Final[dict[str, Callable[..., Any]]] = {}


def _str_split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED, *_: Any) -> list[Any]:
    if isinstance(sep, JsRegExp):
        return _split_regexp(s, sep, limit)
    return _PLAIN["split"](s, sep, limit)


def _no_regexp_arg(method: str, plain: Callable[..., Any]) -> Callable[..., Any]:
    def call(s: str, search: Any = UNDEFINED, *rest: Any) -> Any:
        if isinstance(search, JsRegExp):
            raise JsError(
                f"First argument to String.prototype.{method} must not be a regular expression"
            )
        return plain(s, search, *rest)

    return call


def register() -> None:
    """Put the RegExp-aware methods in the string method table."""
    if _PLAIN:
        return
    _PLAIN.update(STRING_METHODS)
    for method in ("includes", "startsWith", "endsWith"):
        STRING_METHODS[method] = _no_regexp_arg(method, STRING_METHODS[method])
    STRING_METHODS.update(
        {
            "match": _match,
            "matchAll": _match_all,
            "search": _str_search,
            "replace": _str_replace,
            "replaceAll": _str_replace_all,
            "split": _str_split,
        }
    )


# --- the constructor ------------------------------------------------------------------------


def construct(pattern: Any = UNDEFINED, flags: Any = UNDEFINED, *_: Any) -> JsRegExp:
    """``new RegExp(pattern, flags)`` and ``RegExp(pattern, flags)``."""
    if isinstance(pattern, JsRegExp):
        source = pattern.source
        f = pattern.flags if flags is UNDEFINED else to_string(flags)
        return JsRegExp(source, f)
    source = "" if pattern is UNDEFINED else to_string(pattern)
    f = "" if flags is UNDEFINED else to_string(flags)
    return JsRegExp(source, f)


def call_regexp(pattern: Any = UNDEFINED, flags: Any = UNDEFINED, *_: Any) -> JsRegExp:
    # RegExp(re) without flags hands back the same object
    if isinstance(pattern, JsRegExp) and flags is UNDEFINED:
        return pattern
    return construct(pattern, flags)


def literal(token_text: str) -> tuple[str, str]:
    """Body and flags of a regular expression literal's text ``/body/flags``."""
    close = token_text.rfind("/")
    return token_text[1:close], token_text[close + 1 :]


LENT["object_proto"] = _object_proto
LENT["legacy_static"] = legacy_static
