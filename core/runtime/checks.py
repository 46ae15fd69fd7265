"""Checks that depend on the runtime profile: where the shipped code surprises an author.

Each is a warning located at the key it concerns, saying what the runtime does and, where the
documentation promises otherwise, what it promises. They are contributed to ``flowctx_core.check``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Protocol

from flowctx_core.base.coercion import coerce
from flowctx_core.base.diagnostics import Diagnostic, Fix, suggest
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.buildctx.projected import runtime_type_misfit
from flowctx_core.model.contract import Definition
from flowctx_core.model.filenames import WORKFLOWS_DIR
from flowctx_core.model.profiles import RuntimeProfile
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot, undiscovered
from flowctx_core.runtime.authority import protection_reason
from flowctx_core.sources.config import documented_note


class WorkspaceSnapshot(Protocol):
    """What these checks read of ``flowctx_core.snapshot.WorkspaceSnapshot``: its root, its
    workflows' names, its runtime and what discovery passed over. Declared here because the
    runtime's rules sit below the assembly that takes the snapshot; ``flowctx_core.check``
    passes the real one."""

    @property
    def root(self) -> Path: ...

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def runtime(self) -> RuntimeProfile: ...

    #: the workflows the runtime's discovery passes over, as read with the snapshot
    @property
    def undiscovered(self) -> frozenset[str] | None: ...


def config_default_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """A config default the runtime never applies because an env_var is declared."""
    out: list[Diagnostic] = []
    runtime = wf.runtime
    if wf.doc is None or runtime.sources.config != "env_only":
        return out
    return list(
        chain.from_iterable(
            wf.per_item("config default", wf.variables, runtime, partial(_config_default, wf))
        )
    )


def _config_default(wf: WorkflowSnapshot, spec: VariableSpec) -> tuple[Diagnostic, ...]:
    """``config_default_problems`` of one declaration."""
    d = spec.definition
    if d is None or d.source.type != "config" or wf.doc is None:
        return ()
    note = documented_note(spec.name, d.source)
    if note is None:
        return ()
    path = (*_base(wf, spec.name), "source", "default")
    return (wf.doc.diag(path, f"{note} [runtime {wf.runtime.name}]", key=True, severity="warning"),)


def data_source_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """data_reference and data_entity sources the runtime skips: no database or collection."""
    out: list[Diagnostic] = []
    runtime = wf.runtime
    if wf.doc is None:
        return out
    return list(
        chain.from_iterable(
            wf.per_item("data source", wf.variables, runtime, partial(_data_source, wf))
        )
    )


def _data_source(wf: WorkflowSnapshot, spec: VariableSpec) -> list[Diagnostic]:
    """``data_source_problems`` of one declaration."""
    out: list[Diagnostic] = []
    runtime = wf.runtime
    d = spec.definition
    if wf.doc is not None and d is not None and d.source.type in ("data_reference", "data_entity"):
        src = d.source
        path = (*_base(wf, spec.name), "source")
        missing = [k for k in ("database_name", "collection") if not getattr(src, k)]
        if src.type == "data_reference":
            if not runtime.sources.data_reference_needs_database_name and "database_name" in (
                missing
            ):
                missing.remove("database_name")
            if missing:
                out.append(
                    wf.doc.diag(
                        path,
                        f"no {' and '.join(missing)}: the runtime's Mongo adapter skips the "
                        "fetch and returns None, so only the default or the fallbacks file "
                        f"can give a value [runtime {runtime.name}]",
                        key=True,
                        severity="warning",
                    )
                )
        elif missing and runtime.sources.data_entity_incomplete == "absent":
            out.append(
                wf.doc.diag(
                    path,
                    f"no {' and '.join(missing)}: the runtime logs 'Skipping data_entity "
                    f"{spec.name}' and sets nothing; the key is absent [runtime {runtime.name}]",
                    key=True,
                    severity="warning",
                )
            )
        elif missing:
            out.append(
                wf.doc.diag(
                    path,
                    f"a data_entity needs a {' and a '.join(missing)} [runtime {runtime.name}]",
                    key=True,
                )
            )
    return out


# authority.py's inference, as data: which names and sources make a variable unpersisted
# (immutable runtime authority, tool-only information) unless its metadata says otherwise;
# the immutable names are the protected ones (flowctx_core.runtime.authority.protection_reason)
_PERSISTED_BY_NAME_PARTS = (
    "quality",
    "validation_status",
    "acceptance_status",
    "tests_passed",
    "gate",
)
_ROUTING_EXACT = frozenset(
    {"build_mode", "revision_scope", "task_run_mode", "sequence_status", "routing_mode"}
)
_ROUTING_SUFFIXES = ("_route_ready", "_complete", "_decision", "_selected")
_TOOL_ONLY_SOURCES = frozenset(
    {"config", "data_reference", "data_entity", "file", "build_context", "external"}
)
_UNPERSISTED_CLASSES = frozenset({"immutable_runtime_authority", "tool_only_information"})


def _persisted(name: str, d: Definition) -> bool | None:
    """Whether the runtime persists the variable: True, False, or None when only the
    transition rules could tell (a routing condition makes a tool-only variable persisted)."""
    if d.persisted is not None:
        return bool(d.persisted)
    if d.authority_class is not None:
        return str(d.authority_class).strip() not in _UNPERSISTED_CLASSES
    if protection_reason(name.strip()) is not None:
        return False
    key = name.strip().lower()
    if any(p in key for p in _PERSISTED_BY_NAME_PARTS):
        return True
    if name.strip() in _ROUTING_EXACT or name.strip().endswith(_ROUTING_SUFFIXES):
        return True
    triggers = getattr(d.source, "triggers", None) or []
    if any(getattr(t, "type", None) == "agent_text" for t in triggers):
        return True
    if d.source.type in _TOOL_ONLY_SOURCES:
        return None
    return True


#: the sources whose declared default is what the loader sets (coerced); computed and external
#: load None whatever their default says
_DEFAULT_LOADS = frozenset({"state", "config", "data_reference", "file"})


def persisted_default_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """A persisted variable whose default is not of its declared type: the runtime's
    persistence guard refuses the value, and the run fails when it is first persisted."""
    out: list[Diagnostic] = []
    runtime = wf.runtime
    if wf.doc is None or not runtime.contract.persist_type_guard:
        return out

    def each(spec: VariableSpec) -> list[Diagnostic]:
        return spec.remembered(
            "persisted default", runtime, partial(_default_misfit, wf, spec), "problems"
        )

    return list(chain.from_iterable(wf.per_item("persisted default", wf.variables, runtime, each)))


def _default_misfit(wf: WorkflowSnapshot, spec: VariableSpec) -> list[Diagnostic]:
    """``persisted_default_problems`` of one declaration."""
    d = spec.definition
    default = getattr(d.source, "default", None) if d is not None else None
    if d is None or default is None or not _persisted(spec.name, d):
        return []
    if d.source.type not in _DEFAULT_LOADS or wf.doc is None:
        return []
    # the loader coerces the default first (mozaiks 0.2.0,
    # mozaiksai/core/workflow/context/variables.py _coerce_value): "3" is 3 for an integer
    loaded, _ = coerce(default, d.canonical_type)
    misfit = runtime_type_misfit(loaded, d.type)
    if misfit is None:
        return []
    misfit = misfit.replace("the registry gives", "the default is")
    path = (*_base(wf, spec.name), "source", "default")
    return [
        wf.doc.diag(
            path,
            f"{misfit}: the variable is persisted, and the runtime's persistence guard "
            "refuses a value of the wrong type (context_authority.invalid_value), so the "
            f"run fails when it is first persisted unless a writer replaces it first "
            f"[runtime {wf.runtime.name}]",
            key=True,
            severity="warning",
        )
    ]


def discovery_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """A folder flowctx reads that the runtime's workflow discovery passes over."""

    def passed_over(name: str, folder: Path) -> bool:
        if snap.undiscovered is not None and wf.runtime == snap.runtime and name in snap.names:
            return name in snap.undiscovered  # as read with the snapshot
        return undiscovered(folder, wf.runtime)

    if wf.folder == wf.root or not passed_over(wf.name, wf.folder):
        return []
    # a workspace of bare contracts (no workflow has a marker) is read for its contracts
    # alone: said once per workflow, as a warning (bare_workspace_problems); this one is for
    # the odd one out beside real workflows
    siblings = [n for n in snap.names if n != wf.name]
    if not any(not passed_over(n, snap.root / WORKFLOWS_DIR / n) for n in siblings):
        return []
    markers = " or ".join(wf.runtime.discovery or ())
    return [
        Diagnostic(
            wf.contract_file,
            0,
            0,
            f"the runtime does not discover '{wf.name}' as a workflow: its folder has no "
            f"{markers} [runtime {wf.runtime.name}]",
            severity="warning",
        )
    ]


