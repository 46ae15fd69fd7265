"""Build-context projection: what the applicable registries put into a workflow's
``build_context`` variables at launch, with the trace of every lookup.

Pure over registries already read (``discovery``). The documented rules (the ``spec`` and the
older runtime's profiles) are here; the newest runtime's provider (mozaiks 0.2.0,
``merge_build_context`` with ``load_trusted_build_context``) is ``provider``; the values both
produce are ``projected``, and the ``build_context`` source's resolver (``None`` at load, filled
by the projection) is ``flowctx_core.sources.build_context``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.buildctx.injection import InjectionSource
from flowctx_core.buildctx.projected import (
    BuildContextProjection,
    Projected,
    build_context_names,
    type_warning,
)
from flowctx_core.buildctx.provider import raw_rules, runtime_projection
from flowctx_core.buildctx.registry import CAPABILITY_PACKS, Registry
from flowctx_core.buildctx.setting import BuildContextSetting
from flowctx_core.model.matrix import TraceStep
from flowctx_core.model.workspace import WorkflowSnapshot

if TYPE_CHECKING:
    from flowctx_core.buildctx.registry_model import VarProjection

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
    declared = build_context_names(workflow)
    wanted = [n for n, t in declared.items() if t == "build_context"]
    notes: list[str] = []
    if setting.enabled or wanted:
        notes.append(setting.describe())
    trusted = workflow.runtime.sources.build_context_trusted
    if trusted and not setting.enabled and setting.root is not None and wanted:
        # the provider is off, yet the run hydrates its context over the declared defaults and
        # re-admits the protected values from the registries under the root it is given
        # (mozaiks 0.2.0, execution/run_bootstrap.py merge_persisted_extra_context)
        notes.append(
            "the provider is off, but the run's context hydration re-admits the protected "
            f"build_context values from {setting.root}"
        )
        return runtime_projection(workflow, setting, found, {}, None, notes, hydration=True)
    if not setting.enabled or setting.root is None:
        return BuildContextProjection(setting, notes=tuple(notes))
    if trusted:
        return runtime_projection(workflow, setting, found, launch, trigger, notes)
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
        warning = type_warning(value, declared_type)
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
            hint, fix = suggest(name, [n for n, t in declared.items() if t == "build_context"])
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} does not declare{hint}; "
                    "nothing is admitted from this registry",
                    fix=fix,
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
    declared = build_context_names(workflow)
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
    for key in raw_rules(reg):
        name = str(key)
        path: PathKey = ("projections", "context_variables", key)
        kind = declared.get(name, "undeclared") if name in declared else None
        if name not in declared and protected:
            hint, fix = suggest(name, [n for n, t in declared.items() if t == "build_context"])
            out.append(
                reg.doc.diag(
                    path,
                    f"projects '{name}', which workflow {workflow.name} does not declare{hint}: "
                    "the runtime's provider raises BuildContextError (undeclared build-context "
                    "projection) and every launch fails",
                    fix=fix,
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
