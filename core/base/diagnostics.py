"""Problems found while loading or checking a workspace, as values with file:line:col."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from flowctx_core.base.oneline import one_line
from flowctx_core.base.secrets import mask_text

Severity = Literal["error", "warning"]


def location(file: str, line: int = 0, column: int = 0) -> str:
    """``file:line:col``; ``file:line`` when only the line is known; ``file`` alone when no
    line is (a made-up ``file:0:0`` reads as a place in the file that does not exist)."""
    if line <= 0:
        return file
    return f"{file}:{line}:{column}" if column > 0 else f"{file}:{line}"


@dataclass(frozen=True, slots=True)
class Fix:
    """The correction ``check`` knows for a problem: the text ``old``, written where the
    problem points (its line), becomes ``new`` (a misspelt key, name or type for the closest
    known one). Editors offer it as a quick fix; nothing else reads it."""

    old: str
    new: str
    #: the line (1-based) ``old`` is written on when it is not the problem's own (a rule's
    #: ``target_agent`` for a problem at its ``transition_target``); 0: the problem's line
    line: int = 0


class FixableValueError(ValueError):
    """A validator's refusal that knows its correction (``located_errors`` puts ``fix`` on the
    problem)."""

    def __init__(self, message: str, fix: Fix) -> None:
        super().__init__(message)
        self.fix = fix


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem, located in a file. ``line``/``column`` are 1-based; 0 means unknown."""

    file: str
    line: int
    column: int
    message: str
    severity: Severity = "error"
    yaml_path: str = ""
    #: the kind of problem, stable across releases (``flowctx check --format json``); the
    #: codes are listed in core/check.py's PROBLEM_CODES
    code: str = ""
    #: the correction check knows (a did-you-mean's suggestion), as data rather than text
    fix: Fix | None = None

    def format(self) -> str:
        """``file:line:col: message`` as printed by ``flowctx check`` (``file: message`` when
        no line is known)."""
        prefix = f"{location(self.file, self.line, self.column)}: "
        kind = "" if self.severity == "error" else "warning: "
        path = f"{self.yaml_path}: " if self.yaml_path else ""
        # messages can quote values (a path, a URI): URI passwords never leave unmasked; a
        # line break in a quoted name would start a line that reads as another problem
        return one_line(mask_text(f"{prefix}{kind}{path}{self.message}"))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "file": mask_text(self.file),
            "line": self.line,
            "column": self.column,
            "message": mask_text((f"{self.yaml_path}: " if self.yaml_path else "") + self.message),
            "severity": self.severity,
        }
        if self.code:
            out["code"] = self.code
        return out


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or an empty string."""
    import difflib  # only when a name is misspelt

    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{matches[0]}'?)" if matches else ""


class Suggestion(NamedTuple):
    """A did-you-mean: the text for the message and the same suggestion as a ``Fix``."""

    text: str
    fix: Fix | None


def suggest(word: str, candidates: Iterable[str]) -> Suggestion:
    """`` (did you mean 'x'?)`` and ``Fix(word, 'x')`` for the closest candidate, else empty."""
    import difflib  # only when a name is misspelt

    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    if not matches:
        return Suggestion("", None)
    return Suggestion(f" (did you mean '{matches[0]}'?)", Fix(word, matches[0]))


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.file, d.line, d.column, d.message)
