"""Build-context projection: what the applicable registries put into a workflow's
``build_context`` variables at launch, with the trace of every lookup (REFERENCE.md 5).

Pure over registries already read (``discovery``); ``resolve`` here is the ``build_context``
source's resolver: ``None`` at load, filled by the projection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.buildctx.registry import CAPABILITY_PACKS, Registry, VarProjection
from core.buildctx.setting import BuildContextSetting
from core.diagnostics import Diagnostic, did_you_mean
from core.results import TraceStep
from core.sources.base import Resolved, SourceContext
from core.workspace import WorkflowSnapshot
from core.yamlmarks import PathKey

_MISSING: Any = object()


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
    values = registry.model.values
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
        if not reg.valid:
            diags.extend(d for d in reg.diagnostics)
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
    return _undeclared(reg, workflow, _build_context_names(workflow))


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
