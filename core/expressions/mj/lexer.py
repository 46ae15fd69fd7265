"""Tokens of a MemberJunction condition, read as the JavaScript it is compiled into.

MemberJunction 5.51.3 pastes the condition into a strict-mode function body
(``return Boolean(<condition>);``), so the lexical grammar is JavaScript's: comments (including
the ``<!--`` comment of web browsers' legacy syntax), strict-mode numeric and string literal
rules (``08`` and ``'\\1'`` are syntax errors), and whether a line break came before a token
(``x\\n++y`` does not parse).
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from flowctx_core.expressions.js.idtables import id_continue, id_start
from flowctx_core.expressions.js.values import JS_WHITESPACE, from_units, number
from flowctx_core.expressions.sandbox import ExpressionError


class JsSyntaxError(ExpressionError):
    """What V8 would report when MemberJunction builds the function."""

    kind = "syntax"
    #: raised where a parenthesised parameter list met what is no parameter: V8 reads the
    #: parentheses as an expression first, and says so when that reading fails
    cover = False
    keep = False
    #: where V8 places the error when that is not where flowctx underlines it
    v8_start: int | None = None
    #: a failed token without an error of V8's scanner: where its scanner goes on, and the
    #: error of the token it scans there, if that has one (see ``lexer._resumes``)
    resume: int | None = None
    scans_on = True
    lookahead: JsSyntaxError | None = None
    #: a failed token with an error of V8's own scanner: where that scanner stopped, so the
    #: token it scans next (once the failed one is taken) starts there
    rescan: int | None = None
    #: V8 only peeked at the failing token (it reports "missing ) after argument list" on
    #: seeing it without taking it): its scanner has read no token past it
    peeked = False
    #: where the last token V8 had taken ends, when it is not the failing one (a target
    #: judged before its operator is taken): its scanner has read one token past it
    taken: int | None = None

    def as_cover(self, keep: bool = False) -> JsSyntaxError:
        """``keep``: where the parentheses read as an expression, this error is still the
        one V8 reports (not "Invalid destructuring assignment target")."""
        self.cover = True
        self.keep = keep
        return self


class Token(NamedTuple):
    kind: str  # "num", "str", "name", "op", "regexp", "eof"
    value: Any
    start: int
    end: int
    nl_before: bool = False  # a line terminator between the previous token and this one
    escaped: bool = False  # an identifier written with \\u escapes


# The common tokens in one regular expression; anything it does not match exactly (comments,
# escapes, exponents, '/', '?.', non-ASCII names, line breaks...) takes the full path below.
# A name's lookahead excludes its own characters too: otherwise the regex backtracks to a
# shorter name before an escape or a non-ASCII character (`payloa\u0064` read as `paylo ad`).
# Non-ASCII is the negated class [^\x00-\x7f]: the same set as a \u0080-\U0010ffff range,
# which costs 2 ms each to compile (the charset optimiser walks the whole range) at start-up.
_FAST: Final = re.compile(
    r"""(?P<ws>[ \t]+)
    |(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)(?![A-Za-z0-9_$\\]|[^\x00-\x7f])
    |(?P<num>(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)(?![0-9A-Za-z_$.\\]|[^\x00-\x7f])
    |(?P<str>'[^'\\\n\r]*'|"[^"\\\n\r]*")
    |(?P<op>===|!==|==(?!=)|!=|<=|>=|&&(?!=)|\|\|(?!=)|\?\?(?!=)|\.(?![0-9.])|[()[\],:~]
      |<(?![<=!])|>(?![>=])|!|\+(?![+=])|-(?![-=>])|\*(?![*=])|%(?!=)|\?(?![.?]))
    """,
    re.VERBOSE,
)


PUNCTUATORS: Final = sorted(
    [
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
        "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
        "{", "}", "(", ")", "[", "]", ".", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&",
        "|", "^", "!", "~", "?", ":", "=",
    ],
    key=len,
    reverse=True,
)  # fmt: skip
_BY_FIRST: Final[dict[str, list[str]]] = {}
for _p in PUNCTUATORS:  # longest first within each list, as PUNCTUATORS is sorted
    _BY_FIRST.setdefault(_p[0], []).append(_p)
LINE_TERMINATORS: Final = "\n\r\u2028\u2029"
_SPACE: Final = frozenset(JS_WHITESPACE) - frozenset(LINE_TERMINATORS)
_DIGITS: Final = "0123456789"
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}
# After these a '/' starts a regular expression, not a division: where an operand may start
# (after '.' a property name must, and V8 scans the '/' as a division sign there; after '++'
# and '--' it depends on whether they were prefix operators, see ``regex_allowed``).
_REGEX_AFTER_OPS: Final = frozenset(PUNCTUATORS) - {")", "]", "}", "++", "--", ".", "?."}
_REGEX_AFTER_WORDS: Final = frozenset(
    {"typeof", "void", "delete", "in", "instanceof", "new", "return", "case", "do", "else",
     "throw", "yield", "await"}
)  # fmt: skip


def is_id_start(c: str) -> bool:
    if c.isascii():
        return c.isalpha() or c in "_$"
    return id_start(c)


def _unit_starts_name(c: str) -> bool:
    """What V8 checks right after a number: one UTF-16 unit, so a name starting with a
    character past U+FFFF (a surrogate pair) is a token of its own (`7𝒳` is 7 then 𝒳)."""
    return ord(c) <= 0xFFFF and is_id_start(c)


def is_id_part(c: str) -> bool:
    if c.isascii():
        return c.isalnum() or c in "_$"
    return id_continue(c)


def tokenize(text: str) -> list[Token]:
    """The tokens; a strict-mode octal error (which V8 reports late) ends them too."""
    tokens, octals = scan(text)
    octal = octals[-1] if octals else None
    if octal is not None and tokens[-2:-1] and tokens[-2].kind != "illegal":
        start, end = octal.error.start or 0, octal.error.end or 0
        tokens.insert(len(tokens) - 1, Token("illegal", octal, start, end))
    return tokens


def scan(text: str) -> tuple[list[Token], list[JsSyntaxError]]:
    """The tokens and the last strict-mode octal error (``'\\01'``, ``010``, ``08``,
    ``'\\8'``), which V8 records while scanning and reports once the function is parsed:
    where the parse fails too, the error earlier in the text is the one reported."""
    lexer = _Lexer(text)
    tokens = lexer.run()
    return tokens, lexer.octals


def _resumes(error: JsSyntaxError, at: int, scans_on: bool = True) -> JsSyntaxError:
    """A failed token V8's scanner gives up on without an error of its own (an unterminated
    string, a stray character, ``1e``): it scans the next token from ``at`` all the same, and
    that token's error, if it has one, is the one V8 reports."""
    error.resume = at
    error.scans_on = scans_on
    return error


