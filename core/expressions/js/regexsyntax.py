"""V8's syntax errors in a regular expression (node 20), in V8's words and V8's order.

V8 reads a pattern once, left to right, and reports the first thing it cannot read; a named
reference to a group that does not exist is found after the whole reading. This module reads
a pattern the same way, by the grammar V8 applies in each mode: the legacy one (Annex B:
identity escapes, octal escapes, a lone ``{`` or ``]`` as a character), the ``u`` flag's
(only syntax characters escaped, ``\\u{...}``, property escapes) and the ``v`` flag's classes
(nested classes, ``&&`` and ``--``, ``\\q{...}``, properties of strings, which a negated class
may not hold). It answers the first reason V8 gives ("Nothing to repeat", "Unterminated
group", "Invalid escape"...), or None for a pattern V8 accepts; a property escape's name is
the one thing it asks of the library that runs the patterns (``known_property``).

The reading counts code units without the flags, code points with them, as V8 does: a range
``[😀-a]`` without ``u`` is out of order (its second unit against ``a``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from flowctx_core.expressions.js.idtables import id_continue, id_start

END: Final = -1
#: V8's largest number of capture groups, and its "infinity" for a quantifier's bounds
MAX_CAPTURES: Final = 1 << 16
INFINITY: Final = (1 << 31) - 1
_SYNTAX: Final = frozenset(map(ord, "^$\\.*+?()[]{}|/"))
_SET_SYNTAX: Final = frozenset(map(ord, "()[]{}/-\\|"))
_SET_PUNCTUATORS: Final = frozenset(map(ord, "&-!#%,:;<=>@`~"))
_SET_DOUBLES: Final = frozenset(map(ord, "&!#$%*+,.:;<=>?@^`~"))
_CLASS_ESCAPES: Final = frozenset(map(ord, "dDsSwW"))
_CONTROLS: Final = {ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11}
_HEX: Final = {ord(c): int(c, 16) for c in "0123456789abcdefABCDEF"}
_PROPERTY_CHARS: Final = frozenset(
    map(ord, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
)
#: the properties of strings, which only the v flag reads (and never negated)
STRING_PROPERTIES: Final = frozenset(
    {"Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji_Modifier_Sequence",
     "RGI_Emoji_Flag_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence",
     "RGI_Emoji"}
)  # fmt: skip


class _Failed(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _units(source: str) -> list[int]:
    out: list[int] = []
    for ch in source:
        c = ord(ch)
        if c > 0xFFFF:
            c -= 0x10000
            out.append(0xD800 + (c >> 10))
            out.append(0xDC00 + (c & 0x3FF))
        else:
            out.append(c)
    return out


def _in_name(c: int, first: bool) -> bool:
    """Whether the code point ``c`` may stand in a group name (``first``: begin it): an
    identifier's characters, ``$`` and ``_`` among them."""
    if c < 0 or c > 0x10FFFF or 0xD800 <= c <= 0xDFFF:
        return False
    if c < 0x80:
        ch = chr(c)
        return ch.isalpha() or c in (0x24, 0x5F) or (not first and ch.isdigit())
    return (id_start if first else id_continue)(chr(c))