def bare_workspace_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """A workflow folder without the file the runtime discovers workflows by, in a workspace
    where no folder has it: flowctx reads the contract alone, the runtime loads nothing.
    (Beside discovered workflows, ``discovery_problems`` says it and the verdict refuses it.)"""

    def passed_over(name: str, folder: Path) -> bool:
        if snap.undiscovered is not None and wf.runtime == snap.runtime and name in snap.names:
            return name in snap.undiscovered
        return undiscovered(folder, wf.runtime)

    markers = wf.runtime.discovery or ()
    # a contract that does not load has its own error, which says more
    if not markers or wf.doc is None or wf.folder == wf.root:
        return []
    if not passed_over(wf.name, wf.folder):
        return []
    if any(not passed_over(n, snap.root / WORKFLOWS_DIR / n) for n in snap.names):
        return []  # discovery_problems' case
    wanted = " or ".join(markers)
    return [
        Diagnostic(
            wf.contract_file,
            1,
            1,
            f"the runtime will not discover '{wf.name}': its folder has no {wanted}, so the "
            f"runtime loads no workflow from it (flowctx reads its contract alone; "
            f"`flowctx init` shows a workflow folder the runtime loads) [runtime "
            f"{wf.runtime.name}]",
            severity="warning",
        )
    ]


