"""Review mode: what a change to a workspace does to resolution, routing and check.

Two sides are compared, each a workspace snapshot with the inputs it resolves under: a git
revision (``flowctx_core.review.git``: read through git alone, so the working tree, the index and
the
stash are never touched) or a folder on disk. For every workflow of either side the comparison
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
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from flowctx_core.base.diagnostics import Diagnostic, sort_key
from flowctx_core.base.secrets import mask_text
from flowctx_core.check import workflow_problems
from flowctx_core.model.database import EmbeddedDatabase
from flowctx_core.model.filenames import SEED_DIR
from flowctx_core.model.matrix import Matrix, Refusal, Row
from flowctx_core.model.profiles import RuntimeProfile, UnknownRuntime, get_profile
from flowctx_core.model.scenarios import (
    SCENARIO_DIR,
    Scenario,
    SecretGuard,
    list_scenarios,
    load_scenario,
    parse_scenario,
    real_overrides,
    same,
    secret_guard,
)
from flowctx_core.model.workspace import WorkspaceNotFound, find_root
from flowctx_core.report.display import display_value, short_value
from flowctx_core.resolve import resolve
from flowctx_core.review.git import RevisionError, load_snapshot_at
from flowctx_core.routing import decide, sources
from flowctx_core.routing.decision import RouteDecision
from flowctx_core.session import Session, open_session
from flowctx_core.snapshot import WorkspaceSnapshot

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

    def snapshot_for(self, env_overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        if not env_overrides or self.reread is None:
            return self.snapshot
        return self.reread(env_overrides)


def _folder_scenarios(root: Path, names: Iterable[str]) -> dict[str, dict[str, Scenario]]:
    out: dict[str, dict[str, Scenario]] = {}
    for wf in names:
        found: dict[str, Scenario] = {}
        for name in list_scenarios(root, wf):
            scenario, _problems = load_scenario(root, wf, name)
            if scenario is not None:  # a broken scenario file is the scratchpad's to report
                found[name] = scenario
        if found:
            out[wf] = found
    return out


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
        scenarios=_folder_scenarios(opened.root, snap.workflows),
        reread=lambda overrides: opened.snapshot(wanted, overrides),
    )


def _git(repo: Path, *args: str) -> bytes:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # a read must never take the index lock
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, check=False, env=env
        )
    except FileNotFoundError as exc:
        raise SideError("git is not installed") from exc
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SideError(why[-1] if why else f"git {args[0]} failed")
    return done.stdout


def repository_of(path: Path) -> tuple[Path, str] | None:
    """The git work tree holding the workspace at ``path``, and the workspace's folder inside
    it (POSIX, '' for the top); None when the workspace is not in a git work tree."""
    try:
        root, _selected = find_root(path)
    except Exception:
        return None
    try:
        top = _git(root, "rev-parse", "--show-toplevel").decode().strip()
    except SideError:
        return None
    top_path = Path(os.path.realpath(top))
    rel = Path(os.path.realpath(root)).relative_to(top_path)
    return top_path, PurePosixPath(*rel.parts).as_posix() if rel.parts else ""


def _revision_files(repo: Path, commit: str, folders: Iterable[str]) -> dict[str, bytes]:
    """Every regular file under ``folders`` at ``commit`` (repository path -> content), read
    with one ``git ls-tree`` and one ``git cat-file``: the working tree and the index stay as
    they are. Small folders only (seed files and scenarios)."""
    wanted = [f for f in folders if f]
    listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *wanted)
    prefixes = tuple(f"{f}/" for f in wanted)
    found: list[tuple[str, str]] = []
    for record in listing.split(b"\0"):
        meta, _, name = record.partition(b"\t")
        if not name or meta.split()[0] not in (b"100644", b"100755"):
            continue
        path = name.decode("utf-8", "surrogateescape")
        if path.startswith(prefixes):
            found.append((meta.split()[2].decode(), path))
    if not found:
        return {}
    data = "".join(f"{oid}\n" for oid, _ in found).encode()
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    done = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        input=data,
        capture_output=True,
        check=False,
        env=env,
    )
    if done.returncode != 0:
        raise SideError(done.stderr.decode("utf-8", "replace").strip() or "git cat-file failed")
    out: dict[str, bytes] = {}
    pos = 0
    blob = done.stdout
    for _oid, path in found:
        end = blob.index(b"\n", pos)
        size = int(blob[pos:end].split()[2])
        out[path] = blob[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1  # the content is followed by a newline
    return out


def _below(files: Mapping[str, bytes], folder: str) -> dict[str, bytes]:
    prefix = f"{folder}/"
    return {p[len(prefix) :]: c for p, c in files.items() if p.startswith(prefix)}


def _revision_database(files: Mapping[str, bytes], label: str) -> EmbeddedDatabase:
    """The embedded database seeded from a revision's own seed files (``files``: path below
    ``seed/`` -> content), loaded into memory from a private temporary folder that is removed
    at once."""
    if not files:
        return EmbeddedDatabase(Path(label), repository=f":memory:{label}")  # nothing to load
    with tempfile.TemporaryDirectory(prefix="flowctx-seed-") as tmp:
        root = Path(tmp)
        for rel, content in files.items():
            parts = PurePosixPath(rel).parts
            if any(p in ("", ".", "..") for p in parts):
                continue
            target = root.joinpath(SEED_DIR, *parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        db = EmbeddedDatabase(root, repository=f":memory:{label}")
        db.load_seeds()
    return db


def _revision_scenarios(files: Mapping[str, bytes], folder: str) -> dict[str, dict[str, Scenario]]:
    """Saved scenarios from a revision (``files``: path below the scenarios folder)."""
    out: dict[str, dict[str, Scenario]] = {}
    for rel, content in files.items():
        parts = PurePosixPath(rel).parts
        if len(parts) != 2 or not parts[1].endswith(".json"):
            continue
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            continue
        scenario, _problems = parse_scenario(text, f"{folder}/{rel}")
        if scenario is not None:
            out.setdefault(parts[0], {})[parts[1][: -len(".json")]] = scenario
    return out


def _has_files(repo: Path, commit: str, subdir: str) -> bool:
    spec = [subdir] if subdir else []
    return bool(_git(repo, "ls-tree", "--name-only", commit, "--", *spec).strip())


def _empty_side(label: str, env: Mapping[str, str], runtime: RuntimeProfile | None) -> Side:
    """A side with no workspace at all (read from an empty private folder)."""
    with tempfile.TemporaryDirectory(prefix="flowctx-empty-") as tmp:
        root = Path(os.path.realpath(tmp))
        (root / "workflows").mkdir()
        session = open_session(root, env=env, runtime=runtime.name if runtime else None)
        snap = session.snapshot()
    return Side(label, snap, session)


def revision_side(
    repo: Path, revision: str, subdir: str, env: Mapping[str, str], *, runtime: str | None = None
) -> Side:
    """The workspace at ``subdir`` of ``repo`` as committed in ``revision``."""
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except SideError:
        raise SideError(f"{revision}: not a revision of the repository {repo}") from None
    commit_id = commit.decode().strip()
    try:
        chosen: RuntimeProfile | None = get_profile(runtime) if runtime else None
    except UnknownRuntime as exc:
        raise SideError(str(exc)) from None
    short = commit_id[:12]
    label = f"git:{short}" if revision.startswith(short) else f"git:{short} ({revision})"
    if not _has_files(repo, commit_id, subdir):
        # the workspace is new since that revision (a pull request that adds it): an empty
        # side, so every workflow of the other side is listed as added
        return _empty_side(f"{label}, no workspace there", env, chosen)
    try:
        snap = load_snapshot_at(repo, commit_id, env, subdir=subdir, runtime=chosen)
    except RevisionError as exc:
        raise SideError(str(exc)) from None
    seeds = "/".join(p for p in (subdir, SEED_DIR) if p)
    saved = "/".join(p for p in (subdir, *SCENARIO_DIR) if p)
    files = _revision_files(repo, commit_id, (seeds, saved))
    database = _revision_database(_below(files, seeds), f"{repo}@{commit_id}/{subdir}")
    session = Session(
        root=snap.root,
        env=dict(env),
        profile=snap.profile,
        database=database,
        database_problems=[],
        runtime=snap.runtime,
        runtime_choice=runtime,
    )

    def reread(overrides: Mapping[str, str]) -> WorkspaceSnapshot:
        return load_snapshot_at(
            repo, commit_id, {**env, **overrides}, subdir=subdir, runtime=snap.runtime
        )

    scenarios = _revision_scenarios(_below(files, saved), saved)
    return Side(label, snap, session, scenarios, reread)


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
    is_revision = False
    if repo is not None and revision:
        try:
            _git(repo[0], "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
            is_revision = True
        except SideError:
            is_revision = False
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
class WorkspaceDiff:
    base: str
    head: str
    runtime: str
    workflows: tuple[WorkflowDiff, ...]

    @property
    def changed(self) -> bool:
        return any(w.changed for w in self.workflows)


def _local(text: str, roots: Iterable[Path]) -> str:
    """``text`` with the side's own folder left out: a revision is read from a temporary
    folder, so an absolute path in a message would differ on every run."""
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

    return replace(
        row,
        origin=text(row.origin),
        warnings=tuple(text(w) for w in row.warnings),
        error=text(row.error) if row.error else None,
    )


def _row_key(row: Row) -> dict[str, Any]:
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


def _decisions(
    resolved: _Resolved | None, workflow: str, scenario: Scenario
) -> dict[tuple[str, str], RouteDecision]:
    if resolved is None:
        return {}
    routes = resolved.snapshot.routes[workflow]
    if routes.empty:
        return {}
    matrix = resolved.matrix
    trial = {
        "data": scenario.data if isinstance(scenario.data, dict) else {},
        # a saved scenario holds ``***`` for secrets: it means the resolved value
        "context_overrides": real_overrides(matrix.values, scenario.context_overrides),
        "context_removed": scenario.context_removed,
        "payload": scenario.payload,
        "step_result": scenario.step_result,
        "flow_context": scenario.flow_context if isinstance(scenario.flow_context, dict) else {},
        "tools_called": scenario.tools_called,
    }
    out: dict[tuple[str, str], RouteDecision] = {}
    for source in sources(routes):
        for decision in decide(routes, matrix, source, **trial):
            out[(decision.kind, source)] = decision
    return out


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
) -> list[RouteChange]:
    """The sources whose winner differs (or that only one side can route from)."""
    scrub = guard or SecretGuard()
    out: list[RouteChange] = []
    keys = list(after) + [k for k in before if k not in after]
    for key in keys:
        old, new = before.get(key), after.get(key)
        (t0, f0, r0), (t1, f1, r1) = _winner(old), _winner(new)
        if old is not None and new is not None and (t0, f0) == (t1, f1):
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
            )
        )
    return out


def _problems(resolved: _Resolved | None, side: Side, workflow: str) -> list[Diagnostic]:
    if resolved is None:
        return []
    snap = resolved.snapshot
    inputs = side.session.inputs()
    return workflow_problems(snap, inputs, {workflow: (snap.workflow(workflow), resolved.matrix)})


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
    routes = compare_routes(
        _decisions(old, workflow, Scenario()),
        _decisions(new, workflow, Scenario()),
        DEFAULT_SCENARIO,
        roots,
        guard,
    )
    names = scenario_names(base, head, workflow)
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
        routes.extend(
            compare_routes(
                _decisions(old_s, workflow, scenario),
                _decisions(new_s, workflow, scenario),
                name,
                roots,
                guard,
            )
        )
    return WorkflowDiff(
        workflow=workflow,
        presence=presence,
        variables=variables,
        routes=tuple(routes),
        problems_added=added,
        problems_removed=removed,
        scenarios=(DEFAULT_SCENARIO, *names),
        refused_before=old.matrix.refused if old else None,
        refused_after=new.matrix.refused if new else None,
    )


def runtime_label(base: Side, head: Side) -> str:
    """The runtime both sides were judged against (both named when they differ)."""
    a, b = base.snapshot.runtime.label, head.snapshot.runtime.label
    return b if a == b else f"{b} (base: {a})"


def compare(base: Side, head: Side, workflows: Iterable[str] | None = None) -> WorkspaceDiff:
    """Every workflow of either side (or those named), compared."""
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
    )


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
    """The shape ``flowctx diff --format json`` prints (see the README)."""
    return {
        "base": diff.base,
        "head": diff.head,
        "runtime": diff.runtime,
        "changed": diff.changed,
        "workflows": [workflow_to_json(w, reveal=reveal) for w in diff.workflows],
    }


def workflow_to_json(w: WorkflowDiff, *, reveal: bool = False) -> dict[str, Any]:
    return {
        "workflow": w.workflow,
        "presence": w.presence,
        # the runtime's verdict on each side, with the stage that decides it (as check)
        "refused": {
            "before": w.refused_before.to_json() if w.refused_before else None,
            "after": w.refused_after.to_json() if w.refused_after else None,
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