def _rescans(error: JsSyntaxError, at: int) -> JsSyntaxError:
    """A token that fails with an error of V8's own scanner, stopped at ``at``: the token it
    scans next starts there (its octals are read, see ``next_octals``)."""
    error.rescan = at
    return error


def _division_next(rest: str) -> bool:
    """Whether the next token of ``rest`` starts with '/' (comments are skipped, no token)."""
    i, n = 0, len(rest)
    while i < n:
        if rest[i] in JS_WHITESPACE:
            i += 1
        elif rest.startswith("//", i) or rest.startswith("<!--", i):
            while i < n and rest[i] not in LINE_TERMINATORS:
                i += 1
        elif rest.startswith("/*", i):
            close = rest.find("*/", i + 2)
            if close < 0:
                return False  # an unterminated comment: an error, no division
            i = close + 2
        else:
            return rest[i] == "/"
    return False


def _next_error(text: str, at: int) -> JsSyntaxError | None:
    """The error of the token V8 scans after a failed one, when that token fails with an
    error of its own (``1__0``, ``"\\xZ"``, ``#``), placed in ``text``."""
    rest = text[at:]
    if _division_next(rest):
        return None  # after a failed token '/' is a division, no regular expression
    tokens = _Lexer(rest).run()
    first = tokens[0]
    if first.kind != "illegal" or first.value.resume is not None:
        return None
    found: JsSyntaxError = first.value
    start, end = found.error.start, found.error.end
    return JsSyntaxError(
        found.error.message,
        None if start is None else start + at,
        None if end is None else end + at,
    )


def next_octals(text: str, at: int) -> list[JsSyntaxError]:
    """The strict-mode octal errors of the token V8 scans from ``at`` after a failed one
    (read once the parser takes the failed token; see ``Parser.parse`` for which count)."""
    rest = text[at:]
    if _division_next(rest):
        return []  # a division sign, as in ``_next_error``
    lexer = _Lexer(rest, follow=False)
    first = lexer.run()[0]
    # a failed token: its scanner stopped within it, so every octal it read is its own
    end = len(rest) if first.kind == "illegal" else first.end
    return [
        JsSyntaxError(o.error.message, (o.error.start or 0) + at, (o.error.end or 0) + at)
        for o in lexer.octals
        if (o.error.start or 0) < end
    ]


