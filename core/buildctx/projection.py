"""Build-context projection: what the applicable registries put into a workflow's
``build_context`` variables at launch, with the trace of every lookup (REFERENCE.md 5).

Pure over registries already read (``discovery``); ``resolve`` here is the ``build_context``
source's resolver: ``None`` at load, filled by the projection.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.buildctx.injection import InjectionSource
from flowctx_core.buildctx.registry import CAPABILITY_PACKS, Registry, VarProjection
from flowctx_core.buildctx.setting import BuildContextSetting
from flowctx_core.model.matrix import Refusal, TraceStep
from flowctx_core.model.workspace import WorkflowSnapshot
from flowctx_core.sources.base import Resolved, SourceContext

_MISSING: Any = object()
#: where a malformed projection's warning starts saying what the runtime does with it
_NOTE_CUT = "; the provider reads nothing from it"


def dig(value: Any, dotted: str) -> Any:
    """Walk ``a.b.0.c`` through mappings and lists; ``_MISSING`` when a step is absent."""
    for part in dotted.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
    return value


def is_missing(value: Any) -> bool:
    return value is _MISSING


def pack_descriptor(registry: Registry) -> dict[str, Any] | None:
    """``{id, version, status, context_id}`` of the registry's pack, if it declares one."""
    if registry.model is None or registry.model.pack is None:
        return None
    pack = registry.model.pack
    return {
        "id": pack.id,
        "version": pack.version,
        "status": pack.status,
        "context_id": registry.model.context_id,
    }


