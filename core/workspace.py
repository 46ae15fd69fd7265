"""Finding a workspace on disk and loading its workflows' contracts into a snapshot.

A user may point at the workspace root, its ``workflows/`` folder or one workflow folder; we
walk up to the root so that paths inside the workspace mean the same wherever flowctx runs.
Loading never raises for bad content: problems are Diagnostics on the snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.contract import ROOT_KEYS, AgentView, Definition, validation_diagnostics
from core.diagnostics import Diagnostic, did_you_mean
from core.layout import CONTRACT_FILE, PROFILE_FILE, WORKFLOW_FILES
from core.pathsafety import present
from core.results import Loc
from core.yamlmarks import YamlDoc, load_yaml_file, parse_yaml_text, read_text_file

#: settings a workspace's own profile may not make: they would let it read the user's machine
PROFILE_REFUSED_ENV = ("CONTEXT_FILE_ALLOW_OUTSIDE_ROOT",)


class WorkspaceNotFound(Exception):
    """The path given is not a workspace, a workflows folder or a workflow folder."""


@dataclass(frozen=True)
class VariableSpec:
    """One declared variable: its validated definition, or the errors that stopped it."""

    name: str
    raw: Any
    definition: Definition | None
    loc: Loc
    errors: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class WorkflowSnapshot:
    name: str
    folder: Path
    root: Path
    contract_file: str
    variables: tuple[VariableSpec, ...]
    agents: Mapping[str, tuple[str, ...]]
    diagnostics: tuple[Diagnostic, ...] = ()
    doc: YamlDoc | None = None
    agent_locs: Mapping[str, Loc] = field(default_factory=dict)
    #: the contract's text as read (for showing a definition as written)
    text: str = ""

    # Indexes built on first use: scanning every agent's list for every variable made
    # resolving a large workflow quadratic. (cached_property writes the instance __dict__
    # directly, so it works on a frozen dataclass.)
    @cached_property
    def _by_name(self) -> dict[str, VariableSpec]:
        out: dict[str, VariableSpec] = {}
        for v in self.variables:
            out.setdefault(v.name, v)  # the first declaration, as the old linear scan found
        return out

    @cached_property
    def _exposure(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for agent, names in self.agents.items():
            for name in dict.fromkeys(names):
                out.setdefault(name, []).append(agent)
        return {name: tuple(agents) for name, agents in out.items()}

    def variable(self, name: str) -> VariableSpec | None:
        return self._by_name.get(name)

    def agents_of(self, variable: str) -> tuple[str, ...]:
        return self._exposure.get(variable, ())


@dataclass(frozen=True)
class Profile:
    """``flowctx.yaml`` at the workspace root: the environment and launch values the tool
    assumes for this workspace (the process environment and the app's overrides win)."""

    env: Mapping[str, str] = field(default_factory=dict)
    launch: Mapping[str, Any] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()


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
        if path.name not in (*WORKFLOW_FILES, PROFILE_FILE):
            raise WorkspaceNotFound(
                f"{path}: is a file, not a workspace (give the workspace folder, its "
                f"workflows/ folder, one workflow folder or its {CONTRACT_FILE})"
            )
        path = path.parent
    if not path.is_dir():
        raise WorkspaceNotFound(f"{path}: no such directory")
    probe = path
    while True:
        if (probe / "workflows").is_dir():
            return probe, _workflow_named_by(path, probe)
        if probe.name == "workflows":
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


def _workflow_named_by(path: Path, root: Path) -> str | None:
    """The workflow folder ``path`` is in (``root/workflows/<name>/...``), if any.

    Decided from the root found, not from the parent folder's name: a workspace that itself
    sits in a folder called ``workflows`` is not a workflow of its parent.
    """
    try:
        rel = path.relative_to(root / "workflows")
    except ValueError:
        return None
    return rel.parts[0] if rel.parts else None


def list_workflows(root: Path) -> list[str]:
    wf = root / "workflows"
    if not wf.is_dir():
        return [root.name] if (root / CONTRACT_FILE).is_file() else []
    names = []
    try:
        entries = sorted(wf.iterdir(), key=lambda p: p.name.lower())
    except OSError:
        return []
    for entry in entries:
        if entry.name.startswith((".", "_")) or not entry.is_dir():
            continue
        names.append(entry.name)
    return names


def workflow_folder(root: Path, name: str) -> Path:
    wf = root / "workflows"
    return wf / name if wf.is_dir() else root


def _yaml_coded(
    loaded: tuple[YamlDoc | None, list[Diagnostic]],
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """The YAML reader's own problems carry the code ``yaml`` (see core/check.py)."""
    doc, problems = loaded
    return doc, [p if p.code else replace(p, code="yaml") for p in problems]


def load_profile(root: Path) -> Profile:
    path = root / PROFILE_FILE
    if not present(path):
        return Profile()
    doc, problems = _yaml_coded(load_yaml_file(path, PROFILE_FILE))
    if doc is None:
        return Profile(diagnostics=tuple(problems))
    data = doc.data or {}
    diags = list(problems)
    if not isinstance(data, dict):
        return Profile(diagnostics=(doc.diag((), "flowctx.yaml must be a mapping"),))
    for key in data:
        if key not in ("env", "launch"):
            diags.append(
                doc.diag((key,), f"unknown field{did_you_mean(str(key), ['env', 'launch'])}")
            )
    env = data.get("env") or {}
    launch = data.get("launch") or {}
    if not isinstance(env, dict):
        diags.append(doc.diag(("env",), "env must be a mapping of NAME: value", key=False))
        env = {}
    if not isinstance(launch, dict):
        diags.append(doc.diag(("launch",), "launch must be a mapping", key=False))
        launch = {}
    env = {str(k): "" if v is None else str(v) for k, v in env.items()}
    for name in PROFILE_REFUSED_ENV:
        if name in env:
            # a workspace someone else wrote must not widen what flowctx reads from this machine
            del env[name]
            diags.append(
                doc.diag(
                    ("env", name),
                    f"{name} is ignored in flowctx.yaml: set it in your own environment "
                    "to let file sources read outside the workspace",
                    severity="warning",
                )
            )
    return Profile(env=env, launch=dict(launch), diagnostics=tuple(diags))


def load_workflow(root: Path, name: str) -> WorkflowSnapshot:
    folder = workflow_folder(root, name)
    path = folder / CONTRACT_FILE
    display = display_path(path, root)
    if not present(path):
        diag = Diagnostic(display, 0, 0, f"workflow '{name}' has no {CONTRACT_FILE}")
        return WorkflowSnapshot(name, folder, root, display, (), {}, (diag,))
    text, problem = read_text_file(path, display)
    if text is None:
        problems = _yaml_coded((None, [problem] if problem is not None else []))[1]
        return WorkflowSnapshot(name, folder, root, display, (), {}, tuple(problems))
    doc, problems = _yaml_coded(parse_yaml_text(text, display))
    if doc is None:
        return WorkflowSnapshot(name, folder, root, display, (), {}, tuple(problems), text=text)
    return replace(parse_contract(doc, name, folder, root, problems), text=text)


def parse_contract(
    doc: YamlDoc, name: str, folder: Path, root: Path, problems: list[Diagnostic] | None = None
) -> WorkflowSnapshot:
    diags: list[Diagnostic] = list(problems or [])
    data = doc.data
    display = doc.file
    if data is None:
        data = {}
        diags.append(doc.diag((), "file is empty; expected 'definitions' and 'agents'"))
    if not isinstance(data, dict):
        diags.append(
            doc.diag(
                (),
                f"the file must be a mapping with {', '.join(ROOT_KEYS)}, "
                f"found {type(data).__name__}",
            )
        )
        return WorkflowSnapshot(name, folder, root, display, (), {}, tuple(diags), doc)
    for key in data:
        if key not in ROOT_KEYS:
            diags.append(doc.diag((key,), f"unknown field{did_you_mean(str(key), ROOT_KEYS)}"))

    variables = _parse_definitions(doc, data.get("definitions"), diags)
    agents, agent_locs = _parse_agents(doc, data.get("agents"), diags)

    declared = {v.name for v in variables}
    for agent, names in agents.items():
        missing = [n for n in names if n not in declared]
        if missing:
            listed = ", ".join(repr(n) for n in missing)
            hint = did_you_mean(missing[0], declared) if len(missing) == 1 else ""
            diags.append(
                doc.diag(
                    ("agents", agent, "variables"),
                    f"agent '{agent}' exposes undeclared variable(s) {listed}{hint}",
                )
            )
    return WorkflowSnapshot(
        name, folder, root, display, tuple(variables), agents, tuple(diags), doc, agent_locs
    )


def _parse_definitions(doc: YamlDoc, raw: Any, diags: list[Diagnostic]) -> list[VariableSpec]:
    items: list[tuple[str, Any, tuple[Any, ...]]] = []
    if raw is None:
        return []
    if isinstance(raw, dict):
        items = [(str(k), v, ("definitions", k)) for k, v in raw.items()]
    elif isinstance(raw, list):
        # a shape seen in the wild: a list of definitions with a name each
        diags.append(
            doc.diag(
                ("definitions",),
                "definitions must be a map (name -> definition), found a list",
                key=True,
            )
        )
        for i, entry in enumerate(raw):
            nm = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(nm, str):
                rest = {k: v for k, v in entry.items() if k != "name"}
                items.append((nm, rest, ("definitions", i)))
            else:
                diags.append(doc.diag(("definitions", i), "list entry without a 'name'", key=False))
    else:
        diags.append(doc.diag(("definitions",), "definitions must be a map (name -> definition)"))
        return []

    out: list[VariableSpec] = []
    for name, value, path in items:
        line, col = doc.where(path, key=True)
        loc = Loc(doc.file, line, col)
        if not isinstance(value, dict):
            err = doc.diag(
                path, "a definition must be a mapping with 'type' and 'source'", key=False
            )
            diags.append(err)
            out.append(VariableSpec(name, value, None, loc, (err,)))
            continue
        try:
            definition = Definition.model_validate(value)
        except ValidationError as exc:
            errs = tuple(validation_diagnostics(exc, doc, path, Definition, value))
            diags.extend(errs)
            out.append(VariableSpec(name, value, None, loc, errs))
            continue
        out.append(VariableSpec(name, value, definition, loc))
    return out


def _parse_agents(
    doc: YamlDoc, raw: Any, diags: list[Diagnostic]
) -> tuple[dict[str, tuple[str, ...]], dict[str, Loc]]:
    agents: dict[str, tuple[str, ...]] = {}
    locs: dict[str, Loc] = {}
    if raw is None:
        return agents, locs
    if not isinstance(raw, dict):
        diags.append(doc.diag(("agents",), "agents must be a map (agent -> {variables: [...]})"))
        return agents, locs
    for agent, view in raw.items():
        path = ("agents", agent)
        line, col = doc.where(path)
        locs[str(agent)] = Loc(doc.file, line, col)
        if view is None:
            view = {}
        try:
            parsed = AgentView.model_validate(view)
        except ValidationError as exc:
            diags.extend(validation_diagnostics(exc, doc, path, AgentView, view))
            names = view.get("variables") if isinstance(view, dict) else None
            parsed = AgentView(variables=[str(n) for n in names] if isinstance(names, list) else [])
        agents[str(agent)] = tuple(parsed.variables)
    return agents, locs
