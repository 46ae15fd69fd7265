"""What the output may assume about the terminal: colour, width, and whether there is one.

Every command asks here, so ``NO_COLOR``, ``TERM=dumb`` and pipes mean the same everywhere.
The environment is passed in (default: the process's) so tests can state it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import sys
from collections.abc import Iterator, Mapping
from typing import Any, TextIO


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def dumb_terminal(env: Mapping[str, str] | None = None) -> bool:
    """``TERM=dumb`` (Emacs shells, some CI logs): no colour, no cursor movement."""
    return _env(env).get("TERM", "") == "dumb"


def colour_allowed(env: Mapping[str, str] | None = None) -> bool:
    """False when the user asked for no colour: ``NO_COLOR`` set to a non-empty value
    (https://no-color.org: an empty one does not count) or ``TERM=dumb``."""
    e = _env(env)
    return not e.get("NO_COLOR", "") and not dumb_terminal(e)


def colour_wanted(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Colour ``stream``? Only a terminal, and only when ``colour_allowed``."""
    return colour_allowed(env) and _isatty(stream)


def table_width(stream: TextIO, requested: int | None = None) -> int | None:
    """The width a table must fit: ``--width N`` when given, else the terminal's width when
    ``stream`` is a terminal, else ``None``: piped output keeps every value whole, since a
    script or a file has no width to fit."""
    if requested is not None:
        return requested
    if not _isatty(stream):
        return None
    return shutil.get_terminal_size((80, 24)).columns


def no_terminal_reason(stdin: TextIO, stdout: TextIO, env: Mapping[str, str] | None = None) -> str:
    """Why a full-screen app cannot run here ('' when it can)."""
    if not _isatty(stdout):
        return "standard output is not a terminal"
    if not _isatty(stdin):
        return "standard input is not a terminal"
    if dumb_terminal(env):
        return "TERM=dumb cannot show a full-screen app"
    return ""


def width_arg(text: str) -> int:
    """argparse type for ``--width``: a whole number of columns, at least 40."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number of columns") from None
    if value < 40:
        raise argparse.ArgumentTypeError(f"at least 40 columns, got {value}")
    return value


# C0 controls but newline and tab, DEL, C1 controls (0x9b is a one-byte CSI to some terminals),
# the bidirectional overrides and isolates that reorder what a line shows, and lone surrogates
# (which no encoder can write: printing one raised UnicodeEncodeError), and the Unicode line and
# paragraph separators, which editors, JavaScript and str.splitlines() read as a line break, so
# a name holding one split a markdown table row, a mermaid label or an annotation in two
_UNSAFE = re.compile(
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029"
    "\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff]"
)


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


# flowctx's own colour sequences travel through SafeStream under a token made of private-use
# characters drawn at random for this process: text from a workspace file cannot guess it, so
# it cannot smuggle a sequence of its own through; only SGR (colour) sequences are rebuilt.
_SGR_TOKEN = "".join(chr(0xE000 + b) for b in os.urandom(8))
_SGR = re.compile(re.escape(_SGR_TOKEN) + r"\[([0-9;]{0,16})m")


def sgr(code: str, text: str) -> str:
    """``text`` in colour ``code`` (an SGR parameter list such as ``1;31``), for a stream that
    escapes control characters: the colour survives, controls inside ``text`` do not."""
    return f"{_SGR_TOKEN}[{code}m{text}{_SGR_TOKEN}[0m"


def escape_controls(text: str) -> str:
    """``text`` with every character a terminal would act on written as a visible ``\\uXXXX``.

    Names, values, paths and messages come from workspace files and arguments: an escape
    sequence in a variable name could clear the screen, retitle the window or rewrite lines
    above it. The escape is also valid inside a JSON string, so JSON output stays JSON.
    """
    return _UNSAFE.sub(_escape, text)


def has_controls(text: str) -> bool:
    """Whether :func:`escape_controls` would change ``text``."""
    return _UNSAFE.search(text) is not None


def _rebuilt_sgr(found: re.Match[str]) -> str:
    return f"\x1b[{found.group(1)}m"


def safe_text(text: str) -> str:
    """What :class:`SafeStream` writes for ``text``: controls escaped, :func:`sgr` colours kept."""
    return _SGR.sub(_rebuilt_sgr, escape_controls(text))


class SafeStream:
    """A text stream that writes everything through :func:`escape_controls`.

    ``raw`` is the stream underneath, for output whose control sequences flowctx made itself
    (the matrix's status colours) after escaping the text they surround.
    """

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(safe_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return _isatty(self.raw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


@contextlib.contextmanager
def safe_output() -> Iterator[None]:
    """Escape control characters in everything written to stdout and stderr meanwhile."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = SafeStream(out)  # type: ignore[assignment]
    sys.stderr = SafeStream(err)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def write_json(text: str, stream: TextIO | None = None) -> None:
    """``text``, valid JSON, and a line end. JSON holds control characters only escaped
    (outside its strings, only the layout's spaces and line ends), so ASCII JSON without DEL
    holds nothing a terminal acts on and goes to the stream under the escaping one whole,
    instead of through its scan (``json.dumps``'s default output is such: it also escapes DEL
    and everything past ASCII); other text is escaped as everything else is."""
    out = sys.stdout if stream is None else stream
    # two writes rather than ``text + "\n"``: no copy of the whole text (megabytes for a
    # large matrix) to add one character
    if text.isascii() and "\x7f" not in text:  # both at C speed: isascii is a flag
        stream = raw_stream(out)
        stream.write(text)
        stream.write("\n")
    else:
        out.write(text)
        out.write("\n")


def raw_stream(stream: TextIO) -> TextIO:
    """The stream under a :class:`SafeStream`: only for text already escaped."""
    return stream.raw if isinstance(stream, SafeStream) else stream  # type: ignore[return-value]