@dataclass(frozen=True)
class Projected:
    """A value projected into one variable, with where it came from."""

    value: Any
    origin: str
    trace: tuple[TraceStep, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class BuildContextProjection:
    """Everything build context did for one workflow at launch."""

    setting: BuildContextSetting
    registries: tuple[Registry, ...] = ()
    #: the registries that apply to the workflow and were admitted (valid, no undeclared keys)
    admitted: tuple[Registry, ...] = ()
    values: Mapping[str, Projected] = field(default_factory=dict)
    #: variables that failed (conflicting projections, a refused registry naming them)
    errors: Mapping[str, Projected] = field(default_factory=dict)
    #: why a declared variable got nothing
    reasons: Mapping[str, Projected] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: tuple[str, ...] = ()
    #: the runtime's provider raises (BuildContextError): the launch fails as a whole
    refused: Refusal | None = None
    #: projections into declared variables that are not build_context: the runtime merges
    #: them into the launch context (explicit launch values still win)
    launch_values: Mapping[str, Projected] = field(default_factory=dict)
    #: what the runtime's prompt injection reads for this workflow (from the snapshot)
    injection: InjectionSource | None = None

    def explain(self, name: str) -> Projected:
        for table in (self.errors, self.values, self.reasons):
            if name in table:
                return table[name]
        why = self._why_nothing()
        return Projected(
            None, f"build_context: {why}", (TraceStep("build context", "skipped", why),)
        )

    def _why_nothing(self) -> str:
        if not self.setting.enabled:
            return "provider off"
        if self.setting.root is None:
            return "no registry root"
        if not self.admitted:
            return "no applicable registry"
        return "no projection for this variable"


def _build_context_names(workflow: WorkflowSnapshot) -> dict[str, str | None]:
    """Declared variable -> its source type (raw, so a broken definition still counts)."""
    out: dict[str, str | None] = {}
    for spec in workflow.variables:
        if spec.definition is not None:
            out[spec.name] = spec.definition.source.type
        else:
            src = spec.raw.get("source") if isinstance(spec.raw, dict) else None
            out[spec.name] = src.get("type") if isinstance(src, dict) else None
    return out


def _type_warning(value: Any, declared: str) -> str | None:
    expected: dict[str, tuple[type, ...]] = {
        "array": (list, tuple),
        "object": (dict,),
        "string": (str,),
        "boolean": (bool,),
        "integer": (int,),
        "number": (int, float),
    }
    kinds = expected.get(declared)
    if value is None or kinds is None:
        return None
    if isinstance(value, bool) and declared in ("integer", "number"):
        return f"projected a boolean, declared {declared}"
    if not isinstance(value, kinds):
        return f"projected a {type(value).__name__}, declared {declared}"
    return None


#: the declared ``type`` spellings the runtime checks a protected value against, and what
#: each admits (authority.py ``_is_valid_context_value``); any other spelling admits anything
_RUNTIME_TYPES: dict[str, tuple[str, tuple[type, ...]]] = {
    "string": ("a string", (str,)),
    "str": ("a string", (str,)),
    "boolean": ("a boolean", (bool,)),
    "bool": ("a boolean", (bool,)),
    "integer": ("an integer", (int,)),
    "int": ("an integer", (int,)),
    "number": ("a number", (int, float)),
    "float": ("a number", (int, float)),
    "object": ("a mapping", (Mapping,)),
    "dict": ("a mapping", (Mapping,)),
    "map": ("a mapping", (Mapping,)),
    "array": ("a list", (list,)),
    "list": ("a list", (list,)),
}


def runtime_type_misfit(value: Any, declared: str | None) -> str | None:
    """Why the runtime's type check refuses ``value`` for a variable declared ``declared``.

    The runtime reads the definition's ``type`` lowercased and knows only its own spellings
    (an unknown one, ``any`` or none admit every value); a boolean is never an integer or a
    number for it, and a tuple is not a list.
    """
    key = (declared or "").strip().lower()
    if value is None or key not in _RUNTIME_TYPES:
        return None
    wanted, kinds = _RUNTIME_TYPES[key]
    is_bool = isinstance(value, bool)
    if isinstance(value, kinds) and not (is_bool and bool not in kinds):
        return None
    got = "a boolean" if is_bool else f"a {_yaml_kind(value)}"
    return (
        f"the registry gives {got}, the contract declares type {declared!r}, which needs {wanted}"
    )


def _yaml_kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return type(value).__name__


def _project_one(
    registry: Registry,
    name: str,
    spec: str | VarProjection,
    derived: Mapping[str, Any],
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None,
) -> tuple[Any, str, list[TraceStep]]:
    """The value one registry projects into ``name`` (``_MISSING`` if none), the key used, trace."""
    assert registry.model is not None
    key_path: PathKey = ("projections", "context_variables", name)
    where = registry.loc(key_path)
    values = registry.model.value_map
    trace: list[TraceStep] = []
    if isinstance(spec, str):
        found = dig(values, spec)
        if found is _MISSING:
            trace.append(TraceStep("build context", "missing", f"{where} values.{spec}: not found"))
        else:
            trace.append(TraceStep("build context", "used", f"{where} values.{spec}"))
        return found, f"values.{spec}", trace

    # (label shown in the origin, where it looked, value or _MISSING), in preference order
    attempts: list[tuple[str, str, Any]] = []
    fields = spec.model_fields_set
    if "value" in fields:
        attempts.append(("value", "", spec.value))
    if "from_" in fields and spec.from_ is not None:
        derived_key = spec.from_.split(".", 1)[0] in derived
        source = derived if derived_key else values
        where_from = "registry data" if derived_key else "values"
        attempts.append((f"from: {spec.from_}", f" in {where_from}", dig(source, spec.from_)))
    if "from_context" in fields and spec.from_context is not None:
        found = dig(launch, spec.from_context)
        attempts.append((f"from_context: {spec.from_context}", " in the launch context", found))
    if "from_trigger" in fields and spec.from_trigger is not None:
        if trigger is None:
            attempts.append(
                (f"from_trigger: {spec.from_trigger}", ": no trigger payload", _MISSING)
            )
        else:
            found = dig(trigger, spec.from_trigger)
            attempts.append(
                (f"from_trigger: {spec.from_trigger}", " in the trigger payload", found)
            )
    if "default" in fields:
        attempts.append(("default", "", spec.default))
    chosen: Any = _MISSING
    used = ""
    for label, looked, value in attempts:
        if chosen is not _MISSING:
            trace.append(TraceStep("build context", "shadowed", f"{where} {label}{looked}"))
        elif value is _MISSING:
            missing = looked if looked.startswith(":") else f"{looked}: not found"
            trace.append(TraceStep("build context", "missing", f"{where} {label}{missing}"))
        else:
            chosen, used = value, label
            trace.append(TraceStep("build context", "used", f"{where} {label}{looked}"))
    return chosen, used, trace


def project_build_context(
    workflow: WorkflowSnapshot,
    setting: BuildContextSetting,
    found: Sequence[Registry] | None,
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None = None,
    injection: InjectionSource | None = None,
) -> BuildContextProjection:
    """Project every applicable registry into ``workflow``'s build_context variables.

    ``found`` holds the registries discovered under ``setting.root`` (None: the root is not a
    folder); ``launch`` is the admitted launch context (for ``from_context``); ``trigger`` the
    launch trigger payload (for ``from_trigger``); ``injection`` what the prompt injection
    reads, carried along for ``flowctx_core.runtime.exposure``. Launch values winning over
    projections is the
    caller's (``resolve``) job.
    """
    result = _project(workflow, setting, found, launch, trigger)
    return dataclasses.replace(result, injection=injection) if injection else result


def _project(
    workflow: WorkflowSnapshot,
    setting: BuildContextSetting,
    found: Sequence[Registry] | None,
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None = None,
) -> BuildContextProjection:
    """Project every applicable registry into ``workflow``'s build_context variables.

    ``found`` holds the registries discovered under ``setting.root`` (None: the root is not a
    folder); ``launch`` is the admitted launch context (for ``from_context``); ``trigger`` the
    launch trigger payload (for ``from_trigger``). Launch values winning over projections is the
    caller's (``resolve``) job.
    """
    declared = _build_context_names(workflow)
    wanted = [n for n, t in declared.items() if t == "build_context"]
    notes: list[str] = []
    if setting.enabled or wanted:
        notes.append(setting.describe())
    if not setting.enabled or setting.root is None:
        return BuildContextProjection(setting, notes=tuple(notes))
    if workflow.runtime.sources.build_context_trusted:
        return _runtime_projection(workflow, setting, found, launch, trigger, notes)
    if found is None:
        notes.append(f"registry root {setting.root} does not exist: nothing projected")
        return BuildContextProjection(setting, notes=tuple(notes))

    registries = tuple(found)
    diags: list[Diagnostic] = []
    errors: dict[str, Projected] = {}
    admitted: list[Registry] = []
    for reg in registries:
        if not reg.applies_to(workflow.name):
            continue
        # documented: a malformed projection fails the registry's validation
        if not reg.valid or reg.malformed:
            diags.extend(
                dataclasses.replace(d, severity="error", message=d.message.split(_NOTE_CUT)[0])
                if reg.malformed and d.severity == "warning" and _NOTE_CUT in d.message
                else d
                for d in reg.diagnostics
            )
            diags.append(
                Diagnostic(reg.display, 1, 1, "invalid registry: nothing admitted from it")
            )
            named = reg.doc.data if reg.doc is not None else None
            projections = named.get("projections") if isinstance(named, dict) else None
            cv = projections.get("context_variables") if isinstance(projections, dict) else None
            for name in cv if isinstance(cv, dict) else ():
                if name in wanted:
                    why = f"registry {reg.display} is invalid: nothing admitted from it"
                    errors[str(name)] = Projected(
                        None, why, (TraceStep("build context", "error", why),)
                    )
            continue
        refused = _undeclared(reg, workflow, declared)
        if refused:
            diags.extend(refused)
            for name in reg.variables:
                if name in wanted and name not in errors:
                    why = (
                        f"registry {reg.display} projects undeclared variable(s): "
                        "nothing admitted from it"
                    )
                    errors[name] = Projected(None, why, (TraceStep("build context", "error", why),))
            continue
        admitted.append(reg)
    applicable = [r for r in registries if r.applies_to(workflow.name)]
    rejected = [r for r in applicable if r not in admitted]
    if rejected:
        # say which registries apply and why they were turned away, not "none applies"
        why = "; ".join(f"{r.display}: {_first_problem(r)}" for r in rejected)
        notes.append(
            f"{len(applicable)} registr{'y' if len(applicable) == 1 else 'ies'} under "
            f"{setting.root} appl{'ies' if len(applicable) == 1 else 'y'} to {workflow.name}, "
            f"{len(admitted)} admitted, {len(rejected)} rejected ({why})"
        )
    elif not admitted:
        others = [r.display for r in registries if not r.applies_to(workflow.name)]
        note = f"no registry under {setting.root} applies to {workflow.name}"
        if others:
            note += f" (found {', '.join(others)})"
        notes.append(note)

    packs: list[dict[str, Any]] = []
    left_out: list[str] = []
    for reg in admitted:
        desc = pack_descriptor(reg)
        if desc is None:
            continue
        if desc["status"] == "active":
            packs.append(desc)
        else:
            left_out.append(f"{desc['id']} ({desc['status']}, {reg.display})")

    values: dict[str, Projected] = {}
    reasons: dict[str, Projected] = {}
    spec_of = {s.name: s for s in workflow.variables}
    trusted_rules = workflow.runtime.sources.build_context_trusted
    for name in wanted:
        if name in errors:
            continue
        hits: list[tuple[Registry, Any, str, list[TraceStep]]] = []
        misses: list[TraceStep] = []
        for reg in admitted:
            entry = reg.variables.get(name)
            if entry is None:
                continue
            assert reg.model is not None
            derived = {
                CAPABILITY_PACKS: packs,
                "pack": pack_descriptor(reg),
                "context_id": reg.model.context_id,
                "capabilities": reg.model.capabilities,
                "facades": reg.model.facades,
            }
            refusal = _untrusted_rule(reg, name, entry) if trusted_rules else None
            if refusal is not None:
                errors[name] = Projected(
                    None, refusal, (TraceStep("build context", "error", refusal),)
                )
                break
            value, used, trace = _project_one(reg, name, entry, derived, launch, trigger)
            if trusted_rules and (value is _MISSING or value is None):
                why = (
                    f"{reg.loc(('projections', 'context_variables', name))}: no value for "
                    f"'{name}': the runtime fails the launch (invalid trusted build-context value)"
                )
                errors[name] = Projected(
                    None, why, (*trace, TraceStep("build context", "error", why))
                )
                break
            if value is _MISSING:
                misses.extend(trace)
            else:
                hits.append((reg, value, used, trace))
        if name in errors:
            continue
        if not hits:
            if misses:
                why = "projection found no value"
                warn = f"build context: {why} (" + "; ".join(m.detail for m in misses) + ")"
                reasons[name] = Projected(None, f"build_context: {why}", tuple(misses), (warn,))
            else:
                why = "no projection for this variable" if admitted else "no applicable registry"
                step = TraceStep("build context", "skipped", why)
                reasons[name] = Projected(None, f"build_context: {why}", (step,))
            continue
        reg, value, used, trace = hits[0]
        trace = [*misses, *trace]
        trusted = workflow.runtime.sources.build_context_trusted
        for other, other_value, _u, other_trace in hits[1:]:
            if trusted and isinstance(value, list) and isinstance(other_value, list):
                # _merge_trusted_projection: lists projected by several registries are unioned
                value = [*value, *(item for item in other_value if item not in value)]
                trace.extend(other_trace)
                trace.append(
                    TraceStep("build context", "used", f"merged with {other.display} (union)")
                )
                continue
            if other_value != value:
                why = (
                    f"projected differently by {reg.display} and {other.display}: "
                    "conflicting registries, nothing admitted for it"
                )
                errors[name] = Projected(
                    None, why, (*trace, *other_trace, TraceStep("build context", "error", why))
                )
                break
            trace.extend(
                TraceStep(s.step, "shadowed", s.detail + " (same value)")
                if s.outcome == "used"
                else s
                for s in other_trace
            )
        if name in errors:
            continue
        if name == CAPABILITY_PACKS and isinstance(value, list):
            value, dropped = _active_only(value)
            for d in dropped:
                trace.append(TraceStep("pack", "skipped", f"pack {d} is not active: left out"))
        if name == CAPABILITY_PACKS and used.startswith(f"from: {CAPABILITY_PACKS}"):
            for item in left_out:
                trace.append(TraceStep("pack", "skipped", f"pack {item} left out: not active"))
        spec = spec_of.get(name)
        declared_type = spec.definition.canonical_type if spec and spec.definition else "any"
        warning = _type_warning(value, declared_type)
        origin = f"{reg.display} projections.context_variables.{name}"
        if used:
            origin += f" ({used})"
        values[name] = Projected(value, origin, tuple(trace), (warning,) if warning else ())

    return BuildContextProjection(
        setting,
        registries,
        tuple(admitted),
        values,
        errors,
        reasons,
        tuple(diags),
        tuple(notes),
    )


def _untrusted_rule(reg: Registry, name: str, entry: str | VarProjection) -> str | None:
    """Why the runtime's trusted projection refuses this rule for a build_context variable
    (it takes a dotted path, or a mapping with exactly one of ``from`` and ``value``)."""
    if isinstance(entry, str):
        used = {"from"}
        static = True
    else:
        used = {"from" if k == "from_" else k for k in entry.model_fields_set}
        static = len(used) == 1 and used <= {"from", "value"}
    where = reg.loc(("projections", "context_variables", name))
    if not static:
        keys = ", ".join(sorted(used))
        return (
            f"{where}: '{name}' is projected with {keys}: the runtime requires a static registry "
            "source (a dotted path, or exactly one of from/value) and fails the launch"
        )
    if name == CAPABILITY_PACKS:
        source = entry if isinstance(entry, str) else entry.from_
        if source != CAPABILITY_PACKS:
            return (
                f"{where}: capability_packs must project the registered pack declarations "
                "({from: capability_packs}); the runtime fails the launch"
            )
    return None


def _first_problem(reg: Registry) -> str:
    errors = [d for d in reg.diagnostics if d.severity == "error"]
    if errors:
        first = errors[0]
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"{first.line}:{first.column} {first.message}{more}"
    return "it projects variables the workflow does not declare as build_context"


def _active_only(items: list[Any]) -> tuple[list[Any], list[str]]:
    kept: list[Any] = []
    dropped: list[str] = []
    for item in items:
        status = item.get("status") if isinstance(item, Mapping) else None
        if status is not None and status != "active":
            dropped.append(f"{item.get('id', '?')} ({status})")
        else:
            kept.append(item)
    return kept, dropped


def _undeclared(
    reg: Registry, workflow: WorkflowSnapshot, declared: Mapping[str, str | None]
) -> list[Diagnostic]:
    """Errors for projections of variables the workflow does not declare as build_context."""
    out: list[Diagnostic] = []
    assert reg.doc is not None
    for name in reg.variables:
        path: PathKey = ("projections", "context_variables", name)
        if name not in declared:
            hint = did_you_mean(name, [n for n, t in declared.items() if t == "build_context"])
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} does not declare{hint}; "
                    "nothing is admitted from this registry",
                )
            )
        elif declared[name] != "build_context":
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} declares with source "
                    f"type {declared[name]}, not build_context; nothing is admitted from this "
                    "registry",
                )
            )
    return out