class _Reader:
    """One reading of a pattern: ``current`` is the character at hand (END past the last),
    ``nxt`` the position after it."""

    def __init__(
        self, source: str, flags: str, known_property: Callable[[str, str | None], str | None]
    ) -> None:
        self.units = _units(source)
        self.sets = "v" in flags
        self.unicode = self.sets or "u" in flags
        self.forced = False  # a group name reads as under u whatever the flags
        self.known_property = known_property
        self.nxt = 0
        self.current = END
        self.started = 0  # capture groups opened so far
        self.scanned: tuple[int, bool] | None = None  # (all groups, any named) once scanned
        self.named_seen = False
        self.names: set[tuple[int, ...]] = set()
        self.references: list[tuple[int, ...]] = []
        self.strings = False  # the last property escape read holds strings (v only)
        self.value = 0  # the last class character read
        self.advance()

    # --- moving -------------------------------------------------------------------------------

    def _unicode_mode(self) -> bool:
        return self.unicode or self.forced

    def _read(self, at: int) -> tuple[int, int]:
        c = self.units[at]
        at += 1
        if (
            self._unicode_mode()
            and 0xD800 <= c <= 0xDBFF
            and at < len(self.units)
            and 0xDC00 <= self.units[at] <= 0xDFFF
        ):
            c = 0x10000 + ((c - 0xD800) << 10) + (self.units[at] - 0xDC00)
            at += 1
        return c, at

    def peek(self) -> int:
        """The character after the one at hand."""
        if self.nxt < len(self.units):
            return self._read(self.nxt)[0]
        return END

    def advance(self, by: int = 1) -> None:
        self.nxt += by - 1
        if self.nxt < len(self.units):
            self.current, self.nxt = self._read(self.nxt)
        else:
            self.current = END
            self.nxt = len(self.units) + 1

    def position(self) -> int:
        return self.nxt - 1

    def reset(self, at: int) -> None:
        self.nxt = at
        self.advance()

    def rewind_one(self) -> None:
        if self.current != END:
            self.advance(-2 if self.current > 0xFFFF else -1)

    def more(self) -> bool:
        return self.current != END

    # --- the captures ahead -----------------------------------------------------------------

    def _scan(self) -> tuple[int, bool]:
        """How many capture groups the whole pattern opens, and whether one is named (V8's
        look-ahead: escapes and classes skipped, classes nested under v)."""
        if self.scanned is None:
            u = self.units
            count, named, i, n = 0, self.named_seen, self.position(), len(self.units)
            count = self.started
            while i < n:
                c = u[i]
                i += 1
                if c == 0x5C:
                    i += 1
                elif c == 0x5B:
                    depth = 0
                    while i < n:
                        d = u[i]
                        i += 1
                        if d == 0x5C:
                            i += 1
                        elif d == 0x5B and self.sets:  # classes nest under v only
                            depth += 1
                        elif d == 0x5D:
                            if depth == 0:
                                break
                            depth -= 1
                elif c == 0x28:
                    if i < n and u[i] == 0x3F:
                        i += 1
                        if i >= n or u[i] != 0x3C:
                            continue
                        i += 1
                        if i < n and u[i] in (0x3D, 0x21):
                            continue
                        named = True
                    count += 1
            self.scanned = (count, named)
        return self.scanned

    def _scan_from_class(self) -> tuple[int, bool]:
        """The scan started within a class (a legacy ``\\k`` there): the class is skipped."""
        if self.scanned is None:
            saved = self.nxt
            while self.more():
                c = self.current
                self.advance()
                if c == 0x5C:
                    self.advance()
                elif c == 0x5D:
                    break
            self._scan()
            self.reset(saved - 1)
        return self.scanned  # type: ignore[return-value]

    def has_named(self, in_class: bool) -> bool:
        if self.named_seen:
            return True
        return (self._scan_from_class() if in_class else self._scan())[1]

    # --- the disjunction --------------------------------------------------------------------

    def pattern(self) -> None:
        # each open group: (kind, its capture index, its name); kinds: "capture", "group",
        # "ahead", "behind"
        groups: list[tuple[str, int, tuple[int, ...] | None]] = []
        while True:
            c = self.current
            quantifiable = "atom"  # or "ahead"/"behind": a lookaround, which V8 may not repeat
            if c == END:
                if groups:
                    raise _Failed("Unterminated group")
                break
            if c == 0x29:  # )
                if not groups:
                    raise _Failed("Unmatched ')'")
                self.advance()
                kind, _index, name = groups.pop()
                if name is not None:
                    if name in self.names:
                        raise _Failed("Duplicate capture group name")
                    self.names.add(name)
                quantifiable = kind if kind in ("ahead", "behind") else "atom"
            elif c == 0x7C:  # |
                self.advance()
                continue
            elif c in (0x2A, 0x2B, 0x3F):
                raise _Failed("Nothing to repeat")
            elif c in (0x5E, 0x24):  # ^ $
                self.advance()
                continue
            elif c == 0x2E:
                self.advance()
            elif c == 0x28:
                groups.append(self._open_group())
                continue
            elif c == 0x5B:
                self._class()
            elif c == 0x5C:
                escaped = self._atom_escape(groups)
                if escaped is None:
                    continue
                quantifiable = escaped
            elif c == 0x7B and self._interval() is not None:
                raise _Failed("Nothing to repeat")
            elif c in (0x7B, 0x7D, 0x5D) and self.unicode:
                raise _Failed("Lone quantifier brackets")
            else:
                self.advance()
            self._quantifier(quantifiable)
        if self.references and any(r not in self.names for r in self.references):
            raise _Failed("Invalid named capture referenced")

    def _quantifier(self, quantified: str) -> None:
        c = self.current
        if c in (0x2A, 0x2B, 0x3F):
            self.advance()
        elif c == 0x7B:
            bounds = self._interval()
            if bounds is None:
                if self.unicode:
                    raise _Failed("Incomplete quantifier")
                return
            if bounds[1] < bounds[0]:
                raise _Failed("numbers out of order in {} quantifier")
        else:
            return
        if self.current == 0x3F:
            self.advance()
        if quantified == "behind" or (quantified == "ahead" and self.unicode):
            raise _Failed("Invalid quantifier")

    def _interval(self) -> tuple[int, int] | None:
        """``{n}``, ``{n,}``, ``{n,m}`` at hand: its bounds (read past), or None (nothing
        read)."""
        start = self.position()
        self.advance()

        def digits() -> int:
            value = 0
            while 0x30 <= self.current <= 0x39:
                value = min(INFINITY, value * 10 + self.current - 0x30)
                self.advance()
            return value

        if not 0x30 <= self.current <= 0x39:
            self.reset(start)
            return None
        low = digits()
        if self.current == 0x7D:
            self.advance()
            return low, low
        if self.current != 0x2C:
            self.reset(start)
            return None
        self.advance()
        if self.current == 0x7D:
            self.advance()
            return low, INFINITY
        high = digits()
        if self.current != 0x7D:
            self.reset(start)
            return None
        self.advance()
        return low, high

    def _open_group(self) -> tuple[str, int, tuple[int, ...] | None]:
        self.advance()
        kind, name = "capture", None
        if self.current == 0x3F:
            after = self.peek()
            if after == 0x3A:
                self.advance(2)
                kind = "group"
            elif after in (0x3D, 0x21):
                self.advance(2)
                kind = "ahead"
            elif after == 0x3C:
                self.advance()
                if self.peek() in (0x3D, 0x21):
                    self.advance(2)
                    kind = "behind"
                else:
                    self.named_seen = True
                    self.advance()
                    kind = "named"
            else:
                raise _Failed("Invalid group")
        if kind in ("capture", "named"):
            if self.started >= MAX_CAPTURES:
                raise _Failed("Too many captures")
            self.started += 1
            if kind == "named":
                name = self._group_name()
            return "capture", self.started, name
        return kind, self.started, None

    def _group_name(self) -> tuple[int, ...]:
        """A group name from the character at hand to its '>' (an identifier, with
        ``\\u`` escapes read as under u), the reader left past it."""
        self.rewind_one()
        name: list[int] = []
        self.forced = True
        try:
            while True:
                self.advance()
                c = self.current
                if c == 0x5C and self.peek() == 0x75:
                    self.advance(2)
                    value = self._unicode_escape()
                    if value is None:
                        raise _Failed("Invalid Unicode escape")
                    c = value
                    self.rewind_one()
                if c == 0x5C:
                    raise _Failed("Invalid capture group name")
                if not name:
                    if not _in_name(c, first=True):
                        raise _Failed("Invalid capture group name")
                    name.append(c)
                elif c == 0x3E:
                    break
                elif _in_name(c, first=False):
                    name.append(c)
                else:
                    raise _Failed("Invalid capture group name")
        finally:
            self.forced = False
        self.advance()
        return tuple(name)

    # --- escapes ------------------------------------------------------------------------------

    def _atom_escape(self, groups: list[tuple[str, int, tuple[int, ...] | None]]) -> str | None:
        """The escape at hand outside a class: "atom" when a quantifier may follow, None for
        an assertion (\\b, \\B)."""
        e = self.peek()
        if e == END:
            raise _Failed("\\ at end of pattern")
        if 0x31 <= e <= 0x39:
            if self._back_reference():
                return "atom"
            if self.unicode:
                raise _Failed("Invalid escape")
            if e in (0x38, 0x39):
                self.advance(2)
                return "atom"
        if 0x30 <= e <= 0x39:
            self.advance()
            if self.unicode and 0x30 <= self.peek() <= 0x39:
                raise _Failed("Invalid decimal escape")
            self._octal()
            return "atom"
        if e in (0x62, 0x42):
            self.advance(2)
            return None
        if e in _CLASS_ESCAPES or e in (0x70, 0x50):
            if not self._class_escape(e, in_class=False):
                self.advance(2)  # \p without u: the letter itself
            return "atom"
        if e == 0x6B and (self.unicode or self.has_named(False)):
            self.advance(2)
            if self.current != 0x3C:
                raise _Failed("Invalid named reference")
            self.advance()
            name = self._group_name()
            if not any(g[2] == name for g in groups):
                self.references.append(name)
            return "atom"
        self._character_escape(in_class=False)
        return "atom"

    def _back_reference(self) -> bool:
        """``\\N`` at hand names a capture group (read past it), or nothing is read."""
        start = self.position()
        value = self.peek() - 0x30
        self.advance(2)
        while 0x30 <= self.current <= 0x39:
            value = value * 10 + self.current - 0x30
            if value > MAX_CAPTURES:
                self.reset(start)
                return False
            self.advance()
        if value > self.started and value > self._scan()[0]:
            self.reset(start)
            return False
        return True

    def _octal(self) -> int:
        """Up to three octal digits from the one at hand, below 256: their value."""
        value = self.current - 0x30
        self.advance()
        if 0x30 <= self.current <= 0x37:
            value = value * 8 + self.current - 0x30
            self.advance()
            if value < 32 and 0x30 <= self.current <= 0x37:
                value = value * 8 + self.current - 0x30
                self.advance()
        return value

    def _hex(self, count: int) -> int | None:
        start = self.position()
        value = 0
        for _ in range(count):
            d = _HEX.get(self.current)
            if d is None:
                self.reset(start)
                return None
            value = value * 16 + d
            self.advance()
        return value

    def _unicode_escape(self) -> int | None:
        """After ``\\u``: ``{...}`` under u, else four hex digits (a surrogate pair of two
        escapes joined under u); None, with nothing read, where there is neither."""
        if self.current == 0x7B and self._unicode_mode():
            start = self.position()
            self.advance()
            value, digits = 0, 0
            while self.current in _HEX:
                value = value * 16 + _HEX[self.current]
                digits += 1
                if value > 0x10FFFF:
                    break
                self.advance()
            if digits and value <= 0x10FFFF and self.current == 0x7D:
                self.advance()
                return value
            self.reset(start)
            return None
        unit = self._hex(4)
        lead = unit is not None and 0xD800 <= unit <= 0xDBFF
        if lead and self._unicode_mode() and self.current == 0x5C and self.peek() == 0x75:
            assert unit is not None
            start = self.position()
            self.advance(2)
            trail = self._hex(4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                return 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
            self.reset(start)
        return unit

    def _character_escape(self, in_class: bool) -> int:
        """The escaped character at hand (after its backslash), read past."""
        self.advance()
        c = self.current
        control = _CONTROLS.get(c)
        if control is not None:
            self.advance()
            return control
        if c == 0x63:  # \c
            letter = self.peek()
            if 0x41 <= (letter & ~0x20) <= 0x5A:
                self.advance(2)
                return letter & 0x1F
            if self.unicode:
                raise _Failed("Invalid Unicode escape")
            if in_class and (0x30 <= letter <= 0x39 or letter == 0x5F):
                self.advance(2)
                return letter & 0x1F
            return 0x5C  # the backslash alone; the c is read next
        if c == 0x30 and not 0x30 <= self.peek() <= 0x39:
            self.advance()
            return 0
        if 0x30 <= c <= 0x37:
            if self.unicode:
                raise _Failed("Invalid class escape")
            return self._octal()
        if c == 0x78:  # \x
            self.advance()
            value = self._hex(2)
            if value is not None:
                return value
            if self.unicode:
                raise _Failed("Invalid escape")
            return 0x78
        if c == 0x75:  # \u
            self.advance()
            value = self._unicode_escape()
            if value is not None:
                return value
            if self.unicode:
                raise _Failed("Invalid Unicode escape")
            return 0x75
        if self.sets and in_class and c in _SET_PUNCTUATORS:
            self.advance()
            return c
        if self.unicode:
            if c not in _SYNTAX:
                raise _Failed("Invalid escape")
            self.advance()
            return c
        self.advance()
        if c == 0x6B and self.has_named(in_class):
            raise _Failed("Invalid escape")
        return c

    def _class_escape(self, e: int, in_class: bool) -> bool:
        """``\\d``... or, under u, ``\\p{...}`` at hand: read past (True); False for ``\\p``
        without u, which is the letter p. A property of strings is under v only; its answer
        says whether the escape holds strings (``self.strings``)."""
        self.strings = False
        if e in _CLASS_ESCAPES:
            self.advance(2)
            return True
        if not self.unicode:
            return False
        negated = e == 0x50
        self.advance(2)
        bad = "Invalid property name in character class" if in_class else "Invalid property name"
        if self.current != 0x7B:
            raise _Failed(bad)
        first: list[str] = []
        second: list[str] | None = None
        self.advance()
        while self.current not in (0x7D, END):
            if self.current == 0x3D and second is None:
                second = []
            elif self.current in _PROPERTY_CHARS and self.nxt < len(self.units):
                (first if second is None else second).append(chr(self.current))
            else:
                raise _Failed(bad)
            self.advance()
        if self.current != 0x7D:
            raise _Failed(bad)
        self.advance()
        name, value = "".join(first), None if second is None else "".join(second)
        if value is None and name in STRING_PROPERTIES and self.sets and not negated:
            self.strings = True
            return True
        if value is None and name in STRING_PROPERTIES:
            raise _Failed(bad)
        if self.known_property(name, value) is not None:
            raise _Failed(bad)
        return True

    # --- classes ------------------------------------------------------------------------------

    def _class(self) -> bool:
        """The class at hand, read past; under v, whether it may hold strings."""
        self.advance()
        negated = self.current == 0x5E
        if negated:
            self.advance()
        if self.current == 0x5D:
            self.advance()
            return False
        if self.sets:
            return self._set_class(negated)
        while self.more() and self.current != 0x5D:
            first = self._class_atom()
            if self.current != 0x2D:
                continue
            self.advance()
            if not self.more() or self.current == 0x5D:
                break
            second = self._class_atom()
            if first is None or second is None:
                if self.unicode:
                    raise _Failed("Invalid character class")
                continue
            if first > second:
                raise _Failed("Range out of order in character class")
        if not self.more():
            raise _Failed("Unterminated character class")
        self.advance()
        return False

    def _class_atom(self) -> int | None:
        """One character of a class (read past), or None for a class escape (\\d...)."""
        c = self.current
        if c != 0x5C:
            self.advance()
            return c
        e = self.peek()
        if e == 0x62:
            self.advance(2)
            return 8
        if e == 0x2D and self.unicode:
            self.advance(2)
            return 0x2D
        if e == END:
            raise _Failed("\\ at end of pattern")
        if (e in _CLASS_ESCAPES or e in (0x70, 0x50)) and self._class_escape(e, in_class=True):
            return None
        return self._character_escape(in_class=True)

    def _set_class(self, negated: bool) -> bool:
        """A v-flag class after its '[' (and '^'): union, intersection or subtraction."""
        kind, strings = self._set_operand()
        if self.current == 0x2D and self.peek() == 0x2D:
            if negated and strings:
                raise _Failed("Negated character class may contain strings")
            self._set_operation(0x2D)
            return strings
        if self.current == 0x26 and self.peek() == 0x26:
            every = self._set_operation(0x26, strings)
            if negated and every:
                raise _Failed("Negated character class may contain strings")
            return every
        any_strings = strings
        last = kind
        while self.more() and self.current != 0x5D:
            if self.current == 0x2D:
                if self.peek() == 0x2D:
                    raise _Failed("Invalid set operation in character class")
                self.advance()
                if not self.more():
                    break
                if last != "char":
                    raise _Failed("Invalid character class")
                low = self.value
                last, _ = self._set_operand()
                if last != "char":
                    raise _Failed("Invalid character class")
                if low > self.value:
                    raise _Failed("Range out of order in character class")
                last = "range"
            else:
                last, strings = self._set_operand()
                any_strings = any_strings or strings
        if not self.more():
            raise _Failed("Unterminated character class")
        self.advance()
        if negated and any_strings:
            raise _Failed("Negated character class may contain strings")
        return any_strings

    def _set_operation(self, op: int, strings: bool = False) -> bool:
        """``&&`` (``op`` '&') or ``--`` operands to the class's end: whether every operand of
        an intersection may hold strings."""
        every = strings
        while self.more() and self.current != 0x5D:
            if self.current != op or self.peek() != op:
                raise _Failed("Invalid set operation in character class")
            self.advance(2)
            if op == 0x26 and self.current == 0x26:
                raise _Failed("Invalid character in character class")
            _, holds = self._set_operand()
            every = every and holds
        if not self.more():
            raise _Failed("Unterminated character class")
        self.advance()
        return every

    def _set_operand(self) -> tuple[str, bool]:
        """One operand of a v-flag class: its kind ("char", "escape", "strings", "class") and
        whether it may hold strings; a character's value is ``self.value``."""
        c = self.current
        if c == 0x5C:
            e = self.peek()
            if e == 0x71:  # \q{...}
                return "strings", self._string_disjunction()
            if (e in _CLASS_ESCAPES or e in (0x70, 0x50)) and self._class_escape(e, True):
                return "escape", self.strings
        if c == 0x5B:
            return "class", self._class()
        self.value = self._set_character()
        return "char", False

    def _set_character(self) -> int:
        c = self.current
        if c == 0x5C:
            e = self.peek()
            if e == 0x62:
                self.advance(2)
                return 8
            if e == END:
                raise _Failed("\\ at end of pattern")
            return self._character_escape(in_class=True)
        if c in _SET_SYNTAX:
            raise _Failed("Invalid character in character class")
        if c in _SET_DOUBLES and self.peek() == c:
            raise _Failed("Invalid set operation in character class")
        self.advance()
        return c

    def _string_disjunction(self) -> bool:
        """``\\q{a|bc}`` at hand, read past: whether one of its strings is not one character."""
        self.advance(2)
        if self.current != 0x7B:
            raise _Failed("Invalid escape")
        self.advance()
        length, longer = 0, False
        while self.more() and self.current != 0x7D:
            if self.current == 0x7C:
                longer = longer or length != 1
                length = 0
                self.advance()
            else:
                self._set_character()
                length += 1
        longer = longer or length != 1
        self.advance()
        return longer


def structural(source: str) -> Iterator[tuple[int, str]]:
    """Each character of a pattern (with its index) outside escapes and character classes:
    what the group counting and the backtracking pre-screen look at."""
    i, n = 0, len(source)
    in_class = False
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        else:
            yield i, c
        i += 1


def decoded_name(raw: str) -> str:
    """A group name as written (``\\u0061``, ``\\u{61}``, a pair of escapes) as the name it
    is (``a``)."""
    out: list[int] = []
    i, n = 0, len(raw)
    while i < n:
        if raw.startswith("\\u{", i) and "}" in raw[i:]:
            end = raw.index("}", i)
            out.append(int(raw[i + 3 : end], 16))
            i = end + 1
        elif raw.startswith("\\u", i):
            out.append(int(raw[i + 2 : i + 6], 16))
            i += 6
        else:
            out.append(ord(raw[i]))
            i += 1
    text = "".join(chr(c) for c in out)
    # two escapes of a surrogate pair are one character
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def named_groups(source: str) -> Iterator[tuple[int, int, str]]:
    """Where each group name is written, ``(?<name>`` (its first and after-last index), and
    the name it is."""
    for i, c in structural(source):
        if c == "(" and source.startswith("(?<", i) and source[i + 3 : i + 4] not in "=!":
            end = source.find(">", i + 3)
            if end > 0:
                yield i + 3, end, decoded_name(source[i + 3 : end])


def named_references(source: str) -> Iterator[tuple[int, int, str]]:
    """Where each ``\\k<name>`` names a group (outside classes), and the name."""
    i, n, in_class = 0, len(source), False
    while i < n:
        c = source[i]
        if c == "\\":
            if not in_class and source.startswith("k<", i + 1):
                end = source.find(">", i + 3)
                if end > 0:
                    yield i + 3, end, decoded_name(source[i + 3 : end])
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        i += 1


def v8_syntax_error(
    source: str, flags: str, known_property: Callable[[str, str | None], str | None]
) -> str | None:
    """V8's reason for the first syntax error of ``source`` under ``flags``, or None where V8
    accepts it. ``known_property(name, value)`` answers None for a property escape node
    knows, else a reason."""
    try:
        _Reader(source, flags, known_property).pattern()
    except _Failed as failed:
        return failed.reason
    return None
