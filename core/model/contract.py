"""The context_variables.yaml contract (Mozaiks), as strict pydantic models.

Unknown fields are rejected at every level. Each definition is validated on its own so one bad
definition never hides the others; ``validation_diagnostics`` turns pydantic's error locations
into ``file:line:col`` with a did-you-mean for misspelt keys.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import PathKey, YamlDoc
from flowctx_core.model.validation import Strict, fields_of, located_errors

#: Type names seen in real files, with their canonical spelling.
TYPE_ALIASES = {
    "string": "string",
    "str": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "integer": "integer",
    "int": "integer",
    "number": "number",
    "float": "number",
    "object": "object",
    "dict": "object",
    "array": "array",
    "list": "array",
    "any": "any",
    "null": "null",
}


def _trigger_rules(info: ValidationInfo) -> bool:
    """Whether the runtime being reproduced checks trigger shapes (the validation context
    carries the profile's contract rules; without one, the newest runtime's rules apply)."""
    return bool((info.context or {}).get("trigger_rules", True))


class Match(Strict):
    equals: str | None = None
    contains: str | None = None
    regex: str | None = None

    @model_validator(mode="after")
    def _one_rule(self, info: ValidationInfo) -> Match:
        if not _trigger_rules(info):
            return self  # the older runtime's match model has no such rule
        if self.equals is None and self.contains is None and self.regex is None:
            raise ValueError("match needs at least one of equals, contains, regex")
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(f"invalid regex {self.regex!r}: {exc}") from None
        return self


class Trigger(Strict):
    type: Literal["agent_text", "user_text", "ui_response"]
    agent: str | None = None
    match: Match | None = None
    tool: str | None = None
    response_key: str | None = None
    ui_hidden: bool = False

    @model_validator(mode="after")
    def _rules(self, info: ValidationInfo) -> Trigger:
        allowed = (info.context or {}).get("trigger_types")
        if allowed is not None and self.type not in allowed:
            raise ValueError(
                f"trigger type '{self.type}' is not known to this runtime "
                f"(it accepts {', '.join(allowed)})"
            )
        if not _trigger_rules(info):
            return self
        if self.type == "agent_text" and (not self.agent or self.match is None):
            raise ValueError("an agent_text trigger needs 'agent' and 'match'")
        if self.type == "user_text" and self.match is None:
            raise ValueError("a user_text trigger needs 'match'")
        if self.type == "ui_response" and not self.tool:
            raise ValueError("a ui_response trigger needs 'tool'")
        return self


class ConfigSource(Strict):
    type: Literal["config"]
    env_var: str | None = None
    default: Any = None
    required: bool = False


class DataReferenceSource(Strict):
    type: Literal["data_reference"]
    database_name: str | None = None
    # optional in the runtime's model: without it the adapter fetches nothing (None)
    collection: str | None = None
    query_template: dict[str, Any] | None = None
    fields: list[str] | None = None
    default: Any = None
    refresh_strategy: str | None = None
    search_by: Any = None


class DataEntitySource(Strict):
    type: Literal["data_entity"]
    database_name: str | None = None
    # optional in the runtime's model: without it no manager is made and the key stays unset
    collection: str | None = None
    schema_: Any = Field(default=None, alias="schema")
    indexes: Any = None
    write_strategy: str | None = None
    search_by: Any = None
    refresh_strategy: str | None = None


class ComputedSource(Strict):
    type: Literal["computed"]
    computation: Any = None
    inputs: Any = None
    output_type: str | None = None
    persist_to: Any = None
    persist: Any = None
    default: Any = None


class StateSource(Strict):
    type: Literal["state"]
    default: Any = None
    triggers: list[Trigger] = Field(default_factory=list)
    persist: Any = None


class ExternalSource(Strict):
    type: Literal["external"]
    service: str | None = None
    operation: str | None = None
    params: Any = None
    auth: Any = None
    cache: Any = None
    retry: Any = None
    refresh_strategy: str | None = None
    default: Any = None


class FileSource(Strict):
    type: Literal["file"]
    path: str
    format: Literal["json", "yaml", "text"] = "json"
    encoding: str = "utf-8"
    required: bool = False
    default: Any = None


class BuildContextSource(Strict):
    type: Literal["build_context"]
    default: Any = None
    required: bool = False


class RuntimeSource(Strict):
    """A value the host passes in the launch's runtime context (mozaiks 0.2.0,
    mozaiksai/core/workflow/context/variables.py ``_load_context_async``): not documented, so
    only the profiles whose runtime reads it accept the type."""

    type: Literal["runtime"]
    required: bool = False


Source = Annotated[
    ConfigSource
    | DataReferenceSource
    | DataEntitySource
    | ComputedSource
    | StateSource
    | ExternalSource
    | FileSource
    | BuildContextSource
    | RuntimeSource,
    Field(discriminator="type"),
]

SOURCE_MODELS: dict[str, type[Strict]] = {
    "config": ConfigSource,
    "data_reference": DataReferenceSource,
    "data_entity": DataEntitySource,
    "computed": ComputedSource,
    "state": StateSource,
    "external": ExternalSource,
    "file": FileSource,
    "build_context": BuildContextSource,
    "runtime": RuntimeSource,
}


class Definition(Strict):
    type: str = "any"
    description: str | None = None
    source: Source
    authority_class: str | None = None
    model_visible: bool | None = None
    tool_visible: bool | None = None
    persisted: bool | None = None
    routing: Any = None
    authorization: Any = None
    writer_ids: list[str] | None = None
    immutable_runtime_authority: bool | None = None

    @property
    def canonical_type(self) -> str:
        return TYPE_ALIASES.get(self.type.strip().lower(), self.type)


class AgentView(Strict):
    variables: list[str] = Field(default_factory=list)


class ContractDocument(Strict):
    """The file as a whole, as the newest runtime reads it. ``parse_contract`` takes its keys
    from here and validates each definition and agent view on its own (one bad definition
    never hides the others); ``flowctx schema contract`` starts from this model and applies
    the runtime profile's rules (``flowctx_core.report.schemas``)."""

    definitions: dict[str, Definition] | None = None
    # an agent with no view (``Idle:``) exposes nothing
    agents: dict[str, AgentView | None] | None = None


