"""JSON text as ``json`` writes it, without its per-call set-up: indented
(``json.dumps(value, indent=2, default=str)``) and compact (``json.dumps(value)``).

With ``indent`` set, Python's ``json`` leaves its C encoder for the pure-Python one, a
generator per container and a call per token: most of what ``flowctx matrix --format json``
spent on 3,000 variables after resolving them. This writer lays out the containers itself and
hands every string to the C function ``json`` uses for it, so the text is the same to the byte
(``tests/core/test_jsonwrite.py`` compares the two on every kind of value).

Anything this writer does not lay out itself (a key that is not a string, a value of another
type, a very deep value) is written by ``json.dumps`` at that point and indented to fit,
so its text, and its errors, are json's own.
"""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, Final

_INDENT: Final = "  "
#: deeper containers go to json.dumps, which also refuses a value that contains itself
_MAX_DEPTH: Final = 100
_FLOAT_REPR: Final = float.__repr__
_INT_REPR: Final = int.__repr__


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, default=str)``."""
    scalar = _SCALARS.get(type(value))
    return scalar(value) if scalar is not None else _container(value, 0)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return _FLOAT_REPR(value)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _null(value: None) -> str:
    return "null"


#: the text of each value json writes as a scalar, by exact type (a subclass, rarer, takes
#: the slower way, to the same text)
_SCALARS: Final[dict[type, Any]] = {
    str: encode_basestring_ascii,
    bool: _bool,
    int: _INT_REPR,
    float: _float,
    type(None): _null,
}


def _container(value: Any, depth: int) -> str:
    if depth < _MAX_DEPTH:
        if isinstance(value, dict):
            if not value:
                return "{}"
            text = _dict(value, depth)
            if text is not None:
                return text
        elif isinstance(value, (list, tuple)):
            return _list(value, depth) if value else "[]"
        elif isinstance(value, str):
            return encode_basestring_ascii(value)
        elif value is None or isinstance(value, (int, float)):
            return json.dumps(value)  # a subclass: json's text for it
    text = json.dumps(value, indent=2, default=str)
    return text.replace("\n", "\n" + _INDENT * depth) if depth else text


#: ``"key": `` as written, by key: a matrix repeats the same dozen keys on every row, so
#: most keys are encoded once per process. Bounded, so values' own keys (user data, any
#: number of them) cannot grow it without limit in the app's long-lived process.
_KEY_TEXT: dict[str, str] = {}
_KEY_TEXT_MAX: Final = 4096


#: a line's start at each depth, and the separator between items there: made once, not
#: per container
_NEWLINE: Final = tuple("\n" + _INDENT * d for d in range(_MAX_DEPTH + 2))
_SEPARATOR: Final = tuple("," + line for line in _NEWLINE)


def _dict(value: dict[str, Any], depth: int) -> str | None:
    """The text of ``value``, or None when a key is not a string (json's own conversions)."""
    scalars = _SCALARS
    known = _KEY_TEXT
    parts = []
    for key, item in value.items():
        if type(key) is not str:
            return None
        scalar = scalars.get(type(item))
        text = scalar(item) if scalar is not None else _container(item, depth + 1)
        head = known.get(key)
        if head is None:
            head = encode_basestring_ascii(key) + ": "
            if len(known) < _KEY_TEXT_MAX:
                known[key] = head
        parts.append(head + text)
    # one f-string: the text is copied once (a chain of + copies the whole body at each step,
    # megabytes for the matrix's list of rows)
    return f"{{{_NEWLINE[depth + 1]}{_SEPARATOR[depth + 1].join(parts)}{_NEWLINE[depth]}}}"


def _list(value: list[Any] | tuple[Any, ...], depth: int) -> str:
    scalars = _SCALARS
    parts = []
    for item in value:
        scalar = scalars.get(type(item))
        parts.append(scalar(item) if scalar is not None else _container(item, depth + 1))
    return f"[{_NEWLINE[depth + 1]}{_SEPARATOR[depth + 1].join(parts)}{_NEWLINE[depth]}]"


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


#: ``json.dumps``'s own C encoder, made once (json makes one per call): for many small
#: documents, one per line of ``flowctx eval --batch``
_COMPACT: Final = (
    c_make_encoder(None, _refuse, encode_basestring_ascii, None, ": ", ", ", False, False, True)
    if c_make_encoder is not None
    else None
)


def dumps_compact(value: Any) -> str:
    """``json.dumps(value)`` for a value that holds no container twice on one path (the
    encoder made once does not look for cycles)."""
    if _COMPACT is None:  # an interpreter without json's C speed-ups
        return json.dumps(value)
    return "".join(_COMPACT(value, 0))
