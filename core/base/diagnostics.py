"""Problems found while loading or checking a workspace, as values with file:line:col."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

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


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.file, d.line, d.column, d.message)