def undeclared_projections(reg: Registry, workflow: WorkflowSnapshot) -> list[Diagnostic]:
    """For ``flowctx check``: a valid registry's projections against one workflow."""
    if not reg.valid:
        return []
    declared = _build_context_names(workflow)
    if not workflow.runtime.sources.build_context_trusted:
        return _undeclared(reg, workflow, declared)
    return _runtime_undeclared(reg, workflow, declared)


def _runtime_undeclared(
    reg: Registry, workflow: WorkflowSnapshot, declared: Mapping[str, str | None]
) -> list[Diagnostic]:
    """What merge_build_context does with projections the workflow does not declare as
    build_context: with a protected (build_context) variable declared, the trusted load
    raises on an undeclared key and every launch fails; without one the key is merged and
    the launcher drops it. A declared variable of another type becomes a launch value."""
    assert reg.doc is not None
    protected = any(t == "build_context" for t in declared.values())
    out: list[Diagnostic] = []
    for key in _raw_rules(reg):
        name = str(key)
        path: PathKey = ("projections", "context_variables", key)
        kind = declared.get(name, "undeclared") if name in declared else None
        if name not in declared and protected:
            hint = did_you_mean(name, [n for n, t in declared.items() if t == "build_context"])
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} does not declare{hint}: "
                    "the runtime's provider raises BuildContextError (undeclared build-context "
                    "projection) and every launch fails",
                )
            )
        elif name not in declared:
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} does not declare: the "
                    "launcher drops it",
                    severity="warning",
                )
            )
        elif kind != "build_context":
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} declares with source "
                    f"type {kind}: the runtime merges it into the launch values, so it replaces "
                    "what that source loads",
                    severity="warning",
                )
            )
    return out


