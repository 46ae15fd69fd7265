"""Build context: registry discovery, validation and launch-time projection (REFERENCE.md 5).

A build-context registry is ``<root>/<context_name>/context.yaml``. When the launch provider is
on, every valid registry that names the workflow in ``applies_to_workflows`` projects values
into the workflow's declared ``build_context`` variables, and its catalog assets may add prompt
projections for named agents (rendered by ``core.exposure``).

Decisions where the spec is silent (also in the README):

- Switching on: the runtime's ``MOZAIKS_LAUNCH_CONTEXT_PROVIDER`` naming
  ``mozaiksai.core.session.build_context:merge_build_context``, or the tool's own
  ``FLOWCTX_BUILD_CONTEXT`` (set by the ``--build-context [PATH]`` option and the app's toggle):
  ``on``/``true``/``1`` turns it on, any other non-empty value is a registry root path.
  Registry root: the option's path, else ``MOZAIKS_BUILD_CONTEXT_PATH``, else
  ``MOZAIKS_APP_WORKSPACE_PATH/build_context``, else (option only) the workspace's own
  ``build_context/``; relative env paths resolve against the workspace root.
- A string projection is a dotted path into the registry's ``values``. A mapping tries ``value``,
  ``from``, ``from_context``, ``from_trigger``, ``default`` in that order; a key whose path finds
  nothing falls through to the next. ``from`` reads the registry's derived data first
  (``capability_packs``: the active pack descriptors of every applicable registry, ``pack``,
  ``context_id``, ``capabilities``, ``facades``) and otherwise ``values``. ``from_context`` reads
  the admitted launch values; ``from_trigger`` reads the launch trigger payload (``$trigger``).
- ``capability_packs`` never carries a pack whose status is not ``active``.
- Two registries projecting different values into one variable is an error (fail closed);
  equal values are fine.
- A registry with an empty or missing ``applies_to_workflows`` applies to no workflow.
- Catalog asset paths resolve against the registry's folder and must stay inside the registry
  root. A prompt projection's ``marker`` defaults to its ``id``; ``record_id_field`` to ``id``.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.diagnostics import Diagnostic, did_you_mean
from core.pathsafety import confine, present
from core.results import TraceStep
from core.secrets import mask_value
from core.sources.base import Resolved
from core.workspace import WorkflowSnapshot, display_path
from core.yamlmarks import PathKey, YamlDoc, load_yaml_file

PROVIDER_ENV = "MOZAIKS_LAUNCH_CONTEXT_PROVIDER"
PROVIDER = "mozaiksai.core.session.build_context:merge_build_context"
PATH_ENV = "MOZAIKS_BUILD_CONTEXT_PATH"
APP_WORKSPACE_ENV = "MOZAIKS_APP_WORKSPACE_PATH"
#: the tool's own switch, carried in the environment so the CLI, the app and flowctx.yaml share it
OPTION_ENV = "FLOWCTX_BUILD_CONTEXT"
REGISTRY_FILE = "context.yaml"
CAPABILITY_PACKS = "capability_packs"

_ON = {"1", "true", "yes", "on"}
_OFF = {"", "0", "false", "no", "off"}
PACK_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
_DOTTED = re.compile(r"^[^.\s]+(\.[^.\s]+)*$")
_MISSING: Any = object()


# ---------------------------------------------------------------------------------------------
# the registry contract


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_dotted(value: str | None, what: str) -> str | None:
    if value is not None and not _DOTTED.match(value):
        raise ValueError(f"{what} {value!r} is not a dotted path (like 'a.b.c')")
    return value


class PromptProjection(_Strict):
    id: str
    records: str
    recipients: list[str] = Field(min_length=1)
    render: Literal["summary", "selected_record"]
    selected_by: str | None = None
    record_id_field: str = "id"
    marker: str | None = None

    @model_validator(mode="after")
    def _selection(self) -> PromptProjection:
        if self.render == "selected_record" and not self.selected_by:
            raise ValueError("render: selected_record needs 'selected_by' (a dotted state key)")
        if self.render == "summary" and self.selected_by:
            raise ValueError("'selected_by' only applies to render: selected_record")
        _check_dotted(self.selected_by, "selected_by")
        return self

    @property
    def marker_name(self) -> str:
        return self.marker or self.id


class Asset(_Strict):
    path: str
    kind: Literal["catalog", "contract", "templates"]
    description: str | None = None
    projections: list[PromptProjection] = Field(default_factory=list)

    @model_validator(mode="after")
    def _catalog_only(self) -> Asset:
        if self.projections and self.kind != "catalog":
            raise ValueError(f"only catalog assets have prompt projections (this is {self.kind})")
        return self


class Pack(_Strict):
    id: str
    version: str
    status: Literal["active", "inactive", "archived"] = "active"

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not PACK_ID.match(value):
            raise ValueError(f"pack id {value!r} must match {PACK_ID.pattern}")
        return value

    @field_validator("version", mode="before")
    @classmethod
    def _version(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise ValueError(
                f"version must be a string; quote it ('{value}') so YAML keeps it exactly"
            )
        return value


class VarProjection(_Strict):
    """The mapping form of ``projections.context_variables.<var>``."""

    value: Any = None
    from_: str | None = Field(default=None, alias="from")
    from_context: str | None = None
    from_trigger: str | None = None
    default: Any = None

    @model_validator(mode="after")
    def _something(self) -> VarProjection:
        if not self.model_fields_set:
            raise ValueError(
                "a projection mapping needs one of value, from, from_context, from_trigger, default"
            )
        _check_dotted(self.from_, "from")
        _check_dotted(self.from_context, "from_context")
        _check_dotted(self.from_trigger, "from_trigger")
        return self


class Projections(_Strict):
    context_variables: dict[str, Any] = Field(default_factory=dict)


class RegistryModel(_Strict):
    context_id: str = Field(min_length=1)
    description: str | None = None
    applies_to_workflows: list[str] = Field(default_factory=list)
    assets: list[Asset] = Field(default_factory=list)
    pack: Pack | None = None
    capabilities: Any = None
    facades: Any = None
    projections: Projections | None = None
    values: dict[str, Any] = Field(default_factory=dict)


ROOT_KEYS = tuple(f.alias or n for n, f in RegistryModel.model_fields.items())
PROJECTION_KEYS = ("value", "from", "from_context", "from_trigger", "default")


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _model_at(loc: Sequence[Any]) -> type[BaseModel] | None:
    """The model whose fields are valid at ``loc`` (for did-you-mean on unknown keys)."""
    current: type[BaseModel] | None = RegistryModel
    for part in loc:
        if isinstance(part, int):
            continue
        if current is None:
            return None
        fld = next(
            (f for n, f in current.model_fields.items() if (f.alias or n) == part),
            None,
        )
        if fld is None:
            return None
        current = _inner_model(fld.annotation)
    return current


def _field_names(model: type[BaseModel] | None) -> list[str]:
    return [f.alias or n for n, f in model.model_fields.items()] if model else []


def _pydantic_diags(exc: ValidationError, doc: YamlDoc, data: Any) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        kind = err["type"]
        if kind == "extra_forbidden":
            hint = did_you_mean(str(loc[-1]), _field_names(_model_at(loc[:-1])))
            out.append(doc.diag(loc, f"unknown field{hint}", key=True))
        elif kind == "missing":
            out.append(doc.diag(loc[:-1], f"missing required field '{loc[-1]}'", key=True))
        else:
            msg = err["msg"]
            if msg.startswith("Value error, "):
                msg = msg[len("Value error, ") :]
            elif "input" in err and not isinstance(err["input"], (dict, list)):
                msg = f"{msg} (got {err['input']!r})"
            out.append(doc.diag(loc, msg, key=False))
    return out


# ---------------------------------------------------------------------------------------------
# switching on and finding registries


@dataclass(frozen=True)
class BuildContextSetting:
    """Whether the provider is on, why, and where registries are looked for."""

    enabled: bool
    reason: str
    root: Path | None
    root_reason: str

    def describe(self) -> str:
        state = "on" if self.enabled else "off"
        return f"build context {state}: {self.reason}; {self.root_reason}"


def _env_path(raw: str, workspace_root: Path) -> Path:
    path = Path(raw).expanduser()
    return path if path.is_absolute() else workspace_root / path


def build_context_setting(env: Mapping[str, str], workspace_root: Path) -> BuildContextSetting:
    """The build-context setting implied by ``env`` (the effective environment)."""
    provider = str(env.get(PROVIDER_ENV, "") or "").strip()
    option = str(env.get(OPTION_ENV, "") or "").strip()
    option_on = option.lower() not in _OFF
    option_path = option if option_on and option.lower() not in _ON else None
    if provider == PROVIDER:
        enabled, reason = True, PROVIDER_ENV
    elif option_on:
        enabled, reason = True, f"--build-context option ({OPTION_ENV}={option})"
    elif provider:
        enabled, reason = False, f"{PROVIDER_ENV}={provider} is not the build-context provider"
    else:
        enabled, reason = False, f"{PROVIDER_ENV} is not set (--build-context turns it on)"

    app_ws = str(env.get(APP_WORKSPACE_ENV, "") or "").strip()
    bc_path = str(env.get(PATH_ENV, "") or "").strip()
    root: Path | None
    if option_path:
        root = _env_path(option_path, workspace_root)
        root_reason = f"registry root from --build-context {option_path}"
    elif bc_path:
        root = _env_path(bc_path, workspace_root)
        root_reason = f"registry root from {PATH_ENV}={bc_path}"
    elif app_ws:
        root = _env_path(app_ws, workspace_root) / "build_context"
        root_reason = f"registry root from {APP_WORKSPACE_ENV}={app_ws} (its build_context/)"
    elif option_on:
        root = workspace_root / "build_context"
        root_reason = "registry root: the workspace's build_context/ (--build-context default)"
    else:
        root = None
        root_reason = f"no registry root ({PATH_ENV} and {APP_WORKSPACE_ENV} are not set)"
    return BuildContextSetting(enabled, reason, root, root_reason)


@dataclass(frozen=True)
class Registry:
    """One ``context.yaml``: its parsed model when valid, its problems either way."""

    path: Path
    display: str
    doc: YamlDoc | None
    model: RegistryModel | None
    diagnostics: tuple[Diagnostic, ...]
    #: the context_variables entries, validated: name -> str path or VarProjection
    variables: Mapping[str, str | VarProjection] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return self.model is not None and not any(d.severity == "error" for d in self.diagnostics)

    @property
    def raw_workflows(self) -> list[str] | None:
        """``applies_to_workflows`` as written, even in an invalid file (None: unreadable)."""
        data = self.doc.data if self.doc is not None else None
        names = data.get("applies_to_workflows") if isinstance(data, dict) else None
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            return names
        return None

    def applies_to(self, workflow: str) -> bool:
        names = self.model.applies_to_workflows if self.model else self.raw_workflows
        # an invalid registry whose targets cannot be read is reported everywhere (fail closed)
        return names is None or workflow in names

    def loc(self, path: PathKey, *, key: bool = True) -> str:
        if self.doc is None:
            return self.display
        line, col = self.doc.where(path, key=key)
        return f"{self.display}:{line}:{col}"


def _validate_variables(
    doc: YamlDoc, raw: Mapping[str, Any], diags: list[Diagnostic]
) -> dict[str, str | VarProjection]:
    out: dict[str, str | VarProjection] = {}
    for name, entry in raw.items():
        path: PathKey = ("projections", "context_variables", name)
        if isinstance(entry, str):
            if _DOTTED.match(entry):
                out[str(name)] = entry
            else:
                diags.append(
                    doc.diag(path, f"{entry!r} is not a dotted path into values", key=False)
                )
        elif isinstance(entry, dict):
            try:
                out[str(name)] = VarProjection.model_validate(entry)
            except ValidationError as exc:
                for err in exc.errors(include_url=False):
                    loc = (*path, *err["loc"])
                    if err["type"] == "extra_forbidden":
                        hint = did_you_mean(str(err["loc"][-1]), PROJECTION_KEYS)
                        diags.append(doc.diag(loc, f"unknown field{hint}"))
                    else:
                        msg = err["msg"].removeprefix("Value error, ")
                        diags.append(doc.diag(loc, msg, key=False))
        else:
            diags.append(
                doc.diag(
                    path,
                    "a projection is a dotted path into values or a mapping with "
                    + ", ".join(PROJECTION_KEYS),
                    key=False,
                )
            )
    return out


def load_registry(path: Path, display: str) -> Registry:
    doc, problems = load_yaml_file(path, display)
    diags = list(problems)
    if doc is None:
        return Registry(path, display, None, None, tuple(diags))
    data = doc.data
    if data is None:
        diags.append(doc.diag((), "file is empty; expected at least 'context_id'"))
        return Registry(path, display, doc, None, tuple(diags))
    if not isinstance(data, dict):
        diags.append(doc.diag((), f"a registry must be a mapping, found {type(data).__name__}"))
        return Registry(path, display, doc, None, tuple(diags))
    try:
        model = RegistryModel.model_validate(data)
    except ValidationError as exc:
        diags.extend(_pydantic_diags(exc, doc, data))
        model = None
    variables: dict[str, str | VarProjection] = {}
    projections = data.get("projections")
    if isinstance(projections, dict) and isinstance(projections.get("context_variables"), dict):
        variables = _validate_variables(doc, projections["context_variables"], diags)
    return Registry(path, display, doc, model, tuple(diags), variables)


def discover(root: Path, workspace_root: Path) -> list[Registry]:
    """Every ``<root>/*/context.yaml``, in name order."""
    if not root.is_dir():
        return []
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    out = []
    for folder in folders:
        path = folder / REGISTRY_FILE
        # not is_file(): a directory, FIFO or dangling link named context.yaml is a problem to
        # report (the loader refuses it with a message), not a folder to skip in silence
        if present(path) or path.is_symlink():
            out.append(load_registry(path, display_path(path, workspace_root)))
    return out


# ---------------------------------------------------------------------------------------------
# projection into a workflow's build_context variables


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
    env: Mapping[str, str],
    launch: Mapping[str, Any],
    trigger: Mapping[str, Any] | None = None,
) -> BuildContextProjection:
    """Project every applicable registry into ``workflow``'s build_context variables.

    ``launch`` is the admitted launch context (for ``from_context``); ``trigger`` the launch
    trigger payload (for ``from_trigger``). Launch values winning over projections is the
    caller's (``resolve``) job.
    """
    setting = build_context_setting(env, workflow.root)
    declared = _build_context_names(workflow)
    wanted = [n for n, t in declared.items() if t == "build_context"]
    notes: list[str] = []
    if setting.enabled or wanted:
        notes.append(setting.describe())
    if not setting.enabled or setting.root is None:
        return BuildContextProjection(setting, notes=tuple(notes))
    if not setting.root.is_dir():
        notes.append(f"registry root {setting.root} does not exist: nothing projected")
        return BuildContextProjection(setting, notes=tuple(notes))

    registries = tuple(discover(setting.root, workflow.root))
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
    if not admitted:
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
            value, used, trace = _project_one(reg, name, entry, derived, launch, trigger)
            if value is _MISSING:
                misses.extend(trace)
            else:
                hits.append((reg, value, used, trace))
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
        for other, other_value, _u, other_trace in hits[1:]:
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


# ---------------------------------------------------------------------------------------------
# catalog assets and prompt projections


@dataclass(frozen=True)
class Catalog:
    """A catalog asset's data, or why it could not be read."""

    data: Any
    problem: Diagnostic | None = None


def load_catalog(registry: Registry, asset: Asset, registry_root: Path) -> Catalog:
    """Read a catalog asset beside ``context.yaml``; it must stay inside the registry root."""
    where = registry.display
    real, refusal = confine(
        registry_root, str(registry.path.parent / asset.path), allow_outside=False
    )
    if refusal or real is None:
        return Catalog(None, Diagnostic(where, 0, 0, f"asset {asset.path!r}: {refusal}"))
    display = str(Path(registry.display).parent / asset.path)
    doc, problems = load_yaml_file(real, display)
    if doc is None or problems:
        first = problems[0] if problems else Diagnostic(display, 0, 0, "cannot read")
        return Catalog(None, first)
    return Catalog(doc.data)


def catalog_records(
    catalog: Catalog, projection: PromptProjection, display: str
) -> tuple[list[Any] | None, str | None]:
    """The projection's records list, or why there is none."""
    if catalog.problem is not None:
        return None, catalog.problem.format()
    data = catalog.data
    records = data.get(projection.records) if isinstance(data, Mapping) else None
    if records is None:
        return None, f"{display}: no '{projection.records}' key"
    if not isinstance(records, list):
        return None, f"{display}: '{projection.records}' is not a list of records"
    return records, None


def asset_problems(registry: Registry, registry_root: Path) -> list[Diagnostic]:
    """For ``flowctx check``: missing asset paths and catalog records prompt projections need."""
    out: list[Diagnostic] = []
    if not registry.valid or registry.model is None or registry.doc is None:
        return out
    for i, asset in enumerate(registry.model.assets):
        path: PathKey = ("assets", i, "path")
        real, refusal = confine(
            registry_root, str(registry.path.parent / asset.path), allow_outside=False
        )
        if refusal or real is None:
            out.append(registry.doc.diag(path, str(refusal), key=False))
            continue
        if not present(real):
            sev = "error" if asset.projections else "warning"
            out.append(
                registry.doc.diag(path, f"asset {asset.path!r} not found", key=False, severity=sev)
            )
            continue
        if not asset.projections:
            continue
        catalog = load_catalog(registry, asset, registry_root)
        if catalog.problem is not None:
            out.append(catalog.problem)
            continue
        for j, proj in enumerate(asset.projections):
            _records, why = catalog_records(catalog, proj, asset.path)
            if why:
                out.append(
                    registry.doc.diag(("assets", i, "projections", j, "records"), why, key=False)
                )
    return out


def registry_problems(
    registry: Registry, registry_root: Path, workflows: Mapping[str, WorkflowSnapshot]
) -> list[Diagnostic]:
    """Every problem of one registry against the workspace's workflows (for ``flowctx check``)."""
    out = list(registry.diagnostics)
    if not registry.valid or registry.model is None or registry.doc is None:
        return out
    out.extend(asset_problems(registry, registry_root))
    for i, name in enumerate(registry.model.applies_to_workflows):
        wf = workflows.get(name)
        if wf is None:
            out.append(
                registry.doc.diag(
                    ("applies_to_workflows", i),
                    f"no workflow named '{name}' in this workspace{did_you_mean(name, workflows)}",
                    key=False,
                    severity="warning",
                )
            )
            continue
        out.extend(undeclared_projections(registry, wf))
        for j, asset in enumerate(registry.model.assets):
            for k, proj in enumerate(asset.projections):
                for m, agent in enumerate(proj.recipients):
                    if agent not in wf.agents:
                        out.append(
                            registry.doc.diag(
                                ("assets", j, "projections", k, "recipients", m),
                                f"recipient '{agent}' is not an agent of {name}"
                                + did_you_mean(agent, wf.agents),
                                key=False,
                                severity="warning",
                            )
                        )
    return out


@dataclass(frozen=True)
class PromptBlock:
    """Text one or more prompt projections insert at a marker of an agent's prompt.

    Rendered as ``[MARKER]`` / content / ``[/MARKER]`` so the insertion's bounds are visible.
    """

    marker: str
    text: str
    #: ``file:line:col projection-id (render)`` of each projection that contributed
    sources: tuple[str, ...]


def _summary_line(record: Any, id_field: str) -> str:
    if not isinstance(record, Mapping):
        return f"- {record}"
    rid = record.get(id_field)
    name = record.get("name") or record.get("title")
    text = record.get("summary") or record.get("description")
    line = f"- {rid}"
    if name and name != rid:
        line += f": {name}"
    if text:
        line += f" - {' '.join(str(text).split())}"
    return line


class _RecordDumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so a selected record reads like its catalog."""


def _str_block(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_RecordDumper.add_representer(str, _str_block)


def _record_text(record: Any) -> str:
    if isinstance(record, (Mapping, list)):
        return yaml.dump(
            record,
            Dumper=_RecordDumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=False,
        ).strip()
    return str(record)


def render_prompt_projections(
    registries: Sequence[Registry],
    registry_root: Path,
    agent: str,
    values: Mapping[str, Any],
    *,
    reveal: bool = False,
) -> tuple[list[PromptBlock], list[str]]:
    """The blocks the admitted registries' catalog projections insert for ``agent``, and notes
    (why a projection inserted nothing). ``values`` is the live context (for ``selected_by``)."""
    by_marker: dict[str, tuple[list[str], list[str]]] = {}
    notes: list[str] = []
    for reg in registries:
        if reg.model is None:
            continue
        for i, asset in enumerate(reg.model.assets):
            wanted = [(j, p) for j, p in enumerate(asset.projections) if agent in p.recipients]
            if not wanted:
                continue
            catalog = load_catalog(reg, asset, registry_root)
            for j, proj in wanted:
                where = reg.loc(("assets", i, "projections", j))
                label = f"{where} {proj.id} ({proj.render})"
                records, why = catalog_records(catalog, proj, asset.path)
                if records is None:
                    notes.append(f"{label}: nothing inserted: {why}")
                    continue
                if not reveal:
                    records = [mask_value(r) for r in records]
                if proj.render == "summary":
                    body = "\n".join(_summary_line(r, proj.record_id_field) for r in records)
                else:
                    assert proj.selected_by is not None
                    selected = dig(values, proj.selected_by)
                    if selected is _MISSING or selected is None:
                        notes.append(
                            f"{label}: nothing inserted: {proj.selected_by} has no value yet"
                        )
                        continue
                    match = next(
                        (
                            r
                            for r in records
                            if isinstance(r, Mapping) and r.get(proj.record_id_field) == selected
                        ),
                        None,
                    )
                    if match is None:
                        notes.append(
                            f"{label}: nothing inserted: no record in {proj.records} has "
                            f"{proj.record_id_field} = {selected!r} ({proj.selected_by})"
                        )
                        continue
                    body = _record_text(match)
                    label += f" {proj.record_id_field}={selected!r} from {proj.selected_by}"
                bodies, sources = by_marker.setdefault(proj.marker_name, ([], []))
                bodies.append(body)
                sources.append(label)
    blocks = [
        PromptBlock(marker, f"[{marker}]\n" + "\n\n".join(bodies) + f"\n[/{marker}]", tuple(src))
        for marker, (bodies, src) in by_marker.items()
    ]
    return blocks, notes


__all__ = [
    "APP_WORKSPACE_ENV",
    "CAPABILITY_PACKS",
    "OPTION_ENV",
    "PATH_ENV",
    "PROVIDER",
    "PROVIDER_ENV",
    "Asset",
    "BuildContextProjection",
    "BuildContextSetting",
    "Catalog",
    "Pack",
    "Projected",
    "PromptBlock",
    "PromptProjection",
    "Registry",
    "RegistryModel",
    "VarProjection",
    "apply_projection",
    "build_context_setting",
    "catalog_records",
    "dig",
    "discover",
    "is_missing",
    "load_catalog",
    "load_registry",
    "project_build_context",
    "registry_problems",
    "render_prompt_projections",
]
