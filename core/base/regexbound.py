"""Regular expressions that come from workspace files, matched with a time bound.

A trigger's ``regex`` and a ``$regex`` in a seed-backed ``query_template`` are the author's,
and Python's ``re`` backtracks without limit: ``(a|aa)+$`` took minutes on a 40-character
value and no thread can stop it. The runtimes use ``re`` (Mozaiks triggers) and montydb uses
``re`` for ``$regex``, so patterns are still compiled by ``re`` (same syntax, same errors, same
``groups``) and then matched by the ``regex`` package in its ``re``-compatible VERSION0 mode,
whose ``timeout`` stops a match from inside. What matches is unchanged; a pattern that runs
past its budget raises :class:`RegexTimeout` instead of hanging.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from functools import cache
from typing import Any

#: The matching time one pattern may spend, across every string it is tried on, for one query
#: or one trigger message. Real patterns take microseconds per value; backtracking ones take
#: seconds to hours, so the bound only ever stops the latter.
REGEX_SECONDS = 0.25
#: What all the patterns of one workspace load (every seed query) or one trigger message may
#: spend together, so ten backtracking patterns cost this, not ten bounds.
SHARED_SECONDS = 0.5
#: What a pattern still gets once the shared time is spent: real patterns need microseconds, so
#: a good one after ten bad ones still matches, and each further bad one costs only this.
FLOOR_SECONDS = 0.02


@cache
def _regex() -> Any:
    """The ``regex`` package, imported with the first pattern (a large import that a
    workspace without triggers or ``$regex`` queries never needs)."""
    import regex

    return regex


@cache
def _flags() -> tuple[tuple[int, int], ...]:
    regex = _regex()
    return (
        (re.IGNORECASE, regex.IGNORECASE),
        (re.LOCALE, regex.LOCALE),
        (re.MULTILINE, regex.MULTILINE),
        (re.DOTALL, regex.DOTALL),
        (re.UNICODE, regex.UNICODE),
        (re.VERBOSE, regex.VERBOSE),
        (re.ASCII, regex.ASCII),
    )


class RegexTimeout(Exception):
    """A pattern ran past its time budget (catastrophic backtracking, most likely)."""

    def __init__(self, pattern: str, seconds: float, shared: bool = False) -> None:
        self.pattern = pattern
        self.seconds = seconds
        shown = pattern if len(pattern) <= 80 else pattern[:77] + "..."
        why = (
            f"the {SHARED_SECONDS:g} s that all regular expressions here may take together is spent"
            if shared
            else f"ran past its {seconds:g} s time bound (catastrophic backtracking: nested "
            "or overlapping repeats such as (a+)+ )"
        )
        super().__init__(f"regular expression /{shown}/ not matched: {why}")


class RegexBudget:
    """Matching time shared by every pattern compiled while it is current."""

    def __init__(self, seconds: float = SHARED_SECONDS) -> None:
        self.left = seconds


_current = threading.local()


@contextlib.contextmanager
def shared_budget(budget: RegexBudget) -> Iterator[RegexBudget]:
    """Patterns compiled in this block (this thread) also draw on ``budget``."""
    before = getattr(_current, "budget", None)
    _current.budget = budget
    try:
        yield budget
    finally:
        _current.budget = before


class BoundedPattern:
    """A compiled pattern whose matches share one time budget."""

    def __init__(self, pattern: str, flags: int = 0, seconds: float = REGEX_SECONDS) -> None:
        std = re.compile(pattern, flags)  # re's syntax and errors, so nothing new is accepted
        wanted = 0
        for ours, theirs in _flags():
            if std.flags & ours:
                wanted |= theirs
        regex = _regex()
        self._rx = regex.compile(pattern, wanted | regex.VERSION0)
        self.pattern = pattern
        self.flags = std.flags
        self.groups = std.groups
        self.seconds = seconds
        self._left = seconds
        self._shared: RegexBudget | None = getattr(_current, "budget", None)

    def search(self, string: Any, *args: Any) -> Any:
        return self._run("search", string, args)

    def match(self, string: Any, *args: Any) -> Any:
        return self._run("match", string, args)

    def _run(self, how: str, string: Any, args: tuple[Any, ...]) -> Any:
        if not isinstance(string, str):
            # bytes against a str pattern: re's own TypeError, not the regex package's
            return getattr(re.compile(self.pattern, self.flags), how)(string, *args)
        shared = self._shared
        left = self._left if shared is None else min(self._left, max(shared.left, FLOOR_SECONDS))
        by_shared = shared is not None and shared.left < self._left
        if by_shared and self._left <= self.seconds - FLOOR_SECONDS:
            left = 0.0  # this pattern already had its floor
        if left <= 0:
            raise RegexTimeout(self.pattern, self.seconds, by_shared)
        start = time.perf_counter()
        try:
            return getattr(self._rx, how)(string, *args, timeout=left)
        except TimeoutError:
            raise RegexTimeout(self.pattern, self.seconds, by_shared) from None
        finally:
            spent = time.perf_counter() - start
            self._left -= spent
            if shared is not None:
                shared.left -= spent


class _BoundedRe:
    """Stands in for the ``re`` module inside montydb's query engine: ``compile`` gives a
    :class:`BoundedPattern`; everything else is ``re``'s own."""

    error = re.error

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        if isinstance(pattern, str):
            return BoundedPattern(pattern, flags)
        return re.compile(pattern, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


def bound_montydb_regex() -> None:
    """Make montydb's ``$regex`` operator match through :class:`BoundedPattern`.

    montydb compiles a ``$regex`` with its module's ``re.compile`` each time it parses a query
    (``montydb.engine.queries.parse_regex``) and calls ``.search`` on each value; giving that
    module this stand-in bounds the match without changing montydb's query semantics.
    """
    from montydb.engine import queries

    if not isinstance(queries.re, _BoundedRe):
        queries.re = _BoundedRe()  # type: ignore[assignment]
