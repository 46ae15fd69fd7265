"""``WorkspaceSnapshot``: every input of a workspace, read once, in one immutable value.

Loading (``load_snapshot``) is the only step that reads the workspace: the contracts with their
text and marks, the routing files, the profile (``flowctx.yaml``), the fallbacks file, the
build-context registries with their assets, and the contents of every ``file`` source (bounded
as the readers bound them). ``resolve``, ``decide`` and ``check`` are pure functions over it, so
the app can re-run them on every change and review mode can compare two snapshots.

Which files are read depends on the environment (the fallbacks path, the registry root, whether
file sources may leave the workspace), so a snapshot is read under one effective environment,
``env``; the app reads a new one when the user overrides it. A snapshot of a git revision is
``flowctx_core.review.git``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.gcpause import gc_paused
from flowctx_core.base.pathsafety import present
from flowctx_core.base.yamlmarks import load_yaml_file
from flowctx_core.buildctx import BuildContextSetting, Registry, build_context_setting, discover
from flowctx_core.buildctx.injection import (
    InjectionSource,
    factory_app_root,
    injection_roots,
    runs_injection,
)
from flowctx_core.model.fallbacks import Fallbacks, load_fallbacks
from flowctx_core.model.filenames import BUILD_CONTEXT_DIR, MIDDLEWARE_FILE, WORKFLOWS_DIR
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.profiles import MOZAIKS, RuntimeProfile
from flowctx_core.model.workflow_files import WorkflowFiles, load_workflow_files
from flowctx_core.model.workspace import (
    VariableSpec,
    WorkflowSnapshot,
    list_workflows,
    load_workflow,
    undiscovered,
    workflow_folder,
)
from flowctx_core.model.workspace_root import Profile, display_path, load_profile, outside_workspace
from flowctx_core.routing.model import Routes, load_routes_from
from flowctx_core.sources.base import FileContent, FileKey
from flowctx_core.sources.file import file_key, read_file_source


@dataclass(frozen=True)
class RegistryRoot:
    """A folder registries are looked for in, and what was found there."""

    path: Path
    is_dir: bool
    registries: tuple[Registry, ...] = ()
    #: the configured root is the workspace's own build_context/ under another spelling
    same_as_workspace: bool = False


@dataclass(frozen=True)
class WorkspaceSnapshot:
    root: Path
    #: the effective environment the files were read under
    env: Mapping[str, str]
    profile: Profile
    #: every workflow of the workspace, in listing order
    names: tuple[str, ...]
    #: the workflows that were loaded (all of them unless the loader was told fewer)
    workflows: Mapping[str, WorkflowSnapshot]
    routes: Mapping[str, Routes]
    fallbacks: Fallbacks
    build_context: BuildContextSetting
    #: the workspace's build_context/ first, then the configured registry root if different
    registry_roots: tuple[RegistryRoot, ...] = ()
    files: Mapping[FileKey, FileContent] = field(default_factory=dict)
    #: folders that could not be listed (read as empty)
    folder_problems: tuple[Diagnostic, ...] = ()
    #: ``git:<revision>`` for a snapshot read from git, else None (the folder as it is)
    revision: str | None = None
    #: the runtime the workspace was read for: its discovery listed the workflows, its
    #: contract rules read them, and resolve reproduces its loader
    runtime: RuntimeProfile = MOZAIKS
    #: each workflow's ``middleware.yaml``: (present, parsed data or None)
    middleware: Mapping[str, tuple[bool, Any]] = field(default_factory=dict)
    #: the folders the runtime's prompt injection reads registries from, with what was found
    injection_roots: tuple[RegistryRoot, ...] = ()
    #: the release's packaged factory_app was found for the prompt injection (its registries are
    #: read first); False when the injection runs and flowctx cannot find it
    packaged_factory_app: bool = True
    #: the listed workflows whose folder the runtime's discovery passes over, decided when the
    #: folder was read (a revision's folders exist only while it is read); None: not recorded
    undiscovered: frozenset[str] | None = None
    #: each workflow's orchestrator.yaml and agents.yaml as the runtime's workflow manager
    #: reads them (only for a runtime with strict workflow files)
    workflow_files: Mapping[str, WorkflowFiles] = field(default_factory=dict)

    def injection_source(self, name: str) -> InjectionSource:
        """What the runtime's prompt injection reads for workflow ``name``."""
        present, data = self.middleware.get(name, (False, None))
        registries = tuple(r for root in self.injection_roots for r in root.registries)
        return InjectionSource(data, present, registries, self.packaged_factory_app)

    def workflow(self, name: str) -> WorkflowSnapshot:
        return self.workflows[name]

    def speakers(self, name: str) -> dict[str, Any]:
        """``ends_the_run``'s keywords for workflow ``name``: the agents the runtime creates
        (agents.yaml) and whether it reads the folder as a Mozaiks workflow (orchestrator.yaml),
        transition graph or not."""
        files = self.workflow_files.get(name)
        if files is None:
            return {}
        return {"agents": files.agents, "mozaiks_workflow": files.orchestrator}

    @property
    def allow_outside_root(self) -> bool:
        return ResolveInputs(env=self.env).allow_outside_root

    def registries_under(self, path: Path | None) -> tuple[Registry, ...] | None:
        """The registries found in ``path``; None when it is not a folder (or not read)."""
        if path is None:
            return None
        for found in self.registry_roots:
            if found.path == path:
                return found.registries if found.is_dir else None
        return None

    def file_contents(self, workflow: WorkflowSnapshot) -> dict[FileKey, FileContent]:
        """The contents of ``workflow``'s file sources, by source."""
        return {key: self.files[key] for key in file_keys(workflow)}

    def read_paths(
        self, workflow: WorkflowSnapshot, files: Mapping[FileKey, FileContent] | None = None
    ) -> frozenset[Path]:
        """Files outside the fixed workspace layout that resolving ``workflow`` reads: the
        fallbacks file and the ``file`` sources' files (both may sit anywhere). ``files``:
        ``file_contents(workflow)`` when the caller has it already."""
        paths: set[Path] = set(self.fallbacks.watched)
        if files is None:
            files = self.file_contents(workflow)
        for content in files.values():
            paths.update(content.watched)
        return frozenset(paths)


