"""TextEncoder and TextDecoder as node 20 has them: UTF-8 out (a lone surrogate as U+FFFD,
``encodeInto`` stopping before a character that does not fit), UTF-8 and UTF-16 in (the
WHATWG replacement of each maximal ill-formed subpart, the byte order mark taken off unless
``ignoreBOM``, ``fatal``'s TypeError, ``stream`` keeping an unfinished sequence for the next
call), with node's argument errors and every label it accepts (``encodings.json``, measured).
The single-byte legacy encodings (ISO 8859, KOI8, windows-125x...) decode by each byte's text
as node gives it (measured); the multi-byte ones (GBK, gb18030, Big5, EUC-KR, EUC-JP,
Shift_JIS) byte by byte as ICU's converters read them, with gb18030's four-byte and EUC-JP's
three-byte sequences (``multibyte.json.gz``, measured with their errors, ``fatal`` and
``stream``); ISO-2022-JP as ICU's state machine switched by escapes reads it (ICU's, not the
WHATWG decoder: ``iso2022jp.json.gz``, measured with its errors, ``fatal`` and ``stream``).
windows-1252 (``latin1``, ``ascii``...) is two decoders in node 20, as
measured: Latin-1 (each byte its own code point, 0x80 is U+0080) until the decoder is first
asked to ``stream``, and ICU's windows-1252 (0x80 is U+20AC; the five bytes it leaves
undefined are their own code points) from then on."""

from __future__ import annotations

import bisect
import codecs
import functools
import gzip
import json
from collections.abc import Callable
from importlib import resources
from typing import Any, Final, NamedTuple

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.host.typedarrays import (
    JsArrayBuffer,
    JsTypedArray,
    _object_proto,
    bound_method,
    create,
)
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsPropsObject,
    is_nullish,
    number_to_string,
    to_string,
    truthy,
    typeof,
)

#: the labels node's TextDecoder accepts and the encoding each names, measured from node
#: (scripts/text_encodings.mjs); any other label is node's RangeError
_MEASURED: Final = json.loads(
    resources.files(__package__).joinpath("encodings.json").read_text("utf-8")
)
ENCODINGS: Final[dict[str, str]] = _MEASURED["labels"]
#: labels the standard gives an encoding node refuses: its RangeError names the encoding
_REFUSED: Final[dict[str, str]] = _MEASURED["refused"]
#: the single-byte encodings: each byte's text as node decodes it
_SINGLE: Final[dict[str, dict[int, str]]] = {
    name: dict(enumerate(table)) for name, table in _MEASURED["single"].items()
}
_CODECS: Final = {"utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be"}


class _Multibyte(NamedTuple):
    single: list[str]
    rows: dict[int, str]
    #: a longer form's sequences: runs (first index, last index, first code point)
    firsts: list[int]
    runs: list[tuple[int, int, int]]


@functools.cache
def _multibyte() -> dict[str, _Multibyte]:
    """The multi-byte encodings as node's ICU decodes them (scripts/text_multibyte.mjs): each
    byte alone, and per lead byte a row of what it makes with each next byte ("\x00": no
    pair, the lead alone and the next byte read anew; "\x01": one error for both; "\x02": a
    longer sequence starts, ``_LONGER``)."""
    raw = resources.files(__package__).joinpath("multibyte.json.gz").read_bytes()
    data = json.loads(gzip.decompress(raw))
    out = {}
    for name, table in data["encodings"].items():
        runs = [tuple(run) for run in table.get("longer", [])]
        out[name] = _Multibyte(
            table["single"],
            {int(lead): row for lead, row in table["rows"].items()},
            [run[0] for run in runs],
            runs,  # type: ignore[arg-type]
        )
    return out


def _gb18030_index(s: bytes) -> int:
    return ((s[0] - 0x81) * 10 + (s[1] - 0x30)) * 1260 + (s[2] - 0x81) * 10 + (s[3] - 0x30)


def _euc_jp_index(s: bytes) -> int:
    return (s[1] - 0xA1) * 94 + (s[2] - 0xA1)


#: the longer sequences: the range of each byte after the first two, and the index of a whole
#: sequence in its table (gb18030's four bytes, EUC-JP's 0x8F and two more)
_LONGER: Final[dict[str, tuple[tuple[tuple[int, int], ...], Callable[[bytes], int]]]] = {
    "gb18030": (((0x81, 0xFE), (0x30, 0x39)), _gb18030_index),
    "euc-jp": (((0xA1, 0xFE),), _euc_jp_index),
}