#: every ``type`` spelling mozaiks 0.2.0 gives a meaning to (variables.py ``_coerce_value``:
#: boolean/bool, integer/int; authority.py ``_is_valid_context_value``: the rest)
RUNTIME_TYPE_NAMES = frozenset(
    {
        "string", "str", "boolean", "bool", "integer", "int", "number", "float",
        "object", "dict", "map", "array", "list", "any",
    }
)  # fmt: skip
_TYPE_SUGGESTIONS = ("string", "boolean", "integer", "number", "object", "array", "any")


def unknown_type_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """A ``type`` the runtime gives no meaning to (``intger``). mozaiks 0.2.0 accepts any text
    there (schema.py ``ContextVariableDefinition.type: str | None``), so the typo loads; then
    nothing coerces the value (a config '30' stays the string '30', 'false' stays a truthy
    string) and the persistence guard admits any value for it."""
    out: list[Diagnostic] = []
    if wf.doc is None:
        return out

    def each(spec: VariableSpec) -> list[Diagnostic]:
        return spec.remembered(
            "unknown type", wf.runtime, partial(_unknown_type, wf, spec), "problems"
        )

    return list(chain.from_iterable(wf.per_item("unknown type", wf.variables, wf.runtime, each)))


def _unknown_type(wf: WorkflowSnapshot, spec: VariableSpec) -> list[Diagnostic]:
    """``unknown_type_problems`` of one declaration."""
    d = spec.definition
    if d is None or wf.doc is None or "type" not in _written_keys(wf, spec.name):
        return []
    written = d.type.strip().lower()
    if written in RUNTIME_TYPE_NAMES:
        return []
    found = suggest(written, _TYPE_SUGGESTIONS)
    if not found.fix:
        found = suggest(written, sorted(RUNTIME_TYPE_NAMES))
    hint = found.text
    # the type as written (any case, padded) is what an editor replaces
    fix = Fix(d.type.strip(), found.fix.new) if found.fix else None
    if wf.runtime.contract.persist_type_guard:
        what = (
            "the runtime accepts any type name and gives this one no meaning: it coerces "
            "nothing (a config '30' stays the string '30', 'false' a truthy string) and "
            "its persistence guard admits any value"
        )
    else:
        what = "flowctx reads it as 'any': values are neither coerced nor checked"
    return [
        wf.doc.diag(
            (*_base(wf, spec.name), "type"),
            f"unknown type {d.type!r}{hint}: {what} [runtime {wf.runtime.name}]",
            key=False,
            severity="warning",
            fix=fix,
        )
    ]


def _written_keys(wf: WorkflowSnapshot, name: str) -> frozenset[str]:
    """The keys the definition of ``name`` spells out (``type`` defaults to 'any' unwritten)."""
    node: object = wf.doc.data if wf.doc is not None else None
    for part in _base(wf, name):
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return frozenset()
    return frozenset(node) if isinstance(node, dict) else frozenset()


def _base(wf: WorkflowSnapshot, name: str) -> PathKey:
    """The YAML path of a definition, whichever shape the contract used."""
    doc = wf.doc
    data = doc.data if doc is not None else None
    prefix: PathKey = ()
    if isinstance(data, dict) and "definitions" not in data and "context_variables" in data:
        prefix = ("context_variables",)
        data = data["context_variables"]
    defs = data.get("definitions") if isinstance(data, dict) else None
    if isinstance(defs, list):
        for i, entry in enumerate(defs):
            if isinstance(entry, dict) and name in (entry.get("name"), entry.get("key")):
                return (*prefix, "definitions", i)
    return (*prefix, "definitions", name)
