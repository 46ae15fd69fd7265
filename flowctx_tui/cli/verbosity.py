"""How much a command says on standard error besides its results and errors: ``-q/--quiet``
and ``-v/--verbose``, the same on every command.

Results go to standard output and errors to standard error whatever the level. Between them
are *notes* (a deprecated spelling still accepted, the demo opened because no workspace was
found, a settings typo that was skipped), which ``--quiet`` silences, and *details* (the
workspace, runtime profile and settings file a command used, and how long it took), which only
``--verbose`` prints. Notes said while the arguments are still being parsed wait until the
level is known.
"""

from __future__ import annotations

import argparse
import sys
import time

QUIET_HELP = "say nothing on standard error but errors (notes and hints off)"
VERBOSE_HELP = (
    "say more on standard error: the workspace, runtime profile and settings file used, and "
    "how long the command took"
)

_level: int | None = None
_pending: list[str] = []
_started = time.perf_counter()


def add_verbosity_args(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` on ``parser`` (a command that already has a
    ``--quiet`` of its own, such as check's "errors only", keeps it)."""
    spelled = {o for a in parser._actions for o in a.option_strings}
    if "--quiet" not in spelled:
        parser.add_argument("--quiet", "-q", action="store_true", help=QUIET_HELP)
    if "--verbose" not in spelled:
        parser.add_argument("--verbose", "-v", action="count", default=0, help=VERBOSE_HELP)


def reset() -> None:
    """A new command starts: nothing known of its level yet (``main()`` may run many)."""
    global _level, _started
    _level = None
    _pending.clear()
    _started = time.perf_counter()


def configure(args: argparse.Namespace) -> None:
    """The level the parsed arguments ask for; notes said meanwhile are printed now."""
    global _level
    _level = -1 if getattr(args, "quiet", False) else int(getattr(args, "verbose", 0) or 0)
    waiting = list(_pending)
    _pending.clear()
    for message in waiting:
        note(message)


def verbose() -> bool:
    return _level is not None and _level > 0


def note(message: str) -> None:
    """``flowctx: message`` on standard error, unless ``--quiet``."""
    if _level is None:
        _pending.append(message)
    elif _level >= 0:
        print(f"flowctx: {message}", file=sys.stderr)


def detail(message: str) -> None:
    """``flowctx: message`` on standard error, under ``--verbose`` only."""
    if verbose():
        print(f"flowctx: {message}", file=sys.stderr)


def finish(command: str, code: int) -> None:
    """Under ``--verbose``: how the command ended and how long it took."""
    elapsed = (time.perf_counter() - _started) * 1000
    detail(f"{command} finished with exit status {code} in {elapsed:.0f} ms")


def flush_pending() -> None:
    """Notes still waiting when the command stopped before its level was known (argparse's
    own exit): printed, since nothing asked for quiet."""
    waiting = list(_pending)
    _pending.clear()
    for message in waiting:
        print(f"flowctx: {message}", file=sys.stderr)
