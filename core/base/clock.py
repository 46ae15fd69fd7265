"""The instant a condition is evaluated at, for the built-ins that read the clock.

``new Date()``, ``Date()`` and ``Date.now()`` depend on when MemberJunction runs the condition,
so flowctx evaluates them at one instant: pinned by the author (``--now``, ``now:`` in
flowctx.yaml or a saved scenario, the scratchpad's clock field) or, when nothing pins it, the
current time, read once per evaluation and stated. A result that read the clock says so and
at which instant ("depends on the time: evaluated at 2026-12-01T09:00:00Z").

The time zone is node's: the ``TZ`` environment variable when set, else UTC (how the runtime
is run in containers); ``flowctx_core.expressions.js.dates`` reads it. A base module: the
workspace profile and the CLI read ``now:``/``--now`` without loading the expression engines.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
import time
from collections.abc import Iterator
from typing import Final

from flowctx_core.base.record import Record


class Clock(Record):
    """An instant in milliseconds since the epoch; ``pinned`` is false for the current time."""

    __slots__ = ("ms", "pinned")
    ms: int
    pinned: bool

    def __init__(self, ms: int, pinned: bool = True) -> None:
        object.__setattr__(self, "ms", ms)
        object.__setattr__(self, "pinned", pinned)

    def iso(self) -> str:
        return iso_text(self.ms)

    def note(self) -> str:
        if self.pinned:
            return f"depends on the time: evaluated at {self.iso()}"
        return (
            f"depends on the time: evaluated at {self.iso()} (the current time; "
            "pin the instant with --now, now: in flowctx.yaml or the scratchpad's clock)"
        )


def iso_text(ms: int) -> str:
    """``2026-12-01T09:00:00Z`` (milliseconds shown only when there are any)."""
    import datetime as dt  # here: its import is 1 ms of every command, most of which read no time

    seconds, millis = divmod(ms, 1000)
    stamp = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(seconds=seconds)
    text = f"{stamp.year:04d}" + stamp.strftime("-%m-%dT%H:%M:%S")
    return f"{text}.{millis:03d}Z" if millis else f"{text}Z"


_ISO: Final = (
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?"
    r"(Z|[+-]\d\d:?\d\d)?"
)


@functools.cache
def _iso() -> re.Pattern[str]:
    return re.compile(_ISO)


class ClockError(ValueError):
    """A --now / now: value that is not an ISO 8601 instant."""


def clock_from_yaml(value: object) -> Clock:
    """``now:`` as YAML gives it: a string, or the timestamp YAML itself parsed (a naive
    one is UTC, as ``parse_now`` reads a time without offset)."""
    import datetime as dt

    if isinstance(value, dt.datetime):
        stamp = value if value.tzinfo else value.replace(tzinfo=dt.UTC)
        ms = round((stamp - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)).total_seconds() * 1000)
        return Clock(_in_range(ms, value.isoformat()))
    if isinstance(value, dt.date):
        return parse_now(value.isoformat())
    if not isinstance(value, str):
        raise ClockError("now: must be an ISO 8601 instant such as 2026-12-01T09:00:00Z")
    return parse_now(value)


def parse_now(text: str) -> Clock:
    """``2026-12-01T09:00:00Z``, ``2026-12-01T10:00+01:00``, ``2026-12-01`` (midnight UTC).
    A time without an offset is UTC: the instant must not depend on the machine's zone."""
    import datetime as dt

    m = _iso().fullmatch(text.strip())
    if m is None:
        raise ClockError(
            f"'{text}' is not an ISO 8601 instant (expected e.g. 2026-12-01T09:00:00Z)"
        )
    year, month, day, hour, minute, second, fraction, zone = m.groups()
    try:
        stamp = dt.datetime(
            int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0),
            tzinfo=dt.UTC,
        )  # fmt: skip
    except ValueError as exc:
        raise ClockError(f"'{text}' is not a valid instant: {exc}") from None
    offset = 0
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:])
        if hours > 23 or minutes > 59:
            raise ClockError(
                f"'{text}' has the offset {zone}, which is no time zone: hours 00-23, minutes 00-59"
            )
        offset = sign * (hours * 60 + minutes)
    ms = int((stamp - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)).total_seconds()) * 1000
    ms += int((fraction or "0").ljust(3, "0")[:3])
    return Clock(_in_range(ms - offset * 60_000, text))


#: the instants an ISO 8601 date can name in UTC: years 0001 to 9999 (an offset can push a
#: local 9999-12-31 past the end, where writing the instant back as text would overflow)
_FIRST_MS: Final = -62_135_596_800_000
_LAST_MS: Final = 253_402_300_799_999


def _in_range(ms: int, text: str) -> int:
    if not _FIRST_MS <= ms <= _LAST_MS:
        raise ClockError(
            f"'{text}' is out of range: in UTC it falls outside the years 0001 to 9999"
        )
    return ms


#: the instant ``pin`` set (read as a module attribute on the hot path, not through a call)
PINNED: Clock | None = None


#: the pin came from the command line (--now): a saved scenario's own instant does not replace it
EXPLICIT = False


def pin(instant: Clock | None, explicit: bool = False) -> None:
    """The instant every later evaluation reads as "now" unless it is given one (the CLI's
    ``--now``, ``now:`` in flowctx.yaml); None: the current time again."""
    global PINNED, EXPLICIT
    PINNED, EXPLICIT = instant, explicit and instant is not None


@contextlib.contextmanager
def scenario_instant(now: str) -> Iterator[None]:
    """A saved scenario's ``now`` while its routes are decided (unless --now was given)."""
    global PINNED
    if not now or EXPLICIT:
        yield
        return
    previous = PINNED
    try:
        PINNED = parse_now(now)
    except ClockError:
        PINNED = previous  # a bad value is the scenario file's problem, reported where it loads
    try:
        yield
    finally:
        PINNED = previous


def pinned() -> Clock | None:
    return PINNED


class _State(threading.local):
    clock: Clock | None = None
    used: Clock | None = None  # set when an evaluation read the clock


_state = _State()
#: the per-thread state ``evaluate`` sets and restores around each evaluation
STATE: Final = _state


@contextlib.contextmanager
def evaluation(clock: Clock | None) -> Iterator[_State]:
    """The clock of one evaluation; ``state.used`` tells afterwards whether it was read."""
    previous = (_state.clock, _state.used)
    _state.clock, _state.used = clock, None
    try:
        yield _state
    finally:
        _state.clock, _state.used = previous


#: the last instant any evaluation read (a command that shows many results, such as graph,
#: says once that they depend on the time); reset it before the evaluations to watch
LAST_READ: Clock | None = None


def now_ms() -> int:
    """The instant the evaluation reads as "now" (recorded as read)."""
    global LAST_READ
    clock = _state.clock
    if clock is None:
        clock = _state.clock = Clock(int(time.time() * 1000), pinned=False)
    _state.used = LAST_READ = clock
    return clock.ms


def reading() -> Clock | None:
    """The clock the current evaluation read, if it read one."""
    return _state.used
