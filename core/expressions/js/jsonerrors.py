"""The SyntaxError V8 (node 20) throws for text ``JSON.parse`` refuses, message for message.

Python's ``json`` decides whether the text is JSON (the two agree on that); only when it is
not does this walk the text again the way V8's JSON parser does, to say where it stopped and
why: the expected punctuation after an element or a property, the string and number errors
with their position, "Unexpected end of JSON input", and for any other unexpected character
the token quoted with the text around it (all of a short text, ten code units either side of
a long one). Positions count UTF-16 code units, as JavaScript's do.
"""

from __future__ import annotations

from typing import Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.values import ELEMENT, from_units, to_units

_WS: Final = " \t\n\r"
_DIGITS: Final = "0123456789"
_HEX: Final = "0123456789abcdefABCDEF"
_ESCAPES: Final = '"\\/bfnrt'
#: texts V8 names whole, without a token: what String() gives for common non-JSON values
_SPECIAL: Final = frozenset({"[object Object]", "undefined", "Infinity", "NaN"})
_CONTEXT: Final = 10


class _Stop(Exception):
    def __init__(self, message: str, anonymous: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.anonymous = anonymous or message  # without the text it quotes


class _Walk:
    def __init__(self, text: str) -> None:
        self.s = to_units(text)
        self.n = len(self.s)

    def at(self, where: str, i: int) -> _Stop:
        return _Stop(f"{where} in JSON at position {i}")

    def unexpected(self, i: int) -> _Stop:
        s, n = self.s, self.n
        if i >= n:
            return _Stop("Unexpected end of JSON input")
        c = s[i]
        if c in _DIGITS or c == "-":
            return self.at("Unexpected number", i)
        if c == '"':
            return self.at("Unexpected string", i)
        whole = from_units(s)
        anonymous = f"Unexpected token in JSON at position {i}"
        if whole in _SPECIAL:
            return _Stop(f'"{whole}" is not valid JSON', "The text is not valid JSON")
        if n <= 2 * _CONTEXT:
            return _Stop(f"Unexpected token '{c}', \"{whole}\" is not valid JSON", anonymous)
        if i < _CONTEXT:
            part = from_units(s[: i + _CONTEXT])
            return _Stop(f"Unexpected token '{c}', \"{part}\"... is not valid JSON", anonymous)
        if i >= n - _CONTEXT:
            part = from_units(s[i - _CONTEXT :])
            return _Stop(f"Unexpected token '{c}', ...\"{part}\" is not valid JSON", anonymous)
        part = from_units(s[i - _CONTEXT : i + _CONTEXT])
        return _Stop(f"Unexpected token '{c}', ...\"{part}\"... is not valid JSON", anonymous)

    def skip(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n and s[i] in _WS:
            i += 1
        return i

    def value(self, i: int) -> int:
        s, n = self.s, self.n
        i = self.skip(i)
        if i >= n:
            raise self.unexpected(i)
        c = s[i]
        if c == "{":
            return self.object(i + 1)
        if c == "[":
            return self.array(i + 1)
        if c == '"':
            return self.string(i + 1)
        if c == "-" or c in _DIGITS:
            return self.number(i)
        for word in ("true", "false", "null"):
            if c == word[0]:
                for k, ch in enumerate(word):
                    if i + k >= n or s[i + k] != ch:
                        raise self.unexpected(i + k)
                return i + len(word)
        raise self.unexpected(i)

    def array(self, i: int) -> int:
        i = self.skip(i)
        if i < self.n and self.s[i] == "]":
            return i + 1
        while True:
            i = self.skip(self.value(i))
            if i < self.n and self.s[i] == ",":
                i += 1
                continue
            if i < self.n and self.s[i] == "]":
                return i + 1
            raise self.at("Expected ',' or ']' after array element", i)

    def object(self, i: int) -> int:
        s = self.s
        i = self.skip(i)
        if i < self.n and s[i] == "}":
            return i + 1
        if i >= self.n or s[i] != '"':
            raise self.at("Expected property name or '}'", i)
        first = True
        while True:
            i = self.skip(self.string(i + 1))
            if i >= self.n or s[i] != ":":
                # V8 names the colon only after the first property name
                raise (
                    self.at("Expected ':' after property name", i) if first else self.unexpected(i)
                )
            first = False
            i = self.skip(self.value(i + 1))
            if i < self.n and s[i] == ",":
                i = self.skip(i + 1)
                if i >= self.n or s[i] != '"':
                    raise self.at("Expected double-quoted property name", i)
                continue
            if i < self.n and s[i] == "}":
                return i + 1
            raise self.at("Expected ',' or '}' after property value", i)

    def string(self, i: int) -> int:
        s, n = self.s, self.n
        while True:
            if i >= n:
                raise self.at("Unterminated string", i)
            c = s[i]
            if c == '"':
                return i + 1
            if c < " ":
                raise self.at("Bad control character in string literal", i)
            if c == "\\":
                if i + 1 >= n:
                    raise self.unexpected(n)
                e = s[i + 1]
                if e == "u":
                    for k in range(i + 2, i + 6):
                        if k >= n or s[k] not in _HEX:
                            raise self.at("Bad Unicode escape", k)
                    i += 6
                    continue
                if e not in _ESCAPES:
                    if e > "\xff":  # past Latin-1 V8 names the character itself
                        raise self.unexpected(i + 1)
                    raise self.at("Bad escaped character", i + 1)
                i += 2
                continue
            i += 1

    def number(self, i: int) -> int:
        s, n = self.s, self.n
        if s[i] == "-":
            i += 1
            if i >= n or s[i] not in _DIGITS:
                raise self.at("No number after minus sign", i)
        if s[i] == "0":
            i += 1
            if i < n and s[i] in _DIGITS:
                raise self.at("Unexpected number", i)
        else:
            while i < n and s[i] in _DIGITS:
                i += 1
        if i < n and s[i] == ".":
            i += 1
            if i >= n or s[i] not in _DIGITS:
                raise self.at("Unterminated fractional number", i)
            while i < n and s[i] in _DIGITS:
                i += 1
        if i < n and s[i] in "eE":
            i += 1
            if i < n and s[i] in "+-":
                i += 1
            if i >= n or s[i] not in _DIGITS:
                raise self.at("Exponent part is missing a number", i)
            while i < n and s[i] in _DIGITS:
                i += 1
        return i


def json_error(text: str) -> tuple[str, str]:
    """V8's message for ``JSON.parse(text)`` where ``text`` is not JSON, and the same
    without the text it quotes (shown when the text derives from a secret)."""
    charge(ELEMENT * len(text))
    walk = _Walk(text)
    try:
        i = walk.skip(walk.value(0))
    except _Stop as stop:
        return stop.message, stop.anonymous
    except RecursionError:
        return ("Maximum call stack size exceeded",) * 2
    if i < walk.n:
        return (f"Unexpected non-whitespace character after JSON at position {i}",) * 2
    return ("Unexpected token in JSON",) * 2  # not reached: Python's json refused it
