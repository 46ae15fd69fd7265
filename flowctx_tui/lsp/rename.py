"""Renaming a context variable or an agent across its workflow's files (``textDocument/rename``
and ``prepareRename``): every identifier occurrence ``occurrences.py`` finds, nothing else.

A rename is refused, with the reason, when the cursor is not on a variable or agent, when the
new name is not an identifier, when the workflow already has a variable (or agent) of that name
(or the new name is ``user``/``terminate``), or when the runtime reserves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from flowctx_tui.lsp.analysis import Workspace
from flowctx_tui.lsp.occurrences import (
    IDENTIFIER,
    PSEUDO_AGENTS,
    Occurrence,
    declared,
    symbol_at,
)


@dataclass(frozen=True)
class Refused:
    """Why the rename cannot be made (shown to the author as the request's error)."""

    reason: str


@dataclass(frozen=True)
class Renamed:
    """The edits of a rename: each occurrence's span, to be replaced by ``new``."""

    kind: str
    old: str
    new: str
    edits: tuple[Occurrence, ...]


def prepare(
    ws: Workspace, workflow: str, path: Path, line: int, character: int, buffers: Mapping[Path, str]
) -> Occurrence | Refused:
    """The span to rename at the cursor, or why there is none."""
    found = symbol_at(ws, workflow, path, line, character, buffers)
    if found is None:
        return Refused("only a context variable or an agent of the workflow can be renamed here")
    return found[2]


def rename(
    ws: Workspace,
    workflow: str,
    path: Path,
    line: int,
    character: int,
    new: str,
    buffers: Mapping[Path, str],
) -> Renamed | Refused:
    found = symbol_at(ws, workflow, path, line, character, buffers)
    if found is None:
        return Refused("only a context variable or an agent of the workflow can be renamed here")
    kind, old, _here, every = found
    if new == old:
        return Renamed(kind, old, new, ())
    if not IDENTIFIER.fullmatch(new):
        return Refused(
            f"'{new}' is not a valid {kind} name: letters, digits and '_', not starting "
            "with a digit"
        )
    taken = declared(ws, workflow, buffers)[kind]
    if new in taken or (kind == "agent" and new in PSEUDO_AGENTS):
        article = "an" if kind == "agent" else "a"
        return Refused(f"{workflow} already has {article} {kind} named '{new}'")
    if kind == "variable":
        why = ws.session.runtime.reserved(new)
        if why:
            return Refused(f"cannot rename to '{new}': {why}")
    return Renamed(kind, old, new, tuple(every))
