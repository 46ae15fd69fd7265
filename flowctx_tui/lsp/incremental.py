"""The language server's incremental check: after an edit, only what the edit can change is
read and checked again, on the last analysis of everything else, and the result is the list
``flowctx check`` gives for the same files (``flowctx_core.check.workflow_problems``).

An ``Analysis`` is immutable once made. Making the next one (``analyse``):

- the workspace is read as ``flowctx check`` reads it (``load_snapshot``), except that a
  workflow whose contract has the same text as in the last analysis is not parsed again: its
  ``WorkflowSnapshot`` is reused (parsing is a function of the text, ``contract_text``). The
  routing files, registries, file sources and the rest are read again each time (small, and
  read through the same loaders, so nothing can be missed);
- a workflow's part of the problems (``workflow_part``) and its matrix are reused when
  everything they are computed from is the same as last time: its contract, routes, workflow
  files, middleware and file sources, and the workspace's settings (the session with its
  database, the environment, flowctx.yaml, the workflow list, the fallbacks, every registry).
  A shared file changes the file sources of each workflow that reads it, a registry or
  flowctx.yaml the settings of all: those workflows are checked again, the others not;
- inside a workflow checked again, each declaration the edit did not touch keeps what the
  stages computed of it (its read, its resolution kind and state row, its policy entry, its
  checks' problems: ``WorkflowSnapshot.per_item``), so an edit of one definition of a
  3,000-variable contract costs what it changed;
- the workspace's own problems are computed again, and the parts are merged and tuned as
  ``check`` does (``tuned_problems``; ``TunedProblems`` places only the problems that changed).

``flowctx.yaml`` is part of the session: when its text (the editor's, else the disk's) is not
the one the session was read with, the session is read again first.

Work is stopped between stages when ``cancel`` is set (a newer change arrived): ``Cancelled``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.check import TunedProblems, workflow_part, workspace_part
from flowctx_core.expressions.budget import Cancelled, Flag, bounded
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace import (
    WorkflowSnapshot,
    contract_text,
    load_workflow,
    workflow_folder,
)
from flowctx_core.resolve import resolve
from flowctx_core.routing import Routes
from flowctx_core.session import Session
from flowctx_core.snapshot import WorkspaceSnapshot, load_snapshot


@dataclass(frozen=True)
class Part:
    """One workflow as the last analysis read, resolved and checked it."""

    wf: WorkflowSnapshot
    routes: Routes | None
    matrix: Matrix
    #: its problems before the workspace's tuning (``workflow_part``)
    problems: tuple[Diagnostic, ...]
    #: what they were computed from (``_inputs``), compared to reuse them
    inputs: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """The workspace's problems for one set of editor buffers, with what produced them."""

    session: Session
    snapshot: WorkspaceSnapshot
    parts: Mapping[str, Part]
    #: ``flowctx check``'s list for these buffers
    problems: list[Diagnostic]
    #: the workflows checked again for it (the others' parts were reused), in listing order
    checked: tuple[str, ...] = ()
    reparsed: tuple[str, ...] = ()
    buffers: Mapping[Path, str] = field(default_factory=dict)
    #: each workflow's last contract that parsed (this analysis's or an earlier one's): an
    #: edit inside one of its definitions parses only that definition again
    parsed: Mapping[str, WorkflowSnapshot] = field(default_factory=dict)
    #: the workflows of ``reparsed`` parsed from ``parsed`` that way
    partly: tuple[str, ...] = ()
    #: ``tuned_problems`` kept from one analysis to the next (each changed problem placed)
    tuner: TunedProblems = field(default_factory=TunedProblems)


