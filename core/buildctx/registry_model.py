"""The build-context registry file's validating models: ``<root>/<context_name>/context.yaml``.

Strict pydantic models for the file, and the checks ``load_registry``
(``flowctx_core.buildctx.registry``) runs with them. A module of its own so that a workspace
without a registry never builds these classes (``flowctx check`` on a plain workspace).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from flowctx_core.base.diagnostics import Diagnostic, Fix, FixableValueError, suggest
from flowctx_core.base.yamlmarks import PathKey, YamlDoc
from flowctx_core.model.validation import Strict, Wording, located_errors

#: the runtime's _SAFE_ID_RE: every dot-separated segment starts with a letter
PACK_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
#: build_context_schema.py VALID_CAPABILITY_SOURCES (``operator_pack`` is only the default the
#: provider gives a descriptor, never a value the validator accepts)
CapabilitySource = Literal[
    "config_file",
    "managed_capability",
    "generated_module",
    "operator_extension",
    "external_adapter",
    "framework_pack",
]
_DOTTED = re.compile(r"^[^.\s]+(\.[^.\s]+)*$")
#: the keys the runtime's projection reader looks at in a catalog's prompt projection
PROMPT_PROJECTION_KEYS = (
    "id",
    "records",
    "recipients",
    "render",
    "selected_by",
    "record_id_field",
    "marker",
    "heading",
)


def _check_dotted(value: str | None, what: str) -> str | None:
    if value is not None and not _DOTTED.match(value):
        raise ValueError(f"{what} {value!r} is not a dotted path (like 'a.b.c')")
    return value


def _text(value: Any) -> str:
    """``str(value or "").strip()``: how the runtime reads every string key it is given."""
    return str(value or "").strip()


class PromptProjection(BaseModel):
    """A catalog asset's prompt projection, read as the runtime's projection reader reads it.

    The registry validator does not look inside ``assets[].projections``; the reader
    (``projection.py``) is lenient: every key goes through ``str(x or "").strip()``, a string
    ``recipients`` is one recipient, ``records`` defaults to ``"patterns"``, any ``render``
    other than ``selected_record`` renders a summary (so ``full`` does), ``heading`` heads the
    block, and a projection without ``marker`` is skipped. ``read`` builds one that way;
    problems an author would want to know of are warnings (``prompt_projection_warnings``).
    """

    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)

    id: str | None = None
    records: str | None = None
    recipients: tuple[str, ...] = ()
    render: str = "summary"
    selected_by: str | None = None
    record_id_field: str = "id"
    marker: str | None = None
    heading: str | None = None

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> PromptProjection:
        targets = raw.get("recipients") or []
        if isinstance(targets, str):
            targets = [targets]
        recipients = (
            tuple(_text(t) for t in targets if _text(t)) if isinstance(targets, list) else ()
        )
        return cls(
            id=_text(raw.get("id")) or None,
            records=_text(raw.get("records")) or None,
            recipients=recipients,
            render=_text(raw.get("render")) or "summary",
            selected_by=_text(raw.get("selected_by")) or None,
            record_id_field=_text(raw.get("record_id_field")) or "id",
            marker=_text(raw.get("marker")) or None,
            heading=_text(raw.get("heading")) or None,
        )

    @property
    def records_key(self) -> str:
        return self.records or "patterns"

    @property
    def marker_name(self) -> str:
        # a projection without a marker is skipped by the runtime: callers check ``marker``
        return self.marker or self.id or ""


class Asset(Strict):
    """An asset as ``validate_pack_context`` allows it: ``path`` and ``kind`` required, only
    ``path``/``kind``/``description``/``projections``; projections are read leniently."""

    path: str
    kind: Literal["catalog", "contract", "templates"]
    description: Any = None
    projections: tuple[PromptProjection, ...] = ()

    @field_validator("path", mode="before")
    @classmethod
    def _path(cls, value: Any) -> Any:
        text = _text(value)
        if not text:
            raise ValueError("asset.path is required")
        return text

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, value: Any) -> Any:
        return _text(value)

    @field_validator("projections", mode="before")
    @classmethod
    def _lenient(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return ()
        return tuple(PromptProjection.read(p) for p in value if isinstance(p, Mapping))


class Pack(Strict):
    """``pack`` as ``validate_pack_context`` judges it: only ALLOWED_PACK_KEYS; ``id`` required
    and a safe id; ``version`` a non-empty string; ``status`` (null means active) one of
    VALID_STATUS; ``capability_source`` one of VALID_CAPABILITY_SOURCES; the descriptive keys
    strings."""

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

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> Any:
        text = _text(value)
        if not text:
            raise ValueError("pack.id is required")
        if not PACK_ID.match(text):
            raise ValueError(f"pack id {text!r} must match {PACK_ID.pattern}")
        return text

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, value: Any) -> Any:
        return _text(value) or "active"

    @field_validator("capability_source", mode="before")
    @classmethod
    def _source(cls, value: Any) -> Any:
        return None if value is None else str(value).strip()

    @field_validator("version", mode="before")
    @classmethod
    def _version(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise FixableValueError(
                f"version must be a string; quote it ('{value}') so YAML keeps it exactly",
                Fix(str(value), f"'{value}'"),
            )
        if isinstance(value, str) and not value.strip():
            raise ValueError("pack.version is required and must be a string")
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


class Projections(BaseModel):
    """``projections``: the validator only asks for a mapping; ``context_variables`` is read
    by the provider (``_validate_variables``)."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)
    context_variables: Any = None