def _longer_at(table: _Multibyte, encoding: str, data: bytes, i: int) -> tuple[str, int] | str:
    """The text and length of the longer sequence at ``i``; "bad" where a byte is out of its
    range (the lead is then one error and the rest read anew); "short" where the bytes end
    inside it."""
    ranges, index = _LONGER[encoding]
    need = 2 + len(ranges)
    for k, (low, high) in enumerate(ranges, start=2):
        if i + k >= len(data):
            return "short"
        if not low <= data[i + k] <= high:
            return "bad"
    at = index(data[i : i + need])
    found = bisect.bisect_right(table.firsts, at) - 1
    if found >= 0 and at <= table.runs[found][1]:
        return chr(table.runs[found][2] + at - table.runs[found][0]), need
    return "\ufffd", need


def _decode_multibyte(decoder: JsTextDecoder, table: _Multibyte, data: bytes, stream: bool) -> str:
    """Byte by byte as ICU's converter reads them; streamed, an unfinished sequence at the end
    waits for the next call (node keeps it in the converter)."""
    single, rows = table.single, table.rows
    data = decoder.pending + data
    decoder.pending = b""
    charge(len(data) // 2 + 1)
    out: list[str] = []
    error = False
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        row = rows.get(b)
        if row is not None:
            if i + 1 < n:
                got = row[data[i + 1]]
                if got == "\x02":
                    found = _longer_at(table, decoder.encoding, data, i)
                    if found == "short":
                        if stream:
                            decoder.pending = data[i:]
                            break
                        out.append("\ufffd")  # one error for the unfinished rest
                        error = True
                        break
                    if isinstance(found, tuple):
                        out.append(found[0])
                        error = error or found[0] == "\ufffd"
                        i += found[1]
                        continue
                    out.append("\ufffd")  # a byte out of range: the lead alone is the error
                    error = True
                    i += 1
                    continue
                if got == "\x01":
                    out.append("\ufffd")
                    error = True
                    i += 2
                    continue
                if got != "\x00":
                    out.append(got)
                    i += 2
                    continue
            elif stream:
                decoder.pending = data[i:]
                break
        text = single[b]
        error = error or text == "\ufffd"
        out.append(text)
        i += 1
    if error and decoder.fatal:
        decoder.pending = b""
        raise JsError(f"The encoded data was not valid for encoding {decoder.encoding}")
    return "".join(out)


class _Iso2022Jp(NamedTuple):
    #: escape sequences (the bytes after ESC) and their starts: "prefix" (a longer one starts),
    #: the state one switches to, or "refused" (one error for all its bytes)
    escapes: dict[bytes, str]
    #: JIS X 0208: the text of each pair of bytes from 0x21 to 0x7E, 94 by 94
    pairs: str


@functools.cache
def _iso2022jp() -> _Iso2022Jp:
    """ISO-2022-JP as node's ICU decodes it (scripts/text_iso2022.mjs)."""
    raw = resources.files(__package__).joinpath("iso2022jp.json.gz").read_bytes()
    data = json.loads(gzip.decompress(raw))
    return _Iso2022Jp(
        {bytes.fromhex(seq): kind for seq, kind in data["escapes"].items()}, data["jis0208"]
    )


#: JIS X 0201 Roman: ASCII but for the yen sign and the overline
_ROMAN: Final = {0x5C: "\u00a5", 0x7E: "\u203e"}
_KATAKANA: Final = 0xFF61 - 0x21


def _decode_iso2022jp(decoder: JsTextDecoder, data: bytes, stream: bool) -> str:
    """Byte by byte as ICU's converter reads ISO-2022-JP: ASCII until an escape switches to JIS X
    0201 Roman, its katakana or JIS X 0208's pairs; a line break in the pairs' state is itself
    and back to ASCII; an escape right after another (nothing decoded between) is an error, as
    are SO and SI. Streamed, an unfinished escape or pair waits for the next call, with the
    state it found (``decoder.jis``); with ``fatal``, a streamed call's error drops the rest of
    its bytes and keeps the state it left, a flush's leaves the decoder new (as measured)."""
    table = _iso2022jp()
    data = decoder.pending + data
    decoder.pending = b""
    charge(len(data) // 2 + 1)
    state, empty = decoder.jis
    out: list[str] = []
    error = False
    i, n = 0, len(data)
    while i < n and not (error and decoder.fatal):  # fatal: the rest after an error is dropped
        b = data[i]
        if b == 0x1B:
            k = i + 1
            kind = "prefix"
            while kind == "prefix" and k < n:
                k += 1
                kind = table.escapes.get(data[i + 1 : k], "")
            if kind == "prefix":  # the bytes end inside the sequence
                if stream:
                    decoder.pending = data[i:]
                    break
                out.append("\ufffd")
                error = True
                break
            if not kind:  # an unknown escape: ESC alone is the error, what follows read anew
                k = i + 1
            if kind in ("", "refused") or empty:
                out.append("\ufffd")
                error = True
                empty = False
            else:
                empty = True
            if kind not in ("", "refused"):
                state = kind
            i = k
            continue
        empty = False
        if b in (0x0A, 0x0D):
            if state != "roman":
                state = "ascii"
            out.append(chr(b))
            i += 1
            continue
        text = "\ufffd"
        step = 1
        if b in (0x0E, 0x0F):
            pass
        elif state == "ascii":
            text = chr(b) if b < 0x80 else text
        elif state == "roman":
            text = _ROMAN.get(b, chr(b)) if b < 0x80 else text
        elif state == "katakana":
            text = chr(b + _KATAKANA) if 0x21 <= b <= 0x5F else text
        elif i + 1 == n:  # a pair's first byte ends the bytes
            if stream:
                decoder.pending = data[i:]
                break
        else:
            t = data[i + 1]
            if 0x21 <= t <= 0x7E:
                if 0x21 <= b <= 0x7E:
                    text = table.pairs[(b - 0x21) * 94 + t - 0x21]
                    step = 2
            elif t not in (0x1B, 0x0E, 0x0F):
                step = 2  # neither byte starts a character: one error for both
        error = error or text == "\ufffd"
        out.append(text)
        i += step
    # a flush leaves the decoder new; a streamed call keeps the state, that of its error too
    decoder.jis = (state, empty) if stream else ("ascii", False)
    if error and decoder.fatal:
        raise JsError(f"The encoded data was not valid for encoding {decoder.encoding}")
    return "".join(out)


_BOMS: Final = {"utf-8": b"\xef\xbb\xbf", "utf-16le": b"\xff\xfe", "utf-16be": b"\xfe\xff"}
_ASCII_SPACE: Final = "\t\n\x0c\r "


def _windows_1252(b: int) -> str:
    try:
        return bytes([b]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(b)  # the five bytes windows-1252 leaves undefined


#: Latin-1 text to windows-1252's: the code points 0x80 to 0x9F that it reads otherwise
_WINDOWS_1252: Final = {b: _windows_1252(b) for b in range(0x80, 0xA0)}


def received(v: Any) -> str:
    """How node's ERR_INVALID_ARG_TYPE names the value it was given."""
    if v is UNDEFINED:
        return "Received undefined"
    if v is None:
        return "Received null"
    kind = typeof(v)
    if kind == "function":
        return f"Received function {to_string(v.name) if hasattr(v, 'name') else ''}"
    if kind == "object":
        return f"Received an instance of {constructor_name(v)}"
    if kind == "string":
        shown = v if len(v) <= 25 else v[:25] + "..."
        quote = "'" if "'" not in shown else '"' if '"' not in shown else "`"
        return f"Received type string ({quote}{shown}{quote})"
    if kind == "number":
        text = "-0" if v == 0 and str(v).startswith("-") else number_to_string(v)
        return f"Received type number ({text})"
    if kind == "bigint":
        return f"Received type bigint ({to_string(v)}n)"
    if kind == "symbol":
        return f"Received type symbol ({v.shown()})"
    return f"Received type {kind} ({to_string(v)})"


def constructor_name(v: Any) -> str:
    """The name of an object's constructor, as node's messages give it."""
    t = type(v)
    if t is list or t is tuple:
        return "Array"
    host = getattr(v, "TAG", None)
    if host is not None and host != "Error":
        return str(host)
    name = t.__name__
    if name == "JsCollection":
        return "Set" if v.is_set else "Map"
    if name == "JsWeakCollection":
        return str(v.kind)
    if name in ("JsDate", "JsRegExp"):
        return name[2:]
    if name in ("JsErrorObject", "JsAggregateError"):
        return str(v.name)
    if name == "JsWrapper":
        return str(v.tag)[8:-1]
    return "Object"


def _arg_type(name: str, expected: str, v: Any) -> JsError:
    return JsError(f'The "{name}" argument must be {expected}. {received(v)}')


# --- TextEncoder -------------------------------------------------------------------------------


def _well_formed(s: str) -> str:
    if any("\ud800" <= c <= "\udfff" for c in s):
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)
    return s


class JsTextEncoder(JsPropsObject):
    __slots__ = ()
    TAG: Final = "TextEncoder"
    KINDS: Final = frozenset({"TextEncoder"})

    def __init__(self) -> None:
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return "#<TextEncoder>"

    def __repr__(self) -> str:
        return "[object TextEncoder]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object TextEncoder]"

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "encoding":
            return "utf-8"
        method = _ENCODER_METHODS.get(key)
        if method is not None:
            fn, arity = method
            return bound_method(
                self, key, functools.partial(fn, self), arity, f"TextEncoder.prototype.{key}"
            )
        return _object_proto(self, key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if isinstance(this, JsTextEncoder):
            return this.js_get(name).fn(*args)
        raise JsError('Value of "this" must be of type TextEncoder')

    def js_set(self, key: str, value: Any) -> None:
        if key == "encoding":
            raise JsError("Cannot set property encoding of #<TextEncoder> which has only a getter")
        super().js_set(key, value)


def _encode(_: JsTextEncoder, text: Any = UNDEFINED, *__: Any) -> JsTypedArray:
    s = "" if text is UNDEFINED else to_string(text)
    charge(len(s) // 8 + 1)
    data = _well_formed(s).encode("utf-8")
    ta = create("Uint8Array", len(data))
    ta.buffer.data[:] = data
    return ta


def _encode_into(
    _: JsTextEncoder, src: Any = UNDEFINED, dest: Any = UNDEFINED, *__: Any
) -> dict[str, Any]:
    if type(src) is not str:
        raise _arg_type("src", "of type string", src)
    if not isinstance(dest, JsTypedArray) or dest.kind != "Uint8Array":
        raise _arg_type("dest", "an instance of Uint8Array", dest)
    room = dest.length()
    charge(len(src) // 8 + 1)
    read = written = 0
    out = bytearray()
    for c in src:
        encoded = _well_formed(c).encode("utf-8")
        if written + len(encoded) > room:
            break
        out += encoded
        written += len(encoded)
        read += 2 if ord(c) > 0xFFFF else 1
    if out:
        start = dest.offset
        dest.buffer.data[start : start + len(out)] = out
    return {"read": read, "written": written}


_ENCODER_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "encode": (_encode, 0),
    "encodeInto": (_encode_into, 2),
}


def new_text_encoder(*_: Any) -> JsTextEncoder:
    return JsTextEncoder()


# --- TextDecoder -------------------------------------------------------------------------------


class JsTextDecoder(JsPropsObject):
    """A decoder of ``encoding``; a streaming decode keeps its state between calls."""

    __slots__ = ("bom_done", "encoding", "fatal", "icu", "ignore_bom", "jis", "pending", "state")
    TAG: Final = "TextDecoder"
    KINDS: Final = frozenset({"TextDecoder"})

    def __init__(self, encoding: str, fatal: bool, ignore_bom: bool) -> None:
        self.encoding = encoding
        self.fatal = fatal
        self.ignore_bom = ignore_bom
        self.state: codecs.IncrementalDecoder | None = None
        self.bom_done = False
        self.icu = False  # windows-1252: ICU's decoder since the first streaming call
        self.pending = b""  # the double-byte encodings: a lead byte a streamed call ended with
        self.jis = ("ascii", False)  # ISO-2022-JP: the state, whether an escape just switched it
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return "#<TextDecoder>"

    def __repr__(self) -> str:
        return "[object TextDecoder]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object TextDecoder]"

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "encoding":
            return self.encoding
        if key == "fatal":
            return self.fatal
        if key == "ignoreBOM":
            return self.ignore_bom
        if key == "decode":
            return bound_method(
                self, key, functools.partial(_decode, self), 0, "TextDecoder.prototype.decode"
            )
        return _object_proto(self, key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if isinstance(this, JsTextDecoder):
            return this.js_get(name).fn(*args)
        raise JsError('Value of "this" must be of type TextDecoder')

    def js_set(self, key: str, value: Any) -> None:
        if key in ("encoding", "fatal", "ignoreBOM"):
            raise JsError(f"Cannot set property {key} of #<TextDecoder> which has only a getter")
        super().js_set(key, value)


#: what decode says of an input that is no buffer, by the decoder node runs for the encoding
_NOT_BUFFER: Final = {
    "utf-8": 'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or '
    "ArrayBufferView.",
    "utf-16le": 'The "input" argument must be an instance of SharedArrayBuffer, ArrayBuffer or '
    "ArrayBufferView.",
    "windows-1252": 'The "input" argument must be an instance of ArrayBuffer, '
    "SharedArrayBuffer, or ArrayBufferView.",
}


def _bytes_of(input_: Any, encoding: str) -> bytes:
    if isinstance(input_, JsArrayBuffer):
        return bytes(input_.data)
    if isinstance(input_, JsTypedArray):
        start = input_.offset
        return bytes(input_.buffer.data[start : start + input_.length() * input_.size])
    if type(input_).__name__ == "JsDataView":
        size = input_.size("byteLength")
        return bytes(input_.buffer.data[input_.offset : input_.offset + size])
    raise JsError(_NOT_BUFFER.get(encoding, _NOT_BUFFER["utf-16le"]))


def _decode(
    decoder: JsTextDecoder, input_: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> str:
    data = b"" if input_ is UNDEFINED else _bytes_of(input_, decoder.encoding)
    stream = False
    if not is_nullish(options) and typeof(options) in ("object", "function"):
        from flowctx_core.expressions.js.objects import get_member

        stream = truthy(get_member(options, "stream"))
    charge(len(data) // 8 + 1)
    codec = _CODECS.get(decoder.encoding)
    single = _SINGLE.get(decoder.encoding)
    if single is not None:
        text = data.decode("latin-1").translate(single)
        if decoder.fatal and "\ufffd" in text:
            raise JsError(f"The encoded data was not valid for encoding {decoder.encoding}")
        return text
    multibyte = _multibyte().get(decoder.encoding) if codec is None else None
    if multibyte is not None:
        return _decode_multibyte(decoder, multibyte, data, stream)
    if decoder.encoding == "iso-2022-jp":
        return _decode_iso2022jp(decoder, data, stream)
    if codec is None:
        decoder.icu = decoder.icu or stream
        return (
            data.decode("latin-1").translate(_WINDOWS_1252)
            if decoder.icu
            else data.decode("latin-1")
        )
    if decoder.state is None:
        errors = "strict" if decoder.fatal else "replace"
        decoder.state = codecs.getincrementaldecoder(codec)(errors)
        decoder.bom_done = False
    try:
        text = decoder.state.decode(data, final=not stream)
    except UnicodeDecodeError:
        decoder.state = None
        raise JsError(f"The encoded data was not valid for encoding {decoder.encoding}") from None
    if not decoder.bom_done and text:
        decoder.bom_done = True
        if text[0] == "\ufeff" and not decoder.ignore_bom:
            text = text[1:]
    if not stream:
        decoder.state = None
    return text


def new_text_decoder(label: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JsTextDecoder:
    text = "utf-8" if label is UNDEFINED else to_string(label)
    fatal = ignore_bom = False
    if options is not UNDEFINED and options is not None:
        if typeof(options) not in ("object", "function"):
            raise _arg_type("options", "of type object", options)
        from flowctx_core.expressions.js.objects import get_member

        fatal = truthy(get_member(options, "fatal"))
        ignore_bom = truthy(get_member(options, "ignoreBOM"))
    label = text.strip(_ASCII_SPACE).lower()
    encoding = ENCODINGS.get(label)
    if encoding is None:
        text = _REFUSED.get(label, text)
        raise JsError(
            f'The "{text}" encoding is not supported', anonymous="The encoding is not supported"
        )
    return JsTextDecoder(encoding, fatal, ignore_bom)