def apply_projection(projection: BuildContextProjection, name: str, resolved: Resolved) -> Resolved:
    """A build_context row's load result after projection (launch values are applied later)."""
    result = projection.explain(name)
    warnings = [*resolved.warnings, *result.warnings]
    if name in projection.errors:
        trace = [*resolved.trace, *result.trace]
        return Resolved(None, "error", result.origin, trace, warnings, error=result.origin)
    if name in projection.values:
        trace = [
            TraceStep(s.step, "shadowed", s.detail) if s.outcome == "skipped" else s
            for s in resolved.trace
        ]
        trace.extend(result.trace)
        return Resolved(result.value, "resolved", result.origin, trace, warnings)
    trace = [*resolved.trace, *result.trace]
    return Resolved(resolved.value, resolved.status, result.origin, trace, warnings)


def resolve(ctx: SourceContext) -> Resolved:
    """The ``build_context`` source: ``None`` at load, then what the projection gave."""
    trace = [
        TraceStep(
            "load",
            "skipped",
            "None at load: filled at launch by a build-context registry when the provider is on",
        )
    ]
    pending = Resolved(None, "pending", "build_context (pending)", trace)
    if ctx.projection is None:
        return pending
    return apply_projection(ctx.projection, ctx.name, pending)


# --- the newest runtime: merge_build_context with load_trusted_build_context ---------------

