"""The WHATWG URL parser, written from the standard (node 20's ``URL`` runs ada, which
follows it): the basic URL parser's states, hosts (domains, IPv4 in every radix, IPv6
compressed), the percent-encode sets, dot segments and Windows drive letters, the state
overrides the setters use, and the serializer. A host that is not ASCII after
percent-decoding, or a label that is already punycode (``xn--``), goes through UTS #46 as node
applies it (``idna``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.host.idna import IdnaFailure, to_ascii

SPECIAL: Final[dict[str, int | None]] = {
    "ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443,
}  # fmt: skip


#: the evaluation budget's steps one code point of a URL costs to parse
PARSE_STEP: Final = 16


class Failure(Exception):
    """The parser returned failure (TypeError "Invalid URL" in node)."""


@dataclass
class Url:
    scheme: str = ""
    username: str = ""
    password: str = ""
    host: str | None = None  # serialized
    port: int | None = None
    path: list[str] | str = field(default_factory=list)  # a str: an opaque path
    query: str | None = None
    fragment: str | None = None
    #: the path's first segment is an opaque base's path, written without a slash before it
    #: (ada resolves a relative reference holding a '#' against an opaque base that way)
    head: bool = False

    @property
    def special(self) -> bool:
        return self.scheme in SPECIAL

    def copy(self) -> Url:
        path = self.path if isinstance(self.path, str) else list(self.path)
        return Url(self.scheme, self.username, self.password, self.host, self.port, path,
                   self.query, self.fragment, self.head)  # fmt: skip

    def credentials(self) -> bool:
        return bool(self.username or self.password)

    def cannot_have_credentials(self) -> bool:
        return self.host is None or self.host == "" or self.scheme == "file"

    def path_text(self) -> str:
        if isinstance(self.path, str):
            return self.path
        if self.head:
            return "/".join(self.path)
        return "".join("/" + segment for segment in self.path)

    def href(self, exclude_fragment: bool = False) -> str:
        out = self.scheme + ":"
        if self.host is not None:
            out += "//"
            if self.credentials():
                out += self.username
                if self.password:
                    out += ":" + self.password
                out += "@"
            out += self.host
            if self.port is not None:
                out += f":{self.port}"
        elif (
            not isinstance(self.path, str)
            and not self.head
            and len(self.path) > 1
            and self.path[0] == ""
        ):
            out += "/."
        out += self.path_text()
        if self.query is not None:
            out += "?" + self.query
        if not exclude_fragment and self.fragment is not None:
            out += "#" + self.fragment
        return out

    def origin(self) -> str:
        if self.scheme == "blob":
            try:
                inner = parse(self.path_text()) if isinstance(self.path, str) else None
            except Failure:
                return "null"
            if inner is not None and inner.scheme in ("http", "https"):
                return inner.origin()
            return "null"
        if self.scheme in ("ftp", "http", "https", "ws", "wss"):
            port = f":{self.port}" if self.port is not None else ""
            return f"{self.scheme}://{self.host}{port}"
        return "null"


# --- percent-encoding ---------------------------------------------------------------------------


def _set(extra: str, base: frozenset[int] | None = None) -> frozenset[int]:
    c0 = frozenset(range(0x20)) | frozenset(range(0x7F, 0x100))
    return (c0 if base is None else base) | frozenset(map(ord, extra))


C0: Final = _set("")
FRAGMENT: Final = _set(' "<>`')
QUERY: Final = _set(' "#<>')
SPECIAL_QUERY: Final = QUERY | {ord("'")}
PATH: Final = QUERY | frozenset(map(ord, "?`{}"))  # ada leaves ^ as it is
USERINFO: Final = PATH | frozenset(map(ord, "/:;=@[\\]|"))
COMPONENT: Final = USERINFO | frozenset(map(ord, "$%&+,"))
FORM: Final = COMPONENT | frozenset(map(ord, "!'()~"))


def utf8(text: str) -> bytes:
    """UTF-8 of a JavaScript string: a lone surrogate as U+FFFD."""
    if any("\ud800" <= c <= "\udfff" for c in text):
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text.encode("utf-8")


def encode(text: str, keep: frozenset[int], space_plus: bool = False) -> str:
    if text.isascii():
        raw = text.encode("ascii")
        if keep.isdisjoint(raw) and not (space_plus and 0x20 in raw):
            return text  # the common case: nothing to encode
    out = []
    for b in utf8(text):
        if space_plus and b == 0x20:
            out.append("+")
        elif b in keep:
            out.append(f"%{b:02X}")
        else:
            out.append(chr(b))
    return "".join(out)


_PERCENT: Final = re.compile(rb"%([0-9A-Fa-f]{2})")


def decode_bytes(data: bytes) -> bytes:
    return _PERCENT.sub(lambda m: bytes([int(m.group(1), 16)]), data)


# --- hosts --------------------------------------------------------------------------------------

_FORBIDDEN_HOST: Final = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
_FORBIDDEN_DOMAIN: Final = (
    _FORBIDDEN_HOST | frozenset(chr(c) for c in range(0x20)) | frozenset("%\x7f")
)


def _ipv4_number(part: str) -> tuple[int, bool]:
    """The number of one IPv4 part and whether it was written in another radix than 10."""
    if not part:
        raise Failure
    radix, other = 10, False
    if len(part) >= 2 and part[:2] in ("0x", "0X"):
        part, radix, other = part[2:], 16, True
    elif len(part) >= 2 and part[0] == "0":
        part, radix, other = part[1:], 8, True
    if not part:
        return 0, True
    digits = {10: "0123456789", 16: "0123456789abcdefABCDEF", 8: "01234567"}[radix]
    if any(c not in digits for c in part):
        raise Failure
    return int(part, radix), other


def _ends_in_number(text: str) -> bool:
    parts = text.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and all(c in "0123456789" for c in last):
        return True
    try:
        _ipv4_number(last)
    except Failure:
        return False
    return True


def _ipv4(text: str) -> str:
    parts = text.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        raise Failure
    numbers = [_ipv4_number(p)[0] for p in parts]
    if any(n > 255 for n in numbers[:-1]):
        raise Failure
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise Failure
    ipv4 = numbers[-1]
    for i, n in enumerate(numbers[:-1]):
        ipv4 += n * 256 ** (3 - i)
    return ".".join(str((ipv4 >> shift) & 255) for shift in (24, 16, 8, 0))


def _ipv6(text: str) -> list[int]:
    address = [0] * 8
    piece, compress, i = 0, None, 0
    n = len(text)
    if text[:1] == ":":
        if text[1:2] != ":":
            raise Failure
        i += 2
        piece += 1
        compress = piece
    while i < n:
        if piece == 8:
            raise Failure
        if text[i] == ":":
            if compress is not None:
                raise Failure
            i += 1
            piece += 1
            compress = piece
            continue
        value = length = 0
        while length < 4 and i < n and text[i] in "0123456789abcdefABCDEF":
            value = value * 16 + int(text[i], 16)
            i += 1
            length += 1
        if i < n and text[i] == ".":
            if length == 0:
                raise Failure
            i -= length
            if piece > 6:
                raise Failure
            seen = 0
            while i < n:
                ipv4_piece: int | None = None
                if seen > 0:
                    if text[i] == "." and seen < 4:
                        i += 1
                    else:
                        raise Failure
                if i >= n or not text[i].isdigit() or not text[i].isascii():
                    raise Failure
                while i < n and text[i].isascii() and text[i].isdigit():
                    number = int(text[i])
                    if ipv4_piece is None:
                        ipv4_piece = number
                    elif ipv4_piece == 0:
                        raise Failure
                    else:
                        ipv4_piece = ipv4_piece * 10 + number
                    if ipv4_piece > 255:
                        raise Failure
                    i += 1
                assert ipv4_piece is not None
                address[piece] = address[piece] * 0x100 + ipv4_piece
                seen += 1
                if seen in (2, 4):
                    piece += 1
            if seen != 4:
                raise Failure
            break
        if i < n and text[i] == ":":
            i += 1
            if i >= n:
                raise Failure
        elif i < n:
            raise Failure
        address[piece] = value
        piece += 1
    if compress is not None:
        swaps = piece - compress
        piece = 7
        while piece != 0 and swaps > 0:
            address[piece], address[compress + swaps - 1] = (
                address[compress + swaps - 1],
                address[piece],
            )
            piece -= 1
            swaps -= 1
    elif piece != 8:
        raise Failure
    return address


def _ipv6_text(address: list[int]) -> str:
    best, best_len, i = None, 1, 0
    while i < 8:
        if address[i] == 0:
            j = i
            while j < 8 and address[j] == 0:
                j += 1
            if j - i > best_len:
                best, best_len = i, j - i
            i = j
        else:
            i += 1
    out, ignore0, i = "", False, 0
    for i in range(8):
        if ignore0 and address[i] == 0:
            continue
        ignore0 = False
        if best == i:
            out += "::" if i == 0 else ":"
            ignore0 = True
            continue
        out += f"{address[i]:x}"
        if i != 7:
            out += ":"
    return out


def parse_host(text: str, special: bool) -> str:
    if text.startswith("["):
        if not text.endswith("]"):
            raise Failure
        return "[" + _ipv6_text(_ipv6(text[1:-1])) + "]"
    if not special:
        if any(c in _FORBIDDEN_HOST for c in text):
            raise Failure
        return encode(text, C0)
    domain_bytes = decode_bytes(utf8(text))
    try:
        domain = domain_bytes.decode("utf-8")
    except UnicodeDecodeError:
        domain = domain_bytes.decode("utf-8", "replace")
    ascii_domain = domain.lower()
    if not domain.isascii() or "xn--" in ascii_domain:
        try:
            ascii_domain = to_ascii(domain)
        except IdnaFailure:
            raise Failure from None
    if not ascii_domain or any(c in _FORBIDDEN_DOMAIN for c in ascii_domain):
        raise Failure
    if _ends_in_number(ascii_domain):
        return _ipv4(ascii_domain)
    return ascii_domain


# --- the basic URL parser -----------------------------------------------------------------------

_ALPHA: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SCHEME_CHARS: Final = _ALPHA | frozenset("0123456789+-.")
_DOTS: Final = frozenset({".", "%2e"})
_DOUBLE_DOTS: Final = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})
EOF: Final = ""


_PATH_STOP: Final = re.compile(r"[/?#]")
_PATH_STOP_SPECIAL: Final = re.compile(r"[/?#\\]")
_OPAQUE_STOP: Final = re.compile(r"[?#]")
_QUERY_STOP: Final = re.compile(r"#")
_NO_STOP: Final = re.compile(r"(?!)")


def _run_end(s: str, i: int, stop: re.Pattern[str]) -> int:
    """Where the run of code points from ``i`` (at least the one there, which the state has
    taken as plain) that ``stop`` does not end, ends."""
    found = stop.search(s, i + 1)
    return found.start() if found else len(s)


def _windows_drive(s: str, normalized: bool = False) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and (s[1] == ":" or (not normalized and s[1] == "|"))


def _starts_with_drive(s: str, i: int) -> bool:
    rest = s[i:]
    return len(rest) >= 2 and _windows_drive(rest[:2]) and (len(rest) == 2 or rest[2] in "/\\?#")


def _shorten(url: Url) -> bool:
    """Shorten the path; whether a segment went (an opaque head never goes)."""
    path = url.path
    assert isinstance(path, list)
    if url.scheme == "file" and len(path) == 1 and _windows_drive(path[0][:2], True):
        return False  # ada keeps a first segment that starts like a drive letter ("u:p")
    if len(path) > (1 if url.head else 0):
        path.pop()
        return True
    return False


def parse(
    text: str,
    base: Url | None = None,
    url: Url | None = None,
    override: str | None = None,
) -> Url:
    """The basic URL parser; with ``url`` and ``override`` (a state's name) as the setters
    run it. Raises ``Failure``; an override that changes nothing returns ``url`` as it was."""
    # the states run in interpreted code, a few microseconds a code point
    charge(PARSE_STEP * len(text) + 1)
    if url is None:
        url = Url()
        text = text.strip("".join(chr(c) for c in range(0x21)))
    text = text.replace("\t", "").replace("\n", "").replace("\r", "")
    state = override or "scheme start"
    buffer = ""
    at_seen = inside_brackets = password_token_seen = False
    s = text
    n = len(s)
    i = 0
    while True:
        c = s[i] if i < n else EOF
        if state == "scheme start":
            if c and c in _ALPHA:
                buffer += c.lower()
                state = "scheme"
            elif override is None:
                state = "no scheme"
                i -= 1
            else:
                raise Failure
        elif state == "scheme":
            if c and c in _SCHEME_CHARS:
                buffer += c.lower()
            elif c == ":":
                if override is not None:
                    if (url.scheme in SPECIAL) != (buffer in SPECIAL):
                        return url
                    if (url.credentials() or url.port is not None) and buffer == "file":
                        return url
                    if url.scheme == "file" and url.host == "":
                        return url
                url.scheme = buffer
                if override is not None:
                    if SPECIAL.get(url.scheme, -1) == url.port:
                        url.port = None
                    return url
                buffer = ""
                if url.scheme == "file":
                    state = "file"
                elif url.special and base is not None and base.scheme == url.scheme:
                    state = "special relative or authority"
                elif url.special:
                    state = "special authority slashes"
                elif s[i + 1 : i + 2] == "/":
                    state = "path or authority"
                    i += 1
                else:
                    url.path = ""
                    state = "opaque path"
            elif override is None:
                buffer = ""
                state = "no scheme"
                i = -1
            else:
                raise Failure
        elif state == "no scheme":
            if base is None:
                raise Failure
            if isinstance(base.path, str) and c != "#":
                # ada goes on where the standard fails when a '#' comes later: the opaque
                # path becomes the head of a hierarchical one (measured against node 20)
                if "#" not in s[i:]:
                    raise Failure
                opaque = base.path
                base = base.copy()
                base.path, base.head = opaque.split("/"), True
            if isinstance(base.path, str) and c == "#":
                url.scheme, url.path, url.query = base.scheme, base.path, base.query or None
                url.fragment = ""
                state = "fragment"
            elif base.scheme != "file":
                state = "relative"
                i -= 1
            else:
                state = "file"
                i -= 1
        elif state == "special relative or authority":
            if c == "/" and s[i + 1 : i + 2] == "/":
                state = "special authority ignore slashes"
                i += 1
            else:
                state = "relative"
                i -= 1
        elif state == "path or authority":
            if c == "/":
                state = "authority"
            else:
                state = "path"
                i -= 1
        elif state == "relative":
            assert base is not None
            url.scheme = base.scheme
            if c == "/" or (url.special and c == "\\"):
                state = "relative slash"
            else:
                url.username, url.password = base.username, base.password
                url.host, url.port = base.host, base.port
                url.path = list(base.path) if isinstance(base.path, list) else base.path
                url.head = base.head
                url.query = base.query or None  # ada does not carry an empty query over
                if c == "?":
                    url.query = ""
                    state = "query"
                elif c == "#":
                    url.fragment = ""
                    state = "fragment"
                elif c != EOF:
                    url.query = None
                    _shorten(url)
                    state = "path"
                    i -= 1
        elif state == "relative slash":
            assert base is not None
            if url.special and c in ("/", "\\"):
                state = "special authority ignore slashes"
            elif c == "/":
                state = "authority"
            else:
                url.username, url.password = base.username, base.password
                url.host, url.port = base.host, base.port
                state = "path"
                i -= 1
        elif state == "special authority slashes":
            if c == "/" and s[i + 1 : i + 2] == "/":
                state = "special authority ignore slashes"
                i += 1
            else:
                state = "special authority ignore slashes"
                i -= 1
        elif state == "special authority ignore slashes":
            if c not in ("/", "\\"):
                state = "authority"
                i -= 1
        elif state == "authority":
            if c == "@":
                if at_seen:
                    buffer = "%40" + buffer
                at_seen = True
                for ch in buffer:
                    if ch == ":" and not password_token_seen:
                        password_token_seen = True
                        continue
                    encoded = encode(ch, USERINFO)
                    if password_token_seen:
                        url.password += encoded
                    else:
                        url.username += encoded
                buffer = ""
            elif c in (EOF, "/", "?", "#") or (url.special and c == "\\"):
                if at_seen and buffer == "":
                    raise Failure
                i -= len(buffer) + 1
                buffer = ""
                state = "host"
            else:
                buffer += c
        elif state in ("host", "hostname"):
            if override is not None and url.scheme == "file":
                i -= 1
                state = "file host"
            elif c == ":" and not inside_brackets:
                if buffer == "":
                    raise Failure
                if override == "hostname":
                    raise Failure
                url.host = parse_host(buffer, url.special)
                buffer = ""
                state = "port"
            elif c in (EOF, "/", "?", "#") or (url.special and c == "\\"):
                i -= 1
                if url.special and buffer == "":
                    raise Failure
                if (
                    override is not None
                    and buffer == ""
                    and (url.credentials() or url.port is not None or url.host is None)
                ):
                    return url  # ada: no empty host where the URL had none
                url.host = parse_host(buffer, url.special)
                buffer = ""
                state = "path start"
                if override is not None:
                    return url
            else:
                if c == "[":
                    inside_brackets = True
                elif c == "]":
                    inside_brackets = False
                buffer += c
        elif state == "port":
            if c and c in "0123456789":
                buffer += c
            elif c in (EOF, "/", "?", "#") or (url.special and c == "\\") or override:
                if buffer:
                    port = int(buffer)
                    if port > 65535:
                        raise Failure
                    url.port = None if SPECIAL.get(url.scheme, -1) == port else port
                    buffer = ""
                    if override is not None:
                        return url
                if override is not None:
                    return url  # a setter's host stays set without a port
                state = "path start"
                i -= 1
            else:
                raise Failure
        elif state == "file":
            url.scheme = "file"
            url.host = ""
            if c in ("/", "\\"):
                state = "file slash"
            elif base is not None and base.scheme == "file":
                url.host = base.host
                url.path = list(base.path) if isinstance(base.path, list) else base.path
                url.query = base.query or None
                if c == "?":
                    url.query = ""
                    state = "query"
                elif c == "#":
                    url.fragment = ""
                    state = "fragment"
                elif c != EOF:
                    url.query = None
                    if not _starts_with_drive(s, i):
                        _shorten(url)
                    else:
                        url.path = []
                    state = "path"
                    i -= 1
            else:
                state = "path"
                i -= 1
        elif state == "file slash":
            if c in ("/", "\\"):
                state = "file host"
            else:
                if base is not None and base.scheme == "file":
                    url.host = base.host
                    if (
                        not _starts_with_drive(s, i)
                        and isinstance(base.path, list)
                        and base.path
                        and _windows_drive(base.path[0][:2], True)  # ada: starts like one
                    ):
                        assert isinstance(url.path, list)
                        url.path.append(base.path[0])
                state = "path"
                i -= 1
        elif state == "file host":
            if c in (EOF, "/", "\\", "?", "#"):
                i -= 1
                if override is None and _windows_drive(buffer):
                    state = "path"
                elif buffer == "":
                    url.host = ""
                    if override is not None:
                        return url
                    state = "path start"
                else:
                    host = parse_host(buffer, url.special)
                    url.host = "" if host == "localhost" else host
                    if override is not None:
                        return url
                    buffer = ""
                    state = "path start"
            else:
                buffer += c
        elif state == "path start":
            if url.special:
                state = "path"
                if c not in ("/", "\\"):
                    i -= 1
            elif override is None and c == "?":
                url.query = ""
                state = "query"
            elif override is None and c == "#":
                url.fragment = ""
                state = "fragment"
            elif c != EOF:
                state = "path"
                if c != "/":
                    i -= 1
            elif override is not None and url.host is None:
                assert isinstance(url.path, list)
                url.path.append("")
        elif state == "path":
            assert isinstance(url.path, list)
            if (
                c == EOF
                or c == "/"
                or (url.special and c == "\\")
                or (override is None and c in ("?", "#"))
            ):
                lowered = buffer.lower()
                slash = c == "/" or (url.special and c == "\\")
                if lowered in _DOUBLE_DOTS:
                    # ada keeps a non-special path empty when '..' at its end removed nothing
                    popped = _shorten(url)
                    if (popped or url.special) and not slash:
                        url.path.append("")
                elif lowered in _DOTS and not slash:
                    url.path.append("")
                elif lowered not in _DOTS:
                    if url.scheme == "file" and not url.path and _windows_drive(buffer):
                        buffer = buffer[0] + ":"
                    url.path.append(buffer)
                buffer = ""
                if c == "?":
                    url.query = ""
                    state = "query"
                if c == "#":
                    url.fragment = ""
                    state = "fragment"
            else:
                j = _run_end(s, i, _PATH_STOP_SPECIAL if url.special else _PATH_STOP)
                buffer += encode(s[i:j], PATH)
                i = j - 1  # a run of plain code points at once
        elif state == "opaque path":
            assert isinstance(url.path, str)
            if c == "?":
                url.query = ""
                state = "query"
            elif c == "#":
                url.fragment = ""
                state = "fragment"
            elif c != EOF:
                j = _run_end(s, i, _OPAQUE_STOP)
                url.path += encode(s[i:j], C0)
                i = j - 1
        elif state == "query":
            if (override is None and c == "#") or c == EOF:
                keep = SPECIAL_QUERY if url.special else QUERY
                url.query = (url.query or "") + encode(buffer, keep)
                buffer = ""
                if c == "#":
                    url.fragment = ""
                    state = "fragment"
            else:
                j = _run_end(s, i, _QUERY_STOP if override is None else _NO_STOP)
                buffer += s[i:j]
                i = j - 1
        elif state == "fragment" and c != EOF:
            url.fragment = (url.fragment or "") + encode(s[i:], FRAGMENT)
            i = n - 1
        if i >= n:  # the pointer is at the end after this state's run
            break
        i += 1
    return url
