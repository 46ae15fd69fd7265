"""An upper bound on the work a backtracking matcher can do for one pattern on one text.

``regress`` (like V8's irregexp) explores a pattern's choices depth first: for every way the
first part of a sequence can match, the rest is tried again. So the work at one start position
obeys two numbers per node, computed bottom up over the pattern's structure:

- ``ways``: how many different ways the node can succeed (each is a continuation the rest of
  the pattern is tried from);
- ``work``: the steps spent enumerating all of them, failures included.

A sequence ``A B`` costs ``work(A) + ways(A) * work(B)``; an alternation adds; a quantifier is
its iterations in sequence, each count from its minimum to its maximum being one more way, with
the iterations capped by what the text can hold (an iteration that consumes nothing ends the
loop); a lookaround is tried in full but, being atomic, continues one way; a back-reference
compares up to the whole text. The search tries every start position, so the bound is
``(n + 1) * work`` (or ``work + n`` when each alternative starts with ``^`` and the ``m`` flag
is absent: every later start fails at once).

The bound is deliberately pessimistic: alternatives that exclude each other (``a|b``) are
counted as if both could match. Anything this parser does not recognise counts as unbounded.
A match whose bound is small runs in flowctx's own process; every other one runs only in the
killable worker (``regexworker``), so no pattern, however written or built at run time, can
hold the process: the bound is what decides, not a list of known-bad shapes.
"""

from __future__ import annotations

from typing import Final

#: saturation point: anything at or above it is "too much to ever run in process"
CAP: Final = 10**18


def _add(a: int, b: int) -> int:
    return min(a + b, CAP)


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return CAP if a >= CAP // b else a * b


class _Unbounded(Exception):
    """A construct this bound does not model: treat the pattern as unbounded."""


class _Node:
    """What the bound needs of one parsed node."""

    __slots__ = ("min_width", "ways", "work")

    def __init__(self, ways: int, work: int, min_width: int) -> None:
        self.ways = ways
        self.work = work
        self.min_width = min_width


_ONE: Final = _Node(1, 1, 1)
_ASSERTION: Final = _Node(1, 1, 0)


