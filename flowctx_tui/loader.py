"""One (re)load of the workspace for the app: snapshot, matrix, problems and files to watch.

Runs in a worker thread, so it only reads the session and disk and returns plain data; the app
decides on the UI thread whether the result replaces what is shown or leaves it marked stale.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.diagnostics import Diagnostic
from core.layout import PROFILE_FILE, SEED_DIR
from core.resolve import resolve
from core.results import Matrix
from core.secrets import mask_text
from core.session import Session
from core.workspace import WorkflowSnapshot, load_profile


@dataclass(frozen=True)
class LoadResult:
    """What one reload found. ``broken`` non-empty means: keep the last good matrix, stale."""

    workflow: str
    workflows: tuple[str, ...]
    matrix: Matrix
    broken: tuple[Diagnostic, ...] = ()
    problems: tuple[Diagnostic, ...] = ()
    #: the contract's display path and text as lines, for showing a definition as written
    contract_file: str = ""
    contract_lines: tuple[str, ...] = ()
    #: files outside the fixed watch set that this result depends on (fallbacks, file sources)
    watched: frozenset[Path] = field(default_factory=frozenset)
    elapsed_ms: float = 0.0


def broken_diagnostics(snapshot: WorkflowSnapshot) -> tuple[Diagnostic, ...]:
    """File-level errors: the contract did not parse at all (no variables, only errors).

    Per-definition errors are not "broken": those variables show as error rows.
    """
    if snapshot.variables:
        return ()
    return tuple(d for d in snapshot.diagnostics if d.severity == "error")


def _profile_broken(session: Session) -> tuple[Diagnostic, ...]:
    """flowctx.yaml that failed to parse gives an empty profile; resolving with it would show
    values the author never meant, so it counts as broken too."""
    profile = session.profile
    errors = tuple(d for d in profile.diagnostics if d.severity == "error")
    if errors and not profile.env and not profile.launch:
        return errors
    return ()


def _row_problems(matrix: Matrix) -> list[Diagnostic]:
    """Rows that failed at resolution (not at parsing: those are already diagnostics)."""
    out = []
    for row in matrix.rows:
        if row.status != "error" or not row.error or row.origin == "invalid definition":
            continue
        loc = row.loc
        out.append(
            Diagnostic(
                loc.file if loc else matrix.workflow,
                loc.line if loc else 0,
                loc.column if loc else 0,
                f"{row.name}: {mask_text(row.error)}",
            )
        )
    return out


def refresh_session(session: Session, changed: Iterable[Path]) -> None:
    """Reload the parts of the session the changed files feed: profile and seed database."""
    root = session.root
    seeds = profile = False
    for path in changed:
        try:
            rel = path.relative_to(root)
        except ValueError:
            continue
        if not rel.parts:
            # the workspace folder itself came back (see watcher.watch): reread everything
            seeds = profile = True
        elif rel.parts[:1] == (SEED_DIR,):
            seeds = True
        elif rel.parts == (PROFILE_FILE,):
            profile = True
    if profile:
        session.profile = load_profile(root)
        session.refresh_runtime()
    if seeds:
        session.reload_database()


def load(
    session: Session,
    workflow: str,
    env_overrides: Mapping[str, str],
    launch: Mapping[str, Any],
    changed: Iterable[Path] = (),
) -> LoadResult:
    """Reload after ``changed`` files and resolve ``workflow`` with the app's inputs."""
    started = time.perf_counter()
    if not session.root.is_dir():
        return _workspace_gone(session, workflow, started)
    refresh_session(session, changed)
    workspace = session.snapshot([workflow], env_overrides)
    workflows = workspace.names
    snapshot = workspace.workflow(workflow)
    matrix = resolve(workspace, session.inputs(env_overrides, launch), workflow)
    broken = broken_diagnostics(snapshot) + _profile_broken(session)
    if broken:
        # resolving an unreadable contract only adds noise (every projection "undeclared")
        problems = [*broken, *session.database_problems]
    else:
        problems = [
            *matrix.diagnostics,
            *session.profile.diagnostics,
            *session.database_problems,
            *_row_problems(matrix),
        ]
    return LoadResult(
        workflow=workflow,
        workflows=workflows,
        matrix=matrix,
        broken=broken,
        problems=tuple(problems),
        contract_file=snapshot.contract_file,
        contract_lines=tuple(snapshot.text.splitlines()),
        watched=matrix.read,
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


def _workspace_gone(session: Session, workflow: str, started: float) -> LoadResult:
    """The workspace folder was deleted or moved: one clear problem, not a missing contract."""
    diag = Diagnostic(
        session.root.name,
        0,
        0,
        f"the workspace folder {session.root} is gone (deleted or moved); "
        "flowctx reloads when it is back",
    )
    matrix = Matrix(str(session.root), workflow, ())
    return LoadResult(
        workflow,
        (),
        matrix,
        (diag,),
        (diag,),
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


def failed(workflow: str, workflows: Iterable[str], root: Path, exc: BaseException) -> LoadResult:
    """A reload that raised (a bug, not bad input): shown as a problem, never a crash."""
    diag = Diagnostic(
        root.name, 0, 0, mask_text(f"internal error while loading: {type(exc).__name__}: {exc}")
    )
    matrix = Matrix(str(root), workflow, ())
    return LoadResult(workflow, tuple(workflows), matrix, (diag,), (diag,))
