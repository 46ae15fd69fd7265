"""The build-context registry contract: ``<root>/<context_name>/context.yaml``, validated.

Strict pydantic models for the file, and ``load_registry`` that reads one into a ``Registry``
with every problem located as file:line:col. Where registries are found is ``discovery``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from core.diagnostics import Diagnostic
from core.validation import Strict, Wording, located_errors
from core.yamlmarks import PathKey, YamlDoc, load_yaml_file

REGISTRY_FILE = "context.yaml"
CAPABILITY_PACKS = "capability_packs"
#: the runtime's _SAFE_ID_RE: every dot-separated segment starts with a letter
PACK_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
#: build_context_schema.py VALID_CAPABILITY_SOURCES
CapabilitySource = Literal[
    "config_file",
    "managed_capability",
    "generated_module",
    "operator_extension",
    "operator_pack",
    "external_adapter",
    "framework_pack",
]
_DOTTED = re.compile(r"^[^.\s]+(\.[^.\s]+)*$")


def _check_dotted(value: str | None, what: str) -> str | None:
    if value is not None and not _DOTTED.match(value):
        raise ValueError(f"{what} {value!r} is not a dotted path (like 'a.b.c')")
    return value


class PromptProjection(Strict):
    """A catalog asset's prompt projection, as the runtime's projection reader takes it: the
    registry validator does not look inside, the reader is lenient (``heading`` heads the
    block, ``render: full`` renders like ``summary``, a null ``records`` means
    ``"patterns"``, and a projection without ``marker`` is skipped)."""

    id: str | None = None
    records: str | None = None
    recipients: list[str] = Field(default_factory=list)
    render: Literal["summary", "selected_record", "full"] = "summary"
    selected_by: str | None = None
    record_id_field: str = "id"
    marker: str | None = None
    heading: str | None = None

    @model_validator(mode="after")
    def _selection(self) -> PromptProjection:
        if self.render == "selected_record" and not self.selected_by:
            raise ValueError("render: selected_record needs 'selected_by' (a dotted state key)")
        _check_dotted(self.selected_by, "selected_by")
        return self

    @property
    def records_key(self) -> str:
        return self.records or "patterns"

    @property
    def marker_name(self) -> str:
        # a projection without a marker is skipped by the runtime: callers check ``marker``
        return self.marker or self.id or ""


class Asset(Strict):
    path: str
    kind: Literal["catalog", "contract", "templates"]
    description: str | None = None
    projections: list[PromptProjection] = Field(default_factory=list)

    @model_validator(mode="after")
    def _catalog_only(self) -> Asset:
        if self.projections and self.kind != "catalog":
            raise ValueError(f"only catalog assets have prompt projections (this is {self.kind})")
        return self


class Pack(Strict):
    """The keys the runtime's validator allows in ``pack`` (ALLOWED_PACK_KEYS)."""

    id: str
    version: str
    status: Literal["active", "inactive", "archived"] = "active"
    author: str | None = None
    license: str | None = None
    source: str | None = None
    capability_source: CapabilitySource | None = None
    required_integrations: Any = None
    deployment_env: Any = None
    description: str | None = None
    display_name: str | None = None

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


class VarProjection(Strict):
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


class Projections(Strict):
    context_variables: dict[str, Any] = Field(default_factory=dict)


class RegistryModel(Strict):
    context_id: str = Field(min_length=1)
    description: str | None = None
    applies_to_workflows: list[str] = Field(default_factory=list)
    # required: the runtime's validator fails a registry whose assets is not a list
    assets: list[Asset]
    pack: Pack | None = None
    capabilities: list[Any] | None = None
    facades: list[Any] | None = None
    projections: Projections | None = None
    values: dict[str, Any] = Field(default_factory=dict)


ROOT_KEYS = tuple(f.alias or n for n, f in RegistryModel.model_fields.items())
PROJECTION_KEYS = ("value", "from", "from_context", "from_trigger", "default")


#: registries word errors as the registry reference does: rejected scalars are quoted
_WORDING = Wording(show_input=True)


@dataclass(frozen=True)
class Catalog:
    """A catalog asset's data, or why it could not be read."""

    data: Any
    problem: Diagnostic | None = None


@dataclass(frozen=True)
class AssetFile:
    """One asset of a registry as found on disk: refused, missing, or (catalogs with prompt
    projections) its data."""

    refusal: str | None = None
    found: bool = False
    catalog: Catalog | None = None


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
    #: ``model.assets`` as read when the registry was discovered, index for index
    assets: tuple[AssetFile, ...] = ()

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
                diags.extend(located_errors(exc, doc, path, VarProjection, entry))
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
        diags.extend(located_errors(exc, doc, (), RegistryModel, data, _WORDING))
        model = None
    variables: dict[str, str | VarProjection] = {}
    projections = data.get("projections")
    if isinstance(projections, dict) and isinstance(projections.get("context_variables"), dict):
        variables = _validate_variables(doc, projections["context_variables"], diags)
    return Registry(path, display, doc, model, tuple(diags), variables)
