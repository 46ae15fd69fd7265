"""The newest runtime's build-context provider: ``merge_build_context`` with
``load_trusted_build_context`` (mozaiks 0.2.0, ``mozaiksai/core/session/build_context.py``).

An invalid registry, a malformed projection or an asset that does not load fails the launch as a
whole (``BuildContextError``), so the projection is a ``launch_fails`` refusal rather than one
row in error; the rules read the registry's values, the launch context and the trigger.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.buildctx.projected import (
    BuildContextProjection,
    Projected,
    build_context_names,
    runtime_type_misfit,
    type_warning,
)
from flowctx_core.buildctx.registry import CAPABILITY_PACKS, Registry
from flowctx_core.buildctx.setting import BuildContextSetting
from flowctx_core.model.matrix import Refusal, TraceStep
from flowctx_core.model.workspace import WorkflowSnapshot

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


def raw_rules(registry: Registry) -> Mapping[str, Any]:
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


#: what follows a provider failure, and what follows the same failure when the run's context
#: hydration meets it without a provider
_AT_LAUNCH = "the runtime's provider raises BuildContextError and the launch fails"
_AT_HYDRATION = (
    "the runtime's context hydration raises BuildContextError (it re-admits protected "
    "build-context values with the provider off) and the context does not load"
)


def _fails(why: str) -> str:
    return f"{why}: {_AT_LAUNCH}"


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
    for key, rule in raw_rules(reg).items():
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
    # build_provider_values loads the registry's catalogs and contracts before a value is read
    _check_assets(reg)
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


def runtime_projection(
    workflow: WorkflowSnapshot,
    setting: BuildContextSetting,
    found: Sequence[Registry] | None,
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None,
    notes: list[str],
    *,
    hydration: bool = False,
) -> BuildContextProjection:
    """What ``merge_build_context`` does for one launch of ``workflow``; with ``hydration``
    (the provider off, a registry root named), what the run's context hydration does: it
    re-admits the protected values alone (``merge_persisted_extra_context`` ->
    ``revalidate_build_context`` -> ``load_trusted_build_context``), and what fails there
    fails the context load.

    Every registry under the root is validated before any is filtered by workflow
    (``discover_build_context_files`` loads each), so one invalid registry fails every launch;
    applicable registries then have their catalogs and contracts loaded, protected
    (``build_context``) variables take only static sources, lists from several registries
    are unioned and other differences fail; projections of other declared variables join the
    launch values (first registry wins, explicit launch values win over all).
    """
    declared = build_context_names(workflow)
    wanted = [n for n, t in declared.items() if t == "build_context"]
    if found is None:
        if setting.root_configured:
            why = _fails(
                f"configured build context root {setting.root} is not an existing directory"
            )
            refusal = Refusal(why, str(setting.root), 0, 0, "launch_fails", workflow.name)
            return _refused(setting, (), notes, wanted, _at_stage(refusal, hydration))
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
        for reg in () if hydration else applicable:
            _check_assets(reg)
            values = provider_values(reg)
            for key, rule in raw_rules(reg).items():
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
        if hydration:
            refusal = _at_stage(refusal, hydration)
            diags = [dataclasses.replace(d, message=_hydrated(d.message)) for d in diags]
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
            warning = type_warning(value, declared_type)
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


def _hydrated(text: str) -> str:
    return text.replace(_AT_LAUNCH, _AT_HYDRATION)


def _at_stage(refusal: Refusal, hydration: bool) -> Refusal:
    """A provider failure as the context hydration meets it: the context load fails."""
    if not hydration:
        return refusal
    reason = _hydrated(refusal.reason)
    return dataclasses.replace(refusal, reason=reason, outcome="refused", stage="context")


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
