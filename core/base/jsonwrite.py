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
    out: list[str] = []
    _write(value, out, 0)
    return "".join(out)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return _FLOAT_REPR(value)


def _scalar(value: Any) -> str | None:
    """The text of a value that is not a container, or None when json.dumps must write it."""
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return _INT_REPR(value)
    if isinstance(value, float):
        return _float(value)
    return None


def _fallback(value: Any, out: list[str], depth: int) -> None:
    text = json.dumps(value, indent=2, default=str)
    out.append(text.replace("\n", "\n" + _INDENT * depth) if depth else text)


def _write(value: Any, out: list[str], depth: int) -> None:
    text = _scalar(value)
    if text is not None:
        out.append(text)
        return
    if depth >= _MAX_DEPTH:
        _fallback(value, out, depth)
    elif isinstance(value, dict):
        _write_dict(value, out, depth)
    elif isinstance(value, (list, tuple)):
        _write_list(value, out, depth)
    else:
        _fallback(value, out, depth)


def _write_dict(value: dict[Any, Any], out: list[str], depth: int) -> None:
    if not value:
        out.append("{}")
        return
    if not all(type(k) is str for k in value):
        _fallback(value, out, depth)  # json's own key conversions (and refusals)
        return
    inner = "\n" + _INDENT * (depth + 1)
    separator = "," + inner
    put = out.append
    put("{" + inner)
    first = True
    for key, item in value.items():
        if first:
            first = False
        else:
            put(separator)
        put(encode_basestring_ascii(key))
        put(": ")
        text = _scalar(item)
        if text is not None:
            put(text)
        else:
            _write(item, out, depth + 1)
    put("\n" + _INDENT * depth + "}")


def _write_list(value: list[Any] | tuple[Any, ...], out: list[str], depth: int) -> None:
    if not value:
        out.append("[]")
        return
    inner = "\n" + _INDENT * (depth + 1)
    separator = "," + inner
    put = out.append
    put("[" + inner)
    first = True
    for item in value:
        if first:
            first = False
        else:
            put(separator)
        text = _scalar(item)
        if text is not None:
            put(text)
        else:
            _write(item, out, depth + 1)
    put("\n" + _INDENT * depth + "]")


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