class _Parser:
    def __init__(self, source: str, flags: str, length: int) -> None:
        self.s = source
        self.i = 0
        self.n = length
        self.unicode = "u" in flags or "v" in flags
        self.sets = "v" in flags

    # -- Disjunction / Alternative -------------------------------------------------------

    def disjunction(self) -> tuple[_Node, bool]:
        """The node, and whether every alternative starts with ``^``."""
        alternatives = [self.alternative()]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            alternatives.append(self.alternative())
        ways = work = 0
        width = CAP
        anchored = True
        for node, starts_anchored in alternatives:
            ways = _add(ways, node.ways)
            work = _add(work, node.work)
            width = min(width, node.min_width)
            anchored = anchored and starts_anchored
        return _Node(ways, work, width), anchored

    def alternative(self) -> tuple[_Node, bool]:
        ways, work, width = 1, 0, 0
        anchored = self.i < len(self.s) and self.s[self.i] == "^"
        while self.i < len(self.s) and self.s[self.i] not in "|)":
            term = self.term()
            work = _add(work, _mul(ways, term.work))
            ways = _mul(ways, term.ways)
            width = _add(width, term.min_width)
        return _Node(ways, work, width), anchored

    # -- Term ------------------------------------------------------------------------------

    def term(self) -> _Node:
        atom = self.atom()
        return self.quantified(atom)

    def quantified(self, atom: _Node) -> _Node:
        s, i = self.s, self.i
        if i >= len(s):
            return atom
        c = s[i]
        if c == "*":
            low, high, self.i = 0, CAP, i + 1
        elif c == "+":
            low, high, self.i = 1, CAP, i + 1
        elif c == "?":
            low, high, self.i = 0, 1, i + 1
        elif c == "{":
            braces = self.braces(i)
            if braces is None:
                return atom  # a literal '{' (Annex B), already taken as an atom
            low, high, self.i = braces
        else:
            return atom
        if self.i < len(s) and s[self.i] == "?":
            self.i += 1  # lazy: the same choices, tried in the other order
        return self.repeat(atom, low, high)

    def braces(self, i: int) -> tuple[int, int, int] | None:
        """``{n}``, ``{n,}``, ``{n,m}`` at ``i``: (low, high, index after), or None."""
        s = self.s
        j = i + 1
        k = j
        while k < len(s) and s[k].isdigit():
            k += 1
        if k == j:
            return None
        low = int(s[j:k]) if k - j < 19 else CAP
        if k < len(s) and s[k] == "}":
            return low, low, k + 1
        if k >= len(s) or s[k] != ",":
            return None
        m = k + 1
        while m < len(s) and s[m].isdigit():
            m += 1
        if m >= len(s) or s[m] != "}":
            return None
        high = CAP if m == k + 1 else (int(s[k + 1 : m]) if m - k - 1 < 19 else CAP)
        return low, high, m + 1

    def repeat(self, x: _Node, low: int, high: int) -> _Node:
        # each iteration past the minimum that goes on consumes a character, and one that
        # consumes nothing ends the loop, so the text bounds the count (see below)
        # (the mandatory iterations of a counted repeat may be empty: ECMAScript stops a loop
        # on an empty iteration only once its minimum is reached)
        fits = self.n // x.min_width if x.min_width else _add(low, self.n + 1)
        most = min(high, max(fits, 0))
        # ways to have done i iterations: ways(x) ** i; enumerate i = 0 .. most
        work = 1
        ways = 0
        done = 1  # ways(x) ** i
        for i in range(most + 1):
            if i >= low:
                ways = _add(ways, done)
            if i < high:
                # the next iteration is tried from every way of having done i, also where
                # the text cannot hold it: the failing attempts are the work
                work = _add(work, _mul(done, x.work))
            if work >= CAP or ways >= CAP:
                raise _Unbounded
            done = _mul(done, x.ways)
            if done == 1 and i > 64:
                # one way per count from here on: the rest adds linearly
                rest = most - i
                work = _add(work, _mul(rest, x.work))
                ways = _add(ways, max(0, most - max(i + 1, low) + 1))
                break
        width = _mul(low, x.min_width) if low < CAP else CAP
        return _Node(max(ways, 1), work, min(width, CAP))

    # -- Atom ------------------------------------------------------------------------------

    def atom(self) -> _Node:
        s, i = self.s, self.i
        c = s[i]
        if c in "^$":
            self.i = i + 1
            return _ASSERTION
        if c == "(":
            return self.group()
        if c == "[":
            self.i = self.char_class(i)
            return _ONE
        if c == "\\":
            return self.escape()
        if c in "*+?":
            raise _Unbounded  # a quantifier with nothing to repeat: not a valid pattern
        if c == "{" and self.braces(i) is not None:
            raise _Unbounded
        self.i = i + 1
        return _ONE

    def group(self) -> _Node:
        s, i = self.s, self.i
        lookaround = False
        if s.startswith("(?=", i) or s.startswith("(?!", i):
            self.i, lookaround = i + 3, True
        elif s.startswith("(?<=", i) or s.startswith("(?<!", i):
            self.i, lookaround = i + 4, True
        elif s.startswith("(?<", i):
            close = s.find(">", i + 3)
            if close < 0:
                raise _Unbounded
            self.i = close + 1
        elif s.startswith("(?", i):
            # (?:...) and modifier groups (?i:...), (?-i:...)
            colon = s.find(":", i + 2)
            if colon < 0 or any(ch not in "imsu-" for ch in s[i + 2 : colon]):
                raise _Unbounded
            self.i = colon + 1
        else:
            self.i = i + 1
        inner, _ = self.disjunction()
        if self.i >= len(s) or s[self.i] != ")":
            raise _Unbounded
        self.i += 1
        if lookaround:
            # tried in full, then atomic: one way on; quantified only in Annex B, as a group
            return _Node(1, inner.work, 0)
        return inner

    def escape(self) -> _Node:
        s, i = self.s, self.i
        if i + 1 >= len(s):
            raise _Unbounded
        c = s[i + 1]
        if c in "bB":
            self.i = i + 2
            return _ASSERTION
        if c.isdigit() and c != "0":
            j = i + 1
            while j < len(s) and s[j].isdigit():
                j += 1
            self.i = j
            return self.backreference()
        if c == "k" and i + 2 < len(s) and s[i + 2] == "<":
            close = s.find(">", i + 3)
            if close < 0:
                raise _Unbounded
            self.i = close + 1
            return self.backreference()
        self.i = self.escape_end(i)
        return _ONE

    def backreference(self) -> _Node:
        # compares up to what the group captured: the whole text at worst; may be empty
        return _Node(1, _add(self.n, 1), 0)

    def escape_end(self, i: int) -> int:
        """The index after the escape at ``i`` (``\\u{...}``, ``\\p{...}``, ``\\xhh`` ...)."""
        s = self.s
        c = s[i + 1]
        if c in "pPu" and i + 2 < len(s) and s[i + 2] == "{":
            close = s.find("}", i + 3)
            return len(s) if close < 0 else close + 1
        if c == "u":
            return min(i + 6, len(s))
        if c == "x":
            return min(i + 4, len(s))
        if c == "c":
            return min(i + 3, len(s))
        return i + 2

    def char_class(self, i: int) -> int:
        """The index after the class opening at ``i`` (nested classes with ``v``)."""
        s = self.s
        depth = 0
        j = i
        while j < len(s):
            c = s[j]
            if c == "\\":
                if self.sets and s.startswith("q{", j + 1):
                    # a class of strings: alternatives of several lengths
                    raise _Unbounded
                j = self.escape_end(j)
                continue
            if c == "[" and (depth == 0 or self.sets):
                depth += 1
            elif c == "]":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise _Unbounded


def worst_steps(source: str, flags: str, length: int) -> int:
    """An upper bound on the steps a backtracking search of ``source`` (with ``flags``) over a
    text of ``length`` characters can take, from every start position; ``CAP`` when the
    pattern is one this bound does not model."""
    parser = _Parser(source, flags, length)
    try:
        node, anchored = parser.disjunction()
        if parser.i != len(source):
            return CAP  # a stray ')': not a pattern this bound read
    except (_Unbounded, RecursionError):
        return CAP
    if anchored and "m" not in flags:
        return _add(node.work, length)
    return _mul(length + 1, node.work)


def min_width(source: str, flags: str) -> int:
    """The fewest characters a match of ``source`` can span (an assertion, a lookaround and a
    back-reference count none); 0 where this parser does not model the pattern."""
    parser = _Parser(source, flags, 0)
    try:
        node, _ = parser.disjunction()
    except (_Unbounded, RecursionError):
        return 0
    return node.min_width if parser.i == len(source) else 0
