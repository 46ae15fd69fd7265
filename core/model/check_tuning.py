"""Which problems a workspace asks not to see, or to see at another severity: ``checks:`` in
``flowctx.yaml`` and ``# flowctx: ignore[code]`` comments on a line.

One mechanism for every view: ``check``'s list (``core/check.py`` ``workflow_problems``) is
tuned here, and the app's status line, the language server's diagnostics and ``check``'s
outputs all read that list, so they agree. Nothing disappears silently: what is ignored is
counted (``3 ignored``).

In ``flowctx.yaml``::

    checks:
      exposure.not-exposed: ignore        # a code: ignore, warning or error
      resolve.*: warning                  # every code under a prefix
      files:
        "workflows/Legacy/**":            # a path glob from the workspace root
          runtime.unknown-type: ignore

On a line of a YAML file, the problem's own line or the comment line just above it::

    some_key: value  # flowctx: ignore[exposure.not-exposed]
    # flowctx: ignore                     (every code on the next line)

A workspace is someone else's files as often as the author's own: ``security`` problems (a
condition the runtime would execute as code) can be neither ignored nor lowered, by the file
or by a comment, and saying so is a warning of its own.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.textlines import text_lines

ACTIONS: Final = ("ignore", "warning", "error")
#: codes a repository's files may not silence (they say the runtime would run code)
LOCKED: Final = frozenset({"security"})
_COMMENT: Final = re.compile(r"#\s*flowctx:\s*ignore(?:\[([^\]]*)\])?")
#: text every such comment holds: a file without it is not split into lines at all
_MARKER: Final = "flowctx:"


@dataclass(frozen=True)
class Tuning:
    """``checks:`` as read: the workspace's rules, then each path glob's, in file order."""

    rules: Mapping[str, str] = field(default_factory=dict)
    files: tuple[tuple[str, Mapping[str, str]], ...] = ()
    #: each code written, with where: ``unknown_codes`` checks them against check's list
    sites: tuple[tuple[str, Diagnostic], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rules or self.files)

    def action(self, code: str, file: str) -> str | None:
        """What the workspace asks for problems of ``code`` in ``file`` (None: nothing)."""
        found = _match(self.rules, code)
        for glob, rules in self.files:
            if _glob(file, glob):
                found = _match(rules, code) or found
        return found


def _match(rules: Mapping[str, str], code: str) -> str | None:
    """The rule for ``code``: its own, else the longest ``prefix.*`` that covers it."""
    if code in rules:
        return rules[code]
    best: tuple[int, str] | None = None
    for pattern, action in rules.items():
        covers = pattern == "*" or (pattern.endswith(".*") and code.startswith(pattern[:-1]))
        if covers and (best is None or len(pattern) > best[0]):
            best = (len(pattern), action)
    return best[1] if best else None


def _glob(path: str, glob: str) -> bool:
    """``**`` spans folders, ``*`` stays within one (as .gitignore-style globs read)."""
    regex = re.escape(glob).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*")
    regex = regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    return re.fullmatch(regex, path) is not None or fnmatch.fnmatchcase(path, glob)


def known_code(code: str, known: Iterable[str]) -> bool:
    """A code of check's list, ``*``, or a ``prefix.*`` some code is under."""
    stem = code[:-2] if code.endswith(".*") else code
    return code == "*" or any(k == stem or k.startswith(stem + ".") for k in known)


def unknown_codes(tuning: Tuning, known: Iterable[str]) -> list[Diagnostic]:
    """The codes ``checks:`` names that check does not have, each at its key."""
    codes = sorted(known)
    out = []
    for code, d in tuning.sites:
        if not known_code(code, codes):
            hint, fix = suggest(code, codes)
            out.append(replace(d, message=d.message + hint, fix=fix))
    return out


