"""The evaluation budget every dialect shares: bounded work and bounded values, by construction.

A condition is at most 1,000 characters, but a few characters can ask for unbounded work:
``[[1]*100000]*100000`` builds a list of 100,000 references that ``str()`` or ``==`` expands to
10^10 elements, and ``String()`` of nested arrays of references does the same in JavaScript.
Checking a result's size after it is built is too late, so every place that builds or traverses
a value asks this module first:

- ``charge(n)``: ``n`` steps of work about to be done (an element copied or visited, a
  character scanned by interpreted code). One evaluation may spend ``MAX_WORK`` steps; a step is
  about 70 ns of C-level traversal, so the whole budget is well under a second of CPU.
- ``check_items(n)``: a value about to be built would hold ``n`` items, counted deep: a list of
  100,000 references to one 100,000-element list holds 10^10 items, because that is what
  converting, comparing or serialising it traverses (``deep_size``). No value may hold more
  than ``MAX_ITEMS``.
- ``deep_size(value)``: those items, counted once per reference (as a traversal meets them),
  memoised per evaluation so that repeated references cost one walk.

A refusal is a ``BudgetExceeded`` (the evaluator does not re-run it to locate it) whose message
names the limit and, where the real engine would fail too, says how.

Deadline and cancellation (for a caller that evaluates in a worker thread)::

    evaluate(text, scope, dialect, deadline=time.monotonic() + 0.5)
    evaluate(text, scope, dialect, cancel=threading.Event())  # .set() from another thread

``deadline`` is a ``time.monotonic()`` value; ``cancel`` is anything with ``is_set()``. Both are
checked when work is charged (every 20,000 steps of a long evaluation, and at its start),
and stop it with ``Cancelled`` ("evaluation stopped: ..."). Evaluation is synchronous and
pure (no locks, no I/O), so abandoning it from another thread is safe; ``Cancelled`` is how the
worker thread actually stops rather than running to its end in the background.

The budget is per thread and per ``evaluate`` call (``begin``/``end``); code run outside any
``evaluate`` call (a direct ``Compiled.run``) is bounded per operation only: a single charge
of more than ``MAX_WORK`` is still refused, but nothing adds the charges up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, Protocol

from flowctx_core.base.cancelcheck import register as register_cancel_check

#: steps of work one evaluation may do (about 0.35 s of C-level traversal at 70 ns a step;
#: interpreted loops charge more per element, so they stay within the same CPU bound)
MAX_WORK: Final = 5_000_000
#: items (elements and characters, counted deep) one value may hold
MAX_ITEMS: Final = 2_000_000
#: how often (in steps) the clock is read when a deadline is set
_CLOCK_EVERY: Final = 20_000

BUDGET: Final = "flowctx's evaluation budget"


class BudgetExceeded(Exception):  # the name says what happened
    """A value or the work would exceed the budget; refused before it is built or done.

    Not a JavaScript or Python error of the predicted engine: nothing in the evaluators
    catches it, and the message never holds a scope value."""


class Cancelled(BudgetExceeded):
    """The caller's deadline passed or it cancelled the evaluation."""


class Flag(Protocol):
    def is_set(self) -> bool: ...


#: what a refusal by flowctx's own bound says of the engine, when nothing more precise is known
ENGINE_GOES_ON: Final = "the engine itself has no such bound and would go on"


def work_refused(engine_note: str = "") -> BudgetExceeded:
    note = f"; {engine_note or ENGINE_GOES_ON}"
    return BudgetExceeded(
        f"refused: the expression does too much work, more than {MAX_WORK:,} steps ({BUDGET}){note}"
    )


def items_refused(what: str = "the value", engine_note: str = "") -> BudgetExceeded:
    note = f"; {engine_note}" if engine_note else ""
    return BudgetExceeded(
        f"refused: {what} would hold more than {MAX_ITEMS:,} items ({BUDGET}){note}"
    )