ROOT_KEYS = tuple(fields_of(ContractDocument))


def validation_diagnostics(
    exc: ValidationError, doc: YamlDoc, base: PathKey, model: type[BaseModel], data: Any
) -> list[Diagnostic]:
    """pydantic errors as Diagnostics located by the YAML marks
    (``flowctx_core.model.validation``)."""
    return located_errors(exc, doc, base, model, data)


# --- the runtime's own field types ------------------------------------------------------------
# flowctx's models above are per source type and say which keys belong where; the runtime's
# loader has one source model with every field optional but typed. These two models hold only
# the types it enforces (text fields it normalises with str() are left out: any value passes).

RefreshStrategy = Literal["once", "per_phase", "on_demand"]
WriteStrategy = Literal["immediate", "on_phase_transition", "on_workflow_end"]
AuthorityClass = Literal[
    "immutable_runtime_authority",
    "closed_writer_routing_state",
    "closed_writer_quality_state",
    "mutable_workflow_state",
    "model_visible_information",
    "tool_only_information",
    "derived_information",
]
WriterId = Literal[
    "runtime_system",
    "caller_input",
    "transition_router",
    "live_user_context",
    "context_bridge",
    "tool_writeback",
    "agent_text",
    "ui_response_trigger",
    "user_text_trigger",
    "persisted_replay",
    "task_batch",
    "structured_output",
    "lifecycle_tool",
    "deterministic_tool",
    # mozaiks 0.2.0, mozaiksai/core/workflow/context/authority.py: an exact ``equals``
    # agent_text trigger mapped to a fixed value
    "sentinel_text_trigger",
]


class RuntimeSourceTypes(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, defer_build=True)

    required: bool | None = None
    query_template: dict[str, Any] | None = None
    fields: list[str] | None = None
    refresh_strategy: RefreshStrategy | None = None
    entity_schema: dict[str, Any] | None = Field(default=None, alias="schema")
    indexes: list[dict[str, Any]] | None = None
    write_strategy: WriteStrategy | None = None
    inputs: list[str] | None = None
    persist_to: dict[str, Any] | None = None
    persist: bool | None = None
    params: dict[str, Any] | None = None
    auth: dict[str, Any] | None = None
    cache: dict[str, Any] | None = None
    retry: dict[str, Any] | None = None
    format: Literal["json", "yaml", "text"] | None = None


class RuntimeDefinitionTypes(BaseModel):
    """The definition-level authority metadata of the newest runtime."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    authority_class: AuthorityClass | None = None
    model_visible: bool | None = None
    tool_visible: bool | None = None
    persisted: bool | None = None
    routing: bool | None = None
    authorization: bool | None = None
    writer_ids: list[WriterId] = Field(default_factory=list)
