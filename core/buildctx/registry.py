"""The build-context registry contract: ``<root>/<context_name>/context.yaml``, read.

``load_registry`` reads one into a ``Registry`` with every problem located as file:line:col,
validating it with the strict pydantic models of ``flowctx_core.buildctx.registry_model``
(imported with the first registry read: a workspace without one never builds them; their
names are still served from here). Where registries are found is ``discovery``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.lazyexports import lazy_getattr
from flowctx_core.base.yamlmarks import PathKey, YamlDoc, load_yaml_file

if TYPE_CHECKING:
    from flowctx_core.buildctx.registry_model import (
        PACK_ID,
        PROJECTION_KEYS,
        PROMPT_PROJECTION_KEYS,
        ROOT_KEYS,
        Asset,
        CapabilitySource,
        Pack,
        Projections,
        PromptProjection,
        RegistryModel,
        VarProjection,
    )

CAPABILITY_PACKS = "capability_packs"

_MODELS = "flowctx_core.buildctx.registry_model"
__getattr__ = lazy_getattr(
    __name__,
    {
        name: _MODELS
        for name in (
            "PACK_ID",
            "PROJECTION_KEYS",
            "PROMPT_PROJECTION_KEYS",
            "ROOT_KEYS",
            "Asset",
            "CapabilitySource",
            "Pack",
            "Projections",
            "PromptProjection",
            "RegistryModel",
            "VarProjection",
        )
    },
)


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
    #: the name looks like a secrets file (``.env``, ``*.pem``...): the runtime reads it all
    #: the same, flowctx keeps what it holds masked
    secret: bool = False


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
    #: context_variables entries the provider cannot read (not a dotted path or a mapping
    #: of the projection keys): the runtime fails the launch when one names a protected
    #: (build_context) variable and ignores it otherwise
    malformed: frozenset[str] = frozenset()

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


def load_registry(path: Path, display: str) -> Registry:
    from flowctx_core.buildctx.registry_model import (
        _WORDING,
        RegistryModel,
        ValidationError,
        _prompt_projection_warnings,
        _validate_variables,
        located_errors,
    )

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
    diags.extend(_prompt_projection_warnings(doc, data))
    variables: dict[str, str | VarProjection] = {}
    malformed: set[str] = set()
    projections = data.get("projections")
    if isinstance(projections, dict) and isinstance(projections.get("context_variables"), dict):
        variables, malformed = _validate_variables(doc, projections["context_variables"], diags)
    return Registry(
        path, display, doc, model, tuple(diags), variables, malformed=frozenset(malformed)
    )


__all__ = [
    "CAPABILITY_PACKS",
    "PACK_ID",
    "PROJECTION_KEYS",
    "PROMPT_PROJECTION_KEYS",
    "ROOT_KEYS",
    "Asset",
    "AssetFile",
    "CapabilitySource",
    "Catalog",
    "Pack",
    "Projections",
    "PromptProjection",
    "Registry",
    "RegistryModel",
    "VarProjection",
    "load_registry",
]