def _file_sources(
    workflows: Iterable[WorkflowSnapshot], allow_outside: bool
) -> dict[FileKey, FileContent]:
    out: dict[FileKey, FileContent] = {}
    for wf in workflows:
        for key in file_keys(wf):
            if key not in out:
                path, form, encoding = key
                out[key] = read_file_source(
                    wf.root, path, form, encoding, allow_outside=allow_outside
                )
    return out


def file_keys(workflow: WorkflowSnapshot) -> list[FileKey]:
    """The ``file`` sources' keys, in declaration order (a declaration's own is kept per item
    for the next read of the contract)."""
    return list(filter(None, workflow.per_item("file key", workflow.variables, None, _file_key)))


def _file_key(spec: VariableSpec) -> FileKey | None:
    d = spec.definition
    if d is None or d.source.type != "file":
        return None
    return file_key(d.source.path, d.source.format, d.source.encoding)


def _registry_roots(root: Path, setting: BuildContextSetting) -> tuple[RegistryRoot, ...]:
    own_path = root / BUILD_CONTEXT_DIR
    own = RegistryRoot(own_path, fsview.is_dir(own_path), tuple(discover(own_path, root)))
    if setting.root is None or setting.root == own_path:
        return (own,)
    if fsview.realpath(setting.root) == fsview.realpath(own_path):
        return (own, RegistryRoot(setting.root, own.is_dir, own.registries, True))
    other = RegistryRoot(
        setting.root, fsview.is_dir(setting.root), tuple(discover(setting.root, root))
    )
    return (own, other)


def _middleware(workflows: Iterable[WorkflowSnapshot]) -> dict[str, tuple[bool, Any]]:
    out: dict[str, tuple[bool, Any]] = {}
    for wf in workflows:
        path = wf.folder / MIDDLEWARE_FILE
        if not present(path):
            out[wf.name] = (False, None)
            continue
        if outside_workspace(path, wf.root) is not None:
            out[wf.name] = (True, None)  # present, and not read: as a file that cannot be
            continue
        doc, _problems = load_yaml_file(path, MIDDLEWARE_FILE)
        out[wf.name] = (True, doc.data if doc is not None else None)
    return out