class Budget:
    """One evaluation's account: steps used, its deadline and cancel flag, deep sizes seen."""

    __slots__ = ("cancel", "clock_at", "deadline", "sizes", "used")

    def __init__(self, deadline: float | None = None, cancel: Flag | None = None) -> None:
        #: id -> (value, deep size); the value is kept so that its id cannot be reused
        self.sizes: dict[int, tuple[Any, int]] = {}
        self.restart(deadline, cancel)

    def restart(self, deadline: float | None, cancel: Flag | None) -> None:
        self.used = 0
        self.deadline = deadline
        self.cancel = cancel
        self.clock_at = _CLOCK_EVERY if (deadline is not None or cancel is not None) else -1

    def check_clock(self) -> None:
        self.clock_at = self.used + _CLOCK_EVERY
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled("evaluation stopped: cancelled by the caller")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Cancelled("evaluation stopped: its deadline passed")


_local = threading.local()


def begin(deadline: float | None = None, cancel: Flag | None = None) -> Budget | None:
    """``running`` without the context manager, for the hot path of ``evaluate``: start a fresh
    budget on this thread and return the one to give back to ``end``."""
    previous: Budget | None = getattr(_local, "budget", None)
    outer: float | None = getattr(_local, "until", None)
    if outer is not None and (deadline is None or outer < deadline):
        deadline = outer  # a caller's bound on everything it runs (``until``)
    if cancel is None:
        cancel = getattr(_local, "cancel", None)  # and its cancel flag (``bounded``)
    if previous is None:  # the usual case: reuse this thread's account (no allocation)
        budget = getattr(_local, "spare", None)
        if budget is None:
            budget = _local.spare = Budget()
        budget.restart(deadline, cancel)
    else:  # an evaluation inside an evaluation keeps its own account
        budget = Budget(deadline, cancel)
    _local.budget = budget
    if deadline is not None or cancel is not None:
        try:
            budget.check_clock()
        except Cancelled:
            _local.budget = previous
            raise
    return previous


@contextmanager
def bounded(deadline: float | None, cancel: Flag | None) -> Iterator[None]:
    """``until(deadline)``, and every evaluation started inside also stops when ``cancel`` is
    set: a server that gives up on a request (late, cancelled, superseded) stops its work
    too, rather than answering nothing while the work runs on in a thread."""
    previous: Flag | None = getattr(_local, "cancel", None)
    if cancel is not None:
        _local.cancel = cancel
    try:
        with until(deadline):
            yield
    finally:
        _local.cancel = previous


@contextmanager
def until(deadline: float | None) -> Iterator[None]:
    """Every evaluation this thread starts inside stops by ``deadline`` (a ``time.monotonic()``
    value), whatever deadline its own caller gives: the bound of a caller that runs many
    evaluations through layers that know nothing of it (``--suggest-seconds`` over routing).
    None: no bound of its own (an enclosing one still holds)."""
    previous: float | None = getattr(_local, "until", None)
    if deadline is not None and (previous is None or deadline < previous):
        _local.until = deadline
    try:
        yield
    finally:
        _local.until = previous


def stop_if_cancelled() -> None:
    """``Cancelled`` when the enclosing ``bounded`` call's cancel flag is set, else nothing:
    long loops outside any evaluation (thousands of definitions read, resolved or checked)
    call it each round, so work a newer change superseded stops within a few milliseconds
    rather than at the end of its stage."""
    cancel: Flag | None = getattr(_local, "cancel", None)
    if cancel is not None and cancel.is_set():
        raise Cancelled("work stopped: cancelled by the caller")


register_cancel_check(stop_if_cancelled)


def end(previous: Budget | None) -> None:
    budget: Budget | None = getattr(_local, "budget", None)
    if budget is not None and budget.sizes:
        budget.sizes.clear()  # let the evaluation's values go
    _local.budget = previous


def charge(n: int) -> None:
    """Account for ``n`` steps of work about to be done; refuse past ``MAX_WORK``."""
    budget: Budget | None = getattr(_local, "budget", None)
    if budget is None:
        if n > MAX_WORK:
            raise work_refused()
        return
    used = budget.used = budget.used + n
    if used > MAX_WORK:
        raise work_refused()
    if 0 <= budget.clock_at <= used:
        budget.check_clock()


#: what one step stands for in wall time (the module docstring's 70 ns)
STEP_SECONDS: Final = 70e-9