#: build_provider_values: root keys that are not offered to projection rules
_STRUCTURAL = frozenset(
    {"context_id", "description", "applies_to_workflows", "assets", "projections", "values"}
)
#: normalize_pack_descriptor: root keys a pack descriptor takes when its pack lacks them
_DESCRIPTOR_KEYS = (
    "branding",
    "capabilities",
    "facades",
    "required_integrations",
    "supported_domains",
    "surfaces",
)


def runtime_pack_descriptor(registry: Registry) -> dict[str, Any] | None:
    """The descriptor ``normalize_pack_descriptor`` builds from a registry's ``pack``."""
    data = registry.doc.data if registry.doc is not None else None
    if not isinstance(data, Mapping) or "pack" not in data:
        return None
    pack = data.get("pack")
    desc: dict[str, Any] = dict(pack) if isinstance(pack, Mapping) else {}
    for key in _DESCRIPTOR_KEYS:
        if key in data:
            desc.setdefault(key, data[key])
    pack_id = str(desc.get("id") or desc.get("pack_id") or registry.path.parent.name).strip()
    desc["id"] = pack_id
    desc.setdefault("pack_id", pack_id)
    desc.setdefault("status", "active")
    desc.setdefault("capability_source", "operator_pack")
    # the runtime writes the registry folder's absolute path; shown relative to the workspace
    desc.setdefault("pack_source_path", str(Path(registry.display).parent))
    return desc