def _injection_roots(
    root: Path, env: Mapping[str, str], known: tuple[RegistryRoot, ...]
) -> tuple[RegistryRoot, ...]:
    """The prompt injection's folders, reusing the registries already read for a folder."""
    out: list[RegistryRoot] = []
    for path in injection_roots(root, env):
        same = next((k for k in known if k.is_dir and fsview.realpath(k.path) == path), None)
        registries = same.registries if same else tuple(discover(path, root))
        out.append(RegistryRoot(path, True, registries))
    return tuple(out)


def _unlistable(root: Path, names: Iterable[str]) -> tuple[Diagnostic, ...]:
    """Folders that cannot be listed: the loader treats them as empty (no workflows, no
    contract), which without a problem would pass as a clean workspace."""
    out: list[Diagnostic] = []
    folders = [root / WORKFLOWS_DIR]
    folders += [folders[0] / name for name in names]
    for folder in folders:
        try:
            if fsview.is_dir(folder):
                fsview.listdir(folder)
        except OSError as exc:
            why = exc.strerror or exc.__class__.__name__
            shown = display_path(folder, root)
            out.append(Diagnostic(shown, 0, 0, f"cannot list this folder: {why}"))
    return tuple(out)


def load_snapshot(
    root: Path,
    env: Mapping[str, str],
    *,
    workflows: Iterable[str] | None = None,
    profile: Profile | None = None,
    preloaded: Iterable[WorkflowSnapshot] = (),
    runtime: RuntimeProfile = MOZAIKS,
) -> WorkspaceSnapshot:
    """Read the workspace at ``root`` under the effective environment ``env``.

    ``workflows`` limits which workflows are loaded (default: all); ``profile`` and
    ``preloaded`` reuse what the caller already read. Never raises for bad content.
    """
    with gc_paused():
        return _load_snapshot(root, env, workflows, profile, preloaded, runtime)


def _load_snapshot(
    root: Path,
    env: Mapping[str, str],
    workflows: Iterable[str] | None,
    profile: Profile | None,
    preloaded: Iterable[WorkflowSnapshot],
    runtime: RuntimeProfile,
) -> WorkspaceSnapshot:
    names = tuple(list_workflows(root, runtime))
    given = {wf.name: wf for wf in preloaded}
    wanted = list(dict.fromkeys(names if workflows is None else workflows))
    wanted += [n for n in given if n not in wanted]
    loaded = {name: given.get(name) or load_workflow(root, name, runtime) for name in wanted}
    routes = {
        name: load_routes_from(wf.folder, wf.root, wf.name, runtime) for name, wf in loaded.items()
    }
    inputs = ResolveInputs(env=env)
    setting = build_context_setting(env, root)
    registry_roots = _registry_roots(root, setting)
    middleware = _middleware(loaded.values())
    # the injection's folders (the packaged factory_app's registries among them) are read only
    # when a loaded workflow's middleware.yaml runs it
    injecting = runtime.sources.prompt_via_middleware and any(
        runs_injection(data) for _, data in middleware.values()
    )
    return WorkspaceSnapshot(
        root=root,
        env=dict(env),
        profile=profile if profile is not None else load_profile(root),
        names=names,
        workflows=loaded,
        routes=routes,
        fallbacks=load_fallbacks(root, inputs),
        build_context=setting,
        registry_roots=registry_roots,
        files=_file_sources(loaded.values(), inputs.allow_outside_root),
        folder_problems=_unlistable(root, names),
        runtime=runtime,
        middleware=middleware,
        injection_roots=_injection_roots(root, env, registry_roots) if injecting else (),
        packaged_factory_app=not injecting or factory_app_root(root, env) is not None,
        undiscovered=frozenset(n for n in names if undiscovered(workflow_folder(root, n), runtime)),
        workflow_files={
            name: load_workflow_files(wf.folder, wf.root, name)
            for name, wf in loaded.items()
            if runtime.strict_workflow_files and wf.folder != wf.root
        },
    )
