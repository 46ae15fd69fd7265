"""Finding registries on disk: every ``<root>/*/context.yaml`` and the assets beside each.

This is the only part of build context that reads files; the workspace snapshot calls it once
per load, and projection, prompts and checks work on what it found.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.pathsafety import confine, looks_secret, present
from flowctx_core.base.secrets import mask_all
from flowctx_core.base.yamlmarks import load_yaml_file
from flowctx_core.buildctx.registry import (
    AssetFile,
    Catalog,
    Registry,
    load_registry,
)
from flowctx_core.model.filenames import REGISTRY_FILE
from flowctx_core.model.workspace import display_path, outside_workspace


def _read_catalog(registry: Registry, asset_path: str, real: Path) -> Catalog:
    display = str(Path(registry.display).parent / asset_path)
    doc, problems = load_yaml_file(real, display)
    if doc is None or problems:
        first = problems[0] if problems else Diagnostic(display, 0, 0, "cannot read")
        return Catalog(None, first)
    # _load_yaml_mapping: an empty file is {}, anything else but a mapping fails the load
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        why = f"must be a mapping, found {type(data).__name__}"
        return Catalog(None, Diagnostic(display, 1, 1, why))
    return Catalog(data)


def _hidden(catalog: Catalog) -> Catalog:
    """A secret-named asset as read: its outcome kept, nothing it holds shown.

    A mapping keeps its keys (the runtime's projections walk them) with every value masked;
    a parse error keeps its place but not its message, which may quote the file.
    """
    if catalog.problem is None:
        return Catalog(mask_all(catalog.data))
    first = catalog.problem
    if first.message.startswith("must be a mapping"):
        return catalog
    why = "invalid YAML (the parser's message is not shown: it may quote a secrets file)"
    return Catalog(None, dataclasses.replace(first, message=why))


def read_assets(registry: Registry, registry_root: Path) -> tuple[AssetFile, ...]:
    """Each asset of a valid registry: it must stay inside the registry root; catalogs and
    contracts are read (the provider loads both, as mappings), templates only looked for.

    The runtime's ``resolve_context_asset_path`` has no secret-file denylist (the file
    source's loader has one): a ``.env`` or ``*.pem`` asset is loaded like any other, so
    flowctx reads it to predict the launch, and masks what it holds.
    """
    if registry.model is None:
        return ()
    out: list[AssetFile] = []
    for asset in registry.model.assets:
        # resolve_context_asset_path: inside the registry's own folder, not the root's
        asked = registry.path.parent / asset.path
        real, refusal = confine(
            registry.path.parent, str(asked), allow_outside=False, refuse_secrets=False
        )
        if refusal or real is None:
            why = Diagnostic(registry.display, 0, 0, f"asset {asset.path!r}: {refusal}")
            out.append(AssetFile(refusal=str(refusal), catalog=Catalog(None, why)))
            continue
        secret = looks_secret(asked, real)
        found = present(real)
        catalog = None
        if asset.kind in ("catalog", "contract"):
            catalog = _read_catalog(registry, asset.path, real)
            if secret:
                catalog = _hidden(catalog)
        out.append(AssetFile(None, found, catalog, secret))
    return tuple(out)


def discover(root: Path, workspace_root: Path) -> list[Registry]:
    """Every ``<root>/*/context.yaml``, in name order, with its assets read."""
    if not fsview.is_dir(root):
        return []
    try:
        folders = sorted(
            p for p in fsview.iterdir(root) if fsview.is_dir(p) and not p.name.startswith(".")
        )
    except OSError:
        return []
    out = []
    for folder in folders:
        path = folder / REGISTRY_FILE
        # not is_file(): a directory, FIFO or dangling link named context.yaml is a problem to
        # report (the loader refuses it with a message), not a folder to skip in silence
        if present(path) or fsview.is_symlink(path):
            display = display_path(path, workspace_root)
            escape = outside_workspace(path, root)
            if escape is not None:  # a registry folder linked to another project's files
                out.append(
                    Registry(path, display, None, None, (Diagnostic(display, 0, 0, escape),))
                )
                continue
            reg = load_registry(path, display)
            out.append(dataclasses.replace(reg, assets=read_assets(reg, root)))
    return out
