"""Finding a workspace on disk and reading its ``flowctx.yaml``.

Kept apart from the contract's loader (``flowctx_core.model.workspace``, which needs the
pydantic models): commands that only need to know where the workspace is and which runtime it
names (``flowctx schema``, every command's PATH rule) start without importing them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.pathsafety import confine, present
from flowctx_core.model.check_tuning import Tuning, read_tuning
from flowctx_core.model.filenames import (
    BUILD_CONTEXT_DIR,
    CONTRACT_FILE,
    PROFILE_FILE,
    REGISTRY_FILE,
    WORKFLOW_FILES,
    WORKFLOWS_DIR,
)

if TYPE_CHECKING:
    from flowctx_core.base.clock import Clock
    from flowctx_core.base.yamlmarks import YamlDoc


class WorkspaceNotFound(Exception):
    """The path given is not a workspace, a workflows folder or a workflow folder."""


@dataclass(frozen=True)
class Profile:
    """``flowctx.yaml`` at the workspace root: the environment and launch values the tool
    assumes for this workspace (the process environment and the app's overrides win)."""

    env: Mapping[str, str] = field(default_factory=dict)
    launch: Mapping[str, Any] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    #: ``runtime:``: the name of the runtime profile this workspace is written for
    runtime: str | None = None
    #: ``now:``: the instant conditions that read the clock are evaluated at
    now: Clock | None = None
    #: ``runtime_context:``: what the host supplies for ``type: runtime`` sources
    runtime_context: Mapping[str, Any] = field(default_factory=dict)
    #: ``checks:``: problem codes ignored or given another severity (``check_tuning``)
    checks: Tuning = field(default_factory=Tuning)


def display_path(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def find_root(path: Path) -> tuple[Path, str | None]:
    """The workspace root for ``path`` and the workflow it names, if it is a workflow folder."""
    path = path.expanduser().resolve()
    if path.exists() and not path.is_dir():
        # a workflow's own file names its folder (a pre-commit hook passes changed files);
        # any other file is almost surely a mistyped argument, and its folder is a guess
        if path.name not in (*WORKFLOW_FILES, PROFILE_FILE) and not _registry_file(path):
            raise WorkspaceNotFound(
                f"{path}: is a file, not a workspace (give the workspace folder, its "
                f"workflows/ folder, one workflow folder or its {CONTRACT_FILE})"
            )
        path = path.parent
    if not path.is_dir():
        raise WorkspaceNotFound(f"{path}: no such directory")
    probe = path
    while True:
        if (probe / WORKFLOWS_DIR).is_dir():
            return probe, _workflow_named_by(path, probe)
        if probe.name == WORKFLOWS_DIR:
            return probe.parent, _workflow_named_by(path, probe.parent)
        if probe.parent == probe:
            break
        probe = probe.parent
    if (path / CONTRACT_FILE).is_file():
        # a lone workflow folder outside any workspace: it is its own root
        return path, path.name
    raise WorkspaceNotFound(
        f"{path}: not a workspace (no workflows/ folder here or above, and no {CONTRACT_FILE})"
    )


def _registry_file(path: Path) -> bool:
    """``<workspace>/build_context/<name>/context.yaml``: it names its workspace (check reads
    every registry there, so a pre-commit hook passes it like a workflow's file)."""
    return path.name == REGISTRY_FILE and path.parent.parent.name == BUILD_CONTEXT_DIR


def _workflow_named_by(path: Path, root: Path) -> str | None:
    """The workflow folder ``path`` is in (``root/workflows/<name>/...``), if any.

    Decided from the root found, not from the parent folder's name: a workspace that itself
    sits in a folder called ``workflows`` is not a workflow of its parent.
    """
    try:
        rel = path.relative_to(root / WORKFLOWS_DIR)
    except ValueError:
        return None
    return rel.parts[0] if rel.parts else None


def outside_workspace(path: Path, root: Path) -> str | None:
    """Why the workspace file at ``path`` is not read, when a symbolic link (the file's own
    or a folder's on the way, e.g. ``workflows/Stolen -> /elsewhere``) takes it out of the
    workspace at ``root``; None when it stays inside (or is not there at all)."""
    rel = display_path(path, root)
    real, refusal = confine(root, rel, allow_outside=False, refuse_secrets=False)
    if real is not None or refusal is None:
        return None
    if "outside the workspace root" in refusal:
        return (
            "not read: it resolves outside the workspace through a symbolic link; flowctx "
            "reads workspace files only from inside the workspace"
        )
    return refusal


def yaml_coded(
    loaded: tuple[YamlDoc | None, list[Diagnostic]],
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """The YAML reader's own problems carry the code ``yaml`` (see core/check.py)."""
    doc, problems = loaded
    return doc, [p if p.code else replace(p, code="yaml") for p in problems]


def runtime_named(data: Mapping[str, Any], doc: YamlDoc, problems: list[Diagnostic]) -> str | None:
    """The profile a settings file's ``runtime:`` names (its canonical name), or None; an
    unknown name is a problem at the value (flowctx.yaml, the user's settings)."""
    runtime = data.get("runtime")
    if runtime is None:
        return None
    from flowctx_core.model.profiles import ALIASES, PROFILES, UnknownRuntime, get_profile

    try:
        return get_profile(str(runtime)).name
    except UnknownRuntime as exc:
        # the message's did-you-mean, as the editor's fix
        fix = suggest(str(runtime), [*PROFILES, *ALIASES]).fix
        problems.append(doc.diag(("runtime",), str(exc), key=False, fix=fix))
        return None


def load_profile(root: Path) -> Profile:
    path = root / PROFILE_FILE
    if not present(path):
        return Profile()
    escape = outside_workspace(path, root)
    if escape is not None:
        return Profile(diagnostics=(Diagnostic(PROFILE_FILE, 0, 0, escape, code="yaml"),))
    # the YAML reader only when there is a profile to read (finding a workspace needs none)
    from flowctx_core.base.yamlmarks import load_yaml_file

    doc, problems = yaml_coded(load_yaml_file(path, PROFILE_FILE))
    if doc is None:
        return Profile(diagnostics=tuple(problems))
    data = doc.data or {}
    diags = list(problems)
    if not isinstance(data, dict):
        return Profile(diagnostics=(doc.diag((), "flowctx.yaml must be a mapping"),))
    known = ("env", "launch", "runtime", "runtime_context", "now", "checks")
    for key in data:
        if key not in known:
            hint, fix = suggest(str(key), known)
            diags.append(doc.diag((key,), f"unknown field{hint}", fix=fix))
    runtime = runtime_named(data, doc, diags)
    env = data.get("env") or {}
    launch = data.get("launch") or {}
    if not isinstance(env, dict):
        diags.append(doc.diag(("env",), "env must be a mapping of NAME: value", key=False))
        env = {}
    if not isinstance(launch, dict):
        diags.append(doc.diag(("launch",), "launch must be a mapping", key=False))
        launch = {}
    runtime_context = data.get("runtime_context") or {}
    if not isinstance(runtime_context, dict):
        diags.append(doc.diag(("runtime_context",), "runtime_context must be a mapping", key=False))
        runtime_context = {}
    env = {str(k): "" if v is None else str(v) for k, v in env.items()}
    from flowctx_core.model.widening import refused_env

    # a workspace someone else wrote must not widen what flowctx reads from this machine
    env, refused = refused_env(env, root, PROFILE_FILE)
    diags.extend(doc.diag(("env", name), message, severity="warning") for name, message in refused)
    now = None
    if data.get("now") is not None:
        from flowctx_core.base.clock import ClockError, clock_from_yaml

        try:
            now = clock_from_yaml(data["now"])
        except ClockError as exc:
            diags.append(doc.diag(("now",), str(exc), key=False))
    checks, mistakes = read_tuning(
        data.get("checks"),
        lambda path, message, severity: doc.diag(path, message, severity=severity),
    )
    diags.extend(mistakes)
    return Profile(
        env=env,
        launch=dict(launch),
        diagnostics=tuple(diags),
        runtime=runtime,
        now=now,
        runtime_context={str(k): v for k, v in runtime_context.items()},
        checks=checks,
    )
