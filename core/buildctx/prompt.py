"""Prompt projections: the text a registry's catalog assets insert at an agent's prompt
markers (rendered for ``flowctx_core.runtime.exposure``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from flowctx_core.base.secrets import mask_value, shown_at_path
from flowctx_core.buildctx.projection import dig, is_missing
from flowctx_core.buildctx.registry import Catalog, Registry

if TYPE_CHECKING:
    from flowctx_core.buildctx.registry_model import PromptProjection


def catalog_records(
    catalog: Catalog, projection: PromptProjection, display: str
) -> tuple[list[Any] | None, str | None]:
    """The projection's records list, or why there is none."""
    if catalog.problem is not None:
        return None, catalog.problem.format()
    data = catalog.data
    records = dig(data, projection.records_key) if isinstance(data, Mapping) else None
    if records is None or is_missing(records):
        return None, f"{display}: no '{projection.records_key}' key"
    if not isinstance(records, list):
        return None, f"{display}: '{projection.records_key}' is not a list of records"
    return records, None


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
    agent: str,
    values: Mapping[str, Any],
    *,
    reveal: bool = False,
    secret_names: frozenset[str] = frozenset(),
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
            catalog = reg.assets[i].catalog or Catalog(None)
            for j, proj in wanted:
                where = reg.loc(("assets", i, "projections", j))
                label = f"{where} {proj.id} ({proj.render})"
                if not proj.marker:
                    # inject_build_context_projections skips a projection without a marker
                    notes.append(
                        f"{label}: nothing inserted: the runtime skips a projection "
                        "without a marker"
                    )
                    continue
                records, why = catalog_records(catalog, proj, asset.path)
                if records is None:
                    notes.append(f"{label}: nothing inserted: {why}")
                    continue
                if not reveal:
                    records = [mask_value(r) for r in records]
                # any render other than selected_record (summary, full) renders a summary
                if proj.render != "selected_record":
                    body = "\n".join(_summary_line(r, proj.record_id_field) for r in records)
                else:
                    assert proj.selected_by is not None
                    selected = dig(values, proj.selected_by)
                    if is_missing(selected) or selected is None:
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
                    said = (
                        repr(selected)
                        if reveal
                        else shown_at_path(selected, proj.selected_by, secret_names)
                    )
                    if match is None:
                        notes.append(
                            f"{label}: nothing inserted: no record in {proj.records_key} has "
                            f"{proj.record_id_field} = {said} ({proj.selected_by})"
                        )
                        continue
                    body = _record_text(match)
                    label += f" {proj.record_id_field}={said} from {proj.selected_by}"
                bodies, sources = by_marker.setdefault(proj.marker_name, ([], []))
                bodies.append(body)
                sources.append(label)
    blocks = [
        PromptBlock(marker, f"[{marker}]\n" + "\n\n".join(bodies) + f"\n[/{marker}]", tuple(src))
        for marker, (bodies, src) in by_marker.items()
    ]
    return blocks, notes
