"""Build-context projected values: what a projection gives one variable (``Projected``), what
build context did for a workflow at launch (``BuildContextProjection``), and how a projected
value fits the variable's declared type.

Plain data shared by the projection (``projection``), the newest runtime's provider
(``provider``), the ``build_context`` source (``flowctx_core.sources.build_context``) and the
matrix that carries it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.buildctx.injection import InjectionSource
from flowctx_core.buildctx.registry import Registry
from flowctx_core.buildctx.setting import BuildContextSetting
from flowctx_core.model.matrix import Refusal, TraceStep
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot


@dataclass(frozen=True)
class Projected:
    """A value projected into one variable, with where it came from."""

    value: Any
    origin: str
    trace: tuple[TraceStep, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class BuildContextProjection:
    """Everything build context did for one workflow at launch."""

    setting: BuildContextSetting
    registries: tuple[Registry, ...] = ()
    #: the registries that apply to the workflow and were admitted (valid, no undeclared keys)
    admitted: tuple[Registry, ...] = ()
    values: Mapping[str, Projected] = field(default_factory=dict)
    #: variables that failed (conflicting projections, a refused registry naming them)
    errors: Mapping[str, Projected] = field(default_factory=dict)
    #: why a declared variable got nothing
    reasons: Mapping[str, Projected] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: tuple[str, ...] = ()
    #: the runtime's provider raises (BuildContextError): the launch fails as a whole
    refused: Refusal | None = None
    #: projections into declared variables that are not build_context: the runtime merges
    #: them into the launch context (explicit launch values still win)
    launch_values: Mapping[str, Projected] = field(default_factory=dict)
    #: what the runtime's prompt injection reads for this workflow (from the snapshot)
    injection: InjectionSource | None = None

    def explain(self, name: str) -> Projected:
        for table in (self.errors, self.values, self.reasons):
            if name in table:
                return table[name]
        why = self._why_nothing()
        return Projected(
            None, f"build_context: {why}", (TraceStep("build context", "skipped", why),)
        )

    def _why_nothing(self) -> str:
        if not self.setting.enabled:
            return "provider off"
        if self.setting.root is None:
            return "no registry root"
        if not self.admitted:
            return "no applicable registry"
        return "no projection for this variable"


def build_context_names(workflow: WorkflowSnapshot) -> dict[str, str | None]:
    """Declared variable -> its source type (raw, so a broken definition still counts)."""
    specs = workflow.variables
    types = workflow.per_item("declared source type", specs, None, _source_type)
    return dict(zip(map(_NAME, specs), types, strict=True))


_NAME = attrgetter("name")


def _source_type(spec: VariableSpec) -> str | None:
    if spec.definition is not None:
        return spec.definition.source.type  # type: ignore[no-any-return]
    src = spec.raw.get("source") if isinstance(spec.raw, dict) else None
    return src.get("type") if isinstance(src, dict) else None


def type_warning(value: Any, declared: str) -> str | None:
    expected: dict[str, tuple[type, ...]] = {
        "array": (list, tuple),
        "object": (dict,),
        "string": (str,),
        "boolean": (bool,),
        "integer": (int,),
        "number": (int, float),
    }
    kinds = expected.get(declared)
    if value is None or kinds is None:
        return None
    if isinstance(value, bool) and declared in ("integer", "number"):
        return f"projected a boolean, declared {declared}"
    if not isinstance(value, kinds):
        return f"projected a {type(value).__name__}, declared {declared}"
    return None


#: the declared ``type`` spellings the runtime checks a protected value against, and what
#: each admits (authority.py ``_is_valid_context_value``); any other spelling admits anything
_RUNTIME_TYPES: dict[str, tuple[str, tuple[type, ...]]] = {
    "string": ("a string", (str,)),
    "str": ("a string", (str,)),
    "boolean": ("a boolean", (bool,)),
    "bool": ("a boolean", (bool,)),
    "integer": ("an integer", (int,)),
    "int": ("an integer", (int,)),
    "number": ("a number", (int, float)),
    "float": ("a number", (int, float)),
    "object": ("a mapping", (Mapping,)),
    "dict": ("a mapping", (Mapping,)),
    "map": ("a mapping", (Mapping,)),
    "array": ("a list", (list,)),
    "list": ("a list", (list,)),
}


def runtime_type_misfit(value: Any, declared: str | None) -> str | None:
    """Why the runtime's type check refuses ``value`` for a variable declared ``declared``.

    The runtime reads the definition's ``type`` lowercased and knows only its own spellings
    (an unknown one, ``any`` or none admit every value); a boolean is never an integer or a
    number for it, and a tuple is not a list.
    """
    key = (declared or "").strip().lower()
    if value is None or key not in _RUNTIME_TYPES:
        return None
    wanted, kinds = _RUNTIME_TYPES[key]
    is_bool = isinstance(value, bool)
    if isinstance(value, kinds) and not (is_bool and bool not in kinds):
        return None
    got = "a boolean" if is_bool else f"a {_yaml_kind(value)}"
    return (
        f"the registry gives {got}, the contract declares type {declared!r}, which needs {wanted}"
    )


def _yaml_kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return type(value).__name__