def remaining_steps() -> int:
    """The steps this evaluation may still charge (``MAX_WORK`` outside any evaluation)."""
    budget: Budget | None = getattr(_local, "budget", None)
    return MAX_WORK - (budget.used if budget is not None else 0)


def remaining_seconds() -> float:
    """The wall time the rest of this evaluation's budget stands for (for work done outside
    it, such as a match in a child process); its deadline, if sooner, wins."""
    budget: Budget | None = getattr(_local, "budget", None)
    used = budget.used if budget is not None else 0
    seconds = max(MAX_WORK - used, 0) * STEP_SECONDS
    if budget is not None and budget.deadline is not None:
        seconds = min(seconds, budget.deadline - time.monotonic())
    return max(seconds, 0.0)


def check_items(n: int, what: str = "the value", engine_note: str = "") -> None:
    """Refuse to build a value that would hold more than ``MAX_ITEMS`` items."""
    if n > MAX_ITEMS:
        raise items_refused(what, engine_note)


_SCALAR_SIZE: Final = frozenset({type(None), bool, float})


def _weight(value: Any) -> int:
    """Items a scalar counts for: a string its characters, a large integer what converting it
    to decimal costs (quadratic in its length), anything else one."""
    t = type(value)
    if t is str:
        return len(value) or 1
    if t is int:
        bits = value.bit_length()
        return 1 if bits <= 64 else 1 + (bits >> 6) ** 2 // 10
    return 1


def deep_size(value: Any, cap: int = MAX_ITEMS) -> int:
    """The items ``value`` holds, counted deep (a shared reference counts each time it is met,
    as a conversion or a comparison meets it). Stops counting past ``cap`` (returns more than
    ``cap``); the walk itself is charged, one step per element, and memoised per evaluation.
    A container met again inside itself (a cycle) counts one item there."""
    t = type(value)
    if t is not list and t is not tuple and t is not dict:
        return _weight(value)
    budget = getattr(_local, "budget", None)
    sizes: dict[int, tuple[Any, int]] = budget.sizes if budget is not None else {}
    hit = sizes.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    visited = 0
    open_ids: set[int] = {id(value)}
    # frames: [container, iterator over its children, items so far]
    stack: list[list[Any]] = [[value, _children(value), len(value)]]
    total = 0
    try:
        while stack:
            frame = stack[-1]
            pushed = False
            for child in frame[1]:
                visited += 1
                ct = type(child)
                if ct is list or ct is tuple or ct is dict:
                    cid = id(child)
                    known = sizes.get(cid)
                    if known is not None and known[0] is child:
                        frame[2] += known[1]
                    elif cid in open_ids:
                        frame[2] += 1
                    else:
                        open_ids.add(cid)
                        stack.append([child, _children(child), len(child)])
                        pushed = True
                        break
                elif ct is str:
                    frame[2] += len(child)
                elif ct is int and (child > 2**64 or child < -(2**64)):
                    frame[2] += _weight(child) - 1
                if frame[2] > cap:
                    return cap + 1
            if pushed:
                continue
            stack.pop()
            open_ids.discard(id(frame[0]))
            size = frame[2]
            sizes[id(frame[0])] = (frame[0], size)
            if stack:
                stack[-1][2] += size
                if stack[-1][2] > cap:
                    return cap + 1
            else:
                total = size
    finally:
        charge(visited)
    return total


def _children(value: Any) -> Iterator[Any]:
    if type(value) is dict:
        for k, v in value.items():
            yield k
            yield v
    else:
        yield from value


def remember(value: Any, size: int) -> Any:
    """Record the deep size of a value just built (so a later walk need not measure it)."""
    budget: Budget | None = getattr(_local, "budget", None)
    if budget is not None:
        budget.sizes[id(value)] = (value, size)
    return value


__all__ = [
    "BUDGET",
    "MAX_ITEMS",
    "MAX_WORK",
    "Budget",
    "BudgetExceeded",
    "Cancelled",
    "Flag",
    "begin",
    "charge",
    "check_items",
    "deep_size",
    "end",
    "items_refused",
    "remember",
    "work_refused",
]
