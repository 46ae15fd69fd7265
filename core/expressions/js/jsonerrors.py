"""The SyntaxError V8 (node 20) throws for text ``JSON.parse`` refuses, message for message.

Python's ``json`` decides whether the text is JSON (the two agree on that); only when it is
not does this walk the text again the way V8's JSON parser does, to say where it stopped and
why: the expected punctuation after an element or a property, the string and number errors
with their position, "Unexpected end of JSON input", and for any other unexpected character
the token quoted with the text around it (all of a short text, ten code units either side of
a long one). Positions count UTF-16 code units, as JavaScript's do.
"""

from __future__ import annotations

import json
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.values import (
    DROPPED_KEYS,
    ELEMENT,
    JsError,
    from_units,
    keep_all_keys,
    number,
    to_units,
)

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

    def parse(self) -> tuple[Any, int]:
        """The value at the start of the text and where it ends, read with a stack of the
        arrays and objects still open rather than by recursion: V8's parser reads any depth
        (only a reviver, or what is done with the value after, meets its stack's bound)."""
        s, n = self.s, self.n
        # each open container, with the key its next value goes under (objects), and
        # whether that key is its first (V8 names the colon only after a first one)
        open_: list[tuple[list[Any] | dict[str, Any], str, bool]] = []
        i = 0
        while True:
            i = self.skip(i)
            if i >= n:
                raise self.unexpected(i)
            c = s[i]
            value: Any
            if c == "[":
                i = self.skip(i + 1)
                if i < n and s[i] == "]":
                    value, i = [], i + 1
                else:
                    open_.append(([], "", False))
                    continue
            elif c == "{":
                i = self.skip(i + 1)
                if i < n and s[i] == "}":
                    value, i = self.made({}), i + 1
                else:
                    if i >= n or s[i] != '"':
                        raise self.at("Expected property name or '}'", i)
                    key, i = self.key(i, True)
                    open_.append(({}, key, True))
                    continue
            elif c == '"':
                start, i = i, self.string(i + 1)
                value = json.loads(from_units(s[start:i]))
            elif c == "-" or c in _DIGITS:
                start, i = i, self.number(i)
                text = from_units(s[start:i])
                value = -0.0 if text == "-0" else number(json.loads(text))
            else:
                for word, meant in (("true", True), ("false", False), ("null", None)):
                    if c == word[0]:
                        for k, ch in enumerate(word):
                            if i + k >= n or s[i + k] != ch:
                                raise self.unexpected(i + k)
                        value, i = meant, i + len(word)
                        break
                else:
                    raise self.unexpected(i)
            # the value is whole: it ends its container's element, or the text's value
            while True:
                if not open_:
                    return value, i
                holder, key, _ = open_[-1]
                i = self.skip(i)
                if type(holder) is list:
                    holder.append(value)
                    if i < n and s[i] == ",":
                        i += 1
                        break
                    if i < n and s[i] == "]":
                        open_.pop()
                        value, i = holder, i + 1
                        continue
                    raise self.at("Expected ',' or ']' after array element", i)
                assert type(holder) is dict
                holder[key] = value
                if i < n and s[i] == ",":
                    i = self.skip(i + 1)
                    if i >= n or s[i] != '"':
                        raise self.at("Expected double-quoted property name", i)
                    key, i = self.key(i, False)
                    open_[-1] = (holder, key, False)
                    break
                if i < n and s[i] == "}":
                    open_.pop()
                    value, i = self.made(holder), i + 1
                    continue
                raise self.at("Expected ',' or '}' after property value", i)

    def key(self, i: int, first: bool) -> tuple[str, int]:
        """A property name at ``i`` (its opening quote) and the index past its colon."""
        end = self.string(i + 1)
        name = json.loads(from_units(self.s[i:end]))
        j = self.skip(end)
        if j >= self.n or self.s[j] != ":":
            raise self.at("Expected ':' after property name", j) if first else self.unexpected(j)
        return name, j + 1

    @staticmethod
    def made(obj: dict[str, Any]) -> dict[str, Any]:
        if not DROPPED_KEYS.isdisjoint(obj):
            keep_all_keys(obj)  # JSON.parse keeps '__proto__', 'constructor'... as own keys
        return obj

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


def parse_deep(text: str) -> Any:
    """``JSON.parse(text)`` of a text nested deeper than Python's json reads (its values as
    flowctx holds them), or the JsError V8 throws for it."""
    walk = _Walk(text)
    try:
        value, i = walk.parse()
        i = walk.skip(i)
    except _Stop as stop:
        raise JsError(stop.message, anonymous=stop.anonymous) from None
    if i < walk.n:
        raise JsError(f"Unexpected non-whitespace character after JSON at position {i}")
    return value


def json_error(text: str) -> tuple[str, str]:
    """V8's message for ``JSON.parse(text)`` where ``text`` is not JSON, and the same
    without the text it quotes (shown when the text derives from a secret)."""
    charge(ELEMENT * len(text))
    walk = _Walk(text)
    try:
        i = walk.skip(walk.parse()[1])
    except _Stop as stop:
        return stop.message, stop.anonymous
    if i < walk.n:
        return (f"Unexpected non-whitespace character after JSON at position {i}",) * 2
    return ("Unexpected token in JSON",) * 2  # not reached: Python's json refused it
