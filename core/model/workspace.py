"""Finding a workspace on disk and loading its workflows' contracts into a snapshot.

A user may point at the workspace root, its ``workflows/`` folder or one workflow folder; we
walk up to the root so that paths inside the workspace mean the same wherever flowctx runs.
Loading never raises for bad content: problems are Diagnostics on the snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, KeysView, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.gcpause import gc_paused
from flowctx_core.base.pathsafety import present
from flowctx_core.base.peritem import Records, per_item
from flowctx_core.base.yamledit import reparse_yaml_text
from flowctx_core.base.yamlmarks import YamlDoc, parse_yaml_text, read_text_file
from flowctx_core.model.contract import ROOT_KEYS, AgentView, Definition, validation_diagnostics
from flowctx_core.model.filenames import CONTRACT_FILE, WORKFLOWS_DIR
from flowctx_core.model.matrix import Loc, Refusal
from flowctx_core.model.profiles import MOZAIKS, RuntimeProfile
from flowctx_core.model.workspace_root import display_path, outside_workspace, yaml_coded

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class VariableSpec:
    """One declared variable: its validated definition, or the errors that stopped it."""

    name: str
    raw: Any
    definition: Definition | None
    loc: Loc
    errors: tuple[Diagnostic, ...] = ()
    #: what pure functions of this declaration alone computed, by their name (its authority
    #: under given rules, its row, its warnings): a contract read again keeps the spec of each
    #: unchanged definition (``parse_contract``'s ``earlier``), and with it these; each entry
    #: is (key, value, how it moves with the definition: ``MOVES``)
    memo: dict[str, tuple[Any, Any, str]] = field(default_factory=dict, compare=False, repr=False)

    def remembered(self, name: str, key: Any, compute: Callable[[], T], moves: str = "free") -> T:
        """``compute()``, kept under ``name`` while ``key`` is the same: for what is a
        function of this declaration (its value and its place in the contract) and of
        ``key`` alone. ``moves`` says what to do with it when the definition moves to
        another line (``moved``)."""
        known = self.memo.get(name)
        if known is not None and known[0] == key:
            return known[1]  # type: ignore[no-any-return]
        found = compute()
        self.memo[name] = (key, found, moves)
        return found

    def moved(self, loc: Loc) -> VariableSpec:
        """This declaration where its unchanged text now stands (lines above it were added
        or removed; its column is the same), with what it remembered moved along: a problem
        at or below its old line is on its own lines and moves with them, one above it (at an
        enclosing key) stays. What cannot be moved is forgotten."""
        delta = loc.line - self.loc.line
        spec = VariableSpec(
            self.name, self.raw, self.definition, loc, shift(self.errors, self.loc.line, delta)
        )
        for name, (key, found, moves) in self.memo.items():
            if moves == "free":
                spec.memo[name] = (key, found, moves)
            elif moves == "problems":
                spec.memo[name] = (key, shift(found, self.loc.line, delta), moves)
            elif moves == "row" and found.loc == self.loc:
                spec.memo[name] = (key, replace(found, loc=loc), moves)
        return spec


#: how a remembered value moves with its definition: ``free`` of any position, a list of
#: ``problems`` on the definition's lines, a matrix ``row`` located at the definition
MOVES = ("free", "problems", "row")


def shift(problems: Iterable[Diagnostic], line: int, delta: int) -> tuple[Diagnostic, ...]:
    """``problems`` with those at or below ``line`` moved ``delta`` lines (and the line of a
    quick fix's text, when it names one there)."""
    return tuple(_shifted(d, line, delta) for d in problems)


def _shifted(d: Diagnostic, line: int, delta: int) -> Diagnostic:
    fix = d.fix
    if fix is not None and fix.line >= line:
        fix = replace(fix, line=fix.line + delta)
    if d.line >= line:
        return replace(d, line=d.line + delta, fix=fix)
    return d if fix is d.fix else replace(d, fix=fix)


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
    #: the runtime profile the contract was read with
    runtime: RuntimeProfile = MOZAIKS
    #: set when that runtime would not load this context plan as written
    refused: Refusal | None = None
    #: each definition as read (by its path): its value, key mark, spec and problems; the
    #: next read of an edited text reuses those whose value is the same object at the same
    #: mark (``base/yamledit.py`` keeps the unchanged definitions' values)
    definitions_read: Mapping[Any, DefinitionRead] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: the stages' results per declaration or row of the read this one was parsed from
    #: (``earlier``), for the declarations this read keeps (``base/peritem.py``)
    carried: Records | None = field(default=None, compare=False, repr=False)

    # Indexes built on first use: scanning every agent's list for every variable made
    # resolving a large workflow quadratic. (cached_property writes the instance __dict__
    # directly, so it works on a frozen dataclass.)
    @cached_property
    def _by_name(self) -> dict[str, VariableSpec]:
        # the first declaration of a name, as the old linear scan found: built backwards, so
        # the first one is written last
        specs = self.variables[::-1]
        return dict(zip(map(_NAME, specs), specs, strict=True))

    @cached_property
    def _exposure(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for agent, names in self.agents.items():
            for name in dict.fromkeys(names):
                out.setdefault(name, []).append(agent)
        return {name: tuple(agents) for name, agents in out.items()}

    @cached_property
    def stage_results(self) -> Records:
        """What the stages computed per declaration (and per row) of this read
        (``base/peritem.py``): the next read of the contract takes what it keeps from it."""
        return {}

    def per_item(self, stage: str, items: Sequence[T], key: Any, each: Callable[[T], R]) -> list[R]:
        """``[each(item) for item in items]`` (``items``: these declarations, or what was
        resolved from them), each a function of its item and ``key`` alone, computed only for
        the items that the earlier read's results of ``stage`` do not hold."""
        return per_item(self.stage_results, self.carried, stage, items, key, each)

    @cached_property
    def policy_memo(self) -> dict[Any, Any]:
        """``stages.workflow_policy``'s policies of this snapshot, by the routes they were built
        with: resolving and checking a workflow both need it, and at 3,000 variables each
        build took a tenth of a second."""
        return {}

    def variable(self, name: str) -> VariableSpec | None:
        return self._by_name.get(name)

    @property
    def declared(self) -> KeysView[str]:
        """The declared names (a set-like view, built once)."""
        return self._by_name.keys()

    def agents_of(self, variable: str) -> tuple[str, ...]:
        return self._exposure.get(variable, ())


def list_workflows(root: Path, runtime: RuntimeProfile = MOZAIKS) -> list[str]:
    """The workflows the runtime discovers: with a discovery rule, only folders that hold one
    of its marker files (``discover_workflows``: orchestrator.yaml or tools.yaml)."""
    wf = root / WORKFLOWS_DIR
    if not fsview.is_dir(wf):
        return [root.name] if fsview.is_file(root / CONTRACT_FILE) else []
    names = []
    try:
        entries = sorted(fsview.iterdir(wf), key=lambda p: p.name.lower())
    except OSError:
        return []
    for entry in entries:
        if entry.name.startswith((".", "_")) or not fsview.is_dir(entry):
            continue
        if runtime.discovery is not None and not _is_workflow(entry, runtime.discovery):
            continue
        names.append(entry.name)
    return names


def _is_workflow(folder: Path, markers: tuple[str, ...]) -> bool:
    # a contract without a marker is still listed, so its matrix can be read; check warns that
    # the runtime will not discover it (see ``undiscovered``)
    return any(present(folder / m) for m in (*markers, CONTRACT_FILE))


def undiscovered(folder: Path, runtime: RuntimeProfile) -> bool:
    """A folder flowctx lists that the runtime's discovery would pass over."""
    markers = runtime.discovery
    return markers is not None and not any(present(folder / m) for m in markers)


def discovered(root: Path, names: Iterable[str], runtime: RuntimeProfile) -> list[str]:
    """Of the workflows flowctx lists, those the runtime's own discovery finds: a folder
    under ``workflows/`` holding one of its marker files (mozaiks 0.2.0: ``orchestrator.yaml``;
    ``paths.py`` ``discover_workflow_paths``). A workspace of bare contracts is listed for its
    contracts, and the runtime discovers none of it."""
    wf = root / WORKFLOWS_DIR
    if not fsview.is_dir(wf):
        return [] if runtime.discovery is not None else list(names)
    return [n for n in names if not undiscovered(wf / n, runtime)]


def workflow_folder(root: Path, name: str) -> Path:
    wf = root / WORKFLOWS_DIR
    return wf / name if fsview.is_dir(wf) else root


def load_workflow(
    root: Path,
    name: str,
    runtime: RuntimeProfile = MOZAIKS,
    earlier: WorkflowSnapshot | None = None,
) -> WorkflowSnapshot:
    """Workflow ``name``'s contract, read and parsed. ``earlier`` (the same workflow read
    before, by the language server) lets an edit inside one definition parse only that
    definition's lines (``base/yamledit.py``); the result is the same."""
    folder = workflow_folder(root, name)
    path = folder / CONTRACT_FILE
    display = display_path(path, root)
    if not present(path):
        # the runtime would load a marked folder with an empty context; flowctx has nothing
        # to show for it, and an author editing the contract wants to know it is gone
        diag = Diagnostic(display, 0, 0, f"workflow '{name}' has no {CONTRACT_FILE}")
        return WorkflowSnapshot(name, folder, root, display, (), {}, (diag,), runtime=runtime)
    escape = outside_workspace(path, root)
    if escape is not None:
        why = Diagnostic(display, 0, 0, escape, code="yaml")
        return _unread(name, folder, root, display, [why], runtime)
    text, problem = read_text_file(path, display)
    if text is None:
        problems = yaml_coded((None, [problem] if problem is not None else []))[1]
        return _unread(name, folder, root, display, problems, runtime)
    # a container per YAML node, path and mark, none in a cycle: with the collector on, each
    # batch of them walked everything still alive (a fifth of `flowctx matrix` at 3,000
    # variables went to collections); see flowctx_core.base.gcpause
    with gc_paused():
        doc, problems = yaml_coded(_parsed(text, display, runtime, earlier))
        if doc is None:
            return _unread(name, folder, root, display, problems, runtime, text)
        parsed = parse_contract(doc, name, folder, root, problems, runtime, earlier)
    return replace(parsed, text=text)


def _parsed(
    text: str, display: str, runtime: RuntimeProfile, earlier: WorkflowSnapshot | None
) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """``parse_yaml_text(text, display)``, from ``earlier``'s parse when only one of its
    definitions changed and that parse had no problem of its own (code ``yaml``)."""
    if (
        earlier is not None
        and earlier.doc is not None
        and earlier.text
        and earlier.contract_file == display
        and earlier.runtime is runtime
        and not any(d.code == "yaml" for d in earlier.diagnostics)
    ):
        found = reparse_yaml_text(earlier.text, earlier.doc, (), text, display)
        if found is not None:
            return found
    return parse_yaml_text(text, display)


def contract_text(root: Path, name: str) -> str | None:
    """The text ``load_workflow`` would parse for workflow ``name`` now, read as it reads it
    (through ``fsview``, so an editor's unsaved buffer counts); None when it would parse none
    (no contract, one outside the workspace, one that cannot be read). Parsing is a function of
    this text, the folder and the runtime: a caller that kept the ``WorkflowSnapshot`` of the
    same text (its ``text``) may reuse it instead of parsing again (the language server)."""
    path = workflow_folder(root, name) / CONTRACT_FILE
    if not present(path) or outside_workspace(path, root) is not None:
        return None
    text, _problem = read_text_file(path, display_path(path, root))
    return text


def _unread(
    name: str,
    folder: Path,
    root: Path,
    display: str,
    problems: list[Diagnostic],
    runtime: RuntimeProfile,
    text: str = "",
) -> WorkflowSnapshot:
    """A workflow whose contract could not be read or parsed: no variables, its problems, and
    whether the runtime refuses it for them."""
    return WorkflowSnapshot(
        name,
        folder,
        root,
        display,
        (),
        {},
        tuple(problems),
        text=text,
        runtime=runtime,
        refused=_refusal(problems, runtime),
    )


def parse_contract(
    doc: YamlDoc,
    name: str,
    folder: Path,
    root: Path,
    problems: list[Diagnostic] | None = None,
    runtime: RuntimeProfile = MOZAIKS,
    earlier: WorkflowSnapshot | None = None,
) -> WorkflowSnapshot:
    """The contract of ``doc``; ``earlier`` (the same workflow's last read, with the same
    runtime) gives the definitions whose value and place are unchanged, read once."""
    diags: list[Diagnostic] = list(problems or [])
    rules = runtime.contract
    data = doc.data
    display = doc.file
    base: tuple[Any, ...] = ()
    if data is None:
        data = {}
        diags.append(doc.diag((), "file is empty; expected 'definitions' and 'agents'"))
    if rules.unwraps_root and isinstance(data, dict) and "context_variables" in data:
        # the older loader reads raw["context_variables"] when that key is present
        data = data["context_variables"]
        base = ("context_variables",)
        if not isinstance(data, dict):
            data = {}
    if not isinstance(data, dict):
        diags.append(
            doc.diag(
                (),
                f"the file must be a mapping with {', '.join(ROOT_KEYS)}, "
                f"found {type(data).__name__}",
            )
        )
        return _snapshot(name, folder, root, display, [], {}, diags, doc, {}, runtime)
    for key in data:
        if key not in ROOT_KEYS:
            hint, fix = suggest(str(key), ROOT_KEYS)
            msg = f"unknown field{hint}"
            if rules.extra == "ignore":
                diags.append(
                    doc.diag((*base, key), _ignored(msg, runtime), severity="warning", fix=fix)
                )
            else:
                diags.append(doc.diag((*base, key), msg, fix=fix))

    older_shape = isinstance(data.get("definitions"), list) or isinstance(data.get("agents"), list)
    memo = earlier.definitions_read if earlier is not None and earlier.runtime is runtime else {}
    read: dict[Any, DefinitionRead] = {}
    variables = None
    if earlier is not None and memo and not base:
        variables = _one_edited(doc, earlier, data.get("definitions"), diags, runtime, read)
    if variables is None:
        variables = _parse_definitions(
            doc, data.get("definitions"), diags, runtime, base, memo, read
        )
    agents, agent_locs = _parse_agents(doc, data.get("agents"), diags, runtime, base)

    declared = set(map(_NAME, variables))
    for agent, names in agents.items():
        missing = [n for n in names if n not in declared]
        if missing and rules.agent_refs_checked:
            listed = ", ".join(repr(n) for n in missing)
            hint, fix = suggest(missing[0], declared) if len(missing) == 1 else ("", None)
            diags.append(
                doc.diag(
                    (*base, "agents", agent, "variables"),
                    f"agent '{agent}' exposes undeclared variable(s) {listed}{hint}",
                    fix=fix,
                )
            )
        for i, n in enumerate(names):
            why = runtime.reserved(n)
            if why:
                diags.append(
                    doc.diag(
                        (*base, "agents", agent, "variables", i),
                        f"agent '{agent}' lists '{n}': {why}; the runtime rejects it",
                        key=False,
                    )
                )
    hint = ""
    if older_shape and not rules.accepts_lists:
        hint = "; lists of definitions are the older runtime's shape (--runtime mozaiks-2026-01)"
    carried = None
    if earlier is not None and earlier.runtime is runtime:
        # one level only: the earlier read's own carried records are merged, never linked
        carried = {**(earlier.carried or {}), **earlier.stage_results}
    return _snapshot(
        name,
        folder,
        root,
        display,
        variables,
        agents,
        diags,
        doc,
        agent_locs,
        runtime,
        hint,
        read,
        carried,
    )


def _snapshot(
    name: str,
    folder: Path,
    root: Path,
    display: str,
    variables: list[VariableSpec],
    agents: dict[str, tuple[str, ...]],
    diags: list[Diagnostic],
    doc: YamlDoc | None,
    agent_locs: dict[str, Loc],
    runtime: RuntimeProfile,
    hint: str = "",
    read: Mapping[Any, DefinitionRead] | None = None,
    carried: Records | None = None,
) -> WorkflowSnapshot:
    return WorkflowSnapshot(
        name,
        folder,
        root,
        display,
        tuple(variables),
        agents,
        tuple(diags),
        doc,
        agent_locs,
        runtime=runtime,
        refused=_refusal(diags, runtime, hint),
        definitions_read=read or {},
        carried=carried,
    )


def _ignored(message: str, runtime: RuntimeProfile) -> str:
    return f"{message}; ignored by runtime {runtime.name}"


def _refusal(diags: list[Diagnostic], runtime: RuntimeProfile, hint: str = "") -> Refusal | None:
    """The runtime validates the plan as one model: the first error decides the load."""
    outcome = runtime.contract.invalid_plan
    if outcome == "per_definition":
        return None
    errors = sorted((d for d in diags if d.severity == "error"), key=lambda d: (d.line, d.column))
    if not errors:
        return None
    first = errors[0]
    more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
    reason = (f"{first.yaml_path}: " if first.yaml_path else "") + first.message + more + hint
    if outcome == "refuse":
        return Refusal(reason, first.file, first.line, first.column, "refused")
    return Refusal(reason, first.file, first.line, first.column, "empty_plan")


def _parse_definitions(
    doc: YamlDoc,
    raw: Any,
    diags: list[Diagnostic],
    runtime: RuntimeProfile = MOZAIKS,
    base: tuple[Any, ...] = (),
    memo: Mapping[Any, DefinitionRead] | None = None,
    read: dict[Any, DefinitionRead] | None = None,
) -> list[VariableSpec]:
    """Each definition's spec, its problems added to ``diags``. A definition ``memo`` has
    with the same value object at the same key mark is taken from it (its marks, and so its
    problems, are the same); every definition read is put in ``read``."""
    items: list[tuple[str, Any, tuple[Any, ...]]] = []
    rules = runtime.contract
    if raw is None:
        return []
    if isinstance(raw, dict):
        items = [(str(k), v, (*base, "definitions", k)) for k, v in raw.items()]
    elif isinstance(raw, list):
        # a shape seen in the wild: a list of definitions with a name each (the older runtime
        # maps them by 'name' or 'key' and drops entries without one)
        if not rules.accepts_lists:
            diags.append(
                doc.diag(
                    (*base, "definitions"),
                    "definitions must be a map (name -> definition), found a list",
                    key=True,
                )
            )
        for i, entry in enumerate(raw):
            nm = entry.get("name") if isinstance(entry, dict) else None
            if nm is None and rules.accepts_lists and isinstance(entry, dict):
                nm = entry.get("key")
            if isinstance(nm, str) and nm.strip():
                rest = {k: v for k, v in entry.items() if k not in ("name", "key")}
                items.append((nm, rest, (*base, "definitions", i)))
            elif rules.accepts_lists:
                diags.append(
                    doc.diag(
                        (*base, "definitions", i),
                        f"list entry without a 'name': runtime {runtime.name} drops it",
                        key=False,
                        severity="warning",
                    )
                )
            else:
                diags.append(
                    doc.diag((*base, "definitions", i), "list entry without a 'name'", key=False)
                )
    else:
        diags.append(
            doc.diag((*base, "definitions"), "definitions must be a map (name -> definition)")
        )
        return []

    context = {
        "trigger_rules": rules.trigger_rules,
        "trigger_types": rules.trigger_types,
    }
    out: list[VariableSpec] = []
    for name, value, path in items:
        mark = doc.where(path, key=True)
        known = memo.get(path) if memo else None
        if known is not None and known.value is value and known.mark == mark:
            found = known
        elif known is not None and known.value is value and known.mark[1] == mark[1]:
            # the same text moved up or down (lines added or removed above it)
            old_line = known.spec.loc.line
            delta = mark[0] - known.mark[0]
            moved = known.spec.moved(Loc(doc.file, *mark))
            found = DefinitionRead(value, mark, moved, shift(known.problems, old_line, delta))
        else:
            spec, problems = _definition(doc, name, value, path, mark, runtime, context)
            found = DefinitionRead(value, mark, spec, tuple(problems))
        out.append(found.spec)
        diags.extend(found.problems)
        if read is not None:
            read[path] = found
    return out


_NAME = attrgetter("name")
_SPEC = attrgetter("spec")
_PROBLEMS = attrgetter("problems")


def _one_edited(
    doc: YamlDoc,
    earlier: WorkflowSnapshot,
    raw: Any,
    diags: list[Diagnostic],
    runtime: RuntimeProfile,
    read: dict[Any, DefinitionRead],
) -> list[VariableSpec] | None:
    """``_parse_definitions`` of a document ``yamledit`` made from ``earlier``'s by parsing one
    definition again with no line added or removed: every other definition is the same value
    at the same mark, so ``earlier``'s read of it is taken as it is, in one pass of C's, and
    only the edited one is read. None when the document is not such a one."""
    edit = doc.edit
    if (
        edit is None
        or edit[2] != 0
        or earlier.doc is None
        or edit[3] != id(earlier.doc)
        or not isinstance(raw, dict)
        or len(raw) != len(earlier.definitions_read)
    ):
        return None
    old, new = ("definitions", edit[0]), ("definitions", edit[1])
    paths = list(earlier.definitions_read)
    reads = list(earlier.definitions_read.values())
    try:
        at = paths.index(old)
    except ValueError:
        return None
    value = raw.get(edit[1])
    mark = doc.where(new, key=True)
    context = {
        "trigger_rules": runtime.contract.trigger_rules,
        "trigger_types": runtime.contract.trigger_types,
    }
    spec, problems = _definition(doc, str(edit[1]), value, new, mark, runtime, context)
    paths[at], reads[at] = new, DefinitionRead(value, mark, spec, tuple(problems))
    read.update(zip(paths, reads, strict=True))
    diags.extend(chain.from_iterable(map(_PROBLEMS, reads)))
    return list(map(_SPEC, reads))


@dataclass(frozen=True)
class DefinitionRead:
    """One definition as ``_parse_definitions`` read it, kept for the next read."""

    value: Any
    mark: tuple[int, int]
    spec: VariableSpec
    problems: tuple[Diagnostic, ...]


def _definition(
    doc: YamlDoc,
    name: str,
    value: Any,
    path: tuple[Any, ...],
    mark: tuple[int, int],
    runtime: RuntimeProfile,
    context: dict[str, Any],
) -> tuple[VariableSpec, list[Diagnostic]]:
    """One definition's spec and its problems, in the order they are reported."""
    rules = runtime.contract
    diags: list[Diagnostic] = []
    loc = Loc(doc.file, *mark)
    why = runtime.reserved(name)
    if why:
        diags.append(doc.diag(path, f"'{name}': {why}; the runtime rejects it", key=True))
    if not isinstance(value, dict):
        err = doc.diag(path, "a definition must be a mapping with 'type' and 'source'", key=False)
        diags.append(err)
        return VariableSpec(name, value, None, loc, (err,)), diags
    definition, errs, ignored = _validate_definition(doc, path, value, context, runtime)
    diags.extend(ignored)
    if definition is None:
        diags.extend(errs)
        return VariableSpec(name, value, None, loc, tuple(errs)), diags
    stype = definition.source.type
    if stype not in rules.source_types:
        err = doc.diag(
            (*path, "source", "type"),
            runtime.unknown_source_type(stype),
            key=False,
            fix=runtime.source_type_fix(stype),
        )
        diags.append(err)
        return VariableSpec(name, value, None, loc, (err,)), diags
    typed = _runtime_type_problems(doc, path, value, runtime)
    if typed:
        diags.extend(typed)
        return VariableSpec(name, value, definition, loc, tuple(typed)), diags
    if (
        "immutable_runtime_authority" in value
        and rules.extra == "forbid"
        and runtime.documented is not None
    ):
        # the documentation speaks of variables "declared immutable_runtime_authority";
        # the runtime's definition model has no such key, only authority_class
        diags.append(
            doc.diag(
                (*path, "immutable_runtime_authority"),
                "unknown field for the runtime's definition model: write "
                "'authority_class: immutable_runtime_authority' (documented: "
                "'immutable_runtime_authority: true')",
                key=True,
            )
        )
    return VariableSpec(name, value, definition, loc), diags


def _validate_definition(
    doc: YamlDoc,
    path: tuple[Any, ...],
    value: dict[str, Any],
    context: dict[str, Any],
    runtime: RuntimeProfile,
) -> tuple[Definition | None, list[Diagnostic], list[Diagnostic]]:
    """The definition, its errors, and the unknown keys a lenient runtime dropped (warnings)."""
    ignored: list[Diagnostic] = []
    current: Any = value
    for _ in range(8):  # each pass drops the unknown keys pydantic reported
        try:
            return Definition.model_validate(current, context=context), [], ignored
        except ValidationError as exc:
            errs = _name_source_type(
                validation_diagnostics(exc, doc, path, Definition, current), current, runtime
            )
            if runtime.contract.extra != "ignore":
                return None, errs, ignored
            extra = [tuple(e["loc"]) for e in exc.errors() if e["type"] == "extra_forbidden"]
            if not extra:
                return None, errs, ignored
            ignored.extend(
                doc.diag(
                    (*path, *_yaml_loc(loc)),
                    _ignored("unknown field", runtime),
                    key=True,
                    severity="warning",
                )
                for loc in extra
            )
            current = _drop(current, [_yaml_loc(loc) for loc in extra])
    return None, [doc.diag(path, "definition could not be validated", key=True)], ignored


def _name_source_type(
    errs: list[Diagnostic], value: dict[str, Any], runtime: RuntimeProfile
) -> list[Diagnostic]:
    """An unknown source type is judged by the profile's own model, naming its commit."""
    source = value.get("source")
    tag = source.get("type") if isinstance(source, dict) else None
    if not isinstance(tag, str):
        return errs
    return [
        replace(d, message=runtime.unknown_source_type(tag), fix=runtime.source_type_fix(tag))
        if d.message.startswith("unknown source type ")
        else d
        for d in errs
    ]


def _runtime_type_problems(
    doc: YamlDoc, path: tuple[Any, ...], value: dict[str, Any], runtime: RuntimeProfile
) -> list[Diagnostic]:
    """Values flowctx's models accept but the runtime's typed fields refuse (the whole plan
    then fails to load), located at the value."""
    from flowctx_core.model.contract import RuntimeDefinitionTypes, RuntimeSourceTypes

    out: list[Diagnostic] = []
    checks: list[tuple[type[BaseModel], Any, tuple[Any, ...]]] = []
    if runtime.contract.typed_sources and isinstance(value.get("source"), dict):
        checks.append((RuntimeSourceTypes, value["source"], (*path, "source")))
    if runtime.contract.typed_authority:
        checks.append((RuntimeDefinitionTypes, value, path))
    for model, data, base in checks:
        try:
            model.model_validate(data)
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                msg = err["msg"].removeprefix("Value error, ")
                out.append(
                    doc.diag(
                        (*base, *err["loc"]),
                        f"{msg} (the runtime's context model; runtime {runtime.name})",
                        key=False,
                    )
                )
    return out


def _yaml_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    from flowctx_core.model.contract import SOURCE_MODELS

    return tuple(
        p
        for i, p in enumerate(loc)
        if not (isinstance(p, str) and p in SOURCE_MODELS and i > 0 and loc[i - 1] == "source")
    )


def _drop(data: Any, locs: list[tuple[Any, ...]]) -> Any:
    """A copy of ``data`` without the keys at ``locs``."""
    import copy

    out = copy.deepcopy(data)
    for loc in locs:
        node = out
        for part in loc[:-1]:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        if isinstance(node, dict):
            node.pop(loc[-1], None)
    return out


def _parse_agents(
    doc: YamlDoc,
    raw: Any,
    diags: list[Diagnostic],
    runtime: RuntimeProfile = MOZAIKS,
    base: tuple[Any, ...] = (),
) -> tuple[dict[str, tuple[str, ...]], dict[str, Loc]]:
    agents: dict[str, tuple[str, ...]] = {}
    locs: dict[str, Loc] = {}
    if raw is None:
        return agents, locs
    if isinstance(raw, list) and runtime.contract.accepts_lists:
        # the older runtime maps entries by 'agent', 'agent_name' or 'name'
        for i, entry in enumerate(raw):
            if not isinstance(entry, dict):
                continue
            agent = entry.get("agent") or entry.get("agent_name") or entry.get("name")
            if not isinstance(agent, str) or not agent.strip():
                continue
            line, col = doc.where((*base, "agents", i))
            locs[agent] = Loc(doc.file, line, col)
            names = entry.get("variables")
            if isinstance(names, list):
                agents[agent] = tuple(str(n) for n in names if isinstance(n, str))
            else:
                agents[agent] = () if names is None else (str(names),)
        return agents, locs
    if not isinstance(raw, dict):
        diags.append(
            doc.diag(
                (*base, "agents"),
                "agents must be a map (agent -> {variables: [...]})",
            )
        )
        return agents, locs
    for agent, view in raw.items():
        path = (*base, "agents", agent)
        line, col = doc.where(path)
        locs[str(agent)] = Loc(doc.file, line, col)
        if view is None:
            view = {}
        try:
            parsed = AgentView.model_validate(view)
        except ValidationError as exc:
            found = validation_diagnostics(exc, doc, path, AgentView, view)
            if runtime.contract.extra == "ignore":
                found = [
                    Diagnostic(
                        d.file,
                        d.line,
                        d.column,
                        _ignored(d.message, runtime),
                        "warning",
                        d.yaml_path,
                    )
                    if d.message.startswith("unknown field")
                    else d
                    for d in found
                ]
            diags.extend(found)
            names = view.get("variables") if isinstance(view, dict) else None
            parsed = AgentView(variables=[str(n) for n in names] if isinstance(names, list) else [])
        agents[str(agent)] = tuple(parsed.variables)
    return agents, locs
