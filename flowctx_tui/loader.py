"""One (re)load of the workspace for the app: snapshot, matrix, problems and files to watch.

Runs in a worker thread, so it only reads the session and disk and returns plain data (a
changed profile or seed folder gives a new session in the result, never a changed one); the app
decides on the UI thread whether the result replaces what is shown or leaves it marked stale.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic, sort_key
from flowctx_core.base.secrets import mask_text
from flowctx_core.check import workflow_problems
from flowctx_core.model.filenames import PROFILE_FILE, SEED_DIR
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.widening import refused_env
from flowctx_core.model.workspace import WorkflowSnapshot, display_path
from flowctx_core.resolve import resolve
from flowctx_core.routing import Routes
from flowctx_core.session import Session

#: how provenance names what the user set in the app (vs the process env and flowctx.yaml)
APP_ORIGINS = {"overrides_from": "app override", "launch_from": "app"}


@dataclass(frozen=True)
class LoadResult:
    """What one reload found. ``broken`` non-empty means: keep the last good matrix, stale."""

    workflow: str
    workflows: tuple[str, ...]
    matrix: Matrix
    broken: tuple[Diagnostic, ...] = ()
    problems: tuple[Diagnostic, ...] = ()
    #: problems flowctx.yaml's checks: or an ignore comment asked not to see (counted)
    ignored: tuple[Diagnostic, ...] = ()
    #: the contract's display path and text as lines, for showing a definition as written
    contract_file: str = ""
    contract_lines: tuple[str, ...] = ()
    #: files outside the fixed watch set that this result depends on (fallbacks, file sources)
    watched: frozenset[Path] = field(default_factory=frozenset)
    elapsed_ms: float = 0.0
    #: the workflow's routing files as this load read them (for the routes view)
    routes: Routes | None = None
    #: the session this result was loaded with (None: keep the app's): swapped in by the app
    session: Session | None = None


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


def refresh_session(session: Session, changed: Iterable[Path]) -> Session:
    """The session with the parts the changed files feed read again: profile and seed
    database (a new session: the app swaps it in on the UI thread)."""
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
    return session.refreshed(profile=profile, seeds=seeds)


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
    session = refresh_session(session, changed)
    # the override editor is filled by saved scenarios too: only the command line widens access
    env_overrides, refused = refused_env(env_overrides, session.root, "the app's env overrides")
    refusals = tuple(
        Diagnostic(f"env override {name}", 0, 0, message, severity="warning")
        for name, message in refused
    )
    workspace = session.snapshot([workflow], env_overrides)
    workflows = workspace.names
    snapshot = workspace.workflow(workflow)
    if not _is_dir(snapshot.folder):
        return _workflow_gone(session, snapshot, workflows, started)
    inputs = session.inputs(env_overrides, launch, **APP_ORIGINS)
    matrix = resolve(workspace, inputs, workflow)
    broken = broken_diagnostics(snapshot) + _profile_broken(session)
    if broken:
        # resolving an unreadable contract only adds noise (every projection "undeclared")
        problems = [*broken, *session.database_problems]
    else:
        # what `flowctx check -w <workflow>` reports, so the status line's count is check's
        problems = workflow_problems(workspace, inputs, {workflow: (snapshot, matrix)})
    ignored = tuple(getattr(problems, "ignored", ()))
    problems = [*problems, *refusals]
    return LoadResult(
        workflow=workflow,
        workflows=workflows,
        matrix=matrix,
        broken=broken,
        problems=tuple(sorted(set(problems), key=sort_key)),
        ignored=ignored,
        contract_file=snapshot.contract_file,
        contract_lines=tuple(snapshot.text.splitlines()),
        watched=matrix.read,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        routes=workspace.routes[workflow],
        session=session,
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
        session=session,
    )


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long, a loop of links: the contract loader says what
        return True


def _workflow_gone(
    session: Session, snapshot: WorkflowSnapshot, workflows: tuple[str, ...], started: float
) -> LoadResult:
    """The shown workflow's folder was deleted or moved: say so, with the folder's path
    (not "context_variables.yaml:0:0: has no context_variables.yaml")."""
    shown = display_path(snapshot.folder, session.root)
    diag = Diagnostic(
        shown,
        0,
        0,
        f"the workflow folder {snapshot.folder} was removed or moved; flowctx reloads when "
        "it is back" + (f" (workflows now: {', '.join(workflows)})" if workflows else ""),
    )
    matrix = Matrix(str(session.root), snapshot.name, ())
    return LoadResult(
        snapshot.name,
        workflows,
        matrix,
        (diag,),
        (diag,),
        elapsed_ms=(time.perf_counter() - started) * 1000,
        session=session,
    )


def failed(workflow: str, workflows: Iterable[str], root: Path, exc: BaseException) -> LoadResult:
    """A reload that raised (a bug, not bad input): shown as a problem, never a crash."""
    diag = Diagnostic(
        root.name, 0, 0, mask_text(f"internal error while loading: {type(exc).__name__}: {exc}")
    )
    matrix = Matrix(str(root), workflow, ())
    return LoadResult(workflow, tuple(workflows), matrix, (diag,), (diag,))