def provider_values(registry: Registry) -> dict[str, Any]:
    """``build_provider_values``: what a registry's projection rules read."""
    data = registry.doc.data if registry.doc is not None else None
    if not isinstance(data, Mapping):
        return {}
    out: dict[str, Any] = {str(k): v for k, v in data.items() if k not in _STRUCTURAL}
    nested = data.get("values")
    if isinstance(nested, Mapping):
        out.update({str(k): v for k, v in nested.items()})
    desc = runtime_pack_descriptor(registry)
    active = desc is not None and str(desc.get("status") or "active").strip() == "active"
    out[CAPABILITY_PACKS] = [desc] if active else []
    for kind, key in (("contract", "operator_contracts"), ("catalog", "operator_catalogs")):
        loaded: list[Any] = []
        assets = registry.model.assets if registry.model is not None else []
        for asset, read in zip(assets, registry.assets, strict=False):
            if asset.kind == kind and read.catalog is not None and read.catalog.problem is None:
                item = dict(read.catalog.data)
                item.setdefault("contract_id", Path(asset.path).stem)
                item.setdefault("source_path", str(Path(registry.display).parent / asset.path))
                loaded.append(item)
        out[key] = loaded
    return out


def _read_dotted(source: Any, path: str) -> Any:
    """The runtime's ``_read_dotted``: mappings only, None when a step is absent."""
    current = source
    for part in path.split("."):
        key = part.strip()
        if not key or not isinstance(current, Mapping) or key not in current:
            return None
        current = current[key]
    return current


def _runtime_rule(
    rule: Any, values: Mapping[str, Any], context: Mapping[str, Any], trigger: Mapping[str, Any]
) -> tuple[bool, Any, str]:
    """``_project_rule``: (found, value, which key gave it)."""
    if isinstance(rule, str):
        value = _read_dotted(values, rule)
        return value is not None, value, rule
    if not isinstance(rule, Mapping):
        return False, None, ""
    if "value" in rule:
        return True, rule["value"], "value"
    for key, source in (("from", values), ("from_context", context), ("from_trigger", trigger)):
        if key in rule:
            value = _read_dotted(source, str(rule[key]))
            if value is not None:
                return True, value, f"{key}: {rule[key]}"
    if "default" in rule:
        return True, rule["default"], "default"
    return False, None, ""


def _raw_rules(registry: Registry) -> Mapping[str, Any]:
    data = registry.doc.data if registry.doc is not None else None
    projections = data.get("projections") if isinstance(data, Mapping) else None
    rules = projections.get("context_variables") if isinstance(projections, Mapping) else None
    return rules if isinstance(rules, Mapping) else {}


