"""node 20's pure host globals in MemberJunction conditions (issue 36): ArrayBuffer, the typed
arrays, DataView, TextEncoder/TextDecoder, URL/URLSearchParams, AggregateError and Atomics
over typed arrays. Each value or error text below is node 20's, measured through
MemberJunction 5.51.3's evaluator ("Expression evaluation failed: " taken off); the
differential families (tests/differential/families_host.py) compare thousands more."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.expressions import evaluate
from flowctx_tui.cli import main
from tests.core.mjvalues import error_of, string_of

SCOPE: dict[str, Any] = {
    "payload": {"s": "a😀b", "arr": [1, 2, 3], "u": "https://x.org/p?q=caf%C3%A9&q=2#top",
                "mb": {"maxByteLength": 8}, "fatal": {"fatal": True}, "o": {"a": 1}}
}  # fmt: skip


def _string(expr: str) -> str:
    return string_of(expr, SCOPE)


def _error(expr: str) -> str:
    return error_of(expr, SCOPE)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # elements converted on every write: modulo 2**n, clamped half to even, float32
        ("new Int8Array([300, -200, 1.7, NaN, '5'])", "44,56,1,0,5"),
        ("new Uint8ClampedArray([300, -5, 1.5, 2.5, 254.5])", "255,0,2,2,254"),
        ("new Float32Array([1.1])[0]", "1.100000023841858"),
        ("String(new BigInt64Array([2n ** 63n, -1n]))", "-9223372036854775808,-1"),
        # the default sort is numeric, -0 before +0 and NaN last
        ("new Float64Array([3, -0, 0, NaN, -1, 10]).sort().join()", "-1,0,0,3,10,NaN"),
        ("JSON.stringify(new Uint8Array([1, 2]))", '{"0":1,"1":2}'),
        ("Object.keys(new Uint16Array(3)).join()", "0,1,2"),
        ("new Uint8Array([1, 2, 3]).subarray(1).byteOffset", "1"),
        ("new Uint8Array(new Uint16Array([258, 3]).buffer).join()", "2,1,3,0"),
        ("structuredClone(new Uint8Array([1, 2]).subarray(1)).join()", "2"),
        # a length-tracking view over a resizable buffer follows it
        (
            "(b => (u => (b.resize(6), u.length))(new Uint8Array(b)))"
            "(new ArrayBuffer(2, payload.mb))",
            "6",
        ),
        (
            "(d => (d.setUint16(0, 258), [d.getUint8(0), d.getUint16(0, true)]))"
            "(new DataView(new ArrayBuffer(4)))",
            "1,513",
        ),
        ("new TextEncoder().encode(payload.s).join()", "97,240,159,152,128,98"),
        (
            "new TextDecoder().decode(new Uint8Array([0xf0, 0x9f, 0x98, 0x80, 0xc0, 0x80]))",
            "😀\ufffd\ufffd",
        ),
        (
            "JSON.stringify(new TextEncoder().encodeInto(payload.s, new Uint8Array(3)))",
            '{"read":1,"written":1}',
        ),
        ("new URL(payload.u).searchParams.getAll('q').join('|')", "café|2"),
        (
            "new URL('HTTP://User@EXAMPLE.com:80/a/../b/./c?x=1 2#f g').href",
            "http://User@example.com/b/c?x=1%202#f%20g",
        ),
        ("new URL('http://0x7f.1/').hostname", "127.0.0.1"),
        ("new URL('http://[1:0:0:0:0:0:0:1]').host", "[1::1]"),
        (
            "(u => (u.searchParams.append('k', 'v w'), u.href))(new URL('http://h/?'))",
            "http://h/?k=v+w",
        ),
        ("(u => (u.port = '8080x', u.href))(new URL('http://a/'))", "http://a:8080/"),
        ("String(new AggregateError([1, 2], 'm'))", "AggregateError: m"),
        ("(t => (Atomics.add(t, 1, 5), t.join()))(new Int8Array(4))", "0,5,0,0"),
    ],
)
def test_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("Uint8Array(1)", "Constructor Uint8Array requires 'new'"),
        ("URL('http://a')", "Class constructor URL cannot be invoked without 'new'"),
        ("new Uint8Array(-1)", "Invalid typed array length: -1"),
        (
            "new Uint16Array(new ArrayBuffer(8), 1)",
            "start offset of Uint16Array should be a multiple of 2",
        ),
        ("new BigInt64Array([1])", "Cannot convert 1 to a BigInt"),
        ("new Uint8Array(3).set([1, 2], 2)", "offset is out of bounds"),
        ("Object.freeze(new Uint8Array(2))", "Cannot freeze array buffer views with elements"),
        (
            "new ArrayBuffer(8).resize(4)",
            "Method ArrayBuffer.prototype.resize called on incompatible receiver #<ArrayBuffer>",
        ),
        (
            "(b => (u => (b.resize(2), u.join()))(new Uint8Array(b, 0, 4)))"
            "(new ArrayBuffer(4, payload.mb))",
            "Cannot perform %TypedArray%.prototype.join on a detached ArrayBuffer",
        ),
        (
            "new DataView(new ArrayBuffer(4)).getInt32(1)",
            "Offset is outside the bounds of the DataView",
        ),
        (
            "new TextDecoder('utf-8', payload.fatal).decode(new Uint8Array([0xff]))",
            "The encoded data was not valid for encoding utf-8",
        ),
        (
            "new TextEncoder().encodeInto('ab', [])",
            'The "dest" argument must be an instance of Uint8Array. Received an instance of Array',
        ),
        ("new URL('http://1.2.3.4.5/')", "Invalid URL"),
        ("new URLSearchParams([1])", "Each query pair must be an iterable [name, value] tuple"),
        (
            "Atomics.add(new Float64Array(4), 0, 5)",
            "[object Float64Array] is not an integer typed array.",
        ),
    ],
)
def test_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


#: measured with node 20 (MemberJunction 5.51.3's host): UTS #46 as node's URL parser applies
#: it, quirks included (node's bidirectional rule lets an L label end with Hebrew)
IDNA_HOSTS = [
    ("münchen.de", "xn--mnchen-3ya.de"), ("MÜNCHEN.DE", "xn--mnchen-3ya.de"),
    ("XN--MNCHEN-3YA.de", "xn--mnchen-3ya.de"), ("xn--abc-", "xn--abc-"), ("ẞ", "ss"),
    ("faß.de", "xn--fa-hia.de"), ("a\u00adb", "ab"), ("a\u3002b", "a.b"), ("ⓐ", "a"),
    ("１２７.0.0.1", "127.0.0.1"), ("a\u05d0", "xn--a-0hc"), ("\u0628\u200c\u0628", "xn--ngba799q"),
    ("\u0660", "xn--8hb"), ("💩.la", "xn--ls8h.la"), ("\U00031350", "xn--8o8n"),
    ("xn--a", None), ("\u00ad", None), ("\u05d0a", None), ("a\u200cb", None), ("\u0301a", None),
    ("xn--zcar9600b", None), ("\u0660\u06f0", None), ("\ufdfa", None), ("\U000323b0", None),
]  # fmt: skip


@pytest.mark.parametrize(("host", "expected"), IDNA_HOSTS)
def test_host_names_past_ascii_go_through_uts_46_as_node_applies_it(
    host: str, expected: str | None
) -> None:
    text = "new URL('http://' + payload.h + '/').hostname"
    result = evaluate(text, {"payload": {"h": host}}, "mj")
    if expected is None:
        assert result.error is not None and result.error.message == "Invalid URL"
    else:
        assert result.raw == expected, result.error


#: measured with node 20 (its ICU's converters): pairs, gb18030's four bytes, EUC-JP's three,
#: and the errors where a lead byte alone or a pair is one U+FFFD
MULTIBYTE = [
    ("gbk", [0x81, 0x40], "\u4e02"), ("gb18030", [0x81, 0x30, 0x81, 0x30], "\u0080"),
    ("gb18030", [0x90, 0x30, 0x81, 0x30], "\U00010000"),
    ("gb18030", [0x84, 0x31, 0xA5, 0x30], "\ufffd"), ("gb18030", [0x81, 0x30, 0x41], "\ufffd0A"),
    ("euc-jp", [0x8F, 0xB0, 0xA1], "\u4e02"), ("euc-jp", [0x8F, 0xA1, 0x41], "\ufffd\ufffdA"),
    ("euc-jp", [0x8F, 0xFF], "\ufffd"), ("shift_jis", [0x81, 0x7F], "\ufffd\u001a"),
    ("big5", [0x81, 0x40], "\ueeb8"), ("euc-kr", [0xA1, 0xA1], "\u3000"),
]  # fmt: skip


@pytest.mark.parametrize(("encoding", "data", "expected"), MULTIBYTE)
def test_multi_byte_legacy_encodings_decode_as_nodes_icu_does(
    encoding: str, data: list[int], expected: str
) -> None:
    scope = {"payload": {"e": encoding, "a": data}}
    result = evaluate("new TextDecoder(payload.e).decode(new Uint8Array(payload.a))", scope, "mj")
    assert result.raw == expected, result.error


def test_multi_byte_decoders_stream_and_fail_as_node_does() -> None:
    three = (
        "(d => [d.decode(payload.x), d.decode(payload.x, payload.s), d.decode(payload.x)]"
        ".join('|'))(new TextDecoder('gbk'))"
    )
    scope = {"x": [0x80, 0x82, 0x81, 0xE9], "s": {"stream": True}}
    result = evaluate(three.replace("payload.x", "new Uint8Array(payload.x)"), {"payload": scope})
    assert result.raw == "€倎�|€倎|閫倎�", result.error
    held = (
        "(d => [d.decode(new Uint8Array([0x81]), payload.s), d.decode()].join('|'))"
        "(new TextDecoder('big5'))"
    )
    assert evaluate(held, {"payload": {"s": {"stream": True}}}, "mj").raw == "|\ufffd"
    text = "new TextDecoder('gbk', payload.f).decode(new Uint8Array([0x81]))"
    fatal = evaluate(text, {"payload": {"f": {"fatal": True}}}, "mj")
    assert fatal.error is not None
    assert fatal.error.message == "The encoded data was not valid for encoding gbk"


#: measured with node 20 (ICU's ISO-2022-JP, not the WHATWG decoder): the switches to JIS X
#: 0208, JIS X 0201 Roman and katakana; a line break back to ASCII; two switches in a row, an
#: escape node refuses (ESC $ A), an unknown one (ESC alone), SO and bytes past ASCII as errors
ISO_2022_JP = [
    ([0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x4A, 0x5C, 0x7E, 0x1B, 0x28, 0x49,
      0x31, 0x5F], "日本¥‾ｱﾟ"),
    ([0x1B, 0x24, 0x42, 0x30, 0x21, 0x0A, 0x41], "亜\nA"),
    ([0x1B, 0x24, 0x42, 0x1B, 0x28, 0x42, 0x41], "\ufffdA"),
    ([0x1B, 0x24, 0x41, 0x41], "\ufffdA"), ([0x1B, 0x41, 0x42], "\ufffdAB"),
    ([0x1B, 0x24, 0x42, 0x30, 0x0A, 0x41], "\ufffd\ufffd"),
    ([0x41, 0x0E, 0x80, 0x42], "A\ufffd\ufffdB"),
    ([0x1B, 0x28, 0x49, 0x0D, 0x5C], "\r\\"), ([0x1B, 0x24, 0x42, 0x22, 0x2F], "\ufffd"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "expected"), ISO_2022_JP)
def test_iso_2022_jp_decodes_as_nodes_icu_state_machine_does(
    data: list[int], expected: str
) -> None:
    text = "new TextDecoder('iso-2022-jp').decode(new Uint8Array(payload.a))"
    result = evaluate(text, {"payload": {"a": data}}, "mj")
    assert result.raw == expected, result.error


def test_iso_2022_jp_streams_its_state_and_fails_as_node_does() -> None:
    calls = (
        "(d => payload.a.map((a, i) => d.decode(new Uint8Array(a), payload.o[i])).join('|'))"
        "(new TextDecoder('iso-2022-jp'))"
    )
    stream = {"stream": True}
    scope = {"a": [[0x1B, 0x24], [0x42, 0x30], [0x21], [], [0x30, 0x21]]}
    scope["o"] = [stream, stream, stream, None, None]
    # the escape and the pair wait across calls; the flush leaves the decoder in ASCII
    assert evaluate(calls, {"payload": scope}, "mj").raw == "||亜||0!"
    text = "new TextDecoder('iso-2022-jp', payload.f).decode(new Uint8Array(payload.a))"
    scope = {"f": {"fatal": True}, "a": [0x1B, 0x24, 0x42, 0x30]}
    fatal = evaluate(text, {"payload": scope}, "mj")
    assert fatal.error is not None
    assert fatal.error.message == "The encoded data was not valid for encoding iso-2022-jp"
    scope["a"] = [0x1B, 0x24, 0x42, 0x30, 0x21]
    assert evaluate(text, {"payload": scope}, "mj").raw == "亜"


def test_url_can_parse_warns_of_nodes_optimized_answer_for_latin_1_hosts() -> None:
    """Measured with node 20: canParse('x', 'http://é.de/') is true in a fresh process and
    false once V8 has optimized the calls; flowctx gives the first answer and says so."""
    result = evaluate("URL.canParse('x', payload.base)", {"payload": {"base": "http://é.de/"}})
    assert result.value is True
    assert any("once V8 has optimized its calls" in w for w in result.warnings)
    plain = evaluate("new URL(payload.base).host", {"payload": {"base": "http://é.de/"}})
    assert not any("canParse" in w for w in plain.warnings)


def test_what_flowctx_does_not_hold_is_refused_by_name() -> None:
    assert "source text of node's class URL" in _error("String(URL)")
    assert "Blob registry" in _error("URL.createObjectURL(1)")


def test_lengths_past_the_budget_are_refused_where_node_goes_on() -> None:
    assert "flowctx's evaluation budget" in _error("new Uint8Array(2 ** 32).length")
    assert "flowctx's evaluation budget" in _error("new ArrayBuffer(1e8).byteLength")
    assert _string("new Float64Array(300000).length") == "300000"  # bounded as arrays are
    # past V8's own bound it is V8's RangeError, not a refusal
    assert _error("new Uint8Array(2 ** 33)") == "Invalid typed array length: 8589934592"


def test_eval_prints_the_answer_and_the_located_error(capsys: pytest.CaptureFixture[str]) -> None:
    payload = json.dumps({"u": "https://x.org/p?q=1"})
    code = main(["eval", "new URL(payload.u).searchParams.get('q') === '1'", "--payload", payload])
    assert code == 0 and capsys.readouterr().out == "true\n"
    code = main(["eval", "new DataView(new ArrayBuffer(2)).getFloat64(0)"])
    err = capsys.readouterr().err
    assert code != 0 and "Offset is outside the bounds of the DataView" in err


PROBE = """
import json, sys
from flowctx_core.expressions import evaluate
loaded = lambda: sorted(m for m in sys.modules if m.startswith("flowctx_core.expressions.js.host."))
evaluate("1 === 1", {})
before = loaded()
ok = evaluate("new URL('http://a/').host === 'a'", {}).value
print(json.dumps({"before": before, "after": loaded(), "ok": ok}))
"""


def test_the_host_classes_load_on_first_use() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=root, check=True
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["before"] == [] and got["ok"] is True
    assert "flowctx_core.expressions.js.host.url" in got["after"]
    assert "flowctx_core.expressions.js.host.dataview" not in got["after"]


# measured with MemberJunction 5.51.3: a SharedArrayBuffer no other agent shares (a condition
# starts no worker): growable, its own slice, its clone the same memory; Atomics.wait on it
# answers at once or when its timeout is over, and without one would hang node: refused
SHARED = [
    ("String(new SharedArrayBuffer(8))", "[object SharedArrayBuffer]"),
    ("(g => (g.grow(4), [g.byteLength, g.maxByteLength, g.growable].join()))"
     "(new SharedArrayBuffer(2, Object.fromEntries([['maxByteLength', 8]])))", "4,8,true"),
    ("String(new SharedArrayBuffer(8).slice(2) instanceof SharedArrayBuffer)", "true"),
    ("String((s => (new Uint8Array(structuredClone(s))[0] = 7, new Uint8Array(s)[0]))"
     "(new SharedArrayBuffer(4)))", "7"),
    ("(i => [Atomics.wait(i, 0, 1), Atomics.wait(i, 0, 0, 0), Atomics.wait(i, 0, 0, 5), "
     "Atomics.notify(i, 0, 1)].join())(new Int32Array(new SharedArrayBuffer(8)))",
     "not-equal,timed-out,timed-out,0"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "expected"), SHARED)
def test_shared_array_buffers(expr: str, expected: str) -> None:
    assert _string(expr) == expected


def test_a_wait_nobody_can_notify_is_refused() -> None:
    message = _error("Atomics.wait(new Int32Array(new SharedArrayBuffer(8)), 0, 0)")
    assert "would wait forever" in message
    assert _error("new SharedArrayBuffer(8).grow(9)") == (
        "Method SharedArrayBuffer.prototype.grow called on incompatible receiver "
        "#<SharedArrayBuffer>"
    )


# measured with MemberJunction 5.51.3 (node 20.20.2): Buffer's encodings (base64 skipping what
# is in neither alphabet and stopping at '=', hex stopping at the first pair that is none),
# its statics, its views, its fill, node's own error texts; allocUnsafe hands out the host's
# memory and Buffer() prints a deprecation warning on the host's output: refused
NODE_BUFFERS = [
    ("Buffer.from('aGk=', 'base64').toString()", "hi"),
    ("Buffer.from('YQ=x', 'base64').toString('hex')", "61"),
    ("Buffer.from('68 69', 'hex').toString('hex')", "68"),
    ("JSON.stringify(Buffer.from('\\ud800a'))", '{"type":"Buffer","data":[239,191,189,97]}'),
    ("Buffer.from('abc').toString('base64url')", "YWJj"),
    ("String(Buffer.byteLength('a Gk=', 'base64'))", "3"),
    ("Buffer.from('abc').subarray(1).toString()", "bc"),
    ("Buffer.from('abc').map(x => x + 1).toString()", "bcd"),
    ("String(structuredClone(Buffer.from('a')) instanceof Buffer)", "false"),
    ("Buffer.alloc(3, 'ab').toString()", "aba"),
    ("Buffer.from('abcd').fill('x', 1, 3).toString()", "axxd"),
    ("String(Buffer.from('abcb').indexOf('YmM=', 0, 'base64'))", "1"),
    ("Buffer.concat([Buffer.from('a'), new Uint8Array([98])]).toString()", "ab"),
    (
        "(b => [b.readInt8(3), b.readUInt16BE(0), b.readIntLE(1, 6), String(b.readBigInt64LE(0))]"
        ".join())(Buffer.from([1, 2, 3, 250, 5, 6, 7, 8, 9]))",
        "-6,258,7722451469058,578437699879502337",
    ),
]
NODE_BUFFER_ERRORS = [
    ("Buffer.from(payload.o)",
     "The first argument must be of type string or an instance of Buffer, ArrayBuffer, or "
     "Array or an Array-like Object. Received an instance of Object"),
    ("Buffer.from('abc').toString('nope')", "Unknown encoding: nope"),
    ("Buffer.alloc(2 ** 33)",
     'The value of "size" is out of range. It must be >= 0 && <= 4294967296. Received '
     "8_589_934_592"),
    ("Buffer.from('abcd').fill('a\\tb', 'hex')",
     "The argument 'value' is invalid. Received 'a\\tb'"),
    ("Buffer.from('abcd').fill('x', 1.5)",
     'The value of "offset" is out of range. It must be an integer. Received 1.5'),
    ("Buffer.from([1, 2]).readUInt8(1e21)",
     'The value of "offset" is out of range. It must be >= 0 and <= 1. Received 1e_+21'),
    ("Buffer.from([1]).readUInt32BE()", "Attempt to access memory outside buffer bounds"),
    ("Buffer.from([1]).readUIntBE(undefined, 7)",
     'The "offset" argument must be of type number. Received undefined'),
    ("Buffer.concat([1])",
     'The "list[0]" argument must be an instance of Buffer or Uint8Array. Received type '
     "number (1)"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "expected"), NODE_BUFFERS)
def test_node_buffers(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(("expr", "expected"), NODE_BUFFER_ERRORS)
def test_node_buffer_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


# measured likewise: what writes a buffer's bytes, and the ranges of copy and compare
NODE_BUFFER_WRITES = [
    ("(b => [b.write('€€€', 1, 5), b.toString('hex')].join())(Buffer.alloc(8))",
     "3,00e282ac00000000"),
    ("(b => [b.write('a1b2zz', 'hex'), b.write('a😀', 4, 4, 'ucs2'), b.toString('hex')]"
     ".join())(Buffer.alloc(8))", "2,4,a1b2000061003dd8"),
    ("(b => [b.writeInt32LE(-1.5), b.writeUIntBE(2 ** 48 - 1, 2, 6), b.toString('hex')].join())"
     "(Buffer.alloc(8))", "4,8,ffffffffffffffff"),
    ("(b => [b.writeIntLE(-(2 ** 32) - 0.5, 0, 6), b.toString('hex')].join())(Buffer.alloc(6))",
     "6,00000000feff"),
    ("(b => [b.writeFloatBE(3.4028235677973366e38), b.writeBigInt64LE(-(2n ** 33n), 0)"
     ", b.toString('hex')].join())(Buffer.alloc(8))", "4,8,00000000feffffff"),
    ("(b => [b.copy(b, 1), b.toString('hex')].join())(Buffer.from([1, 2, 3]))", "2,010102"),
    ("(s => [s.copy(Buffer.alloc(4), 1.7, '2'), s.compare(Buffer.from([2, 3]), 0, 2, 1, 3)]"
     ".join())(Buffer.from([1, 2, 3, 4, 5, 6]))", "3,0"),
    ("Buffer.from([1, 2, 3, 4]).swap32().toString('hex')", "04030201"),
    ("Buffer.alloc(52).inspect().slice(-20)", "00 ... 2 more bytes>"),
    ("Buffer.copyBytesFrom(new Uint16Array([1, 2, 3]), 1, 1).toString('hex')", "0200"),
    ("String(Buffer.alloc(3).parent.byteLength + Buffer.alloc(3).offset)", "3"),
]  # fmt: skip
NODE_BUFFER_WRITE_ERRORS = [
    ("Buffer.alloc(8).writeUIntBE(2 ** 48, 0, 6)",
     'The value of "value" is out of range. It must be >= 0 and < 2 ** 48. Received '
     "281_474_976_710_656"),
    ("Buffer.alloc(8).writeBigUInt64LE(2n ** 64n)",
     'The value of "value" is out of range. It must be >= 0n and < 2n ** 64n. Received '
     "18_446_744_073_709_551_616n"),
    ("Buffer.alloc(8).writeBigInt64LE(5)",
     "Cannot mix BigInt and other types, use explicit conversions"),
    ("Buffer.alloc(8).writeInt8(300, NaN)",
     'The value of "value" is out of range. It must be >= -128 and <= 127. Received 300'),
    ("Buffer.alloc(8).writeUInt8(300, '1')",
     """The "offset" argument must be of type number. Received type string ('1')"""),
    ("Buffer.alloc(2).writeUInt16LE(1, -Infinity)",
     'The value of "offset" is out of range. It must be >= 0 and <= 0. Received -Infinity'),
    ("Buffer.alloc(8).write('abc', 1, 20)",
     'The value of "length" is out of range. It must be >= 0 && <= 8. Received 20'),
    ("Buffer.alloc(8).write(5)", "argument must be a string"),
    ("Buffer.alloc(6).copy(Buffer.alloc(4), -0.5)",
     'The value of "targetStart" is out of range. It must be >= 0. Received -1'),
    ("Buffer.alloc(3).swap16()", "Buffer size must be a multiple of 16-bits"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "expected"), NODE_BUFFER_WRITES)
def test_node_buffer_writes(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(("expr", "expected"), NODE_BUFFER_WRITE_ERRORS)
def test_node_buffer_write_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


def test_where_a_small_buffer_lives_is_the_hosts() -> None:
    """node takes a small buffer's memory from its pool: where it starts there (and the pool's
    other bytes) depend on the process's earlier buffers; a buffer of its own answers."""
    for expr in ("Buffer.from('ab').byteOffset", "Buffer.from([1]).buffer",
                 "Buffer.concat([Buffer.alloc(1)]).parent",
                 "structuredClone(Buffer.from('ab')).byteOffset",
                 "Buffer.from('abcd').subarray(1).offset"):  # fmt: skip
        assert "node took its memory from its 8 KB pool" in _error(expr), expr
    assert _string("String(Buffer.from('a'.repeat(4096)).buffer.byteLength)") == "4096"
    assert _string("String(Buffer.from('ab').map(x => x).byteOffset)") == "0"


def test_what_reaches_the_host_of_buffer_is_refused() -> None:
    assert "the host's memory" in _error("Buffer.allocUnsafe(4)")
    assert "deprecation warning" in _error("Buffer(1)")