class _Lexer:
    def __init__(self, text: str, follow: bool = True) -> None:
        self.text = text
        #: after a failed token, also read the octals of the token V8 scans next
        self.follow = follow
        self.tokens: list[Token] = []
        #: every strict-mode octal error, in the order scanned
        self.octals: list[JsSyntaxError] = []
        self.prefix_updates: set[int] = set()  # indices of '++'/'--' tokens read as prefix

    def error(self, message: str, start: int, end: int) -> JsSyntaxError:
        return JsSyntaxError(message, start, min(end, len(self.text)))

    def regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        if last.kind == "op":
            if last.value in ("++", "--"):
                return len(self.tokens) - 1 in self.prefix_updates
            return last.value in _REGEX_AFTER_OPS
        if last.kind == "name":
            before = self.tokens[-2] if len(self.tokens) > 1 else None
            if before is not None and before.kind == "op" and before.value in (".", "?."):
                return False  # a keyword as a property name (`a.new / 2`) is a name
            return last.value in _REGEX_AFTER_WORDS and not last.escaped
        return False

    def run(self) -> list[Token]:
        """The tokens; where V8's scanner fails, an "illegal" token carrying its error ends
        them (the parser reports it, or its own message where it expected something else:
        after a call's argument any token is "missing ) after argument list")."""
        try:
            return self.scan()
        except JsSyntaxError as e:
            if e.resume is not None and e.scans_on:
                e.lookahead = _next_error(self.text, e.resume)
            at = e.resume if e.resume is not None and e.scans_on else e.rescan
            if at is not None and self.follow:
                self.octals.extend(next_octals(self.text, at))
            start = e.error.start if e.error.start is not None else len(self.text)
            end = e.error.end if e.error.end is not None else start
            self.tokens.append(Token("illegal", e, start, end))
            self.tokens.append(Token("eof", False, len(self.text), len(self.text)))
            return self.tokens

    def scan(self) -> list[Token]:
        text, n = self.text, len(self.text)
        i = 0
        nl = False
        open_comment = False  # a // comment ran to the end: it swallows MemberJunction's ");"
        line_start = True  # only whitespace/comments since the last line break
        fast = _FAST.match
        tokens = self.tokens
        while i < n:
            m = fast(text, i)
            if m is not None:
                kind = m.lastgroup
                j = m.end()
                if kind != "ws":
                    lit = m.group(kind or 0)
                    if kind == "num":
                        value: Any = float(lit) if "." in lit else number(int(lit))
                        if type(value) is float and value.is_integer() and value <= 2**53:
                            value = int(value)
                    elif kind == "str":
                        value = lit[1:-1] if lit.isascii() else from_units(lit[1:-1])
                    else:
                        value = lit
                    tokens.append(Token(kind, value, i, j, nl))  # type: ignore[arg-type]
                    nl = line_start = False
                i = j
                continue
            c = text[i]
            if c in LINE_TERMINATORS:
                nl = line_start = True
                i += 1
                continue
            if c in _SPACE:
                i += 1
                continue
            if c in "/<-" and (
                text.startswith("//", i)
                or text.startswith("<!--", i)
                or (line_start and nl and text.startswith("-->", i))
            ):
                while i < n and text[i] not in LINE_TERMINATORS:
                    i += 1
                open_comment = i >= n
                continue
            if c == "/" and text.startswith("/*", i):
                close = text.find("*/", i + 2)
                if close < 0:
                    raise self.error("Invalid or unexpected token", i, n)
                if any(ch in LINE_TERMINATORS for ch in text[i:close]):
                    nl = line_start = True
                i = close + 2
                continue
            start = i
            if c in _DIGITS or (c == "." and i + 1 < n and text[i + 1] in _DIGITS):
                num, i = self.number(i)
                self.add("num", num, start, i, nl)
            elif c in "'\"":
                text_value, i = self.string(i)
                self.add("str", text_value, start, i, nl)
            elif is_id_start(c) or c == "\\":
                name, i, escaped = self.identifier(i)
                self.add("name", name, start, i, nl, escaped)
            elif c == "#" and i + 1 < n and (is_id_start(text[i + 1]) or text[i + 1] == "\\"):
                # a private name (``#x``): valid only inside a class, which a condition is not
                name, i, escaped = self.identifier(i + 1)
                self.add("private", "#" + name, start, i, nl, escaped)
            elif c == "/" and self.regex_allowed():
                i = self.regexp(i)
                self.add("regexp", text[start:i], start, i, nl)
            else:
                for p in _BY_FIRST.get(c, ()):
                    if text.startswith(p, i):
                        break
                else:
                    error = self.error("Invalid or unexpected token", i, i + 1)
                    if c == "#":
                        # a '#' no name follows: an error of V8's scanner, which goes on past it
                        raise _rescans(error, i + 1)
                    # past ASCII V8 reads no token after it (measured)
                    raise _resumes(error, i + 1, scans_on=c.isascii())
                if p == "?." and i + 2 < n and text[i + 2] in _DIGITS:
                    p = "?"  # `a?.5:1` is a conditional
                if p in ("++", "--") and (nl or self.regex_allowed()):
                    # where an operand may start (or after a line break, where a postfix
                    # operator may not stand) it is a prefix operator: an operand follows
                    self.prefix_updates.add(len(self.tokens))
                i += len(p)
                self.add("op", p, start, i, nl)
            nl = line_start = False
        self.tokens.append(Token("eof", open_comment, n, n, nl))
        return self.tokens

    def add(
        self, kind: str, value: Any, start: int, end: int, nl: bool, escaped: bool = False
    ) -> None:
        self.tokens.append(Token(kind, value, start, end, nl, escaped))

    def identifier(self, i: int) -> tuple[str, int, bool]:
        text, n = self.text, len(self.text)
        out: list[str] = []
        escaped = False
        first = True
        while i < n:
            c = text[i]
            if c == "\\":
                if not text.startswith("u", i + 1):
                    raise _resumes(self.error("Invalid or unexpected token", i, i + 1), i + 1)
                try:
                    ch, j = self.unicode_escape(i + 1)
                except JsSyntaxError as exc:
                    raise _rescans(exc, self.hex_stop(i)) from None
                ok = is_id_start(ch) if first else is_id_part(ch)
                if not ok:
                    # a well-formed escape of a character no name may hold (x\u0020, \ud800):
                    # an illegal token, with no error of V8's scanner (the token after it is
                    # scanned all the same)
                    raise _resumes(self.error("Invalid or unexpected token", i, j), j)
                out.append(ch)
                escaped = True
                i = j
            elif is_id_start(c) if first else is_id_part(c):
                out.append(c)
                i += 1
            else:
                break
            first = False
        return "".join(out), i, escaped

    def unicode_escape(self, j: int) -> tuple[str, int]:
        """``u`` at ``j``: decode \\uHHHH or \\u{H...}; return (char, next index)."""
        text = self.text
        start = j - 1
        if text.startswith("{", j + 1):
            close = text.find("}", j + 2)
            digits = text[j + 2 : close] if close > 0 else ""
            nxt = close + 1
        else:
            digits, nxt = text[j + 1 : j + 5], j + 5
            if len(digits) != 4:
                digits = ""
        if not digits or any(ch not in "0123456789abcdefABCDEF" for ch in digits):
            raise self.error("Invalid Unicode escape sequence", start, nxt)
        code = int(digits, 16)
        if code > 0x10FFFF:
            raise self.error("Undefined Unicode code-point", start, nxt)
        return chr(code), nxt

    def number(self, i: int) -> tuple[Any, int]:
        text, n = self.text, len(self.text)
        j = i
        leading_zero = False
        if text[i] == "0" and i + 1 < n and text[i + 1] in "xXoObB":
            base = {"x": 16, "o": 8, "b": 2}[text[i + 1].lower()]
            allowed = "0123456789abcdefABCDEF"[: base if base < 16 else 22]
            j = self.separated(i + 2, allowed)
            body = text[i + 2 : j]
            if not body:
                raise _resumes(self.error("Invalid or unexpected token", i, j + 1), j)
            if j < n and text[j] == "n":
                return self.bigint(int(body.replace("_", ""), base), i, j + 1)
            if j < n and (
                (ord(text[j]) <= 0xFFFF and (is_id_part(text[j]) or text[j] in _DIGITS))
                or text[j] == "\\"  # an escape may start a name: no number ends there
            ):
                raise _resumes(self.error("Invalid or unexpected token", i, j + 1), j)
            return number(int(body.replace("_", ""), base)), j
        if text[i] == "0" and i + 1 < n and text[i + 1] in _DIGITS:
            while j < n and text[j] in _DIGITS:
                j += 1
            legacy = all(d in "01234567" for d in text[i:j])
            if legacy:
                # V8's scanner notes a legacy octal as soon as its digits end, before it
                # finds the literal illegal (`07n`, `00x`): the last octal it read is this one
                self.octals.append(
                    self.error("Octal literals are not allowed in strict mode.", i, j)
                )
            if j < n and text[j] == "n":  # no BigInt of a legacy literal: the scanner fails
                raise _resumes(self.error("Invalid or unexpected token", i, j + 1), j)
            if legacy:
                if j < n and (_unit_starts_name(text[j]) or text[j] == "\\"):
                    # `00x`
                    raise _resumes(self.error("Invalid or unexpected token", i, j + 1), j)
                return int(text[i:j], 8), j
            # a decimal with a leading zero (08, 09.5): scanned as one, refused in strict mode;
            # V8 notes it only once the literal is read whole (`08_1`, `08n` fail before)
            leading_zero = True

        def digits(j: int) -> int:
            return self.separated(j, _DIGITS)

        is_float = False
        if j == i and text[i] == "0" and i + 1 < n and text[i + 1] == "_":
            # V8 refuses it at the '_', before reading on (`0__1` is this error too)
            error = self.error("Numeric separator can not be used after leading 0.", i + 1, i + 2)
            raise _rescans(error, i + 1)
        j = digits(i) if j == i else j
        if j < n and text[j] == ".":
            is_float = True
            j = digits(j + 1)
        if j < n and text[j] in "eE":
            k = j + 1
            if k < n and text[k] in "+-":
                k += 1
            if k < n and text[k] in _DIGITS:
                is_float = True
                j = digits(k)
            else:
                raise _resumes(self.error("Invalid or unexpected token", i, k), k)
        if j < n and text[j] == "n" and not is_float:
            return self.bigint(int(text[i:j].replace("_", "")), i, j + 1)
        if j < n and (_unit_starts_name(text[j]) or text[j] in _DIGITS or text[j] == "\\"):
            if text[j] == "_" and text[i] == "0":
                # `08_1`: a separator after a leading zero is an error of V8's scanner, which
                # it places at the '_'
                raise _rescans(self.error("Invalid or unexpected token", j, j + 1), j)
            error = self.error("Invalid or unexpected token", i, j + 1)
            raise _resumes(error, j)
        literal = text[i:j].replace("_", "")
        if is_float:
            f = float(literal)
            value: int | float = int(f) if f.is_integer() and abs(f) <= 2**53 else f
        else:
            value = number(int(literal))
        if leading_zero:
            # placed on the whole literal (`08.5`): which of two errors wins depends on it
            self.octals.append(
                self.error("Decimals with leading zeros are not allowed in strict mode.", i, j)
            )
        return value, j

    def separated(self, j: int, allowed: str) -> int:
        """The end of the digits from ``j`` with V8's numeric separators: one ``_`` between two
        digits; a part that starts with one has no digits (the ``_`` starts a name)."""
        text, n = self.text, len(self.text)
        k = j
        while k < n:
            c = text[k]
            if c in allowed:
                k += 1
            elif c == "_" and k > j:
                # V8's scanner stops past the first '_' (the next token starts there)
                if k + 1 < n and text[k + 1] == "_":
                    raise _rescans(
                        self.error(
                            "Only one underscore is allowed as numeric separator", k + 1, k + 2
                        ),
                        k + 1,
                    )
                if k + 1 >= n or text[k + 1] not in allowed:
                    raise _rescans(
                        self.error(
                            "Numeric separators are not allowed at the end of numeric literals",
                            k,
                            k + 1,
                        ),
                        k + 1,
                    )
                k += 1
            else:
                break
        return k

    def bigint(self, value: int, start: int, end: int) -> tuple[Any, int]:
        """A BigInt literal (``10n``, ``0x1Fn``) ending at ``end``."""
        text = self.text
        if end < len(text) and (is_id_part(text[end]) or text[end] == "\\"):
            raise _resumes(self.error("Invalid or unexpected token", start, end + 1), end)
        from flowctx_core.expressions.js.bigint import JsBigInt

        return JsBigInt(value), end

    def string(self, i: int) -> tuple[str, int]:
        """A string literal from its quote: its value and the index after it. An escape that
        is no escape (``\\x``, ``\\u004``) stops V8's scanner at the first character that is
        no hex digit: the token it scans next starts there (``rescan``), and an octal in that
        token is the last one it read (``'\\u00'\\7'`` is the Unicode escape's error)."""
        try:
            return self._string(i)
        except JsSyntaxError as exc:
            if exc.resume is None and exc.rescan is None and exc.error.end is not None:
                exc.rescan = self.hex_stop(exc.error.start or i)
            raise

    def hex_stop(self, at: int) -> int:
        """Where V8 stops reading the escape (``\\x`` or ``\\u``) at ``at``: its first
        character that is no hex digit (past ``{`` for the braced form)."""
        text, n = self.text, len(self.text)
        j = at + 2
        if text.startswith("u{", at + 1):
            j += 1
        while j < n and text[j] in "0123456789abcdefABCDEF":
            j += 1
        return j

    def _string(self, i: int) -> tuple[str, int]:
        text, n = self.text, len(self.text)
        quote = text[i]
        out: list[str] = []
        j = i + 1
        while j < n:
            c = text[j]
            if c == quote:
                return from_units("".join(out)), j + 1
            if c in "\n\r":
                break
            if c != "\\":
                out.append(c)
                j += 1
                continue
            j += 1
            if j >= n:
                break
            e = text[j]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
                j += 1
            elif e == "0" and not (j + 1 < n and text[j + 1] in _DIGITS):
                out.append("\0")
                j += 1
            elif e in "01234567":
                # up to two more octal digits while the value stays below 256; V8 places the
                # error from the first digit to the last one, which it counts as the end (so
                # an error starting right after the escape still starts after it)
                k, value = j + 1, int(e)
                while (
                    k < j + 3 and k < n and text[k] in "01234567" and value * 8 + int(text[k]) < 256
                ):
                    value = value * 8 + int(text[k])
                    k += 1
                self.octals.append(
                    self.error("Octal escape sequences are not allowed in strict mode.", j, k - 1)
                )
                out.append(chr(value))
                j = k
            elif e in "89":
                self.octals.append(
                    self.error("\\8 and \\9 are not allowed in strict mode.", j - 1, j)
                )
                out.append(e)
                j += 1
            elif e == "x":
                digits = text[j + 1 : j + 3]
                if len(digits) != 2 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                    raise self.error("Invalid hexadecimal escape sequence", j - 1, j + 3)
                out.append(chr(int(digits, 16)))
                j += 3
            elif e == "u":
                ch, j = self.unicode_escape(j)
                if ord(ch) > 0xFFFF:
                    o = ord(ch) - 0x10000
                    out.append(chr(0xD800 + (o >> 10)) + chr(0xDC00 + (o & 0x3FF)))
                else:
                    out.append(ch)
            elif e == "\r":
                j += 2 if text.startswith("\r\n", j) else 1  # line continuation
            elif e in LINE_TERMINATORS:
                j += 1  # line continuation
            else:
                out.append(e)
                j += 1
        raise _resumes(self.error("Invalid or unexpected token", i, n), j)

    def regexp(self, i: int) -> int:
        text, n = self.text, len(self.text)
        j = i + 1
        in_class = False
        while j < n:
            c = text[j]
            if c in LINE_TERMINATORS:
                break
            if c == "\\":
                if j + 1 < n and text[j + 1] in LINE_TERMINATORS:
                    j += 1  # no escape of a line break: the literal fails there
                    break
                j += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                j += 1
                # one UTF-16 unit at a time: a letter past U+FFFF ends the flags, a token of
                # its own (`/a/g𝒳` is /a/g then 𝒳)
                while j < n and ord(text[j]) <= 0xFFFF and is_id_part(text[j]):
                    j += 1
                if j < n and text[j] == "\\":
                    # V8 reads no escape among the flags: the literal fails as it is scanned,
                    # before its pattern is looked at
                    raise self.error("Invalid regular expression flags", i, j + 1)
                return j
            j += 1
        # V8 takes the failed literal before it reports it: its next token, scanned from the
        # line break, is read (an octal there is the last one)
        raise _rescans(self.error("Invalid regular expression: missing /", i, n), j)