class _LaunchFails(Exception):
    """A BuildContextError: the runtime's provider raises and the launch fails."""

    def __init__(self, reason: str, registry: Registry | None, path: PathKey = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.registry = registry
        self.path = path

    def refusal(self) -> Refusal:
        reg = self.registry
        if reg is None:
            return Refusal(self.reason, "", 0, 0, "launch_fails")
        first = _first_error(reg)
        if not self.path and first is not None:
            # an invalid registry: where its first validation error is
            return Refusal(self.reason, reg.display, first.line, first.column, "launch_fails")
        if reg.doc is None:
            return Refusal(self.reason, reg.display, 0, 0, "launch_fails")
        line, col = reg.doc.where(self.path)
        return Refusal(self.reason, reg.display, line, col, "launch_fails")


def _fails(why: str) -> str:
    return f"{why}: the runtime's provider raises BuildContextError and the launch fails"


def _first_error(reg: Registry) -> Diagnostic | None:
    return next((d for d in reg.diagnostics if d.severity == "error"), None)


def _check_registry(reg: Registry) -> None:
    """load_build_context: the registry must pass the validator."""
    first = _first_error(reg)
    if first is not None or reg.model is None:
        where = f"{first.line}:{first.column} {first.message}" if first else "unreadable"
        raise _LaunchFails(_fails(f"registry {reg.display} is invalid ({where})"), reg)


def _check_assets(reg: Registry) -> None:
    """build_provider_values loads every catalog and contract asset of an applicable registry."""
    assert reg.model is not None
    for i, (asset, read) in enumerate(zip(reg.model.assets, reg.assets, strict=False)):
        if asset.kind not in ("catalog", "contract"):
            continue
        path: PathKey = ("assets", i, "path")
        if read.refusal is not None:
            raise _LaunchFails(_fails(f"asset {asset.path!r}: {read.refusal}"), reg, path)
        if not read.found:
            raise _LaunchFails(
                _fails(f"declared {asset.kind} asset {asset.path!r} not found"), reg, path
            )
        if read.catalog is not None and read.catalog.problem is not None:
            raise _LaunchFails(
                _fails(f"{asset.kind} asset {asset.path!r}: {read.catalog.problem.message}"),
                reg,
                path,
            )


def _trusted(
    reg: Registry, workflow: WorkflowSnapshot, declared: Mapping[str, str | None]
) -> dict[str, tuple[Any, str]]:
    """``_trusted_projection``: the protected values one applicable registry admits."""
    bc_keys = {n for n, t in declared.items() if t == "build_context"}
    selected: dict[str, Any] = {}
    for key, rule in _raw_rules(reg).items():
        name = str(key)
        path: PathKey = ("projections", "context_variables", key)
        if name not in declared:
            raise _LaunchFails(
                _fails(
                    f"undeclared build-context projection '{name}' for {workflow.name}"
                    + did_you_mean(name, sorted(bc_keys))
                ),
                reg,
                path,
            )
        if name not in bc_keys:
            continue
        if isinstance(rule, Mapping):
            if set(rule) - {"from", "value"} or len(rule) != 1:
                raise _LaunchFails(
                    _fails(
                        f"protected build-context projection '{name}' uses "
                        f"{', '.join(sorted(map(str, rule))) or 'nothing'}: the runtime requires "
                        "a static registry source (a dotted path, or exactly one of from/value)"
                    ),
                    reg,
                    path,
                )
        elif not isinstance(rule, str) or not rule.strip():
            raise _LaunchFails(_fails(f"malformed build-context projection '{name}'"), reg, path)
        if name == CAPABILITY_PACKS and rule not in (CAPABILITY_PACKS, {"from": CAPABILITY_PACKS}):
            raise _LaunchFails(
                _fails("capability_packs must project registered pack declarations"), reg, path
            )
        selected[name] = rule
    if not selected:
        return {}
    values = provider_values(reg)
    spec_of = {s.name: s for s in workflow.variables}
    out: dict[str, tuple[Any, str]] = {}
    for name, rule in selected.items():
        found, value, used = _runtime_rule(rule, values, {}, {})
        if not found or value is None:
            raise _LaunchFails(
                _fails(f"invalid trusted build-context value for '{name}' (nothing found)"),
                reg,
                ("projections", "context_variables", name),
            )
        spec = spec_of.get(name)
        declared_type = spec.definition.type if spec and spec.definition else None
        misfit = runtime_type_misfit(value, declared_type)
        if misfit is not None:
            raise _LaunchFails(
                _fails(f"invalid trusted build-context value for '{name}' ({misfit})"),
                reg,
                ("projections", "context_variables", name),
            )
        if name == CAPABILITY_PACKS:
            desc = runtime_pack_descriptor(reg)
            status = str(desc.get("status") or "active").strip() if desc else "active"
            if desc is not None and status != "active":
                used += f" (pack {desc['id']} ({status}) left out: not active)"
        out[name] = (value, used)
    return out


def _runtime_projection(
    workflow: WorkflowSnapshot,
    setting: BuildContextSetting,
    found: Sequence[Registry] | None,
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None,
    notes: list[str],
) -> BuildContextProjection:
    """What ``merge_build_context`` does for one launch of ``workflow``.

    Every registry under the root is validated before any is filtered by workflow
    (``discover_build_context_files`` loads each), so one invalid registry fails every launch;
    applicable registries then have their catalogs and contracts loaded, protected
    (``build_context``) variables take only static sources, lists from several registries
    are unioned and other differences fail; projections of other declared variables join the
    launch values (first registry wins, explicit launch values win over all).
    """
    declared = _build_context_names(workflow)
    wanted = [n for n, t in declared.items() if t == "build_context"]
    if found is None:
        if setting.root_configured:
            why = _fails(
                f"configured build context root {setting.root} is not an existing directory"
            )
            refusal = Refusal(why, str(setting.root), 0, 0, "launch_fails", workflow.name)
            return _refused(setting, (), notes, wanted, refusal)
        notes.append(f"registry root {setting.root} does not exist: nothing projected")
        return BuildContextProjection(setting, notes=tuple(notes))
    registries = tuple(found)
    applicable: list[Registry] = []
    trusted: dict[str, tuple[Any, str, Registry]] = {}
    trusted_steps: dict[str, list[TraceStep]] = {}
    as_launch: dict[str, Projected] = {}
    dropped: list[str] = []
    try:
        for reg in registries:
            _check_registry(reg)
        applicable = [r for r in registries if r.applies_to(workflow.name)]
        if wanted:
            for reg in applicable:
                for name, (value, used) in _trusted(reg, workflow, declared).items():
                    _merge_trusted(trusted, trusted_steps, name, value, used, reg)
            _unique_packs(trusted)
        context = dict(launch)
        for reg in applicable:
            _check_assets(reg)
            values = provider_values(reg)
            for key, rule in _raw_rules(reg).items():
                name = str(key).strip()
                if not name or name in wanted:
                    continue
                ok, value, used = _runtime_rule(rule, values, context, trigger or {})
                if not ok or name in context:
                    continue
                context[name] = value
                where = reg.loc(("projections", "context_variables", key))
                if name not in declared:
                    dropped.append(f"{name} ({where})")
                    continue
                step = TraceStep("build context", "used", f"{where} {used}".rstrip())
                origin = f"{reg.display} projections.context_variables.{name}"
                as_launch[name] = Projected(
                    value,
                    origin + (f" ({used})" if used else "") + " as a launch value",
                    (step,),
                )
    except _LaunchFails as exc:
        refusal = dataclasses.replace(exc.refusal(), workflow=workflow.name)
        failed = exc.registry
        if failed is not None and _first_error(failed) is not None:
            diags = [d for d in failed.diagnostics if d.severity == "error"]
        else:
            diags = [Diagnostic(refusal.file, refusal.line, refusal.column, refusal.reason)]
        return _refused(setting, registries, notes, wanted, refusal, applicable, diags)
    values_out: dict[str, Projected] = {}
    reasons: dict[str, Projected] = {}
    spec_of = {s.name: s for s in workflow.variables}
    for name in wanted:
        if name in trusted:
            value, used, reg = trusted[name]
            trace = trusted_steps[name]
            unions = sum(1 for t in trace if t.detail.endswith("(union)"))
            origin = f"{reg.display} projections.context_variables.{name} ({used})"
            if unions:
                origin += f", unioned with {unions} more registr{'y' if unions == 1 else 'ies'}"
            spec = spec_of.get(name)
            declared_type = spec.definition.canonical_type if spec and spec.definition else "any"
            warning = _type_warning(value, declared_type)
            values_out[name] = Projected(value, origin, tuple(trace), (warning,) if warning else ())
        else:
            why = "no projection for this variable" if applicable else "no applicable registry"
            reasons[name] = Projected(
                None, f"build_context: {why}", (TraceStep("build context", "skipped", why),)
            )
    if not applicable:
        note = f"no registry under {setting.root} applies to {workflow.name}"
        others = [r.display for r in registries]
        notes.append(note + (f" (found {', '.join(others)})" if others else ""))
    else:
        notes.append(
            f"{len(applicable)} registr{'y' if len(applicable) == 1 else 'ies'} under "
            f"{setting.root} appl{'ies' if len(applicable) == 1 else 'y'} to {workflow.name}: "
            + ", ".join(r.display for r in applicable)
        )
    if dropped:
        notes.append(
            "projected but not declared by the workflow, so the launcher drops them: "
            + ", ".join(dropped)
        )
    return BuildContextProjection(
        setting,
        registries,
        tuple(applicable),
        values_out,
        {},
        reasons,
        (),
        tuple(notes),
        launch_values=as_launch,
    )


def _merge_trusted(
    target: dict[str, tuple[Any, str, Registry]],
    steps: dict[str, list[TraceStep]],
    name: str,
    value: Any,
    used: str,
    reg: Registry,
) -> None:
    """``_merge_trusted_projection``: equal values stay, lists are unioned, else it fails."""
    where = reg.loc(("projections", "context_variables", name))
    if name not in target:
        target[name] = (value, used, reg)
        steps[name] = [TraceStep("build context", "used", f"{where} {used}")]
        return
    old, old_used, first = target[name]
    if old == value:
        steps[name].append(TraceStep("build context", "shadowed", f"{where} {used} (same value)"))
        return
    if isinstance(old, list) and isinstance(value, list):
        merged = [*old, *(item for item in value if item not in old)]
        target[name] = (merged, old_used, first)
        steps[name].append(TraceStep("build context", "used", f"{where} {used} (union)"))
        return
    raise _LaunchFails(
        _fails(
            f"conflicting trusted build-context projections for '{name}' "
            f"({first.display} and {reg.display})"
        ),
        reg,
        ("projections", "context_variables", name),
    )


def _unique_packs(trusted: Mapping[str, tuple[Any, str, Registry]]) -> None:
    packs = trusted.get(CAPABILITY_PACKS)
    if packs is None:
        return
    seen: set[str] = set()
    for item in packs[0] if isinstance(packs[0], list) else ():
        pid = str(item.get("id")) if isinstance(item, Mapping) else str(item)
        if pid in seen:
            raise _LaunchFails(_fails(f"conflicting registered capability pack '{pid}'"), packs[2])
        seen.add(pid)


def _refused(
    setting: BuildContextSetting,
    registries: tuple[Registry, ...],
    notes: list[str],
    wanted: Sequence[str],
    refusal: Refusal,
    applicable: Sequence[Registry] = (),
    diags: Sequence[Diagnostic] = (),
) -> BuildContextProjection:
    step = TraceStep("build context", "error", refusal.reason)
    errors = {n: Projected(None, refusal.reason, (step,)) for n in wanted}
    notes.append(f"the launch fails: {refusal.reason}")
    return BuildContextProjection(
        setting,
        registries,
        tuple(applicable),
        {},
        errors,
        {},
        tuple(diags),
        tuple(notes),
        refused=refusal,
    )
