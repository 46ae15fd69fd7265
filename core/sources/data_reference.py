"""``data_reference``: the newest matching document, then ``default``, then the fallbacks file.

Placeholders are replaced only where a whole string value is one placeholder:
``{{runtime.app_id}}``, ``{{runtime.<key>}}`` (launch/runtime values), ``{{var.path}}`` (a dotted
walk through the context resolved so far).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from itertools import chain, compress
from operator import itemgetter
from typing import Any

from flowctx_core.base.gcpause import gc_resumed
from flowctx_core.base.secrets import (
    MASK,
    is_secret_key,
    mask_value,
    masked_leaves,
    scrub,
    secret_strings,
)
from flowctx_core.model.database import DEFAULT_DATABASE, DatabaseError
from flowctx_core.model.inputs import PROCESS_ORIGIN
from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources.base import Resolved, SourceContext

_PLACEHOLDER = re.compile(r"^\{\{\s*([A-Za-z_][\w.]*)\s*\}\}$")
_MISSING = object()


def _walk(value: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return _MISSING
    return value


def template_reads(template: Any) -> list[tuple[str, ...]]:
    """The paths the filter's placeholders read (``("api_token",)``, ``("runtime",
    "app_id")``), in order."""
    found: list[tuple[str, ...]] = []
    stack: list[tuple[Any, int]] = [(template, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > 60:
            continue
        if isinstance(value, str):
            m = _PLACEHOLDER.match(value)
            if m:
                found.append(tuple(m.group(1).split(".")))
        elif isinstance(value, Mapping):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return found


def reads_secret(template: Any, secret_names: Collection[str]) -> bool:
    """Whether the filter's placeholders read a secret: a variable of ``secret_names`` or
    through a secret-looking key (``{{runtime.api_token}}``)."""
    for path in template_reads(template):
        read = path[1:] if path[0] == "runtime" else path
        if (path[0] != "runtime" and path[0] in secret_names) or any(
            is_secret_key(p) for p in read
        ):
            return True
    return False


def from_the_process(row: Any) -> bool:
    """Whether a row's value was read from the process's own environment (its trace says so:
    ``env X (process env)``), not from the workspace, a test case or a typed ``--env``."""
    said = f"({PROCESS_ORIGIN})"
    return any(step.outcome == "used" and step.detail.endswith(said) for step in row.trace)


def looked_up_with_a_secret(rows: Iterable[Any], per_item: Any = None) -> set[str]:
    """The names of the rows (``flowctx_core.model.matrix.Row``) that a data_reference filter
    reading a secret resolved (``flowctx_core.resolve`` marks them secret): whether, where and
    how they found a record depends on the secret's value (a filter of ``$lt`` bounds bisects
    a key), so neither their status nor what follows from it may be told. ``per_item`` (a
    workflow snapshot's) keeps what is read of each row for the next matrix."""
    rows = rows if isinstance(rows, (list, tuple)) else list(rows)
    facts = (
        per_item("secret rows", rows, None, _secret_facts)
        if per_item is not None
        else [_secret_facts(r) for r in rows]
    )
    secret = set(chain.from_iterable(map(itemgetter(0), facts)))
    out: set[str] = set()
    for row in compress(rows, map(itemgetter(1), facts)):
        source = row.definition.get("source") if isinstance(row.definition, dict) else None
        template = source.get("query_template") if isinstance(source, dict) else None
        if template and reads_secret(template, secret - {row.name}):
            out.add(row.name)
    return out


def _secret_facts(row: Any) -> tuple[tuple[str, ...], bool]:
    """(the row's name when it is a secret or read from the process's environment, whether it
    is a secret data_reference with a filter)."""
    if not row.secret:
        return ((row.name,) if from_the_process(row) else ()), False
    if row.source != "data_reference":
        return (row.name,), False
    source = row.definition.get("source") if isinstance(row.definition, dict) else None
    template = source.get("query_template") if isinstance(source, dict) else None
    return (row.name,), bool(template)


def render_query(
    template: Any,
    launch: Mapping[str, Any],
    values: Mapping[str, Any],
    unresolved: list[str],
    secret_names: frozenset[str] | None = None,
) -> Any:
    """The filter with whole-string placeholders replaced; names that found nothing are listed.

    With ``secret_names`` it renders the filter for display: a placeholder that reads a
    secret variable (or a secret-looking key on its path) shows as ``***``.
    """
    if isinstance(template, str):
        m = _PLACEHOLDER.match(template)
        if not m:
            return template
        dotted = m.group(1)
        parts = dotted.split(".")
        if parts[0] == "runtime":
            found = _walk(launch, parts[1:])
        else:
            found = _walk(values, parts)
        if found is _MISSING:
            unresolved.append(dotted)
            return None
        if secret_names is not None and (
            parts[0] in secret_names or any(is_secret_key(p) for p in parts)
        ):
            return MASK
        return found
    if isinstance(template, Mapping):
        return {
            k: render_query(v, launch, values, unresolved, secret_names)
            for k, v in template.items()
        }
    if isinstance(template, list):
        return [render_query(v, launch, values, unresolved, secret_names) for v in template]
    return template


#: what the origin says of a value masked because of the field it came from
SECRET_FIELD_REASON = "masked: the field name looks secret"


def secret_field(source: Any) -> str | None:
    """The one field a ``data_reference`` unwraps into the variable, when its name looks secret.

    ``fields: [api_secret]`` makes the variable the field's value itself, under whatever name
    the variable has: the secret travels by where it came from, not by what it is called now.
    """
    if getattr(source, "type", None) != "data_reference":
        return None
    fields = getattr(source, "fields", None)
    if not fields or len(fields) != 1:
        return None  # several fields stay a document whose secret-looking keys mask themselves
    name = str(fields[0])
    return name if any(is_secret_key(part) for part in name.split(".")) else None


def _compact(value: Any) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    trace: list[TraceStep] = []
    warnings: list[str] = []
    db_name = src.database_name or DEFAULT_DATABASE
    where = f"{db_name}.{src.collection}"
    template = src.query_template if src.query_template else {"app_id": "{{runtime.app_id}}"}
    unresolved: list[str] = []
    query = render_query(template, ctx.inputs.launch, ctx.values, unresolved)
    if unresolved:
        warnings.append(
            "placeholder(s) with no value: " + ", ".join(f"{{{{{u}}}}}" for u in unresolved)
        )
    fields = list(src.fields) if src.fields else None
    shown = mask_value(render_query(template, ctx.inputs.launch, ctx.values, [], ctx.secret_names))
    detail = f"{where} find {_compact(shown)}"
    if fields:
        detail += f" fields {fields}"
    detail += " sort _id desc limit 1"

    value: Any = None
    found = False
    db = ctx.inputs.database
    skipped = _adapter_skips(ctx)
    if skipped:
        trace.append(TraceStep("database", "skipped", skipped))
        warnings.append(skipped)
    elif db is None:
        trace.append(TraceStep("database", "skipped", f"{detail}: {ctx.inputs.database_note}"))
    else:
        try:
            with gc_resumed():  # the query's cycles are collected as it makes them
                doc = db.find_newest(db_name, src.collection or "", query, fields)
        except DatabaseError as exc:
            # the driver quotes the filter value it choked on, a secret placeholder's included
            said = scrub(str(exc), masked_leaves(query, shown) | secret_strings(query))
            trace.append(TraceStep("database", "error", f"{detail}: {said}"))
            warnings.append(f"database error: {said}")
        else:
            if doc is None:
                trace.append(
                    TraceStep("database", "missing", f"{detail}: no document ({db.label})")
                )
            else:
                found = True
                # the loader drops _id from every document it returns, projected or whole
                doc = {k: v for k, v in doc.items() if k != "_id"}
                value = doc.get(fields[0]) if fields and len(fields) == 1 else doc
                trace.append(TraceStep("database", "used", f"{detail} ({db.label})"))

    if found and value is not None:
        if src.default is not None:
            trace.append(TraceStep("default", "shadowed", "default shadowed by the document"))
        _shadow_fallbacks(ctx, trace)
        origin = f"db {where}"
        tainted = secret_field(src)
        if tainted is not None:
            origin += f" field '{tainted}' ({SECRET_FIELD_REASON})"
        return Resolved(value, "resolved", origin, trace, warnings)

    if found:
        # a document matched but the projected field is null: the runtime does not use default
        # here (it only does when no document matches), so fallbacks are consulted next
        trace.append(TraceStep("default", "skipped", "a document matched; its field is null"))
    elif src.default is not None:
        trace.append(TraceStep("default", "used", "source.default (no document)"))
        _shadow_fallbacks(ctx, trace)
        return Resolved(src.default, "default", "default", trace, warnings)
    else:
        trace.append(TraceStep("default", "missing", "no default declared"))

    if not ctx.inputs.runtime.sources.data_reference_fallbacks:
        trace.append(
            TraceStep(
                "fallbacks",
                "skipped",
                f"runtime {ctx.inputs.runtime.name} has no fallbacks file",
            )
        )
        return Resolved(None, "missing", "None (no document or default)", trace, warnings)
    hit, fb_value, steps = ctx.fallbacks.lookup(ctx.workflow.name, ctx.name)
    trace.extend(steps)
    if ctx.fallbacks.warning and ctx.fallbacks.display:
        warnings.append(ctx.fallbacks.warning)
    if hit:
        origin = next(s.detail for s in steps if s.outcome == "used")
        return Resolved(fb_value, "fallback", origin, trace, warnings)
    return Resolved(None, "missing", "None (no document, default or fallback)", trace, warnings)


def _adapter_skips(ctx: SourceContext) -> str | None:
    """Why the shipped Mongo adapter returns None without querying (None when it queries)."""
    src = ctx.source
    if not src.database_name and ctx.inputs.runtime.sources.data_reference_needs_database_name:
        # it never falls back to a database called 'default'
        return (
            "no database_name: the runtime's Mongo adapter skips the fetch and returns None "
            f"(runtime {ctx.inputs.runtime.name})"
        )
    if not src.collection:
        return "no collection: the runtime's Mongo adapter skips the fetch and returns None"
    return None


def _shadow_fallbacks(ctx: SourceContext, trace: list[TraceStep]) -> None:
    """Mark an existing fallback for this variable as shadowed, so authors see why it is unused."""
    hit, _value, steps = ctx.fallbacks.lookup(ctx.workflow.name, ctx.name)
    if hit:
        used = next(s for s in steps if s.outcome == "used")
        trace.append(
            TraceStep(used.step, "shadowed", used.detail + " (not consulted: value found)")
        )
