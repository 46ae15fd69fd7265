"""Prompt projections as the newest runtime injects them (``inject_build_context_projections``).

Facts from the runtime's projection reader (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/projection.py``): it runs for an agent only through
the workflow's ``middleware.yaml`` ``prompt_middleware`` entries naming it (or ``all``); it
reads every registry under its packaged ``factory_app/build_context``, then under
``MOZAIKS_BUILD_CONTEXT_PATH`` (or ``./build_context``) with no workflow filter (the launch
provider need not be on);
one invalid registry there makes the whole injection fail quietly, so nothing is inserted; a
projection without ``marker`` is skipped; each block is headed ``[HEADING]`` (upper case).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from flowctx_core.base import fsview
from flowctx_core.base.secrets import mask_value, shown_at_path
from flowctx_core.buildctx.registry import Catalog, Registry
from flowctx_core.model.filenames import BUILD_CONTEXT_DIR

if TYPE_CHECKING:
    from flowctx_core.buildctx.registry_model import PromptProjection

INJECT_FUNCTION = "inject_build_context_projections"
#: record keys the reader prints, in its order, after the record's label
_PREFERRED = (
    "capability_kind",
    "recommendation_rank",
    "domains",
    "graph_strategy",
    "routing_idiom",
    "mozaiks_support",
    "intent_signals",
    "selection_aliases",
    "agent_archetypes",
    "transition_generation",
    "required_context",
    "required_tools",
    "alternatives",
    "avoid_when",
    "generator_notes",
)


@dataclass(frozen=True)
class Injected:
    """What the runtime inserts for one agent: marker -> text, with where each part came from."""

    blocks: tuple[tuple[str, str, tuple[str, ...]], ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class InjectionSource:
    """What the runtime's injection reads for one workflow, taken from the workspace snapshot
    (so a git revision is read like a folder, and nothing is read again per agent)."""

    #: ``middleware.yaml`` as parsed (None: absent or unreadable)
    middleware: Any
    has_middleware: bool
    #: every registry under the reader's folders, in order
    registries: tuple[Registry, ...]
    #: the release's packaged ``factory_app`` was found (its registries are read first); False:
    #: flowctx cannot tell what the runtime's own catalog adds
    packaged: bool = True


def runs_injection(middleware: Any) -> bool:
    """Whether a parsed ``middleware.yaml`` runs the injection for any agent."""
    entries = middleware.get("prompt_middleware") if isinstance(middleware, dict) else None
    return any(
        isinstance(e, dict)
        and str(e.get("function") or "").strip().rsplit(".", 1)[-1] == INJECT_FUNCTION
        for e in (entries if isinstance(entries, list) else ())
    )


def middleware_runs_injection(source: InjectionSource, agent: str) -> tuple[bool, str]:
    """Whether ``middleware.yaml`` runs the injection for ``agent``, and why not."""
    if not source.has_middleware:
        return False, "the workflow has no middleware.yaml"
    data = source.middleware
    entries = data.get("prompt_middleware") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict):
            continue
        target = str(entry.get("agent") or "").strip()
        function = str(entry.get("function") or "").strip()
        if target in (agent, "all") and function.rsplit(".", 1)[-1] == INJECT_FUNCTION:
            return True, ""
    return False, f"middleware.yaml has no prompt_middleware entry running {INJECT_FUNCTION}"


#: the runtime's own override of where its packaged ``factory_app`` is (mozaiks 0.2.0,
#: ``mozaiksai/resources.py`` ``resolve_factory_app_root``)
FACTORY_APP_ENV = "MOZAIKS_FACTORY_APP_PATH"
FACTORY_APP = "factory_app"


def factory_app_root(root: Path, env: Mapping[str, str]) -> Path | None:
    """The release's packaged ``factory_app`` as its ``resolve_factory_app_root`` finds it:
    ``MOZAIKS_FACTORY_APP_PATH``, else ``factory_app`` beside the runtime's package (a checkout
    of the runtime: the workspace's own ``factory_app/``), else the installed package (looked
    up, never imported). None when there is none to read."""
    configured = str(env.get(FACTORY_APP_ENV, "")).strip()
    if configured:
        path = Path(configured).expanduser()
        path = path if path.is_absolute() else root / path
        return path if fsview.is_dir(path) else None
    if fsview.is_dir(root / FACTORY_APP) and fsview.is_dir(root / "mozaiksai"):
        return root / FACTORY_APP
    try:
        spec = importlib.util.find_spec(FACTORY_APP)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or ()) if spec else ():
        if Path(location).is_dir():
            return Path(location)
    return None


def injection_roots(root: Path, env: Mapping[str, str]) -> list[Path]:
    """The folders the reader looks in, in its order, each once (the app's working directory
    is taken to be the workspace root): the packaged ``factory_app/build_context`` first, then
    ``MOZAIKS_BUILD_CONTEXT_PATH``, else ``MOZAIKS_APP_WORKSPACE_PATH``'s ``build_context``,
    else the workspace's ``build_context/`` (projection.py ``_candidate_build_context_roots``).
    Read when the snapshot is loaded."""
    candidates: list[Path] = []
    factory = factory_app_root(root, env)
    if factory is not None:
        candidates.append(factory / BUILD_CONTEXT_DIR)
    configured = str(env.get("MOZAIKS_BUILD_CONTEXT_PATH", "")).strip()
    app_workspace = str(env.get("MOZAIKS_APP_WORKSPACE_PATH", "")).strip()
    if configured:
        path = Path(configured).expanduser()
        candidates.append(path if path.is_absolute() else root / path)
    elif app_workspace:
        path = Path(app_workspace).expanduser()
        candidates.append((path if path.is_absolute() else root / path) / BUILD_CONTEXT_DIR)
    else:
        candidates.append(root / BUILD_CONTEXT_DIR)
    out: list[Path] = []
    for path in candidates:
        real = fsview.realpath(path)
        if fsview.is_dir(real) and real not in out:
            out.append(real)
    return out


def _label(record: Mapping[str, Any]) -> str:
    rid = record.get("id")
    label = record.get("label") or record.get("name") or record.get("key") or rid
    key = record.get("key")
    parts = [str(p) for p in (rid, label) if p is not None and p != ""]
    heading = ". ".join(parts) if parts else "record"
    if key and str(key) not in heading:
        heading = f"{heading} ({key})"
    return heading


def _dump(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False).strip()


def _record_lines(record: Mapping[str, Any], *, detail: bool) -> list[str]:
    lines = [f"- {_label(record)}"]
    for key in _PREFERRED:
        value = record.get(key)
        if value in (None, "", [], {}):
            continue
        if isinstance(value, list) and any(isinstance(i, Mapping) for i in value):
            lines.append(f"  {key}:")
            lines += [f"    {line}" for line in _dump(value).splitlines()]
        elif isinstance(value, list):
            lines.append(f"  {key}: {', '.join(str(i) for i in value)}")
        elif isinstance(value, Mapping):
            lines.append(f"  {key}: {_dump(dict(value))}")
        else:
            lines.append(f"  {key}: {value}")
    if detail:
        rest = {
            str(k): v
            for k, v in record.items()
            if k not in {"id", "label", "name", "key", *_PREFERRED}
        }
        if rest:
            lines.append("  details:")
            lines += [f"    {line}" for line in _dump(rest).splitlines()]
    return lines


def _dig(value: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not part.strip() or not isinstance(value, Mapping):
            return None
        value = value.get(part.strip())
    return value


def render_block(
    catalog: Mapping[str, Any],
    proj: PromptProjection,
    values: Mapping[str, Any],
    *,
    reveal: bool = False,
    secret_names: frozenset[str] = frozenset(),
) -> str:
    records = _dig(catalog, proj.records_key)
    if proj.render == "selected_record":
        header = proj.heading or "BUILD CONTEXT DETAIL"
        lines = [f"[{header.strip().upper()}]"]
        selected = _dig(values, proj.selected_by or "") if proj.selected_by else None
        for record in records if isinstance(records, list) else ():
            if isinstance(record, Mapping) and str(record.get(proj.record_id_field)) == str(
                selected
            ):
                return "\n".join([*lines, *_record_lines(record, detail=True)])
        # the runtime writes the value it looked for; a secret selector stays masked here
        said = (
            repr(selected)
            if reveal
            else shown_at_path(selected, proj.selected_by or "", secret_names)
        )
        lines.append(f"No selected catalog record for {proj.record_id_field}={said}.")
        return "\n".join(lines)
    header = str(
        proj.heading or catalog.get("description") or catalog.get("catalog_id") or "BUILD CONTEXT"
    )
    lines = [f"[{header.strip().upper()}]"]
    rules = catalog.get("global_rules")
    lines += (
        [f"- {str(r).strip()}" for r in rules if str(r).strip()] if isinstance(rules, list) else []
    )
    for record in records if isinstance(records, list) else ():
        if isinstance(record, Mapping):
            lines += _record_lines(record, detail=False)
    return "\n".join(lines)


def inject(
    registries: Sequence[Registry],
    agent: str,
    values: Mapping[str, Any],
    *,
    reveal: bool,
    secret_names: frozenset[str] = frozenset(),
) -> Injected:
    """The blocks the runtime inserts for ``agent`` from ``registries`` (all of them)."""
    notes: list[str] = []
    invalid = [r for r in registries if not r.valid]
    if invalid:
        first = invalid[0]
        return Injected(
            (),
            (
                f"nothing inserted: {first.display} is invalid, and the runtime's injection "
                "fails as a whole (the error is only logged)",
            ),
        )
    by_marker: dict[str, tuple[list[str], list[str]]] = {}
    for reg in registries:
        assert reg.model is not None
        for i, asset in enumerate(reg.model.assets):
            if asset.kind != "catalog":
                continue
            for j, proj in enumerate(asset.projections):
                if not (set(proj.recipients) & {agent, "*", "all"}):
                    continue
                label = f"{reg.loc(('assets', i, 'projections', j))} {proj.id} ({proj.render})"
                if not proj.marker:
                    notes.append(
                        f"{label}: skipped: the runtime skips a projection without a marker"
                    )
                    continue
                catalog = reg.assets[i].catalog if i < len(reg.assets) else None
                data = catalog.data if isinstance(catalog, Catalog) else None
                if not isinstance(data, Mapping):
                    return Injected(
                        (),
                        (
                            f"nothing inserted: {asset.path} is not a readable mapping, and the "
                            "runtime's injection fails as a whole",
                        ),
                    )
                shown = data if reveal else mask_value(data)
                bodies, sources = by_marker.setdefault(proj.marker, ([], []))
                bodies.append(
                    render_block(shown, proj, values, reveal=reveal, secret_names=secret_names)
                )
                sources.append(label)
    blocks = tuple((m, "\n\n".join(b), tuple(src)) for m, (b, src) in by_marker.items())
    return Injected(blocks, tuple(notes))


def runtime_injection(
    source: InjectionSource | None,
    agent: str,
    values: Mapping[str, Any],
    *,
    reveal: bool = False,
    secret_names: frozenset[str] = frozenset(),
) -> Injected:
    if source is None:
        return Injected((), (f"no prompt projections for {agent}: nothing was read for them",))
    runs, why = middleware_runs_injection(source, agent)
    if not runs:
        return Injected((), (f"no prompt projections for {agent}: {why}",))
    unknown = () if source.packaged else (PACKAGED_UNKNOWN,)
    if not source.registries:
        return Injected(
            (), ("no prompt projections: no registry under the reader's folders", *unknown)
        )
    injected = inject(source.registries, agent, values, reveal=reveal, secret_names=secret_names)
    return Injected(injected.blocks, (*injected.notes, *unknown))


#: said wherever the injection runs and the release's own registries cannot be read
PACKAGED_UNKNOWN = (
    "mozaiks 0.2.0 also reads its installed factory_app/build_context as a projection root, "
    "before the workspace's; flowctx cannot find that package here, so the projection may lack "
    f"what the runtime's own catalog adds (set {FACTORY_APP_ENV} to the installed factory_app "
    "folder to model it)"
)