def read_tuning(
    data: Any, diag: Callable[[tuple[Any, ...], str, str], Diagnostic]
) -> tuple[Tuning, list[Diagnostic]]:
    """``checks:`` of flowctx.yaml (``data``), each mistake located with ``diag(path, msg)``;
    the codes themselves are checked against check's list by ``unknown_codes``."""
    problems: list[Diagnostic] = []
    sites: list[tuple[str, Diagnostic]] = []
    if data is None:
        return Tuning(), problems
    if not isinstance(data, dict):
        return Tuning(), [
            diag(("checks",), "checks must be a mapping of problem code: action", "error")
        ]

    def rules_of(block: Mapping[Any, Any], at: tuple[Any, ...]) -> dict[str, str]:
        out: dict[str, str] = {}
        for raw, action in block.items():
            code = str(raw)
            where = (*at, raw)
            if code == "files" and at == ("checks",):
                continue
            if code != "*":
                sites.append((code, diag(where, "unknown problem code", "error")))
            if action not in ACTIONS:
                problems.append(
                    diag(where, f"'{action}' is not an action: use {', '.join(ACTIONS)}", "error")
                )
                continue
            if action != "error" and (code in LOCKED or code == "*"):
                verb = "ignored" if action == "ignore" else "lowered"
                rest = "the other codes follow this rule" if code == "*" else "not applied"
                said = diag(
                    where,
                    f"security problems cannot be {verb} from a workspace file: they say "
                    f"the runtime would run code; {rest}",
                    "warning",
                )
                # a security problem of its own: no rule of the same file can hide it
                problems.append(replace(said, code="security"))
                if code != "*":
                    continue
            out[code] = str(action)
        return out

    rules = rules_of(data, ("checks",))
    files: list[tuple[str, Mapping[str, str]]] = []
    per_file = data.get("files")
    if per_file is not None:
        if not isinstance(per_file, dict):
            problems.append(
                diag(("checks", "files"), "files must map a path glob to its rules", "error")
            )
        else:
            for glob, block in per_file.items():
                if not isinstance(block, dict):
                    problems.append(
                        diag(("checks", "files", glob), "a glob's rules must be a mapping", "error")
                    )
                    continue
                files.append((str(glob), rules_of(block, ("checks", "files", glob))))
    return Tuning(rules, tuple(files), tuple(sites)), problems


def ignored_on_line(text: str, line: int) -> tuple[str, ...] | None:
    """The codes a ``# flowctx: ignore[...]`` comment ignores on 1-based ``line`` of ``text``
    (on it, or alone on the line above); ``("*",)`` for a bare ``ignore``; None: no comment."""
    return _ignored_on_rows(text_lines(text), line)


def _ignored_on_rows(rows: list[str], line: int) -> tuple[str, ...] | None:
    """``ignored_on_line`` of a text already split into its lines (a file with thousands of
    problems is split once, not once per problem)."""
    for n in (line - 1, line - 2):
        if not 0 <= n < len(rows):
            continue
        row = rows[n]
        if n == line - 2 and not row.lstrip().startswith("#"):
            continue
        found = _COMMENT.search(row)
        if found is not None:
            listed = found.group(1)
            if listed is None or not listed.strip():
                return ("*",)
            return tuple(c.strip() for c in listed.split(",") if c.strip())
    return None


def tune(
    problems: Iterable[Diagnostic],
    tuning: Tuning,
    text_of: Callable[[str], str],
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(kept, ignored): each problem with the severity the workspace asks for, and those it
    asks not to see. ``text_of(file)`` gives a file's text for its comments ("" if unknown)."""
    kept: list[Diagnostic] = []
    ignored: list[Diagnostic] = []
    #: each file's lines, None when no comment of it can ignore anything
    rows: dict[str, list[str] | None] = {}
    for p in problems:
        lines = None
        if p.line > 0:
            if p.file not in rows:
                rows[p.file] = commented_rows(text_of, p.file)
            lines = rows[p.file]
        found, dropped = tune_one(p, tuning, lines)
        (ignored if dropped else kept).append(found)
    return kept, ignored


def commented_rows(text_of: Callable[[str], str], file: str) -> list[str] | None:
    """The lines of ``file`` when a comment of it can ignore a problem, else None (no YAML
    file, or no ``flowctx:`` in it)."""
    if not file.endswith((".yaml", ".yml")):
        return None
    text = text_of(file)
    return text_lines(text) if _MARKER in text else None


def tune_one(p: Diagnostic, tuning: Tuning, rows: list[str] | None) -> tuple[Diagnostic, bool]:
    """``tune`` of one problem: (it with the severity asked for, whether it is ignored);
    ``rows``: its file's ``commented_rows``."""
    locked = p.code in LOCKED
    action = tuning.action(p.code, p.file) if tuning else None
    if p.line > 0 and rows is not None:
        codes = _ignored_on_rows(rows, p.line)
        if codes is not None and ("*" in codes or p.code in codes):
            action = "ignore"
    if locked and action != "error":
        return p, False
    if action == "ignore":
        return p, True
    if action in ("warning", "error") and action != p.severity:
        return replace(p, severity=action), False  # type: ignore[arg-type]
    return p, False