class RegistryModel(Strict):
    """``context.yaml`` as ``validate_pack_context`` judges it."""

    context_id: str
    description: str | None = None
    # required: the validator fails a registry whose applies_to_workflows is not a list
    applies_to_workflows: list[str]
    # required: the validator fails a registry whose assets is not a list
    assets: list[Asset]
    pack: Pack | None = None
    capabilities: list[Any] | None = None
    facades: list[Any] | None = None
    projections: Projections | None = None
    values: dict[str, Any] | None = None

    @field_validator("context_id", mode="before")
    @classmethod
    def _context_id(cls, value: Any) -> Any:
        text = _text(value)
        if not text:
            raise ValueError("context_id is required")
        return text

    @field_validator("applies_to_workflows", mode="before")
    @classmethod
    def _workflows(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        out = []
        for item in value:
            # the validator reads each id as str(id or "").strip(): 0, "" and null fail
            text = _text(item)
            if not text:
                raise ValueError("workflow id must be a non-empty string")
            out.append(text)
        return out

    @property
    def value_map(self) -> dict[str, Any]:
        return self.values or {}


ROOT_KEYS = tuple(f.alias or n for n, f in RegistryModel.model_fields.items())
PROJECTION_KEYS = ("value", "from", "from_context", "from_trigger", "default")


#: registries word errors as the registry reference does: rejected scalars are quoted
_WORDING = Wording(show_input=True)


_PROJECTION_NOTE = (
    "; the provider reads nothing from it (an error when it names a build_context variable)"
)


def _validate_variables(
    doc: YamlDoc, raw: Mapping[str, Any], diags: list[Diagnostic]
) -> tuple[dict[str, str | VarProjection], set[str]]:
    """The readable entries and the names of the malformed ones. The runtime's validator
    does not look inside ``projections``: a malformed entry is a warning here, and the
    projection decides what the runtime does with it."""
    out: dict[str, str | VarProjection] = {}
    malformed: set[str] = set()
    for name, entry in raw.items():
        path: PathKey = ("projections", "context_variables", name)
        found: list[Diagnostic] = []
        if isinstance(entry, str):
            if _DOTTED.match(entry):
                out[str(name)] = entry
            else:
                found.append(
                    doc.diag(path, f"{entry!r} is not a dotted path into values", key=False)
                )
        elif isinstance(entry, dict):
            try:
                out[str(name)] = VarProjection.model_validate(entry)
            except ValidationError as exc:
                found.extend(located_errors(exc, doc, path, VarProjection, entry))
        else:
            found.append(
                doc.diag(
                    path,
                    "a projection is a dotted path into values or a mapping with "
                    + ", ".join(PROJECTION_KEYS),
                    key=False,
                )
            )
        if found:
            malformed.add(str(name))
            diags.extend(
                dataclasses.replace(d, severity="warning", message=d.message + _PROJECTION_NOTE)
                for d in found
            )
    return out, malformed


def _prompt_projection_warnings(doc: YamlDoc, data: Mapping[str, Any]) -> list[Diagnostic]:
    """Keys of a prompt projection the runtime's reader never looks at (a typo such as
    ``mark`` leaves the projection without a marker, so it is skipped), and projections on
    assets the reader does not read (only ``kind: catalog``)."""
    out: list[Diagnostic] = []
    assets = data.get("assets")
    for i, asset in enumerate(assets if isinstance(assets, list) else ()):
        projections = asset.get("projections") if isinstance(asset, dict) else None
        if not isinstance(projections, list):
            continue
        if str(asset.get("kind") or "").strip() != "catalog" and projections:
            out.append(
                doc.diag(
                    ("assets", i, "projections"),
                    "only catalog assets' prompt projections are read; these are ignored",
                    severity="warning",
                )
            )
            continue
        for j, proj in enumerate(projections):
            if not isinstance(proj, dict):
                out.append(
                    doc.diag(
                        ("assets", i, "projections", j),
                        "not a mapping: the runtime's reader skips it",
                        key=False,
                        severity="warning",
                    )
                )
                continue
            for key in proj:
                if str(key) not in PROMPT_PROJECTION_KEYS:
                    hint, fix = suggest(str(key), PROMPT_PROJECTION_KEYS)
                    out.append(
                        doc.diag(
                            ("assets", i, "projections", j, key),
                            f"unknown field{hint}: the runtime's reader ignores it",
                            severity="warning",
                            fix=fix,
                        )
                    )
    return out
