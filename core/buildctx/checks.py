"""``flowctx check`` of build-context registries: their own problems, their assets, and their
projections and recipients against the workspace's workflows."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.yamlmarks import PathKey
from flowctx_core.buildctx.projection import undeclared_projections
from flowctx_core.buildctx.prompt import catalog_records
from flowctx_core.buildctx.registry import Registry
from flowctx_core.model.workspace import WorkflowSnapshot


def asset_problems(registry: Registry) -> list[Diagnostic]:
    """For ``flowctx check``: missing asset paths and catalog records prompt projections need."""
    out: list[Diagnostic] = []
    if not registry.valid or registry.model is None or registry.doc is None:
        return out
    for i, (asset, read) in enumerate(zip(registry.model.assets, registry.assets, strict=True)):
        path: PathKey = ("assets", i, "path")
        if read.refusal is not None:
            out.append(registry.doc.diag(path, read.refusal, key=False))
            continue
        if read.secret and read.found:
            loads = asset.kind in ("catalog", "contract")
            what = (
                f"the runtime loads this {asset.kind} file"
                if loads
                else "the runtime accepts this path (it has no secret-file denylist for assets)"
            )
            out.append(
                registry.doc.diag(
                    path,
                    f"asset {asset.path!r}: {what}; flowctx does not show its contents "
                    "because it looks like a secrets file",
                    key=False,
                    severity="warning",
                )
            )
        if not read.found:
            # the provider loads every catalog and contract asset of an applicable registry
            # and raises BuildContextError when one is missing; templates are not read
            loaded = asset.kind in ("catalog", "contract")
            sev = "error" if loaded else "warning"
            msg = f"asset {asset.path!r} not found"
            if loaded:
                msg += " (the runtime's provider fails the launch: BuildContextError)"
            out.append(registry.doc.diag(path, msg, key=False, severity=sev))
            continue
        catalog = read.catalog
        if catalog is None:
            continue
        if catalog.problem is not None:
            # the provider loads it with _load_yaml_mapping and raises BuildContextError
            out.append(
                dataclasses.replace(
                    catalog.problem,
                    message=catalog.problem.message
                    + " (the runtime's provider fails the launch: BuildContextError)",
                )
            )
            continue
        for j, proj in enumerate(asset.projections):
            _records, why = catalog_records(catalog, proj, asset.path)
            if why:
                # the reader's _read_dotted finds nothing: it inserts the heading alone
                out.append(
                    registry.doc.diag(
                        ("assets", i, "projections", j, "records"),
                        f"{why}: the runtime inserts the block's heading with no records",
                        key=False,
                        severity="warning",
                    )
                )
    return out


def registry_problems(
    registry: Registry,
    workflows: Mapping[str, WorkflowSnapshot],
    names: Iterable[str] | None = None,
) -> list[Diagnostic]:
    """Every problem of one registry against the workspace's workflows (for ``flowctx check``).

    ``workflows`` are the workflows being checked (their projections are checked); ``names``
    all the workspace's workflows (a name outside them is a typo), default the checked ones.
    So ``check -w W`` and the app showing W judge a registry the same way.
    """
    known = set(workflows) if names is None else set(names)
    out = list(registry.diagnostics)
    if not registry.valid or registry.model is None or registry.doc is None:
        return out
    out.extend(asset_problems(registry))
    for i, name in enumerate(registry.model.applies_to_workflows):
        wf = workflows.get(name)
        if wf is None and name in known:
            continue  # another workflow's registry: checked when that workflow is
        if wf is None:
            hint, fix = suggest(name, known)
            out.append(
                registry.doc.diag(
                    ("applies_to_workflows", i),
                    f"no workflow named '{name}' in this workspace{hint}",
                    key=False,
                    severity="warning",
                    fix=fix,
                )
            )
            continue
        out.extend(undeclared_projections(registry, wf))
        for j, asset in enumerate(registry.model.assets):
            for k, proj in enumerate(asset.projections):
                for m, agent in enumerate(proj.recipients):
                    if agent not in wf.agents:
                        hint, fix = suggest(agent, wf.agents)
                        out.append(
                            registry.doc.diag(
                                ("assets", j, "projections", k, "recipients", m),
                                f"recipient '{agent}' is not an agent of {name}{hint}",
                                key=False,
                                severity="warning",
                                fix=fix,
                            )
                        )
    return out
