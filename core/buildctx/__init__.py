"""Build context: registry discovery, validation and launch-time projection (mozaiks 0.2.0,
``mozaiksai/core/session/build_context.py`` and ``build_context_schema.py``).

A build-context registry is ``<root>/<context_name>/context.yaml``. When the launch provider is
on, every valid registry that names the workflow in ``applies_to_workflows`` projects values
into the workflow's declared ``build_context`` variables, and its catalog assets may add prompt
projections for named agents (rendered by ``flowctx_core.runtime.exposure``).

Decisions where the spec is silent (also in docs/runtime.md):

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

from typing import TYPE_CHECKING

from flowctx_core.base.lazyexports import lazy_getattr
from flowctx_core.buildctx.checks import asset_problems, registry_problems
from flowctx_core.buildctx.discovery import discover, read_assets
from flowctx_core.buildctx.projected import BuildContextProjection, Projected
from flowctx_core.buildctx.projection import (
    dig,
    is_missing,
    pack_descriptor,
    project_build_context,
    undeclared_projections,
)
from flowctx_core.buildctx.prompt import PromptBlock, catalog_records, render_prompt_projections
from flowctx_core.buildctx.registry import (
    CAPABILITY_PACKS,
    AssetFile,
    Catalog,
    Registry,
    load_registry,
)
from flowctx_core.buildctx.setting import (
    APP_WORKSPACE_ENV,
    OPTION_ENV,
    PATH_ENV,
    PROVIDER,
    PROVIDER_ENV,
    BuildContextSetting,
    build_context_setting,
)
from flowctx_core.model.filenames import REGISTRY_FILE

if TYPE_CHECKING:
    from flowctx_core.buildctx.registry_model import (
        Asset,
        Pack,
        PromptProjection,
        RegistryModel,
        VarProjection,
    )

# the file's pydantic models come with the first registry read (flowctx_core.buildctx.registry)
__getattr__ = lazy_getattr(
    __name__,
    {
        name: "flowctx_core.buildctx.registry_model"
        for name in ("Asset", "Pack", "PromptProjection", "RegistryModel", "VarProjection")
    },
)

__all__ = [
    "APP_WORKSPACE_ENV",
    "CAPABILITY_PACKS",
    "OPTION_ENV",
    "PATH_ENV",
    "PROVIDER",
    "PROVIDER_ENV",
    "REGISTRY_FILE",
    "Asset",
    "AssetFile",
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
    "asset_problems",
    "build_context_setting",
    "catalog_records",
    "dig",
    "discover",
    "is_missing",
    "load_registry",
    "pack_descriptor",
    "project_build_context",
    "read_assets",
    "registry_problems",
    "render_prompt_projections",
    "undeclared_projections",
]
