"""Review mode: what a change to a workspace does to resolution, routing and check.

Two sides are compared, each a workspace snapshot with the inputs it resolves under: a git
revision (``flowctx_core.review.git``, the one module that runs git: a revision is read through
git into memory, so nothing is written and the working tree, the index and the stash are never
touched) or a folder on disk. For every workflow of either side the comparison
lists the variables whose row changed (value, status, source, origin, warnings, the agents that
see it), the route decisions whose winner changed (every source of every routing file, under the
default scenario and each saved scenario) and the check problems that appeared or went away.

Both sides share what is not a workspace file: the process environment and, with ``--runtime``,
the runtime profile. Each side keeps its own ``flowctx.yaml``, seed database and saved scenarios;
a scenario is applied to both sides in one version (the head's when both have it), so a changed
winner says what the workflow change does, not what a scenario edit does.

Pure once the sides are read: ``compare(base, head)`` only resolves, decides and checks.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast

from flowctx_core.base import clock, fsview
from flowctx_core.base.diagnostics import Diagnostic, sort_key
from flowctx_core.base.secrets import MASK, is_secret_key, mask_text
from flowctx_core.check import workflow_problems
from flowctx_core.model.database import EmbeddedDatabase
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Matrix, Refusal, Row
from flowctx_core.model.profiles import RuntimeProfile, UnknownRuntime, get_profile
from flowctx_core.model.scenarios import (
    Scenario,
    SecretGuard,
    real_overrides,
    same,
    saved_scenarios,
    secret_guard,
)
from flowctx_core.model.workspace_root import WorkspaceNotFound
from flowctx_core.report.display import display_value, short_value
from flowctx_core.resolve import resolve
from flowctx_core.review.git import (
    RevisionError,
    commit_of,
    load_snapshot_at,
    read_revision,
    repository_of,
)
from flowctx_core.routing import Router, sources
from flowctx_core.routing.decision import RouteDecision
from flowctx_core.session import Session, open_session
from flowctx_core.snapshot import WorkspaceSnapshot, load_snapshot
from flowctx_core.testing.model import TestFile
from flowctx_core.testing.taint import machine_sourced, withheld_text

Change = Literal["added", "removed", "changed"]
#: what a variable's row is compared on, in the order a reader scans a row
FIELDS: tuple[str, ...] = ("value", "status", "type", "source", "origin", "warnings", "error")
FIELDS_AGENTS = "agents"
#: the name of the scenario every source is routed under first: no saved inputs at all
DEFAULT_SCENARIO = "default"


class SideError(Exception):
    """A side cannot be read (not a folder, not a revision, git failed); safe to show."""


# --- the two sides ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a comparison: the workspace as read, and how it resolves."""

    #: how the side is named in every output (``git:<short id> (<rev>)``, a folder, the tree)
    label: str
    snapshot: WorkspaceSnapshot
    #: gives the inputs (profile env and launch values, the seed database)
    session: Session
    #: saved scenarios by workflow, then by name
    scenarios: Mapping[str, Mapping[str, Scenario]] = field(default_factory=dict)
    #: the snapshot read again under environment overrides (a scenario's ``env``)
    reread: Callable[[Mapping[str, str]], WorkspaceSnapshot] | None = field(
        default=None, compare=False, repr=False
    )
    #: ``flowctx test``'s files on this side (``.flowctx/tests/*.yaml``)
    tests: tuple[TestFile, ...] = ()

    def snapshot_for(self, env_overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        if not env_overrides or self.reread is None:
            return self.snapshot
        return self.reread(env_overrides)


def folder_side(
    path: Path,
    env: Mapping[str, str],
    *,
    runtime: str | None = None,
    label: str | None = None,
    session: Session | None = None,
    workflows: Iterable[str] | None = None,
) -> Side:
    """The workspace at ``path`` (root, ``workflows/`` or a workflow folder) as it is on disk.

    ``session``: one already open on that workspace (the app's), reused for its database;
    ``workflows``: read only these (the app compares the one it shows).
    """
    if session is None:
        try:
            session = open_session(path, env=env, runtime=runtime)
        except (WorkspaceNotFound, UnknownRuntime) as exc:  # said as they are
            raise SideError(str(exc)) from None
    opened = session
    wanted = list(workflows) if workflows is not None else None
    snap = opened.snapshot(wanted)
    return Side(
        label=label or str(opened.root),
        snapshot=snap,
        session=opened,
        scenarios=saved_scenarios(opened.root, snap.workflows),
        reread=lambda overrides: opened.snapshot(wanted, overrides),
        tests=_folder_tests(opened.root),
    )


def _folder_tests(root: Path) -> tuple[TestFile, ...]:
    from flowctx_core.testing.model import workspace_test_files

    return tuple(workspace_test_files(root))


def _empty_side(label: str, env: Mapping[str, str], runtime: RuntimeProfile | None) -> Side:
    """A side with no workspace at all: an empty ``workflows/`` folder, in memory."""
    tree = fsview.MemoryTree({"": fsview.Node("dir"), "workflows": fsview.Node("dir")}, _no_read)
    with fsview.mounted(_EMPTY_ROOT, tree) as root:
        chosen = runtime or get_profile(None)
        snap = load_snapshot(root, dict(env), runtime=chosen)
    database = EmbeddedDatabase(root, repository=f":memory:{label}")
    session = Session(root, dict(env), snap.profile, database, [], runtime=chosen)
    return Side(label, snap, session)


_EMPTY_ROOT = Path("/flowctx-empty-workspace")


def _no_read(key: str, size: int) -> bytes:
    raise OSError(0, "not read")


def revision_side(
    repo: Path, revision: str, subdir: str, env: Mapping[str, str], *, runtime: str | None = None
) -> Side:
    """The workspace at ``subdir`` of ``repo`` as committed in ``revision``."""
    commit_id = commit_of(repo, revision)
    if commit_id is None:
        raise SideError(f"{revision}: not a revision of the repository {repo}")
    try:
        chosen: RuntimeProfile | None = get_profile(runtime) if runtime else None
    except UnknownRuntime as exc:
        raise SideError(str(exc)) from None
    short = commit_id[:12]
    label = f"git:{short}" if revision.startswith(short) else f"git:{short} ({revision})"
    try:
        read = read_revision(repo, commit_id, subdir, env, runtime=chosen)
    except RevisionError as exc:
        raise SideError(str(exc)) from None
    if read is None:
        # the workspace is new since that revision (a pull request that adds it): an empty
        # side, so every workflow of the other side is listed as added
        return _empty_side(f"{label}, no workspace there", env, chosen)
    snap = read.snapshot
    session = Session(
        root=snap.root,
        env=dict(env),
        profile=snap.profile,
        database=read.database,
        database_problems=list(read.database_problems),
        runtime=snap.runtime,
        runtime_choice=runtime,
    )

    def reread(overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        try:
            return load_snapshot_at(
                repo, commit_id, {**env, **overrides}, subdir=subdir, runtime=snap.runtime
            )
        except RevisionError:  # the repository changed under the app: keep what was read
            return snap

    return Side(label, snap, session, read.scenarios, reread, read.tests)


def read_side(spec: str, path: Path, env: Mapping[str, str], *, runtime: str | None = None) -> Side:
    """``--base``/``--head``: a folder, or a revision of the git repository holding ``path``.

    ``git:REV`` is always a revision; a spec with a slash that names a folder is that folder;
    a bare name that is both a folder and a revision is refused as ambiguous.
    """
    forced = spec.startswith("git:")
    revision = spec[4:] if forced else spec
    folder = None if forced else Path(spec).expanduser()
    is_folder = folder is not None and folder.is_dir()
    repo = repository_of(path)
    is_revision = repo is not None and commit_of(repo[0], revision) is not None
    if is_folder and is_revision and "/" not in spec:
        raise SideError(
            f"'{spec}' is both a folder and a git revision: write ./{spec} for the folder or "
            f"git:{spec} for the revision"
        )
    if is_folder and folder is not None:
        return folder_side(folder, env, runtime=runtime)
    if repo is None:
        raise SideError(
            f"'{spec}' is not a folder, and {path} is not in a git work tree to read it from"
        )
    if not is_revision:
        raise SideError(f"'{spec}' is neither a folder nor a revision of {repo[0]}")
    return revision_side(repo[0], revision, repo[1], env, runtime=runtime)


# --- what changed ----------------------------------------------------------------------------


@dataclass(frozen=True)
class VariableChange:
    name: str
    change: Change
    before: Row | None
    after: Row | None
    #: the row fields that differ (every field for an added or removed variable)
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteChange:
    """A source whose winning route is not the same on both sides under one scenario."""

    file: str
    source: str
    scenario: str
    #: the winning target; None when no route wins (the run ends or fails there) or the
    #: side has no rule from this source in that file
    before: str | None
    after: str | None
    #: why, as the router says it ("first path whose condition holds", "no rule from here")
    before_reason: str
    after_reason: str
    #: the secret a side's decision reads (its winner is then not told: it would be a bit of
    #: the secret), "" when it reads none
    before_withheld: str = ""
    after_withheld: str = ""


@dataclass(frozen=True)
class WorkflowDiff:
    workflow: str
    #: ``added``/``removed``: the workflow exists on one side only
    presence: Literal["both", "added", "removed"]
    variables: tuple[VariableChange, ...] = ()
    routes: tuple[RouteChange, ...] = ()
    problems_added: tuple[Diagnostic, ...] = ()
    problems_removed: tuple[Diagnostic, ...] = ()
    scenarios: tuple[str, ...] = (DEFAULT_SCENARIO,)
    #: the runtime's verdict on each side (the refusal and its stage, None: it loads)
    refused_before: Refusal | None = None
    refused_after: Refusal | None = None
    #: a side converts a secret to a type (named here): whether it loads is then a bit of the
    #: secret, so neither side's verdict is told (both None)
    verdict_withheld: str = ""

    @property
    def verdict_changed(self) -> bool:
        def key(r: Refusal | None) -> tuple[str, str] | None:
            return (r.decided_by, r.reason) if r is not None else None

        return key(self.refused_before) != key(self.refused_after)

    @property
    def changed(self) -> bool:
        return bool(
            self.presence != "both"
            or self.verdict_changed
            or self.variables
            or self.routes
            or self.problems_added
            or self.problems_removed
        )

    def variable(self, name: str) -> VariableChange | None:
        for v in self.variables:
            if v.name == name:
                return v
        return None


@dataclass(frozen=True)
class TestChange:
    """A test case whose verdict differs between the sides (the head's test files, run
    against each side's workspace)."""

    __test__ = False  # not a pytest test class, whatever its name

    file: str
    case: str
    workflow: str
    location: str
    before: str  # PASS | FAIL | ERROR
    after: str
    #: what failed on the side that fails (masked), one line each
    detail: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkspaceDiff:
    base: str
    head: str
    runtime: str
    workflows: tuple[WorkflowDiff, ...]
    #: test cases whose verdict changes
    tests: tuple[TestChange, ...] = ()

    @property
    def changed(self) -> bool:
        return any(w.changed for w in self.workflows) or bool(self.tests)


def _local(text: str, roots: Iterable[Path]) -> str:
    """``text`` with the side's own folder left out: a revision is mounted in memory at a
    path named after its commit, which is no folder of the user's, so a path in a message
    would differ from the other side's for the same file."""
    for root in roots:
        for spelled in {str(root), os.path.realpath(root)}:
            text = text.replace(spelled + os.sep, "").replace(spelled, ".")
    return text


def guard_for(*matrices: Matrix | None) -> SecretGuard:
    """Every secret either side knows: secret rows' values and the defaults written for them
    (a message may quote a default the runtime ignored), to scrub from every text shown."""
    names: set[str] = set()
    values: set[str] = set()
    for matrix in matrices:
        guard = secret_guard(matrix)
        names |= guard.names
        values |= guard.values
        for row in matrix.rows if matrix is not None else ():
            source = row.definition.get("source") if isinstance(row.definition, dict) else None
            default = source.get("default") if isinstance(source, dict) else None
            if row.secret and isinstance(default, str | int | float) and str(default):
                values.add(str(default))
    return SecretGuard(frozenset(names), frozenset(values))


def _localised(row: Row, roots: tuple[Path, ...], guard: SecretGuard) -> Row:
    def text(t: str) -> str:
        return guard.scrub_text(_local(t, roots))

    if row.secret or is_secret_key(row.name) or machine_sourced(row):
        # a secret's value (or one read from this machine's environment, the same on both
        # sides and none of a review's business), and how it resolved (found, defaulted,
        # missing: a lookup by a secret finds its record or not by the secret), are compared
        # and shown as one thing: the review tells that its definition changed, never what
        # it resolved to
        status = cast(Any, "secret")
        return replace(
            row,
            value=MASK,
            status=status,
            origin=f"{row.source} (secret: how it resolved is not shown)",
            warnings=(),
            error=None,
            trace=(),
        )
    return replace(
        row,
        origin=text(row.origin),
        warnings=tuple(text(w) for w in row.warnings),
        error=text(row.error) if row.error else None,
    )


def _row_key(row: Row) -> dict[str, Any]:
    if row.status == "secret":  # see _localised: its definition stands for its value
        return {
            "value": json.dumps(row.definition, sort_keys=True, default=str),
            "status": row.status,
            "type": row.type,
            "source": row.source,
            "origin": row.origin,
            "warnings": [],
            "error": None,
            FIELDS_AGENTS: list(row.agents),
        }
    return {
        "value": row.value,
        "status": row.status,
        "type": row.type,
        "source": row.source,
        "origin": row.origin,
        "warnings": list(row.warnings),
        "error": row.error,
        FIELDS_AGENTS: list(row.agents),
    }


def compare_rows(
    before: Matrix | None,
    after: Matrix | None,
    roots: tuple[Path, ...] = (),
    guard: SecretGuard | None = None,
) -> tuple[VariableChange, ...]:
    """The variables added, removed or changed, in the head's order (removed ones after).

    Values are compared as they are (a changed secret is a change, shown masked); texts are
    compared as they are shown, with secrets scrubbed."""
    guard = guard or guard_for(before, after)
    old = {r.name: _localised(r, roots, guard) for r in (before.rows if before else ())}
    new = {r.name: _localised(r, roots, guard) for r in (after.rows if after else ())}
    every = (*FIELDS, FIELDS_AGENTS)
    out: list[VariableChange] = []
    for name, row in new.items():
        prev = old.get(name)
        if prev is None:
            out.append(VariableChange(name, "added", None, row, every))
            continue
        a, b = _row_key(prev), _row_key(row)
        differ = tuple(f for f in every if not same(a[f], b[f]))
        if differ:
            out.append(VariableChange(name, "changed", prev, row, differ))
    for name, row in old.items():
        if name not in new:
            out.append(VariableChange(name, "removed", row, None, every))
    return tuple(out)


def _problem_key(d: Diagnostic, roots: tuple[Path, ...]) -> tuple[str, str, str, str]:
    # not the line: a variable added above a problem moves it without changing it
    return (_local(d.file, roots), d.code, d.severity, _local(d.message, roots))


def compare_problems(
    before: Iterable[Diagnostic],
    after: Iterable[Diagnostic],
    roots: tuple[Path, ...] = (),
    guard: SecretGuard | None = None,
) -> tuple[tuple[Diagnostic, ...], tuple[Diagnostic, ...]]:
    """(added, removed): problems compared by file, code, severity and message, as many times
    as each occurs; the added ones are located in the head, the removed ones in the base."""
    scrub = guard or SecretGuard()
    old = [replace(d, message=scrub.scrub_text(d.message)) for d in before]
    new = [replace(d, message=scrub.scrub_text(d.message)) for d in after]
    old_count = Counter(_problem_key(d, roots) for d in old)
    new_count = Counter(_problem_key(d, roots) for d in new)

    def extra(items: list[Diagnostic], mine: Counter[Any], theirs: Counter[Any]) -> list[Any]:
        left = {k: mine[k] - theirs.get(k, 0) for k in mine}
        out = []
        for d in items:
            k = _problem_key(d, roots)
            if left.get(k, 0) > 0:
                left[k] -= 1
                out.append(d)
        return sorted(out, key=sort_key)

    return tuple(extra(new, new_count, old_count)), tuple(extra(old, old_count, new_count))


@dataclass(frozen=True)
class _Resolved:
    snapshot: WorkspaceSnapshot
    matrix: Matrix


def _resolve_side(
    side: Side,
    workflow: str,
    env_overrides: Mapping[str, str],
    launch: Mapping[str, Any],
    origins: Mapping[str, str],
) -> _Resolved | None:
    snap = side.snapshot_for(env_overrides)
    if workflow not in snap.workflows:
        return None
    inputs = side.session.inputs(env_overrides, launch, **origins)
    return _Resolved(snap, resolve(snap, inputs, workflow))


def _scenario_inputs(matrix: Matrix, scenario: Scenario) -> dict[str, Any]:
    """A scenario's routing inputs, as ``decide`` and ``Router`` take them."""
    return {
        "data": scenario.data if isinstance(scenario.data, dict) else {},
        # a saved scenario holds ``***`` for secrets: it means the resolved value
        "context_overrides": real_overrides(matrix.values, scenario.context_overrides),
        "context_removed": scenario.context_removed,
        "payload": scenario.payload,
        "step_result": scenario.step_result,
        "flow_context": scenario.flow_context if isinstance(scenario.flow_context, dict) else {},
    }


def _router(
    resolved: _Resolved | None, workflow: str, scenario: Scenario, matrix: Matrix | None = None
) -> Router | None:
    if resolved is None:
        return None
    routes = resolved.snapshot.routes[workflow]
    if routes.empty:
        return None
    matrix = matrix or resolved.matrix
    return Router(
        routes, matrix, **_scenario_inputs(matrix, scenario), tools_called=scenario.tools_called
    )


def _decisions(
    runs: list[tuple[_Resolved | None, Scenario]], workflow: str
) -> tuple[list[dict[tuple[str, str], RouteDecision]], list[dict[tuple[str, str], str]]]:
    """Every source's decisions in each run (a side under a scenario), keyed by file kind and
    source in the order of that side's routing files.

    Decided source by source across the runs rather than run by run: a source's conditions
    are compiled once and then found in the compile cache by every other run, where run by
    run a workflow with more distinct conditions than the cache holds compiled every one of
    them again in each run (2 sides x 6 scenarios).

    Also, per run, the sources whose rules would read a secret, each with the secret
    (``flowctx_core.testing.taint``): those are decided over no secret, for their rules only
    (their winners are never compared, and a decision whose time depends on a secret is never
    made)."""
    from flowctx_core.testing.taint import matrix_secrets, source_secret, without_secrets

    routers = [_router(resolved, workflow, scenario) for resolved, scenario in runs]
    # a run whose matrix holds no secret has none to read: it is decided as it is
    guarded = [bool(r and matrix_secrets(r.matrix)) for r, _ in runs]
    known = [sources(r.routes) if r is not None else [] for r in routers]
    found: list[dict[str, list[RouteDecision]]] = [{} for _ in runs]
    secret_of: list[dict[str, str]] = [{} for _ in runs]
    has = [set(names) for names in known]
    for source in dict.fromkeys(s for names in known for s in names):
        for k, (router, here) in enumerate(zip(routers, has, strict=True)):
            if router is None or source not in here:
                continue
            resolved, scenario = runs[k]
            assert resolved is not None
            matrix = resolved.matrix
            # the scenario's own instant, if it has one (unless --now pinned the command's)
            with clock.scenario_instant(scenario.now):
                given = _scenario_inputs(matrix, scenario)
                secret = (
                    source_secret(router.routes, matrix, source, **given) if guarded[k] else None
                )
                if secret is None:
                    found[k][source] = router.decide(source)
                    continue
                secret_of[k][source] = secret
                clean = _router(resolved, workflow, scenario, without_secrets(matrix))
                assert clean is not None
                found[k][source] = clean.decide(source)
    out: list[dict[tuple[str, str], RouteDecision]] = []
    secrets: list[dict[tuple[str, str], str]] = []
    for names, mine, told in zip(known, found, secret_of, strict=True):
        keyed: dict[tuple[str, str], RouteDecision] = {}
        withheld: dict[tuple[str, str], str] = {}
        for source in names:
            for decision in mine[source]:
                keyed[(decision.kind, source)] = decision
                if source in told:
                    withheld[(decision.kind, source)] = told[source]
        out.append(keyed)
        secrets.append(withheld)
    return out, secrets


def _same_rules(a: RouteDecision, b: RouteDecision) -> bool:
    """The two decisions weigh the same rules in the same order (by their text alone)."""

    def rules(d: RouteDecision) -> list[tuple[Any, ...]]:
        return [(c.condition, c.dialect, c.target, c.priority) for c in d.candidates]

    return a.kind == b.kind and rules(a) == rules(b)


def _winner(decision: RouteDecision | None) -> tuple[str | None, bool, str]:
    if decision is None:
        return None, False, "no rule from here in this file"
    target = decision.winner.target if decision.winner is not None else None
    return target, decision.failed, mask_text(decision.reason)


def compare_routes(
    before: Mapping[tuple[str, str], RouteDecision],
    after: Mapping[tuple[str, str], RouteDecision],
    scenario: str,
    roots: tuple[Path, ...] = (),
    guard: SecretGuard | None = None,
    secrets: tuple[Mapping[tuple[str, str], str], Mapping[tuple[str, str], str]] = ({}, {}),
) -> list[RouteChange]:
    """The sources whose winner differs (or that only one side can route from). A decision
    whose conditions read a secret (``secrets``, per side) is compared by its rules, never by
    its winner: a change is listed, with the winner withheld, when the rules differ."""
    scrub = guard or SecretGuard()
    out: list[RouteChange] = []
    keys = list(after) + [k for k in before if k not in after]
    for key in keys:
        old, new = before.get(key), after.get(key)
        (t0, f0, r0), (t1, f1, r1) = _winner(old), _winner(new)
        s0, s1 = secrets[0].get(key, ""), secrets[1].get(key, "")
        if s0 or s1:
            if old is not None and new is not None and _same_rules(old, new):
                continue
            if s0:
                t0, r0 = None, withheld_text(s0)
            if s1:
                t1, r1 = None, withheld_text(s1)
        elif old is not None and new is not None and (t0, f0) == (t1, f1):
            continue
        if old is None and new is None:  # pragma: no cover - keys come from either side
            continue
        shown = new if new is not None else old
        assert shown is not None
        out.append(
            RouteChange(
                file=_local(shown.file, roots),
                source=key[1],
                scenario=scenario,
                before=t0,
                after=t1,
                before_reason=scrub.scrub_text(_local(r0, roots)),
                after_reason=scrub.scrub_text(_local(r1, roots)),
                before_withheld=s0,
                after_withheld=s1,
            )
        )
    return out


def _problems(resolved: _Resolved | None, side: Side, workflow: str) -> list[Diagnostic]:
    if resolved is None:
        return []
    from flowctx_core.testing.taint import without_secret_problems

    snap = resolved.snapshot
    inputs = side.session.inputs()
    # a secret's own problems (not a number, no record found by it) are bits of its value
    matrix = without_secret_problems(resolved.matrix)
    return workflow_problems(snap, inputs, {workflow: (snap.workflow(workflow), matrix)})


def scenario_names(base: Side, head: Side, workflow: str) -> list[str]:
    """The saved scenarios either side has for ``workflow``, by name."""
    names = {*base.scenarios.get(workflow, {}), *head.scenarios.get(workflow, {})}
    return sorted(names)


def compare_workflow(
    base: Side,
    head: Side,
    workflow: str,
    *,
    env_overrides: Mapping[str, str] | None = None,
    launch: Mapping[str, Any] | None = None,
    origins: Mapping[str, str] | None = None,
) -> WorkflowDiff:
    """What changed in ``workflow`` between ``base`` and ``head`` (under the same inputs on
    both sides: ``env_overrides`` and ``launch`` are the app's, empty for the CLI)."""
    env = dict(env_overrides or {})
    given = dict(launch or {})
    how = dict(origins or {})
    roots = (base.snapshot.root, head.snapshot.root)
    old = _resolve_side(base, workflow, env, given, how)
    new = _resolve_side(head, workflow, env, given, how)
    presence: Literal["both", "added", "removed"] = (
        "added" if old is None else "removed" if new is None else "both"
    )
    guard = guard_for(old.matrix if old else None, new.matrix if new else None)
    variables = compare_rows(old.matrix if old else None, new.matrix if new else None, roots, guard)
    added, removed = compare_problems(
        _problems(old, base, workflow), _problems(new, head, workflow), roots, guard
    )
    names = scenario_names(base, head, workflow)
    runs: list[tuple[_Resolved | None, Scenario]] = [(old, Scenario()), (new, Scenario())]
    for name in names:
        scenario = head.scenarios.get(workflow, {}).get(name) or base.scenarios[workflow][name]
        if scenario.env_overrides or scenario.launch:
            # the scenario resolves with its own environment and launch values, as when the
            # app loads it; the user's inputs stay on top
            sc_env = {**scenario.env_overrides, **env}
            sc_launch = {**scenario.launch, **given}
            old_s = _resolve_side(base, workflow, sc_env, sc_launch, how)
            new_s = _resolve_side(head, workflow, sc_env, sc_launch, how)
        else:
            old_s, new_s = old, new
        runs += [(old_s, scenario), (new_s, scenario)]
    decided, secrets = _decisions(runs, workflow)
    routes: list[RouteChange] = []
    for k, name in enumerate((DEFAULT_SCENARIO, *names)):
        routes.extend(
            compare_routes(
                decided[2 * k],
                decided[2 * k + 1],
                name,
                roots,
                guard,
                (secrets[2 * k], secrets[2 * k + 1]),
            )
        )
    from flowctx_core.testing.taint import coerced_secret

    withheld = (old and coerced_secret(old.matrix)) or (new and coerced_secret(new.matrix)) or ""
    return WorkflowDiff(
        workflow=workflow,
        presence=presence,
        verdict_withheld=withheld,
        variables=variables,
        routes=tuple(routes),
        problems_added=added,
        problems_removed=removed,
        scenarios=(DEFAULT_SCENARIO, *names),
        refused_before=old.matrix.refused if old and not withheld else None,
        refused_after=new.matrix.refused if new and not withheld else None,
    )


def runtime_label(base: Side, head: Side) -> str:
    """The runtime both sides were judged against (both named when they differ)."""
    a, b = base.snapshot.runtime.label, head.snapshot.runtime.label
    return b if a == b else f"{b} (base: {a})"


def compare(base: Side, head: Side, workflows: Iterable[str] | None = None) -> WorkspaceDiff:
    """Every workflow of either side (or those named), compared, and the head's tests run
    against both sides."""
    if workflows is None:
        names = list(head.snapshot.names)
        names += [n for n in base.snapshot.names if n not in names]
    else:
        names = list(workflows)
    return WorkspaceDiff(
        base=base.label,
        head=head.label,
        runtime=runtime_label(base, head),
        workflows=tuple(compare_workflow(base, head, n) for n in names),
        tests=compare_tests(base, head, None if workflows is None else names),
    )


class SideHost:
    """One side of a review as a test host: its snapshot (read again under a case's env),
    its inputs and its saved scenarios."""

    def __init__(self, side: Side) -> None:
        self.side = side
        # a revision has no folder: env values from its test files that name paths are
        # judged by their text alone (see flowctx_core.model.widening)
        self.root: Path | None = None

    def workflows(self) -> list[str]:
        return list(self.side.snapshot.names)

    def with_runtime(self, name: str) -> SideHost:
        if get_profile(name) == self.side.session.runtime:
            return self
        raise ValueError(
            f"review compares under {self.side.session.runtime.name}; this file names {name}"
        )

    def snapshot(self, workflows: list[str], env_overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        return self.side.snapshot_for(env_overrides)

    def inputs(
        self,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        *,
        overrides_from: str = "override",
        launch_from: str = "",
    ) -> ResolveInputs:
        return self.side.session.inputs(
            env_overrides, launch, overrides_from=overrides_from, launch_from=launch_from
        )

    def scenario(self, workflow: str, name: str) -> tuple[Scenario | None, list[Diagnostic]]:
        found = self.side.scenarios.get(workflow, {}).get(name)
        if found is None:
            return None, [Diagnostic("", 0, 0, f"no scenario named {name!r}")]
        return found, []


def compare_tests(
    base: Side, head: Side, workflows: Iterable[str] | None = None
) -> tuple[TestChange, ...]:
    """The head's test cases whose verdict differs when run against the base's workspace:
    what the change does to the tests the author keeps (a case the head adds or edits is run
    on both sides too, so a new test that the base already fails shows as fixed by it)."""
    if not head.tests:
        return ()
    from flowctx_core.report.testrun import case_lines
    from flowctx_core.testing.run import run_tests

    wanted = set(workflows) if workflows is not None else None
    files = [
        f
        for f in head.tests
        if wanted is None or (f.model is not None and f.model.workflow in wanted)
    ]
    before = run_tests(SideHost(base), files)
    after = run_tests(SideHost(head), files)
    old = {(r.file, r.loc.line, r.name): r for r in before.results}
    out: list[TestChange] = []
    for r in after.results:
        prior = old.get((r.file, r.loc.line, r.name))
        was = prior.status if prior is not None else "ERROR"
        if was == r.status:
            continue
        failing = r if r.status != "PASS" else prior
        detail = tuple(line.strip() for line in case_lines(failing)[1:]) if failing else ()
        out.append(TestChange(r.file, r.name, r.workflow, str(r.loc), was, r.status, detail))
    return tuple(out)


# --- as data ---------------------------------------------------------------------------------


def row_state(row: Row, *, reveal: bool = False) -> dict[str, Any]:
    """A row's side of a change, masked as the matrix masks it."""
    return {
        "status": row.status,
        "value": display_value(row, reveal=reveal),
        "type": row.type,
        "source": row.source,
        "origin": mask_text(row.origin),
        "warnings": [mask_text(w) for w in row.warnings],
        "error": mask_text(row.error) if row.error else None,
        "agents": list(row.agents),
        "location": str(row.loc) if row.loc else None,
    }


def diff_to_json(diff: WorkspaceDiff, *, reveal: bool = False) -> dict[str, Any]:
    """The shape ``flowctx diff --format json`` prints (see docs/commands/diff.md)."""
    return {
        "base": diff.base,
        "head": diff.head,
        "runtime": diff.runtime,
        "changed": diff.changed,
        "workflows": [workflow_to_json(w, reveal=reveal) for w in diff.workflows],
        "tests": [
            {
                "file": c.file,
                "case": mask_text(c.case),
                "workflow": c.workflow,
                "location": c.location,
                "before": c.before,
                "after": c.after,
                "detail": [mask_text(line) for line in c.detail],
            }
            for c in diff.tests
        ],
    }


def workflow_to_json(w: WorkflowDiff, *, reveal: bool = False) -> dict[str, Any]:
    return {
        "workflow": w.workflow,
        "presence": w.presence,
        # the runtime's verdict on each side, with the stage that decides it (as check)
        "refused": {
            "before": w.refused_before.to_json() if w.refused_before else None,
            "after": w.refused_after.to_json() if w.refused_after else None,
            "withheld": withheld_text(w.verdict_withheld) if w.verdict_withheld else None,
        },
        "scenarios": list(w.scenarios),
        "variables": [
            {
                "name": v.name,
                "change": v.change,
                "fields": list(v.fields),
                "before": row_state(v.before, reveal=reveal) if v.before else None,
                "after": row_state(v.after, reveal=reveal) if v.after else None,
            }
            for v in w.variables
        ],
        "routes": [
            {
                "file": r.file,
                "from": r.source,
                "scenario": r.scenario,
                "before": r.before,
                "after": r.after,
                "before_reason": r.before_reason,
                "after_reason": r.after_reason,
                "before_withheld": r.before_withheld or None,
                "after_withheld": r.after_withheld or None,
            }
            for r in w.routes
        ],
        "problems": {
            "added": [d.to_json() for d in w.problems_added],
            "removed": [d.to_json() for d in w.problems_removed],
        },
    }


def field_text(row: Row, name: str, *, reveal: bool = False, width: int | None = None) -> str:
    """One field of a row as a change shows it, on one line: values masked unless
    ``reveal`` and cut to ``width`` (None: whole)."""
    if name == "value":
        value = display_value(row, reveal=reveal)
        if width is not None:
            return short_value(value, width)
        text = (
            value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
        )
        return text.replace("\n", "⏎ ")
    if name == "agents":
        return ", ".join(row.agents) or "(no agent)"
    if name == "warnings":
        return "; ".join(mask_text(w) for w in row.warnings) or "(none)"
    if name == "error":
        return mask_text(row.error) if row.error else "(none)"
    return mask_text(str(getattr(row, name)))


__all__ = [
    "DEFAULT_SCENARIO",
    "FIELDS",
    "RouteChange",
    "Side",
    "SideError",
    "VariableChange",
    "WorkflowDiff",
    "WorkspaceDiff",
    "compare",
    "compare_problems",
    "compare_routes",
    "compare_rows",
    "compare_workflow",
    "diff_to_json",
    "field_text",
    "folder_side",
    "read_side",
    "repository_of",
    "revision_side",
    "row_state",
    "workflow_to_json",
]