def _stop(cancel: Flag | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("analysis stopped: a newer change arrived")


def _settings(session: Session, snap: WorkspaceSnapshot) -> tuple[Any, ...]:
    """Everything of the workspace a workflow's check may read besides its own files."""
    return (
        session,
        snap.root,
        snap.env,
        snap.profile,
        snap.names,
        snap.undiscovered,
        snap.fallbacks,
        snap.build_context,
        snap.registry_roots,
        snap.injection_roots,
        snap.packaged_factory_app,
        snap.folder_problems,
        snap.runtime,
        snap.revision,
    )


def _inputs(session: Session, snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> tuple[Any, ...]:
    """What workflow ``wf``'s matrix and problems are computed from."""
    name = wf.name
    return (
        wf,
        snap.routes.get(name),
        snap.workflow_files.get(name),
        snap.middleware.get(name),
        snap.file_contents(wf),
        _settings(session, snap),
    )


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x is y:
            continue
        if isinstance(x, tuple) and isinstance(y, tuple):
            if not _same(x, y):
                return False
            continue
        try:
            if x != y:
                return False
        except Exception:  # a value that cannot be compared is taken as changed
            return False
    return True


def _candidates(
    session: Session, name: str, *found: WorkflowSnapshot | None
) -> list[WorkflowSnapshot]:
    """Those of ``found`` read from this workflow's folder under the session's runtime."""
    folder = workflow_folder(session.root, name)
    return [
        wf
        for wf in found
        if wf is not None
        and wf.runtime is session.runtime
        and wf.root == session.root
        and wf.folder == folder
    ]


def _reusable(
    session: Session, previous: Analysis | None, latest: Mapping[str, WorkflowSnapshot]
) -> dict[str, WorkflowSnapshot]:
    """The workflows whose contract text is unchanged (read now) since the last analysis, or
    since the last parse (``latest``: kept even when the check that made it was stopped)."""
    out: dict[str, WorkflowSnapshot] = {}
    for name in session.workflows():
        part = previous.parts.get(name) if previous is not None else None
        known = _candidates(session, name, latest.get(name), part.wf if part else None)
        if not known:
            continue
        text = contract_text(session.root, name)
        same = next((wf for wf in known if text is not None and text == wf.text), None)
        if same is not None:
            out[name] = same
    return out


def _edited(
    session: Session,
    previous: Analysis | None,
    latest: Mapping[str, WorkflowSnapshot],
    given: Mapping[str, WorkflowSnapshot],
) -> dict[str, WorkflowSnapshot]:
    """The workflows whose contract changed since the last parse that succeeded, read now
    from it (``load_workflow``'s ``earlier``: only the edited definition is parsed when the
    edit stays inside one, and only the definitions that changed are validated again)."""
    out: dict[str, WorkflowSnapshot] = {}
    for name in session.workflows():
        if name in given:
            continue
        before = previous.parsed.get(name) if previous is not None else None
        known = _candidates(session, name, latest.get(name), before)
        if known:
            out[name] = load_workflow(session.root, name, session.runtime, known[0])
    return out


def analyse(
    session: Session,
    buffers: Mapping[Path, str],
    previous: Analysis | None = None,
    cancel: Flag | None = None,
    latest: dict[str, WorkflowSnapshot] | None = None,
) -> Analysis:
    """The workspace's problems with ``buffers`` in place of the disk's files, reusing what
    ``previous`` computed that the change cannot have changed.

    ``latest`` (kept by the caller from one analysis to the next) holds each workflow's last
    contract that parsed, put there as soon as it is parsed: a check stopped by a newer
    change still leaves its parse (and what was resolved and checked of its definitions,
    kept on their specs) to the next, so a burst of keys never starts over from the last
    check that ended."""
    latest = {} if latest is None else latest
    with fsview.buffers(buffers), bounded(None, cancel):
        given = _reusable(session, previous, latest)
        _stop(cancel)
        edited = _edited(session, previous, latest, given)
        for name, wf in edited.items():
            if wf.doc is not None:
                latest[name] = wf  # kept even if this check stops now
        _stop(cancel)
        snap = load_snapshot(
            session.root,
            session.effective_env(),
            profile=session.profile,
            preloaded=[*given.values(), *edited.values()],
            runtime=session.runtime,
        )
        for name, wf in snap.workflows.items():
            if wf.doc is not None:
                latest[name] = wf
        _stop(cancel)
        inputs = session.inputs()
        problems = workspace_part(snap, inputs)
        parts: dict[str, Part] = {}
        checked: list[str] = []
        for name, wf in snap.workflows.items():
            now = _inputs(session, snap, wf)
            old = previous.parts.get(name) if previous is not None else None
            if old is not None and _same(old.inputs, now):
                parts[name] = old
            else:
                _stop(cancel)
                matrix = resolve(snap, inputs, name)
                _stop(cancel)
                found = tuple(workflow_part(snap, wf, matrix))
                parts[name] = Part(wf, snap.routes.get(name), matrix, found, now)
                checked.append(name)
            problems.extend(parts[name].problems)
        _stop(cancel)
        tuner = previous.tuner if previous is not None else TunedProblems()
        tuned = tuner(snap, problems)
    reparsed = tuple(n for n in snap.workflows if n not in given)
    before = previous.parsed if previous is not None else {}
    parsed = {
        name: wf if wf.doc is not None else before[name]
        for name, wf in snap.workflows.items()
        if wf.doc is not None or name in before
    }
    partly = tuple(n for n, wf in edited.items() if wf.doc is not None and wf.doc.from_part)
    return Analysis(
        session, snap, parts, tuned, tuple(checked), reparsed, dict(buffers), parsed, partly, tuner
    )


__all__ = ["Analysis", "Part", "analyse"]
