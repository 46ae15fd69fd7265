"""One strict pydantic base, and pydantic's errors as located diagnostics, for every model
family (the contract, build-context registries, routing files).

``located_errors`` turns each ``ValidationError`` entry into a ``file:line:col`` Diagnostic from
the YAML marks, with a did-you-mean for a misspelt key computed from the model that is valid
where the key stands (found by walking the model's fields alongside the data, discriminated
unions included). The families word a few messages differently; ``Wording`` says how.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

from flowctx_core.base.diagnostics import Diagnostic, Fix, did_you_mean, suggest
from flowctx_core.base.yamlmarks import PathKey, YamlDoc

_VALUE_ERROR = "Value error, "


class Strict(BaseModel):
    """Unknown fields rejected at every level; parsed models never change.

    ``defer_build``: a model's validator is built on its first use, not at import, so a
    command pays only for the model families its files need (start-up time).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    #: unknown keys with a better message than did-you-mean: key -> explanation
    KEY_HINTS: ClassVar[dict[str, str]] = {}
    #: of those, the ones whose right spelling is known: key -> the key to write instead
    KEY_FIXES: ClassVar[dict[str, str]] = {}


@dataclass(frozen=True)
class Wording:
    """How a model family words its messages (kept as each family's users know them)."""

    #: "unknown field 'x'" rather than "unknown field"
    quote_key: bool = False
    #: a rejected scalar is quoted after the message: "... (got 3)"
    show_input: bool = False
    #: a Literal mismatch reads "'x' is not allowed; expected 'a' or 'b'" with did-you-mean
    literal_choices: bool = False


def fields_of(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """The keys a model accepts (aliases as written in YAML) and their fields."""
    return {(f.alias or name): f for name, f in model.model_fields.items()}


def _discriminator(field: FieldInfo | None) -> str | None:
    found = field.discriminator if field is not None else None
    return found if isinstance(found, str) else None


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models inside an annotation (``X | None``, ``list[X]``, ``Annotated``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _models_in(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType, list, tuple, dict):
        out: list[type[BaseModel]] = []
        for arg in typing.get_args(annotation):
            out.extend(_models_in(arg))
        return out
    return []


def _tag_of(model: type[BaseModel], field: str) -> tuple[str, ...]:
    annotation = model.model_fields[field].annotation if field in model.model_fields else None
    return tuple(str(a) for a in typing.get_args(annotation))


def union_tags(field: FieldInfo | None) -> dict[str, type[BaseModel]]:
    """A discriminated union field's tag -> member model (empty for any other field)."""
    key = _discriminator(field)
    if field is None or key is None:
        return {}
    return {tag: m for m in _models_in(field.annotation) for tag in _tag_of(m, key)}


def _walk(
    model: type[BaseModel], loc: Sequence[Any], data: Any
) -> tuple[tuple[Any, ...], type[BaseModel] | None]:
    """``loc`` without the union tags pydantic inserts, and the model its last key is in."""
    current: type[BaseModel] | None = model
    node = data
    kept: list[Any] = []
    tags: dict[str, type[BaseModel]] = {}
    for i, part in enumerate(loc):
        if isinstance(part, str) and part in tags:
            # a discriminated union adds the tag ('config') to the location: not a YAML key
            current, tags = tags[part], {}
            continue
        kept.append(part)
        if i == len(loc) - 1:
            break
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
        if isinstance(part, int) or current is None:
            continue
        field = fields_of(current).get(part)
        tags = union_tags(field)
        if tags:
            tag = node.get(_discriminator(field) or "") if isinstance(node, dict) else None
            current = tags.get(tag) if isinstance(tag, str) else None
        else:
            models = _models_in(field.annotation) if field is not None else []
            current = models[0] if models else None
    return tuple(kept), current


def _clean(msg: str) -> str:
    return msg.removeprefix(_VALUE_ERROR)


def _literal_options(expected: str) -> list[str]:
    return [part.strip().strip("'") for part in expected.replace(" or ", ",").split(",") if part]


def located_errors(
    exc: ValidationError,
    doc: YamlDoc,
    base: PathKey,
    model: type[BaseModel],
    data: Any = None,
    wording: Wording = Wording(),
) -> list[Diagnostic]:
    """pydantic errors as Diagnostics at the YAML marks, with did-you-mean for unknown keys.

    ``base`` is where the validated ``data`` sits in the document.
    """
    out: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        loc, here = _walk(model, tuple(err["loc"]), data)
        path = (*base, *loc)
        kind = err["type"]
        given = err.get("input")
        if kind == "extra_forbidden":
            key = str(loc[-1]) if loc else ""
            explained = getattr(here, "KEY_HINTS", {}).get(key)
            fix = None
            if explained:
                hint = f": {explained}"
                right = getattr(here, "KEY_FIXES", {}).get(key)
                fix = Fix(key, right) if right else None
            else:
                hint, fix = suggest(key, list(fields_of(here)) if here is not None else [])
            name = f" '{key}'" if wording.quote_key else ""
            out.append(doc.diag(path, f"unknown field{name}{hint}", key=True, fix=fix))
        elif kind == "missing":
            out.append(doc.diag(path[:-1], f"missing required field '{loc[-1]}'", key=True))
        elif kind == "union_tag_invalid":
            tags = list(union_tags(fields_of(here).get(loc[-1])) if here and loc else [])
            tag = given.get("type") if isinstance(given, dict) else None
            hint, fix = suggest(str(tag), tags) if tag is not None else ("", None)
            fix = fix if isinstance(tag, str) else None  # only written text can be replaced
            out.append(
                doc.diag(
                    (*path, "type"),
                    f"unknown {loc[-1]} type {tag!r}{hint}; expected one of {', '.join(tags)}",
                    key=False,
                    fix=fix,
                )
            )
        elif kind == "union_tag_not_found":
            out.append(doc.diag(path, "missing required field 'type'", key=True))
            # without a type no member model applies, so a misspelt 'type' key would otherwise
            # go unreported: name it, as for any other unknown field
            for k in given if isinstance(given, dict) else ():
                if k != "type" and did_you_mean(str(k), ["type"]):
                    hint, fix = suggest(str(k), ["type"])
                    out.append(doc.diag((*path, k), f"unknown field{hint}", key=True, fix=fix))
        elif kind == "literal_error" and wording.literal_choices:
            expected = err.get("ctx", {}).get("expected", "")
            hint, fix = suggest(str(given), _literal_options(expected)) if given else ("", None)
            fix = fix if isinstance(given, str) else None
            message = f"{given!r} is not allowed{hint}; expected {expected}"
            out.append(doc.diag(path, message, key=False, fix=fix))
        else:
            msg = err["msg"]
            if msg.startswith(_VALUE_ERROR):
                msg = _clean(msg)
            elif wording.show_input and "input" in err and not isinstance(given, (dict, list)):
                msg = f"{msg} (got {given!r})"
            # a validator that knows the correction raised it with its fix
            raised = err.get("ctx", {}).get("error")
            out.append(doc.diag(path, msg, key=False, fix=getattr(raised, "fix", None)))
    return out
